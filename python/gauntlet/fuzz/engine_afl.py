"""AFL++ for one slice of the nightly campaign (`make nightly ENGINE=afl`): one main (-M)
and JOBS-1 secondary (-S) afl-fuzz instances in persistent mode on build-fuzz/afl/bin/,
seeded with the corpus files within the target's max_len (AFL++ wants small seeds). Its queue's new entries go to the
campaign's new-inputs folder, to be merged with the libFuzzer binary like libFuzzer's;
its crashes and hangs are handed to triage, which keeps only those the libFuzzer binary
reproduces. CPU-seconds are the kernel's count for the afl-fuzz processes and everything
they started, the targets included: the campaign is their subreaper (engine.py), so a
target outliving its forkserver is still counted when it is reaped."""
import hashlib
import os
import shutil
import threading

from gauntlet.fuzz import engine
from gauntlet.fuzz import options as options_mod

SCHEDULES = ("explore", "coe", "rare", "lin", "quad", "exploit")


def afl_env():
    env = dict(os.environ, AFL_NO_UI="1", AFL_SKIP_CPUFREQ="1", AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES="1",
               AFL_NO_AFFINITY="1", AFL_FAST_CAL="1")
    # Every sanitizer finding must abort (AFL++ sees signals); libFuzzer's memory limits.
    env["ASAN_OPTIONS"] = ("abort_on_error=1:symbolize=0:detect_leaks=0:malloc_context_size=0:"
                           "allocator_may_return_null=0:max_allocation_size_mb=2048:hard_rss_limit_mb=2048")
    env["UBSAN_OPTIONS"] = "halt_on_error=1:abort_on_error=1:symbolize=0"
    return env


def stat(path, key):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                k, _, v = line.partition(":")
                if k.strip() == key:
                    return float(v.strip().rstrip("%") or 0)
    except OSError:
        pass
    return 0.0


def afl(target, afl_binary, lf_binary, flags, seconds, jobs, new_dir, corpus, work, stopper, corpus_root, nice=None):
    if not (os.access(afl_binary, os.X_OK) and shutil.which("afl-fuzz")):
        raise SystemExit(f"nightly: {afl_binary} or afl-fuzz missing (tools/setup_fuzz.sh --afl)")
    max_len = min(options_mod.max_len(target, corpus_root), 1 << 20)
    n = len([d for d in os.listdir(work) if d.startswith("afl-")]) if os.path.isdir(work) else 0
    seeds, out = os.path.join(work, f"afl-seeds-{n}"), os.path.join(work, f"afl-{n}")
    os.makedirs(seeds, exist_ok=True)
    for folder in (corpus, new_dir):
        for e in os.scandir(folder) if os.path.isdir(folder) else []:
            if e.is_file() and e.stat().st_size <= max_len:
                shutil.copyfile(e.path, os.path.join(seeds, e.name))
    if not os.listdir(seeds):
        with open(os.path.join(seeds, "empty"), "wb") as f:
            f.write(b"\x08\x07")
    dictionary = os.path.join(corpus_root, target + ".dict")
    common = ["-i", seeds, "-o", out, "-G", str(max_len), "-V", str(int(seconds)), "-m", "none", "-t", "5000"]
    if os.path.isfile(dictionary):
        common += ["-x", dictionary]
    prefix = ["nice", "-n", str(nice)] if nice is not None else []
    cmds = [prefix + ["afl-fuzz", "-M", "main"] + common + ["--", afl_binary]]
    for k in range(1, jobs):
        cmds.append(prefix + ["afl-fuzz", "-S", f"secondary{k}", "-p", SCHEDULES[(k - 1) % len(SCHEDULES)]]
                    + common + ["--", afl_binary])
    results = [None] * len(cmds)
    env = afl_env()

    def run(i):
        results[i] = engine.run_measured(cmds[i], os.path.join(work, f"afl-{n}-{i}.log"), seconds + 300,
                                         stopper, cwd=work, env=env)

    cpu_before = engine.children_cpu()
    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(cmds))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    cpu = engine.children_cpu(settle=10) - cpu_before
    stats = [os.path.join(out, d, "fuzzer_stats") for d in (os.listdir(out) if os.path.isdir(out) else [])]
    found = []
    os.makedirs(new_dir, exist_ok=True)
    for inst in (os.listdir(out) if os.path.isdir(out) else []):
        for kind in ("crashes", "hangs"):
            folder = os.path.join(out, inst, kind)
            found += [os.path.join(folder, f) for f in sorted(os.listdir(folder)) if f.startswith("id:")] \
                if os.path.isdir(folder) else []
        queue = os.path.join(out, inst, "queue")
        for f in sorted(os.listdir(queue)) if os.path.isdir(queue) else []:
            if f.startswith("id:") and "orig:" not in f:
                with open(os.path.join(queue, f), "rb") as src:
                    data = src.read()
                with open(os.path.join(new_dir, hashlib.sha1(data).hexdigest()), "wb") as dst:
                    dst.write(data)
    return {"cpu_seconds": cpu, "wall_seconds": max((r[3] for r in results if r), default=0),
            "execs": int(sum(stat(s, "execs_done") for s in stats)),
            "peak_rss_mb": max((r[2] for r in results if r), default=0), "rss_series_mb": [],
            "feature_growth": int(sum(stat(s, "corpus_found") for s in stats)),
            "artifacts": found, "runs": 1, "exit_codes": [r[0] for r in results if r]}
