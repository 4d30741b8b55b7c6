"""`make bench` (issues 7, 16, 21): every importer on every benchmark model, side by side.

usage: bench_run.py [--build DIR] [--out DIR] [--repeat N] [--data DIR] [--only M,...]
                    [--publish]        (M: a model below, flood or fuzz)

Generates the models once into OUT (default BUILD/bench) with `gauntlet_bench gen`,
then times each (model, importer, mode) in fresh child processes: gauntlet_bench for our
importer and libprotobuf's ParseFromArray, python/gauntlet/bench/onnx_load.py for onnx.load. Each
importer runs in 3 rounds that alternate with the other importers of the model, each a child
doing one warm-up and N/3 timed runs (N default 9: on a shared machine whose speed drifts
over minutes, rows run minutes apart moved ratios by a fifth); onnx.load runs in one child.
The row's median is over all runs of its children, with their highest peak resident size
and the first one's heap bytes. Writes OUT/results.json, OUT/results.md and OUT/perf.png;
--publish also copies the table and the plot to docs/ (the README links them).

Models: big (1 GiB inline), big-external, wide (200,000 nodes), reversed, backend (every
model.onnx of the backend test data, loaded one after another in one process) and
big-small (the big graph with 1/256 of the weight bytes: heap use must not change), chain
and chain-reversed (a 10^6-node Relu chain in order and reversed: sorting stays O(n log n)).
big, wide and reversed are also timed cold: N fresh children, each importing once.
big-ort and big-ort-external: big as ONNX Runtime's inline .ort and as our 4096-aligned
external .ort (python/gauntlet/bench/ort.py), mapped and read on 1 and 2 threads (ImportOptions::threads).
writers: `onnximport convert` of big to .ort and to .onnx with aligned external data on 1 and
2 threads, against ONNX Runtime writing the same .ort (whole processes, taking turns).

Our importer runs with default options (one thread) and one Workspace reused across the
repeats of a child. libprotobuf parses the mapped file (pages faulted in before the clock)
into a heap message (protobuf) and into an Arena (protobuf-arena); protozero is the floor:
a pbf_reader walk over every field the importer reads, building nothing.

Whole process (issue 16): `onnximport check big.onnx` against `gauntlet_bench read-parse
big.onnx` (libprotobuf's read of the file and parse), alternating, N processes each, wall
time and peak RSS from wait4.

Hash flooding (issue 21): `gauntlet_bench gen-flood OUT/flood` writes, per map keyed by
input bytes (opset domains, captured names, value names, external-data locations), a model
of 2^15 names crafted to collide under libstdc++'s std::hash and its twin of ordinary names
of the same count and length; crafted and ordinary take turns, and the row is their ratio.

Fuzz targets (python/gauntlet/bench/fuzz.py): executions per second of each libFuzzer target
of $FUZZ_BUILD (default build-fuzz, tools/setup_fuzz.sh) over its committed corpus.
"""
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

from gauntlet.bench import fuzz as bench_fuzz
from gauntlet.bench import ort as bench_ort

from gauntlet import settings

from gauntlet.settings import ROOT
MiB = 1024 * 1024

