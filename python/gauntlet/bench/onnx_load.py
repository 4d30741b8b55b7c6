"""The Python peer of `make bench`: onnx.load in this process, timed.

usage: bench_onnx_load.py [--repeat N] [--warmup N] TARGET     TARGET: FILE or @LIST

Loads TARGET (or every file of LIST, one after another) warmup+repeat times with
onnx.load (external data loaded, as onnx.load does by default) and prints one JSON
object in the shape gauntlet_bench prints: times, resident sizes. The heap figure of
the C++ children has no counterpart here (Python's allocator is not replaced).
"""
import json
import os
import resource
import sys
import time

import onnx


def status_kib(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def main(argv: list) -> int:
    repeat, warmup, target = 5, 1, None
    i = 0
    while i < len(argv):
        if argv[i] == "--repeat":
            repeat, i = max(1, int(argv[i + 1])), i + 2
        elif argv[i] == "--warmup":
            warmup, i = max(0, int(argv[i + 1])), i + 2
        else:
            target, i = argv[i], i + 1
    if not target:
        print(__doc__, file=sys.stderr)
        return 2
    if target.startswith("@"):
        with open(target[1:]) as f:
            files = [line.strip() for line in f if line.strip()]
    else:
        files = [target]
    baseline = status_kib("VmRSS")
    times, failed, first_error, rss_after, input_bytes, payload = [], 0, "", 0, 0, 0
    for k in range(warmup + repeat):
        last = k + 1 == warmup + repeat
        total, kept = 0.0, None
        for path in files:
            t0 = time.perf_counter()
            try:
                model = onnx.load(path)
            except Exception as e:  # a refusal counts, like the C++ children's
                total += time.perf_counter() - t0
                if last and not failed:
                    first_error = f"{path}: {e}"
                failed += 1 if last else 0
                continue
            total += time.perf_counter() - t0
            if last:
                input_bytes += os.path.getsize(path)
                payload += sum(len(t.raw_data) for t in model.graph.initializer)
                if len(files) == 1:
                    kept = model
        if last:
            rss_after = status_kib("VmRSS")
        del kept
        if k >= warmup:
            times.append(total)
    times_sorted = sorted(times)
    n = len(times_sorted)
    med = times_sorted[n // 2] if n % 2 else (times_sorted[n // 2 - 1] + times_sorted[n // 2]) / 2
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(json.dumps({
        "importer": "python", "target": target, "files": len(files), "failed": failed,
        "first_error": first_error, "resolve": False, "input_bytes": input_bytes,
        "payload_bytes": payload, "times": times, "total_times": times, "median": med,
        "min": min(times), "max": max(times), "median_total": med, "baseline_rss_kib": baseline,
        "peak_rss_kib": max(peak, status_kib("VmHWM")), "rss_after_kib": rss_after,
        "heap_bytes": None, "heap_calls": None,
        "onnx_version": onnx.__version__,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
