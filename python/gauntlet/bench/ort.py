"""The .ort part of `make bench`, used by python/gauntlet/bench/run.py.

prepare(out, build, log) writes, once, next to big.onnx:
  big.ort           ONNX Runtime's own .ort of big.onnx (npm onnxruntime-node, tools/install_peer.sh),
                    weights inline;
  wide-onnxruntime.ort  ONNX Runtime's own .ort of wide.onnx: its NodeArgs in the order of its hash
                    table, its names where it first wrote them (docs/performance-history.md, ".ort files
                    ONNX Runtime writes");
  big-external.ort  our writer's .ort of big.onnx with every weight in big-external.ort.data at
                    4096-aligned offsets (`onnximport convert`), where the CLI converts to .ort.
It returns {model name: path} for the models it could write and {model name: reason} for the others.

twins(out, cli, ort_paths, models, log) gives wide, reversed and chain a .ort twin written by our
`onnximport convert` (once), and big ONNX Runtime's big.ort: run.py times `ours-map-ort` on the twin
in the same rounds as `ours-map` on the .onnx, and targets() states the ratio.

writer_rows(cli, peer, big, work, repeat) times whole processes taking turns: our
`onnximport convert` of big.onnx to .ort (inline) and to .onnx with 4096-aligned external
data, each on 1 and 2 threads, and ONNX Runtime writing the same .ort; wall time and peak
RSS from wait4. targets(models) states the .ort and writer targets with their figures.
"""
import json
import os
import subprocess
import time

from gauntlet.bench.derive import rows_by_round
from gauntlet.settings import ROOT
PEER = os.path.join(ROOT, "build", "peer")  # shared with make report (tools/install_peer.sh)
ORT_MODULE = os.path.join(PEER, "node_modules", "onnxruntime-node")


def ensure_peer() -> str:
    """The npm peer's module folder, installed if needed; '' with the reason logged when it cannot be."""
    rc = subprocess.run([os.path.join(ROOT, "tools", "install_peer.sh"), PEER]).returncode
    return ORT_MODULE if rc == 0 and os.path.isdir(ORT_MODULE) else ""


def ort_write_command(module: str) -> list:
    return ["node", os.path.join(ROOT, "python", "gauntlet", "ort", "write_ort.js"), module]


