"""The fuzz rows of `make bench`: executions per second of each libFuzzer target on one core.

Each target (build-fuzz/bin/TARGET, built by tools/setup_fuzz.sh: libFuzzer, ASan and UBSan)
runs once over its committed corpus with its options (corpus/TARGET.options), a fixed seed and
-runs=RUNS (the corpus first, then mutations), new inputs going to a scratch folder (on /dev/shm
where writable: the row measures the target, not the disk) so the corpus is only read. The row
is libFuzzer's own count of executions over the CPU time of the process (user and system, from
its rusage): on a machine shared with other jobs the wall time says more about them than about
the target; the campaign records count the same way. The targets whose oracle has an expensive
share (harness/fuzz/fuzz_share.hpp) also run with GAUNTLET_FUZZ_FULL_ORACLE=1, every check on
every input: the oracle they had before the share.
"""
import os
import re
import resource
import shutil
import subprocess
import tempfile
import time

from gauntlet.fuzz import options, paths

RUNS = 20000
MAX_SECONDS = 90
WITH_SHARE = ("fuzz_model", "fuzz_external", "fuzz_roundtrip")


def cpu_seconds_of_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_one(root: str, binary: str, target: str, full_oracle: bool) -> dict:
    corpus = os.path.join(root, "corpus")
    flags = options.libfuzzer_flags(target, corpus)
    env = options.sanitizer_env(target, corpus, dict(os.environ, GAUNTLET_FUZZ_FULL_ORACLE="1" if full_oracle else "0"))
    scratch = tempfile.mkdtemp(prefix=f"bench-{target}-", dir=paths.memory_scratch())
    cmd = [binary, *flags, f"-runs={RUNS}", f"-max_total_time={MAX_SECONDS}", "-seed=1", "-print_final_stats=1",
           scratch, os.path.join(corpus, target)]
    t0 = time.monotonic()
    cpu0 = cpu_seconds_of_children()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=MAX_SECONDS * 3, env=env)
    except subprocess.TimeoutExpired:
        return {"error": f"no end within {MAX_SECONDS * 3} s"}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    seconds = time.monotonic() - t0
    cpu = cpu_seconds_of_children() - cpu0
    units = re.search(r"stat::number_of_executed_units: (\d+)", p.stderr)
    if p.returncode != 0 or not units:
        return {"error": f"exit {p.returncode}: {p.stderr.strip().splitlines()[-1:] or ''}"}
    n = int(units.group(1))
    return {"executions": n, "seconds": round(seconds, 2), "cpu_seconds": round(cpu, 2),
            "per_second": round(n / cpu), "per_wall_second": round(n / seconds),
            "corpus_inputs": len(os.listdir(os.path.join(root, "corpus", target)))}


def rows(root: str, fuzz_build: str, log) -> dict:
    out = {}
    for target in paths.declared_targets():
        binary = os.path.join(fuzz_build, "bin", target)
        if not os.access(binary, os.X_OK):
            out[target] = {"not_run": f"{binary} missing (tools/setup_fuzz.sh builds it)"}
            continue
        out[target] = {"share": run_one(root, binary, target, False)}
        if target in WITH_SHARE:
            out[target]["full"] = run_one(root, binary, target, True)
        log(f"fuzz {target}: {out[target]}")
    return out


def cell(r: dict) -> str:
    if "per_second" not in r:
        return f"error: {r['error'][:80]}"
    return f"{r['per_second']} ({r['executions']} in {r['cpu_seconds']} CPU-s, {r['seconds']} s)"


def markdown(fuzz: dict) -> list:
    lines = ["", f"Fuzz targets: libFuzzer (ASan, UBSan) over the committed corpus, -runs={RUNS} "
             f"(at most {MAX_SECONDS} s), one process; executions per CPU-second of the process. "
             "`every check` sets GAUNTLET_FUZZ_FULL_ORACLE=1 (harness/fuzz/fuzz_share.hpp).", "",
             "| target | executions/s | executions/s, every check on every input | ratio |",
             "| --- | --- | --- | --- |"]
    for target, row in fuzz.items():
        if "not_run" in row:
            lines.append(f"| {target} | not run: {row['not_run']} | | |")
            continue
        share, full = row["share"], row.get("full")
        ratio = (f"{share['per_second'] / full['per_second']:.1f}x"
                 if full and "per_second" in share and "per_second" in full and full["per_second"] else "-")
        lines.append(f"| {target} | {cell(share)} | {cell(full) if full else '- (no share)'} | {ratio} |")
    return lines
