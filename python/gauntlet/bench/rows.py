"""The rows `make bench` times (gauntlet/bench/run.py): each importer on a model in children
taking turns, the cold first imports, the whole processes on big, the hash-flooding pairs."""
import os

from gauntlet import settings
from gauntlet.bench.host import load, log
from gauntlet.bench.plan import COLD, FLOOD, OURS, ROUNDS, rounds_of
from gauntlet.bench.processes import merge_rounds, run_child, summary, time_process


def importer_rows(exe: str, imps: list, path: str, repeat: int, rounds: int, ort_twin: str = "") -> dict:
    """Each importer on one model (ours-map-ort on its .ort twin, when it has one). Our
    importer and libprotobuf take turns, `rounds` children each of repeat / ROUNDS runs, so
    that a machine whose speed drifts weighs on both alike; onnx.load, ten times slower, runs once."""
    parts = {imp: [] for imp in imps}
    for rnd in range(rounds):
        for imp in imps:
            if imp == "python":
                if rnd == 0:
                    cmd = settings.module_argv("gauntlet.bench.onnx_load") + ["--repeat", str(repeat)]
                    parts[imp].append(run_child(cmd + ["--warmup", "1", path]))
                continue
            runs = -(-repeat // ROUNDS)
            target = ort_twin if imp == "ours-map-ort" else path
            if not target:
                continue
            parts[imp].append(run_child([exe, "run"] + OURS[imp] + ["--repeat", str(runs), "--warmup", "1", target]))
    results = {}
    for imp in (i for i in imps if parts[i]):
        r = merge_rounds(parts[imp])
        r["load"] = load()
        results[imp] = r
    return results


def cold_row(exe: str, imp: str, path: str, repeat: int) -> dict:
    """The first import in `repeat` fresh processes, no warm-up; the first error when none ran."""
    runs = [run_child([exe, "run"] + OURS[imp] + ["--repeat", "1", "--warmup", "0", path])
            for _ in range(repeat)]
    ok = [r for r in runs if "error" not in r]
    if not ok:
        return runs[0]
    times = sorted(r["median"] for r in ok)
    return {"times": times, "median": times[len(times) // 2], "min": times[0], "max": times[-1],
            "peak_above_baseline_kib": sorted(r["peak_rss_kib"] - r["baseline_rss_kib"] for r in ok)[len(ok) // 2]}


def time_model(exe: str, cli: str, name: str, imps: list, path: str, repeat: int, ort_twin: str = "") -> dict:
    """One model's rows: warm, cold where COLD asks, and whole processes for big."""
    m = {"path": path, "results": {}}
    for imp, r in importer_rows(exe, imps, path, repeat, rounds_of(name), ort_twin).items():
        m["results"][imp] = r
        log(f"{name:13s} {imp:19s} " + (f"median {r['median'] * 1e3:10.2f} ms  peak {r['peak_rss_kib'] / 1024:8.1f} MiB"
                                       if "error" not in r else "ERROR " + r["error"][:200]))
    for imp in COLD.get(name, []):
        r = cold_row(exe, imp, path, repeat)
        m.setdefault("cold", {})[imp] = r
        if "error" not in r:
            log(f"{name:13s} {imp + ' cold':19s} median {r['median'] * 1e3:10.2f} ms")
    if name == "big":
        m["process"] = process_rows(cli, exe, path, repeat, ort_twin)
        for cmd, r in m["process"].items():
            log(f"big process  {cmd:19s} median {r['median'] * 1e3:10.2f} ms  peak {r['peak_rss_kib'] / 1024:8.1f} MiB")
    return m


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
    """The hash-flooding rows (docs/performance.md): crafted and ordinary names of each map,
    in children taking turns."""
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
