"""The plot of `make bench`: time and peak memory per model per importer.

usage: bench_plot.py RESULTS_JSON OUT_PNG

Two panels of grouped bars on log scales (the importers differ by orders of magnitude):
median wall time with min-max whiskers, and peak resident size of the process. Like with like,
as the table: first what parses bytes already in memory (ours-memory, libprotobuf's
ParseFromArray and its Arena parse, the protozero walk), then what opens the file inside the clock
(ours-map, ours-read, ours-plain-map, libprotobuf's map + parse), then onnx.load.
"""
import json
import sys

MODELS = ["big", "big-external", "wide", "reversed", "backend", "chain", "chain-reversed"]
FROM_MEMORY = [("ours-memory", "#08519c"), ("protobuf", "#d62728"), ("protobuf-arena", "#ff9896"),
               ("protozero", "#7f7f7f")]
FROM_FILES = [("ours-map", "#1f77b4"), ("ours-read", "#6baed6"), ("ours-plain-map", "#9ecae1"),
              ("protobuf map+parse", "#a50f15")]
IMPORTERS = FROM_MEMORY + FROM_FILES + [("python", "#2ca02c")]


def bar(results, name):
    """(median, min, max, peak MiB or None) of one importer's row in seconds, or None when it did not
    run. libprotobuf's map + parse is its row's times with the mapping (total_times): the same process
    as its parse, so it has no peak of its own."""
    if name == "protobuf map+parse":
        r = results.get("protobuf")
        if not r or "error" in r or not r.get("total_times"):
            return None
        return r["median_total"], min(r["total_times"]), max(r["total_times"]), None
    r = results.get(name)
    if not r or "error" in r:
        return None
    return r["median"], r["min"], r["max"], r["peak_rss_kib"] / 1024


def series(res):
    """The models the results hold, in plot order, and per importer the bars it draws:
    {name: [(model position, median, min, max, peak), ...]}."""
    models = [m for m in MODELS if m in res["models"]]
    drawn = {}
    for name, _color in IMPORTERS:
        for i, m in enumerate(models):
            b = bar(res["models"][m]["results"], name)
            if b:
                drawn.setdefault(name, []).append((i, *b))
    return models, drawn


def draw(res, out_png):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    models, drawn = series(res)
    fig, (ax_t, ax_m) = plt.subplots(2, 1, figsize=(13, 8), sharex=True)
    width = 0.8 / len(IMPORTERS)
    for k, (name, color) in enumerate(IMPORTERS):
        bars = drawn.get(name, [])
        xs = [i - 0.4 + width * (k + 0.5) for i, *_ in bars]
        med = [b[1] * 1e3 for b in bars]
        whiskers = [[(b[1] - b[2]) * 1e3 for b in bars], [(b[3] - b[1]) * 1e3 for b in bars]]
        if bars:
            ax_t.bar(xs, med, width, yerr=whiskers, color=color, label=name, capsize=2)
        peaks = [(x, b[4]) for x, b in zip(xs, bars) if b[4] is not None]
        if peaks:
            ax_m.bar([x for x, _ in peaks], [p for _, p in peaks], width, color=color, label=name)
    ax_t.set_yscale("log")
    ax_t.set_ylabel("wall time, ms (median, min-max)")
    ax_m.set_yscale("log")
    ax_m.set_ylabel("peak resident size, MiB")
    ax_m.set_xticks(range(len(models)))
    ax_m.set_xticklabels(models)
    ax_t.legend(ncol=len(IMPORTERS) // 2 + 1, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, 1.22))
    for ax in (ax_t, ax_m):
        ax.grid(axis="y", which="both", alpha=0.3)
    mc = res["machine"]
    fig.suptitle(f"onnximport vs libprotobuf vs onnx.load, from memory then from the file - {mc['cpu']}, "
                 f"{mc['cores']} cores, Linux {mc['kernel']}, {res['date']}", fontsize=9, y=0.995)
    fig.tight_layout()
    fig.savefig(out_png, dpi=100)


def main(argv: list) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[0]) as f:
        draw(json.load(f), argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