# (label, command suffix) per importer; "ours-plain-map" is the mapping without madvise.
OURS = {
    "ours-map": ["--importer", "ours", "--mode", "map"],
    "ours-map-ort": ["--importer", "ours", "--mode", "map"],  # on the model's .ort twin (bench/ort.py)
    "ours-read": ["--importer", "ours", "--mode", "read"],
    "ours-read-2threads": ["--importer", "ours", "--mode", "read", "--threads", "2"],
    "ours-plain-map": ["--importer", "ours", "--mode", "plain-map"],
    "ours-map-noresolve": ["--importer", "ours", "--mode", "map", "--no-resolve"],
    "ours-memory": ["--importer", "ours", "--mode", "memory"],
    "protobuf": ["--importer", "protobuf"],
    "protobuf-arena": ["--importer", "protobuf-arena"],
    "protozero": ["--importer", "protozero"],
}
PLAN = {
    "big": ["ours-map", "ours-map-ort", "ours-plain-map", "ours-read", "ours-read-2threads", "protobuf", "python"],
    "big-external": ["ours-map", "ours-plain-map", "ours-read", "protobuf", "python"],
    "wide": ["ours-map", "ours-map-ort", "ours-map-noresolve", "ours-read", "protozero", "protobuf", "protobuf-arena", "python"],
    "reversed": ["ours-map", "ours-map-ort", "ours-map-noresolve", "ours-read", "protozero", "protobuf", "protobuf-arena", "python"],
    # Like with like: ours-memory against ParseFromArray, ours-map and -read against map + parse.
    "backend": ["ours-memory", "ours-map", "ours-read", "protobuf", "python"],
    "big-small": ["ours-map"],
    # 10^6-node chain sorted and reversed (issue 3): the sort must stay O(n log n).
    "chain": ["ours-map", "ours-map-ort", "ours-map-noresolve", "protobuf"],
    "chain-reversed": ["ours-map", "ours-map-noresolve", "protobuf"],
    # big as .ort (issue 17, python/gauntlet/bench/ort.py): ONNX Runtime's inline file, our external one.
    "big-ort": ["ours-map", "ours-read", "ours-read-2threads"],
    "big-ort-external": ["ours-map", "ours-read", "ours-read-2threads"],
}
# The hash-flooding pairs (issue 21): crafted and ordinary names, and the folder-relative
# model path of each (external data sits beside its model).
FLOOD = {
    "opset domains": ("opsets-crafted.onnx", "opsets-ordinary.onnx"),
    "captured names": ("captures-crafted.onnx", "captures-ordinary.onnx"),
    "value names": ("values-crafted.onnx", "values-ordinary.onnx"),
    "external locations": ("external-crafted/model.onnx", "external-ordinary/model.onnx"),
}
TABLE_MODELS = ["big", "big-external", "big-ort", "big-ort-external", "wide", "reversed", "backend", "chain",
                "chain-reversed"]
# Also timed cold: the first import in a fresh process, no warm-up, one child per run. A
# warm run reuses memory its process freed before (libprotobuf's many small blocks come
# back from malloc's free lists); a cold one faults in, and the kernel zeroes, everything.
COLD = {"wide": ["ours-map", "protobuf"], "reversed": ["ours-map", "protobuf"], "big": ["ours-map", "protobuf"]}


def log(*a):
    print("bench:", *a, file=sys.stderr, flush=True)


def machine() -> dict:
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    mem = 0
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                mem = int(line.split()[1]) // 1024
    return {"cpu": cpu, "cores": os.cpu_count(), "kernel": platform.release(), "mem_mib": mem,
            "os": platform.platform()}


def load() -> list:
    return [round(x, 2) for x in os.getloadavg()]


def backend_list(out: str, data: str, build: str) -> str:
    data = settings.backend_data(build, "bench", data)
    files = []
    for dirpath, _, names in os.walk(data):
        if "model.onnx" in names:
            files.append(os.path.join(dirpath, "model.onnx"))
    files.sort()
    path = os.path.join(out, "backend.list")
    with open(path, "w") as f:
        f.write("\n".join(files) + "\n")
    log(f"backend: {len(files)} models under {data}")
    return path


def run_child(cmd: list, timeout: float = 3600) -> dict:
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout after {timeout:.0f} s", "timeout": timeout}
    if p.returncode != 0:
        return {"error": (p.stderr or p.stdout).strip()[-500:]}
    return json.loads(p.stdout.strip().splitlines()[-1])


