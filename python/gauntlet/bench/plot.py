"""The plot of `make bench`: time and peak memory per model per importer.

usage: bench_plot.py RESULTS_JSON OUT_PNG

Two panels of grouped bars on log scales (the importers differ by orders of magnitude):
median wall time with min-max whiskers, and peak resident size of the process.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

MODELS = ["big", "big-external", "wide", "reversed", "backend"]
IMPORTERS = [("ours-map", "#1f77b4"), ("ours-read", "#6baed6"), ("ours-plain-map", "#9ecae1"),
             ("protozero", "#7f7f7f"), ("protobuf", "#d62728"), ("protobuf-arena", "#ff9896"),
             ("python", "#2ca02c")]


def main(argv: list) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[0]) as f:
        res = json.load(f)
    models = [m for m in MODELS if m in res["models"]]
    fig, (ax_t, ax_m) = plt.subplots(2, 1, figsize=(11, 8), sharex=True)
    width = 0.8 / len(IMPORTERS)
    for k, (imp, color) in enumerate(IMPORTERS):
        xs, med, lo, hi, peak = [], [], [], [], []
        for i, m in enumerate(models):
            r = res["models"][m]["results"].get(imp)
            if not r or "error" in r:
                continue
            xs.append(i - 0.4 + width * (k + 0.5))
            med.append(r["median"] * 1e3)
            lo.append((r["median"] - r["min"]) * 1e3)
            hi.append((r["max"] - r["median"]) * 1e3)
            peak.append(r["peak_rss_kib"] / 1024)
        if not xs:
            continue
        ax_t.bar(xs, med, width, yerr=[lo, hi], color=color, label=imp, capsize=2)
        ax_m.bar(xs, peak, width, color=color, label=imp)
    ax_t.set_yscale("log")
    ax_t.set_ylabel("wall time, ms (median, min-max)")
    ax_m.set_yscale("log")
    ax_m.set_ylabel("peak resident size, MiB")
    ax_m.set_xticks(range(len(models)))
    ax_m.set_xticklabels(models)
    ax_t.legend(ncol=len(IMPORTERS), fontsize=8, loc="upper center", bbox_to_anchor=(0.5, 1.15))
    for ax in (ax_t, ax_m):
        ax.grid(axis="y", which="both", alpha=0.3)
    mc = res["machine"]
    fig.suptitle(f"onnximport vs libprotobuf vs onnx.load - {mc['cpu']}, {mc['cores']} cores, "
                 f"Linux {mc['kernel']}, {res['date']}", fontsize=9, y=0.995)
    fig.tight_layout()
    fig.savefig(argv[1], dpi=100)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
