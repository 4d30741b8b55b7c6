"""Timing in child processes: one benchmark child's JSON answer, a whole process's wall time
and peak resident size, and the results of a row's children merged into one."""
import json
import os
import statistics
import subprocess
import time


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
    if "steps" in r:  # each child's median per step: their median
        r["steps"] = {k: statistics.median(p["steps"][k] for p in parts) for k in r["steps"]}
    return r

