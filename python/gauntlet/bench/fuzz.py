"""The fuzz rows of `make bench`: executions per second of each libFuzzer target on one core.

Each target (build-fuzz/bin/TARGET, built by tools/setup_fuzz.sh: libFuzzer, ASan and UBSan)
runs twice over its committed corpus with its options (corpus/TARGET.options) and a fixed seed:
once replaying the corpus alone (-runs=0), once replaying it and then running RUNS mutated inputs.
The row is the mutated inputs over the CPU time the second run took beyond the first: what a
campaign spends its night on. Counting the replay too, the row fell by a third when a campaign grew
fuzz_external's corpus by half; beyond the replay it moves with what the mutated inputs cost
(docs/fuzzing.md, "The fuzz rows beyond the replay"). The replay's own rate is shown beside it.
New inputs go to a scratch folder (on /dev/shm where writable: the row measures the target, not
the disk) so the corpus is only read. CPU time is the process's (user and system, from its
rusage): on a machine shared with other jobs the wall time says more about them than about the
target; the campaign records count the same way. The targets whose oracle has an expensive share (harness/fuzz/fuzz_share.hpp) also run with
GAUNTLET_FUZZ_FULL_ORACLE=1, every check on every input: the oracle they had before the share.
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


def run_libfuzzer(root: str, binary: str, target: str, full_oracle: bool, runs: int) -> dict:
    """One libFuzzer process over the target's corpus: its executions, CPU and wall seconds."""
    corpus = os.path.join(root, "corpus")
    flags = options.libfuzzer_flags(target, corpus)
    env = options.sanitizer_env(target, corpus, dict(os.environ, GAUNTLET_FUZZ_FULL_ORACLE="1" if full_oracle else "0"))
    scratch = tempfile.mkdtemp(prefix=f"bench-{target}-", dir=paths.memory_scratch())
    cmd = [binary, *flags, f"-runs={runs}", f"-max_total_time={MAX_SECONDS}", "-seed=1", "-print_final_stats=1",
           scratch, os.path.join(corpus, target)]
    t0 = time.monotonic()
    cpu0 = cpu_seconds_of_children()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=MAX_SECONDS * 3, env=env)
    except subprocess.TimeoutExpired:
        return {"error": f"no end within {MAX_SECONDS * 3} s"}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    units = re.search(r"stat::number_of_executed_units: (\d+)", p.stderr)
    if p.returncode != 0 or not units:
        return {"error": f"exit {p.returncode}: {p.stderr.strip().splitlines()[-1:] or ''}"}
    return {"executions": int(units.group(1)), "cpu_seconds": cpu_seconds_of_children() - cpu0,
            "seconds": time.monotonic() - t0}


def beyond_replay(replay: dict, whole: dict) -> dict:
    """The mutated inputs' row: what the whole run did beyond the corpus's replay."""
    n = whole["executions"] - replay["executions"]
    cpu = whole["cpu_seconds"] - replay["cpu_seconds"]
    seconds = whole["seconds"] - replay["seconds"]
    if n <= 0 or cpu <= 0 or seconds <= 0:
        return {"error": f"no mutated input measured ({n} executions, {cpu:.2f} CPU-s beyond the replay)"}
    return {"executions": n, "seconds": round(seconds, 2), "cpu_seconds": round(cpu, 2),
            "per_second": round(n / cpu), "per_wall_second": round(n / seconds),
            "replay": {"executions": replay["executions"], "cpu_seconds": round(replay["cpu_seconds"], 2),
                       "per_second": round(replay["executions"] / replay["cpu_seconds"])
                       if replay["cpu_seconds"] > 0 else None}}


def run_one(root: str, binary: str, target: str, full_oracle: bool) -> dict:
    replay = run_libfuzzer(root, binary, target, full_oracle, 0)
    if "error" in replay:
        return replay
    whole = run_libfuzzer(root, binary, target, full_oracle, replay["executions"] + RUNS)
    if "error" in whole:
        return whole
    return dict(beyond_replay(replay, whole), corpus_inputs=len(os.listdir(os.path.join(root, "corpus", target))))


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


def replay_cell(r: dict) -> str:
    replay = r.get("replay")
    if not replay or not replay["per_second"]:
        return "-"
    return f"{replay['per_second']} ({replay['executions']} inputs in {replay['cpu_seconds']} CPU-s)"


def markdown(fuzz: dict) -> list:
    lines = ["", f"Fuzz targets: libFuzzer (ASan, UBSan) over the committed corpus, a fixed seed, one process: "
             f"{RUNS} mutated inputs (at most {MAX_SECONDS} s) after the corpus's replay, per CPU-second of the "
             "process beyond a run that only replays the corpus; the replay's own rate beside it. `every check` "
             "sets GAUNTLET_FUZZ_FULL_ORACLE=1 (harness/fuzz/fuzz_share.hpp).", "",
             "| target | executions/s | executions/s, every check on every input | ratio "
             "| the corpus's replay, inputs/s |",
             "| --- | --- | --- | --- | --- |"]
    for target, row in fuzz.items():
        if "not_run" in row:
            lines.append(f"| {target} | not run: {row['not_run']} | | | |")
            continue
        share, full = row["share"], row.get("full")
        ratio = (f"{share['per_second'] / full['per_second']:.1f}x"
                 if full and "per_second" in share and "per_second" in full and full["per_second"] else "-")
        lines.append(f"| {target} | {cell(share)} | {cell(full) if full else '- (no share)'} | {ratio} | "
                     f"{replay_cell(share)} |")
    return lines
