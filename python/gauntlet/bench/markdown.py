"""results.md of `make bench` (docs/perf.md when published): the machine and the command,
one table per kind of row, the notes on each importer and the targets."""
from gauntlet.bench import fuzz as bench_fuzz
from gauntlet.bench import ort_shared
from gauntlet.bench.plan import MORE_ROUNDS, ROUNDS, TABLE_MODELS

MiB = 1024 * 1024


def fmt_ms(r: dict) -> str:
    return f"{r['median'] * 1e3:.1f} ({r['min'] * 1e3:.1f}-{r['max'] * 1e3:.1f})"


def more_rounds() -> str:
    return ", ".join(f"{model} {n}" for model, n in MORE_ROUNDS.items())


def header(res: dict) -> list:
    mc = res["machine"]
    return [
        f"Machine: {mc['cpu']}, {mc['cores']} cores, {mc['mem_mib']} MiB, Linux {mc['kernel']}; "
        f"load average {res['load_before']} before, {res['load_after']} after; {res['date']}.",
        f"Command: `{res['command']}`. Median of the runs of each row: {-(-res['repeat'] // ROUNDS)} in each of "
        f"{ROUNDS} child processes that take turns with the other rows of the model, each after a warm-up "
        f"(onnx.load: one child); more children where they are short ({more_rounds()}).",
        "Like with like: `protobuf / ours` divides libprotobuf's map + parse (row `protobuf map+parse`) by our rows "
        "that open the file inside the clock (`ours-map`, `ours-read`, ...), and its `ParseFromArray` of bytes in "
        "memory (row `protobuf`) by `ours-memory` (`import_bytes`, one Workspace) and the protozero walk.",
    ]


def importer_lines(name: str, imp: str, r: dict) -> list:
    """A model's row for one importer; libprotobuf's has its map + parse row before it."""
    if "error" in r:
        return [f"| {name} | {imp} | error: {r['error'][:80]} | | | | | | | |"]
    lines = []
    heap = "-" if r.get("heap_bytes") is None else f"{r['heap_bytes'] / MiB:.2f}"
    tp = r.get("time_ratio_protobuf")
    tpy = r.get("time_ratio_python")
    pk = r.get("peak_ratio_protobuf")
    fail = f" ({r['failed']} refused)" if r.get("failed") else ""
    if imp == "protobuf" and r.get("total_times"):
        # The same child's mapping of the file plus the parse.
        tot = sorted(r["total_times"])
        lines.append(f"| {name} | protobuf map+parse | {r['median_total'] * 1e3:.1f} "
                     f"({tot[0] * 1e3:.1f}-{tot[-1] * 1e3:.1f}) | (same process) | | | | | | |")
    lines.append(
        f"| {name} | {imp}{fail} | {fmt_ms(r)} | {r['peak_rss_kib'] / 1024:.1f} "
        f"({r['peak_above_baseline_kib'] / 1024:.1f}) | {r['rss_after_kib'] / 1024:.1f} | {heap} | "
        f"{'-' if tp is None else f'{tp:.1f}x'} | {'-' if tpy is None else f'{tpy:.1f}x'} | "
        f"{'-' if pk is None else f'{pk:.2f}'} | {r['metadata_mb_per_s']:.0f} |")
    return lines