def time_process(cmd: list) -> dict:
    """Wall time and peak resident size (wait4's ru_maxrss) of one whole process."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    return {"seconds": time.perf_counter() - t0, "maxrss_kib": ru.ru_maxrss, "rc": p.returncode}


def summary(runs: list) -> dict:
    times = sorted(r["seconds"] for r in runs)
    return {"times": times, "median": statistics.median(times), "min": times[0], "max": times[-1],
            "peak_rss_kib": max(r["maxrss_kib"] for r in runs), "failed": sum(r["rc"] != 0 for r in runs)}


def process_rows(cli: str, exe: str, path: str, repeat: int, ort_path: str = "") -> dict:
    """Whole-process rows: the CLI's check (of the .ort twin too) and libprotobuf's read +
    parse, taking turns, one process each time, after one warm-up process of each."""
    cmds = {"onnximport check": [cli, "check", path], "protobuf read+parse": [exe, "read-parse", path]}
    if ort_path:
        cmds["onnximport check .ort"] = [cli, "check", ort_path]
    runs = {name: [] for name in cmds}
    for k in range(repeat + 1):
        for name, cmd in cmds.items():
            r = time_process(cmd)
            if k:
                runs[name].append(r)
    return {name: summary(rs) for name, rs in runs.items()}


def flood_rows(exe: str, folder: str, repeat: int) -> dict:
    """Issue 21's rows: crafted and ordinary names of each map, in children taking turns."""
    out = {}
    runs = -(-repeat // ROUNDS)
    for kind, (crafted, ordinary) in FLOOD.items():
        parts = {"crafted": [], "ordinary": []}
        for _ in range(ROUNDS):
            for which, rel in (("crafted", crafted), ("ordinary", ordinary)):
                cmd = [exe, "run", "--importer", "ours", "--repeat", str(runs), "--warmup", "1",
                       os.path.join(folder, rel)]
                parts[which].append(run_child(cmd))
        row = {which: merge_rounds(p) for which, p in parts.items()}
        if all("error" not in r for r in row.values()):
            row["ratio"] = row["crafted"]["median"] / row["ordinary"]["median"]
        out[kind] = row
        log(f"flood {kind:19s} " + (f"crafted {row['crafted']['median'] * 1e3:8.2f} ms  ordinary "
                                    f"{row['ordinary']['median'] * 1e3:8.2f} ms  ratio {row['ratio']:.2f}"
                                    if "ratio" in row else f"ERROR {row}"[:300]))
    old = run_child([exe, "run", "--importer", "ours", "--repeat", "1", "--warmup", "0",
                     os.path.join(folder, "values-oldhash.onnx")])
    out["old-hash value names"] = {"result": old}
    return out


ROUNDS = 3


def merge_rounds(parts: list) -> dict:
    """One result from the children of one (model, importer): all their timed runs, the
    highest peak, the heap of the first (each child's first import is a fresh process's)."""
    for p in parts:
        if "error" in p:
            return p
    r = dict(parts[0])
    for key in ("times", "total_times"):
        r[key] = [t for p in parts for t in p[key]]
    times, totals = sorted(r["times"]), sorted(r["total_times"])
    r["median"], r["min"], r["max"] = statistics.median(times), times[0], times[-1]
    r["median_total"] = statistics.median(totals)
    r["peak_rss_kib"] = max(p["peak_rss_kib"] for p in parts)
    r["failed"] = sum(p.get("failed", 0) for p in parts)
    r["children"] = len(parts)
    return r


def peer_time(peer_name: str, peer: dict, row: str) -> float:
    """The peer's time like with like: libprotobuf's map + parse for our rows that open and
    read or map the file inside the clock, its parse alone for the others."""
    from_file = row.startswith("ours-") and row != "ours-memory"
    return peer.get("median_total", peer["median"]) if from_file and peer_name == "protobuf" else peer["median"]


def derive(models: dict) -> None:
    """Per result: peak above baseline, metadata throughput, ratios to the peers."""
    for m in models.values():
        res = m["results"]
        if not res:
            continue
        ref = res.get("ours-map") or next(iter(res.values()))
        meta = max(1, ref.get("input_bytes", 0) - ref.get("payload_bytes", 0))
        m["metadata_bytes"] = meta
        for imp, r in res.items():
            if "error" in r:
                continue
            r["peak_above_baseline_kib"] = r["peak_rss_kib"] - r["baseline_rss_kib"]
            r["metadata_mb_per_s"] = meta / r["median"] / 1e6 if r["median"] > 0 else None
            for peer in ("protobuf", "python"):
                pr = res.get(peer)
                if pr and "error" not in pr and r["median"] > 0:
                    r[f"time_ratio_{peer}"] = peer_time(peer, pr, imp) / r["median"]
                    r[f"peak_ratio_{peer}"] = r["peak_rss_kib"] / pr["peak_rss_kib"]


def targets(models: dict) -> list:
    """Issue 7's targets, each with the figures it was decided on."""
    out = []

    def get(model, imp):
        r = models.get(model, {}).get("results", {}).get(imp)
        return r if r and "error" not in r else None

    big, big_pb = get("big", "ours-map"), get("big", "protobuf")
    if big and big_pb:
        ratio = big_pb["median"] / big["median"]
        out.append({"target": "big, mapped: >= 100x faster than libprotobuf's parse", "value": f"{ratio:.0f}x",
                    "met": ratio >= 100})
        above = big["peak_above_baseline_kib"] / 1024
        out.append({"target": "big, mapped: peak resident < 32 MiB beyond the process baseline",
                    "value": f"{above:.1f} MiB", "met": above < 32})
    small = get("big-small", "ours-map")
    if big and small:
        # The same graph with 1/256 of the weight bytes. The only allowed difference is the
        # file name, which the model keeps twice (source name, error context).
        name_diff = 2 * abs(len(big["target"]) - len(small["target"]))
        diff = abs(big["heap_bytes"] - small["heap_bytes"])
        out.append({"target": "big, mapped: heap bytes independent of the weight size (1 GiB vs 4 MiB of weights)",
                    "value": f"{big['heap_bytes']} vs {small['heap_bytes']} bytes (file names differ by "
                             f"{name_diff // 2} bytes)",
                    "met": diff <= name_diff})
    wide, wide_pb = get("wide", "ours-map"), get("wide", "protobuf")
    if wide and wide_pb:
        ratio = wide_pb["median"] / wide["median"]
        cold = models["wide"].get("cold", {})
        notes = []
        if "error" not in cold.get("ours-map", {"error": 1}) and "error" not in cold.get("protobuf", {"error": 1}):
            notes.append(f"cold: {cold['protobuf']['median'] / cold['ours-map']['median']:.2f}x")
        note = f" ({'; '.join(notes)})" if notes else ""
        out.append({"target": "wide: import with resolution >= 3x faster than libprotobuf's parse alone",
                    "value": f"{ratio:.2f}x{note}", "met": ratio >= 3})
        arena, floor = get("wide", "protobuf-arena"), get("wide", "protozero")
        best = min(r["median"] for r in (wide_pb, arena) if r)
        ratio = best / wide["median"]
        note = f"; protozero floor {floor['median'] * 1e3:.1f} ms" if floor else ""
        out.append({"target": "wide: import with resolution >= 3x faster than libprotobuf's best case (the faster "
                              "of heap and Arena parse of the mapped file), warm, one thread (issue 16)",
                    "value": f"{ratio:.2f}x ({wide['median'] * 1e3:.1f} vs {best * 1e3:.1f} ms{note})",
                    "met": ratio >= 3})
        frac = wide["peak_rss_kib"] / wide_pb["peak_rss_kib"]
        out.append({"target": "wide: peak memory <= 1/3 of libprotobuf's", "value": f"{frac:.2f}",
                    "met": frac <= 1 / 3})
    rev = get("reversed", "ours-map")
    if wide and rev:
        ratio = rev["median"] / wide["median"]
        out.append({"target": "reversed within 1.5x of wide", "value": f"{ratio:.2f}x", "met": ratio <= 1.5})
    proc = models.get("big", {}).get("process", {})
    check, pb = proc.get("onnximport check"), proc.get("protobuf read+parse")
    if check and pb and not check["failed"] and not pb["failed"]:
        ratio = pb["median"] / check["median"]
        out.append({"target": "big: whole-process `onnximport check` >= 100x faster than libprotobuf's read + parse "
                              "(issue 16)",
                    "value": f"{ratio:.0f}x ({check['median'] * 1e3:.1f} vs {pb['median'] * 1e3:.0f} ms)",
                    "met": ratio >= 100})
        peak = check["peak_rss_kib"] / 1024
        out.append({"target": "big: whole-process `onnximport check` peak RSS <= 64 MiB (issue 16)",
                    "value": f"{peak:.1f} MiB", "met": peak <= 64})
    out += bench_ort.targets(models)
    for kind, row in models.get("flood", {}).get("rows", {}).items():
        if "ratio" in row:
            out.append({"target": f"{kind}: crafted colliding names within 3x of ordinary ones (issue 21)",
                        "value": f"{row['ratio']:.2f}x", "met": row["ratio"] <= 3})
    return out


def fmt_ms(r: dict) -> str:
    return f"{r['median'] * 1e3:.1f} ({r['min'] * 1e3:.1f}-{r['max'] * 1e3:.1f})"


def markdown(res: dict) -> str:
    mc = res["machine"]
    lines = [
        f"Machine: {mc['cpu']}, {mc['cores']} cores, {mc['mem_mib']} MiB, Linux {mc['kernel']}; "
        f"load average {res['load_before']} before, {res['load_after']} after; {res['date']}.",
        f"Command: `{res['command']}`. Median of {res['repeat']} runs per row, from {ROUNDS} child processes that "
        f"take turns with the other rows of the model, each after a warm-up (onnx.load: one child).",
        "Like with like: `protobuf / ours` divides libprotobuf's map + parse (row `protobuf map+parse`) by our rows "
        "that open the file inside the clock (`ours-map`, `ours-read`, ...), and its `ParseFromArray` of bytes in "
        "memory (row `protobuf`) by `ours-memory` (`import_bytes`, one Workspace) and the protozero walk.",
        "",
        "| model | importer | time ms, median (min-max) | peak RSS MiB (above baseline) | RSS after import MiB "
        "| heap MiB | protobuf / ours | python / ours | peak vs protobuf | metadata MB/s |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name in TABLE_MODELS:
        m = res["models"].get(name)
        if not m:
            continue
        for imp, r in m["results"].items():
            if "error" in r:
                lines.append(f"| {name} | {imp} | error: {r['error'][:80]} | | | | | | | |")
                continue
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
    cold_rows = [(name, imp, r) for name in TABLE_MODELS for imp, r in res["models"].get(name, {}).get("cold", {}).items()]
    if cold_rows:
        lines += ["", f"Cold: the first import in a fresh process, no warm-up, {res['repeat']} processes per row.", "",
                  "| model | importer | time ms, median (min-max) | peak RSS MiB above baseline | protobuf / ours |",
                  "| --- | --- | --- | --- | --- |"]
        for name, imp, r in cold_rows:
            pb = res["models"][name]["cold"].get("protobuf")
            ratio = f"{pb['median'] / r['median']:.1f}x" if pb and r["median"] > 0 else "-"
            lines.append(f"| {name} | {imp} | {fmt_ms(r)} | {r['peak_above_baseline_kib'] / 1024:.1f} | {ratio} |")
    proc = res["models"].get("big", {}).get("process")
    if proc:
        lines += ["", f"Whole process on big: {res['repeat']} processes each, taking turns (wall time and peak RSS "
                  "from wait4).", "", "| command | time ms, median (min-max) | peak RSS MiB |", "| --- | --- | --- |"]
        for name, r in proc.items():
            lines.append(f"| {name} | {fmt_ms(r)} | {r['peak_rss_kib'] / 1024:.1f} |")
    writers = res["models"].get("writers", {}).get("rows")
    if writers:
        lines += ["", f"Writers on big (issue 18): whole processes taking turns, {res['repeat']} each after a warm-up "
                  "(wall time and peak RSS from wait4).", "", "| command | time s, median (min-max) | peak RSS MiB |",
                  "| --- | --- | --- |"]
        for name, r in writers.items():
            if "median" in r:
                lines.append(f"| {name} | {r['median']:.2f} ({r['min']:.2f}-{r['max']:.2f}) | "
                             f"{r['peak_rss_kib'] / 1024:.0f} |")
            else:
                lines.append(f"| {name} | error: {str(r.get('error'))[:90]} | |")
    not_run = [(n, m["not_run"]) for n, m in res["models"].items() if m.get("not_run")]
    for name, why in not_run:
        lines.append(f"\n{name}: not timed: {why}")
    flood = res["models"].get("flood", {}).get("rows")
    if flood:
        lines += ["", "Hash flooding: 2^15 names of 16 bytes, crafted to share one std::hash value vs ordinary "
                  "random names of the same length.", "",
                  "| names | crafted ms | ordinary ms | crafted / ordinary |", "| --- | --- | --- | --- |"]
        for kind, row in flood.items():
            if "ratio" in row:
                lines.append(f"| {kind} | {fmt_ms(row['crafted'])} | {fmt_ms(row['ordinary'])} | {row['ratio']:.2f}x |")
            elif "result" in row:
                r = row["result"]
                lines.append(f"| {kind} | refused: {(r.get('first_error') or r.get('error', ''))[-90:]} | | |")
    if res.get("fuzz"):
        lines += bench_fuzz.markdown(res["fuzz"])
    lines += ["", "protobuf: `onnx::ModelProto::ParseFromArray` alone on the mapped file, its pages faulted in "
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
    return "\n".join(lines) + "\n"


def main(argv: list) -> int:
    build, out, repeat, data, only, publish = os.path.join(ROOT, "build"), None, 9, "", None, False
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--build", "--out", "--repeat", "--data", "--only") and i + 1 < len(argv):
            v = argv[i + 1]
            if a == "--build": build = os.path.abspath(v)
            elif a == "--out": out = os.path.abspath(v)
            elif a == "--repeat": repeat = max(5, int(v)) if "--allow-few" not in argv else int(v)
            elif a == "--data": data = v
            else: only = v.split(",")
            i += 2
        elif a == "--publish":
            publish, i = True, i + 1
        elif a == "--allow-few":
            i += 1
        else:
            print(__doc__, file=sys.stderr)
            return 2
    out = out or os.path.join(build, "bench")
    os.makedirs(out, exist_ok=True)
    exe = os.path.join(build, "bin", "gauntlet_bench")
    subprocess.run([exe, "gen", out], check=True, stdout=subprocess.DEVNULL)
    paths = {n: os.path.join(out, n + ".onnx") for n in PLAN if n not in ("backend", "big-ort", "big-ort-external")}
    if only is None or "backend" in only:
        paths["backend"] = "@" + backend_list(out, data, build)
    ort_paths, ort_missing, ort_module = {}, {}, ""
    if only is None or {"big-ort", "big-ort-external", "writers"} & set(only):
        ort_paths, ort_missing, ort_module = bench_ort.prepare(out, build, log)
        paths.update(ort_paths)
    ort_twins = bench_ort.twins(out, os.path.join(build, "bin", "onnximport"), ort_paths, only or list(PLAN), log)

    res = {"machine": machine(), "date": datetime.datetime.now().isoformat(timespec="seconds"),
           "command": "make bench", "repeat": repeat, "load_before": load(), "models": {}}
    # The mapped import releases the pages behind each weight payload: check that every
    # weight still reads back as generated before timing anything.
    for name in ("big", "big-external"):
        if only is None or name in only:
            v = subprocess.run([exe, "verify", paths[name]], capture_output=True, text=True)
            res.setdefault("verified", {})[name] = json.loads(v.stdout) if v.returncode == 0 else v.stderr.strip()
            log(f"verify {name}: {res['verified'][name]}")
    for name, imps in PLAN.items():
        if only and name not in only:
            continue
        if name in ort_missing:
            res["models"][name] = {"results": {}, "not_run": ort_missing[name]}
            continue
        m = res["models"].setdefault(name, {"path": paths[name], "results": {}})
        # Our importer and libprotobuf take turns, ROUNDS children each, so that a machine
        # whose speed drifts over minutes weighs on both alike; onnx.load, ten times slower,
        # runs once.
        parts = {imp: [] for imp in imps}
        for rnd in range(ROUNDS):
            for imp in imps:
                if imp == "python":
                    if rnd == 0:
                        cmd = settings.module_argv("gauntlet.bench.onnx_load") + ["--repeat", str(repeat)]
                        parts[imp].append(run_child(cmd + ["--warmup", "1", paths[name]]))
                    continue
                runs = -(-repeat // ROUNDS)
                path = ort_twins.get(name) if imp == "ours-map-ort" else paths[name]
                if not path:
                    continue
                parts[imp].append(run_child([exe, "run"] + OURS[imp] + ["--repeat", str(runs), "--warmup", "1", path]))
        for imp in (i for i in imps if parts[i]):
            r = merge_rounds(parts[imp])
            r["load"] = load()
            m["results"][imp] = r
            log(f"{name:13s} {imp:19s} " + (f"median {r['median'] * 1e3:10.2f} ms  peak {r['peak_rss_kib'] / 1024:8.1f} MiB"
                                           if "error" not in r else "ERROR " + r["error"][:200]))
        for imp in COLD.get(name, []):
            runs = [run_child([exe, "run"] + OURS[imp] + ["--repeat", "1", "--warmup", "0", paths[name]])
                    for _ in range(repeat)]
            ok = [r for r in runs if "error" not in r]
            if not ok:
                m.setdefault("cold", {})[imp] = runs[0]
                continue
            times = sorted(r["median"] for r in ok)
            m.setdefault("cold", {})[imp] = {
                "times": times, "median": times[len(times) // 2], "min": times[0], "max": times[-1],
                "peak_above_baseline_kib": sorted(r["peak_rss_kib"] - r["baseline_rss_kib"] for r in ok)[len(ok) // 2]}
            log(f"{name:13s} {imp + ' cold':19s} median {times[len(times) // 2] * 1e3:10.2f} ms")
        if name == "big":
            m["process"] = process_rows(os.path.join(build, "bin", "onnximport"), exe, paths[name], repeat,
                                        ort_twins.get("big", ""))
            for cmd, r in m["process"].items():
                log(f"big process  {cmd:19s} median {r['median'] * 1e3:10.2f} ms  peak {r['peak_rss_kib'] / 1024:8.1f} MiB")
    if only is None or "writers" in only:
        rows = bench_ort.writer_rows(os.path.join(build, "bin", "onnximport"), ort_module, paths["big"],
                                     os.path.join(out, "writers"), repeat)
        res["models"]["writers"] = {"results": {}, "rows": rows}
        for row, r in rows.items():
            log(f"writers {row:55s} " + (f"median {r['median']:8.2f} s  peak {r['peak_rss_kib'] / 1024:8.1f} MiB"
                                         if "median" in r else "ERROR " + str(r.get("error", r))[:200]))
    if only is None or "flood" in only:
        folder = os.path.join(out, "flood")
        subprocess.run([exe, "gen-flood", folder], check=True, stdout=subprocess.DEVNULL)
        res["models"]["flood"] = {"path": folder, "results": {}, "rows": flood_rows(exe, folder, repeat)}
    if only is None or "fuzz" in only:
        res["fuzz"] = bench_fuzz.rows(ROOT, os.environ.get("FUZZ_BUILD", os.path.join(ROOT, "build-fuzz")), log)
    res["load_after"] = load()
    derive(res["models"])
    res["targets"] = targets(res["models"])
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(res, f, indent=1)
    md = markdown(res)
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write(md)
    print(md)
    plot = subprocess.run(settings.module_argv("gauntlet.bench.plot") + [os.path.join(out, "results.json"),
                           os.path.join(out, "perf.png")])
    if publish:
        docs = os.path.join(ROOT, "docs")
        os.makedirs(docs, exist_ok=True)
        shutil.copy(os.path.join(out, "results.md"), os.path.join(docs, "perf.md"))
        if plot.returncode == 0:
            shutil.copy(os.path.join(out, "perf.png"), os.path.join(docs, "perf.png"))
    log(f"wrote {out}/results.json, results.md, perf.png")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