def ort_write(module: str, src: str, dst: str) -> dict:
    """ONNX Runtime writes dst from src in one node process: wall time, peak RSS, its answer.
    Standard input stays open until the answer: the worker exits when it closes."""
    t0 = time.perf_counter()
    p = subprocess.Popen(ort_write_command(module), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    p.stdin.write(json.dumps({"src": src, "dst": dst}) + "\n")
    p.stdin.flush()
    answer = {}
    for line in p.stdout:
        answer = json.loads(line)
        if "ok" in answer:
            break
    p.stdin.close()
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    p.stdout.close()
    return {"seconds": time.perf_counter() - t0, "ok": bool(answer.get("ok")) and os.path.exists(dst),
            "error": answer.get("message"), "maxrss_kib": ru.ru_maxrss, "rc": os.waitstatus_to_exitcode(status)}


def time_process(cmd: list) -> dict:
    """Wall time and peak resident size (wait4's ru_maxrss) of one whole process."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    err = p.stderr.read()
    p.stderr.close()
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    return {"seconds": time.perf_counter() - t0, "maxrss_kib": ru.ru_maxrss,
            "rc": os.waitstatus_to_exitcode(status), "stderr": err[-300:]}


def fresh(dst: str, *sources: str) -> bool:
    """dst exists and is no older than any of `sources` (the model it was made of, the program that made it)."""
    return os.path.exists(dst) and all(os.path.getmtime(dst) >= os.path.getmtime(s) for s in sources)


# The models ONNX Runtime writes itself: {model: (its .onnx, the .ort)}.
RUNTIME_WRITTEN = {"big-ort": ("big.onnx", "big.ort"), "wide-ort": ("wide.onnx", "wide-onnxruntime.ort")}


def prepare(out: str, build: str, log) -> tuple:
    big = os.path.join(out, "big.onnx")
    paths, reasons = {}, {}
    module = ensure_peer()
    for name, (source, written) in RUNTIME_WRITTEN.items():
        src, dst = os.path.join(out, source), os.path.join(out, written)
        if not module:
            reasons[name] = "the npm peer (onnxruntime-node) could not be installed"
        elif fresh(dst, src) or ort_write(module, src, dst)["ok"]:
            paths[name] = dst
        else:
            reasons[name] = f"ONNX Runtime did not write {written}"
    ext_path = os.path.join(out, "big-external.ort")
    cli = os.path.join(build, "bin", "onnximport")
    if not fresh(ext_path, big, cli):
        r = time_process([cli, "convert", big, ext_path, "--external-data",
                          "big-external.ort.data", "--threshold", "4096", "--alignment", "4096"])
        if r["rc"] != 0:
            reasons["big-ort-external"] = "onnximport convert to an external .ort failed: " + r["stderr"].strip()
    if fresh(ext_path, big, cli):
        paths["big-ort-external"] = ext_path
    for name, why in reasons.items():
        log(f"{name}: not timed: {why}")
    return paths, reasons, module


TWINNED = ("wide", "reversed", "chain")


def twins(out: str, cli: str, ort_paths: dict, models: list, log) -> dict:
    """{model: .ort path} for the models of `models` that have a .ort twin."""
    found = {"big": ort_paths["big-ort"]} if "big-ort" in ort_paths else {}
    for name in (m for m in TWINNED if m in models):
        src, dst = os.path.join(out, name + ".onnx"), os.path.join(out, name + ".ort")
        if not fresh(dst, src, cli):  # a twin of an older writer is written again
            r = time_process([cli, "convert", src, dst])
            if r["rc"] != 0:
                log(f"{name}: no .ort twin: onnximport convert failed: {r['stderr'].strip()}")
                continue
        found[name] = dst
    return found


def summary(runs: list) -> dict:
    ok = [r for r in runs if r.get("rc", 0) == 0 and r.get("ok", True)]
    if not ok:
        return {"error": (runs[0].get("stderr") or runs[0].get("error") or "failed") if runs else "not run"}
    times = sorted(r["seconds"] for r in ok)
    return {"times": times, "median": times[len(times) // 2], "min": times[0], "max": times[-1],
            "peak_rss_kib": max(r["maxrss_kib"] or 0 for r in ok), "failed": len(runs) - len(ok)}


def writer_rows(cli: str, module: str, big: str, work: str, repeat: int) -> dict:
    """The writer rows: whole processes taking turns, one warm-up round first. Each writer has a
    folder of its own: a writer that supersedes a generation reads every model of its folder
    (docs/write.md, "Generations"), and the others' outputs are not its to read."""
    for folder in ("ort", "onnx", "onnxruntime"):
        os.makedirs(os.path.join(work, folder), exist_ok=True)
    ort_out, onnx_out = os.path.join(work, "ort", "w.ort"), os.path.join(work, "onnx", "w.onnx")
    cmds = {}
    for t in (1, 2):
        cmds[f"ours .onnx -> .ort, {t} thread(s)"] = [cli, "convert", big, ort_out, "--threads", str(t)]  # inline
        cmds[f"ours .onnx -> .onnx 4096-aligned external, {t} thread(s)"] = [
            cli, "convert", big, onnx_out, "--external-data", "w.onnx.data", "--alignment", "4096",
            "--threshold", "4096", "--threads", str(t)]
    probe = time_process(next(iter(cmds.values())))
    if probe["rc"] != 0:
        return {"onnximport convert": {"error": "failed: " + probe["stderr"].strip()}}
    runs = {name: [] for name in cmds}
    if module:
        runs["ONNX Runtime .onnx -> .ort"] = []
    for k in range(repeat + 1):
        for name in runs:
            r = (ort_write(module, big, os.path.join(work, "onnxruntime", "w.ort")) if name.startswith("ONNX Runtime")
                 else time_process(cmds[name]))
            if k:
                runs[name].append(r)
    return {name: summary(rs) for name, rs in runs.items()}


def targets(models: dict) -> list:
    out = []

    def get(model, imp):
        r = models.get(model, {}).get("results", {}).get(imp)
        return r if r and "error" not in r else None

    for model in ("wide", "reversed", "big", "chain"):
        onnx, ort = get(model, "ours-map"), get(model, "ours-map-ort")
        if onnx and ort:
            ratio = ort["median"] / onnx["median"]
            goal = "(stated, no threshold)" if model == "chain" else "<= 1.0 (1.5 the floor)"
            note = rows_by_round(ort, onnx)
            out.append({"target": f"{model}, mapped: .ort / .onnx import time {goal}",
                        "value": f"{ratio:.2f}x ({ort['median'] * 1e3:.1f} vs {onnx['median'] * 1e3:.1f} ms; peak "
                                 f"{ort['peak_rss_kib'] / 1024:.0f} vs {onnx['peak_rss_kib'] / 1024:.0f} MiB{note})",
                        "met": model == "chain" or ratio <= 1.0})
    onnx, runtime_ort = get("wide", "ours-memory"), get("wide-ort", "ours-memory")
    if onnx and runtime_ort:
        ratio = runtime_ort["median"] / onnx["median"]
        out.append({"target": "wide as ONNX Runtime writes it, from memory: .ort / .onnx import time (stated, "
                              "no threshold)",
                    "value": f"{ratio:.2f}x ({runtime_ort['median'] * 1e3:.1f} vs {onnx['median'] * 1e3:.1f} ms)",
                    "met": True})
    check = models.get("big", {}).get("process", {}).get("onnximport check .ort", {})
    if "peak_rss_kib" in check:
        peak = check["peak_rss_kib"] / 1024
        out.append({"target": "big as ONNX Runtime's .ort, whole process `onnximport check`: peak RSS <= 32 MiB",
                    "value": f"{peak:.1f} MiB", "met": peak <= 32})
    onnx_map = get("big", "ours-map")
    for model, what in (("big-ort", "ONNX Runtime's .ort"), ("big-ort-external", "our 4096-aligned external .ort")):
        mapped = get(model, "ours-map")
        if not mapped:
            continue
        peak = mapped["peak_rss_kib"] / 1024
        out.append({"target": f"big as {what}, mapped: peak RSS <= 64 MiB, no weight page touched",
                    "value": f"{peak:.1f} MiB", "met": peak <= 64})
        if onnx_map:
            ratio = mapped["median"] / onnx_map["median"]
            out.append({"target": f"big as {what}, mapped: within 2x of the .onnx mapped import",
                        "value": f"{ratio:.2f}x ({mapped['median'] * 1e3:.1f} vs {onnx_map['median'] * 1e3:.1f} ms)",
                        "met": ratio <= 2})
    for model in ("big", "big-ort"):
        one, two = get(model, "ours-read"), get(model, "ours-read-2threads")
        if one and two:
            out.append({"target": f"{model}, read: 2 threads against 1 (stated, no threshold)",
                        "value": f"{one['median'] / two['median']:.2f}x ({two['median'] * 1e3:.1f} vs "
                                 f"{one['median'] * 1e3:.1f} ms)", "met": True})
    rows = models.get("writers", {}).get("rows", {})
    for kind in (".onnx -> .ort", ".onnx -> .onnx 4096-aligned external"):
        one, two = rows.get(f"ours {kind}, 1 thread(s)", {}), rows.get(f"ours {kind}, 2 thread(s)", {})
        if "median" in one and "median" in two:
            out.append({"target": f"ours {kind}: 2 threads against 1 (stated, no threshold)",
                        "value": f"{one['median'] / two['median']:.2f}x", "met": True})
    ort_row, ours = rows.get("ONNX Runtime .onnx -> .ort", {}), rows.get("ours .onnx -> .ort, 1 thread(s)", {})
    if "median" in ort_row and "median" in ours:
        out.append({"target": "ours .onnx -> .ort against ONNX Runtime writing it (side by side)",
                    "value": f"{ours['median']:.2f} s, {ours['peak_rss_kib'] / 1024:.0f} MiB vs "
                             f"{ort_row['median']:.2f} s, {ort_row['peak_rss_kib'] / 1024:.0f} MiB", "met": True})
    return out
