"""Resident memory of one fuzzing process over time: does a target's RSS stay flat over
a campaign (docs/fuzzing.md)? Runs the libFuzzer binary of TARGET on a copy of its corpus for
SECONDS with the target's options ([asan] ones included; plus any extra libFuzzer flags after --), samples
VmRSS and VmHWM from /proc/PID/status every STEP seconds, and prints one line per sample
and a closing line: start, peak, end, executions.

  python/gauntlet/fuzz/rss.py fuzz_model --seconds 600 [--step 10] [-- -rss_limit_mb=1024]
  ASAN_OPTIONS=quarantine_size_mb=16 python/gauntlet/fuzz/rss.py fuzz_model --seconds 600
  ASAN_OPTIONS=atexit=1:print_stats=1 python/gauntlet/fuzz/rss.py ...   (also prints ASan's breakdown at exit)

docs/fuzzing.md holds what it measured.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from gauntlet.fuzz import options as options_mod
from gauntlet.fuzz import paths
from gauntlet.resident import status_kib


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("target")
    ap.add_argument("--seconds", type=int, default=300)
    ap.add_argument("--step", type=int, default=10)
    ap.add_argument("--binary", default=None, help="default FUZZ_BUILD/bin/TARGET")
    ap.add_argument("extra", nargs="*", help="more libFuzzer flags (after --)")
    args = ap.parse_args()
    binary = args.binary or paths.binary(args.target)
    tmp = tempfile.mkdtemp(prefix="rss-")
    try:
        corpus = os.path.join(tmp, "corpus")
        shutil.copytree(os.path.join(paths.CORPUS, args.target), corpus)
        cmd = [binary] + options_mod.libfuzzer_flags(args.target) + args.extra + [
            f"-max_total_time={args.seconds}", "-print_final_stats=1", f"-artifact_prefix={tmp}/", corpus]
        log = open(os.path.join(tmp, "log"), "w+")
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=options_mod.sanitizer_env(args.target))
        start = time.monotonic()
        samples = []
        while proc.poll() is None:
            rss, hwm = status_kib(proc.pid, "VmRSS"), status_kib(proc.pid, "VmHWM")
            if rss is not None:
                t = time.monotonic() - start
                samples.append((t, rss // 1024, hwm // 1024))
                print(f"{t:7.0f} s  VmRSS {rss // 1024:5d} MiB  VmHWM {hwm // 1024:5d} MiB", flush=True)
            time.sleep(args.step)
        log.seek(0)
        text = log.read()
        execs = re.findall(r"stat::number_of_executed_units:\s+(\d+)", text)
        peak = re.findall(r"stat::peak_rss_mb:\s+(\d+)", text)
        # ASAN_OPTIONS=atexit=1:print_stats=1: the sanitizer's breakdown at exit.
        for line in text.splitlines():
            if line.startswith(("Stats:", "Quarantine limits", "Global quarantine")):
                print(line)
        if samples:
            print(f"{args.target}: start {samples[0][1]} MiB, peak {max(s[2] for s in samples)} MiB, end "
                  f"{samples[-1][1]} MiB over {samples[-1][0]:.0f} s; execs {execs[-1] if execs else '?'}; "
                  f"libFuzzer peak_rss_mb {peak[-1] if peak else '?'}; exit {proc.returncode}")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