def model_table(res: dict) -> list:
    lines = ["", "| model | importer | time ms, median (min-max) | peak RSS MiB (above baseline) "
             "| RSS after import MiB | heap MiB | protobuf / ours | python / ours | peak vs protobuf | metadata MB/s |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name in TABLE_MODELS:
        m = res["models"].get(name)
        if not m:
            continue
        for imp, r in m["results"].items():
            lines += importer_lines(name, imp, r)
    return lines


def cold_table(res: dict) -> list:
    cold_rows = [(name, imp, r) for name in TABLE_MODELS
                 for imp, r in res["models"].get(name, {}).get("cold", {}).items()]
    if not cold_rows:
        return []
    lines = ["", f"Cold: the first import in a fresh process, no warm-up, {res['repeat']} processes per row.", "",
             "| model | importer | time ms, median (min-max) | peak RSS MiB above baseline | protobuf / ours |",
             "| --- | --- | --- | --- | --- |"]
    for name, imp, r in cold_rows:
        if "error" in r:  # a child that failed is a row that says so, not a table that is lost
            lines.append(f"| {name} | {imp} | error: {r['error'][:80]} | | |")
            continue
        pb = res["models"][name]["cold"].get("protobuf")
        usable = pb and "error" not in pb and r["median"] > 0
        ratio = f"{pb['median'] / r['median']:.1f}x" if usable else "-"
        lines.append(f"| {name} | {imp} | {fmt_ms(r)} | {r['peak_above_baseline_kib'] / 1024:.1f} | {ratio} |")
    return lines


def process_table(res: dict) -> list:
    proc = res["models"].get("big", {}).get("process")
    if not proc:
        return []
    lines = ["", f"Whole process on big: {res['repeat']} processes each, taking turns (wall time and peak RSS "
             "from wait4).", "", "| command | time ms, median (min-max) | peak RSS MiB |", "| --- | --- | --- |"]
    for name, r in proc.items():
        lines.append(f"| {name} | {fmt_ms(r)} | {r['peak_rss_kib'] / 1024:.1f} |")
    return lines


def writers_table(res: dict) -> list:
    writers = res["models"].get("writers", {}).get("rows")
    if not writers:
        return []
    lines = ["", f"Writers on big: whole processes taking turns, {res['repeat']} each after a warm-up "
             "(wall time and peak RSS from wait4).", "", "| command | time s, median (min-max) | peak RSS MiB |",
             "| --- | --- | --- |"]
    for name, r in writers.items():
        if "median" in r:
            lines.append(f"| {name} | {r['median']:.2f} ({r['min']:.2f}-{r['max']:.2f}) | "
                         f"{r['peak_rss_kib'] / 1024:.0f} |")
        else:
            lines.append(f"| {name} | error: {str(r.get('error'))[:90]} | |")
    return lines


def not_run_lines(res: dict) -> list:
    return [f"\n{name}: not timed: {m['not_run']}" for name, m in res["models"].items() if m.get("not_run")]


def flood_table(res: dict) -> list:
    flood = res["models"].get("flood", {}).get("rows")
    if not flood:
        return []
    lines = ["", "Hash flooding: 2^15 names of 16 bytes, crafted to share one std::hash value (short value "
             "names: 15 bytes, equal but for the high bytes of their first word; medium value names: 39 bytes, "
             "in twins with their first two words swapped) vs ordinary random names of the same length.", "",
             "| names | crafted ms | ordinary ms | crafted / ordinary |", "| --- | --- | --- | --- |"]
    for kind, row in flood.items():
        if "ratio" in row:
            lines.append(f"| {kind} | {fmt_ms(row['crafted'])} | {fmt_ms(row['ordinary'])} | {row['ratio']:.2f}x |")
        elif "result" in row:
            r = row["result"]
            lines.append(f"| {kind} | refused: {(r.get('first_error') or r.get('error', ''))[-90:]} | | |")
    return lines


STEPS = ["read", "external", "define", "references", "types", "order", "consumers"]


def steps_table(res: dict) -> list:
    """Where ours-memory's time goes (row ours-steps: ImportOptions::times, medians)."""
    rows = [(name, m["results"]["ours-steps"]) for name, m in res["models"].items()
            if "steps" in m["results"].get("ours-steps", {})]
    if not rows:
        return []
    lines = ["", "Where the time of an import from memory goes (row `ours-steps`: `ImportOptions::times`, "
             "the median of each step, ms; resolution's steps are the main graph's):", "",
             "| model | import | " + " | ".join(STEPS) + " |", "| --- " * (len(STEPS) + 2) + "|"]
    for name, r in rows:
        lines.append(f"| {name} | {r['median'] * 1e3:.1f} | "
                     + " | ".join(f"{r['steps'][k] * 1e3:.1f}" for k in STEPS) + " |")
    return lines


def notes_and_targets(res: dict) -> list:
    lines = ["", "protobuf: `onnx::ModelProto::ParseFromArray` alone on the mapped file, its pages faulted in "
             "(the mapping is in results.json as total_times). python: `onnx.load(path)`, external data loaded. "
             "ours-plain-map: the same import over a mapping without madvise (the \"before\"). "
             "ours-*: default options, one thread, one Workspace reused across a child's repeats. "
             "protobuf-arena: the same parse into a google::protobuf::Arena. protozero: a pbf_reader walk over "
             "every field the importer reads, building nothing (the floor). "
             "heap: bytes requested from operator new during the first import of the process (replaced "
             "allocator; later ones reuse the blocks the first one left in the Workspace).", "",
             "| target | measured | met |", "| --- | --- | --- |"]
    for t in res["targets"]:
        lines.append(f"| {t['target']} | {t['value']} | {'yes' if t['met'] else 'NO'} |")
    return lines


def markdown(res: dict) -> str:
    lines = (header(res) + model_table(res) + cold_table(res) + process_table(res) + writers_table(res)
             + steps_table(res) + not_run_lines(res) + flood_table(res)
             + (bench_fuzz.markdown(res["fuzz"]) if res.get("fuzz") else [])
             + (ort_shared.markdown(res["ort_shared"]) if res.get("ort_shared") else [])
             + notes_and_targets(res))
    return "\n".join(lines) + "\n"
