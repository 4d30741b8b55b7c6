"""`python3 -m gauntlet fuzz`: the one fuzz driver (docs/fuzzing.md). `make nightly [HOURS=H]
[JOBS=N] [ENGINE=libfuzzer|afl]` runs it as a team runs it from cron; `make fuzz` gives
each target FUZZ_TIME seconds (--seconds), and `make report` a smoke run (--no-merge).

  1. builds the targets (tools/setup_fuzz.sh) and snapshots each binary, so a rebuild
     during the night does not change what is being fuzzed;
  2. measures each target's corpus (edges, features, files) with its libFuzzer binary;
  3. shares HOURS of wall time among the targets in rounds (budget.py: targets that still
     find new features get more), or gives each --seconds in one round; each slice libFuzzer (-fork=JOBS when JOBS > 1) or
     AFL++ on corpus/TARGET/ with its dictionary and options;
  4. merges what adds coverage into corpus/TARGET/ and measures it again;
  5. triages every crash, timeout, leak and out-of-memory input (triage.py): replayed,
     minimized, deduplicated by stack signature, filed once under corpus/regression/;
  6. appends one record per target to corpus/campaigns.jsonl and prints a table.

Exit status: 1 when a finding reproduces (its reproducer is printed), 2 on a usage or
build error, 0 otherwise. SIGINT or SIGTERM ends the running slice early and still
merges, triages and records what was done (a campaign stopped cleanly is recorded).
"""
import argparse
import datetime
import os
import shutil
import signal
import subprocess
import sys
import time

from gauntlet import settings
from gauntlet.fuzz import budget
from gauntlet.fuzz import engine
from gauntlet.fuzz import options as options_mod
from gauntlet.fuzz import paths
from gauntlet.fuzz import records
from gauntlet.fuzz import triage


def say(line):
    print(f"[nightly {datetime.datetime.now():%H:%M:%S}] {line}", flush=True)


def parse_args(argv):
    ap = argparse.ArgumentParser(description="the nightly fuzz campaign: every target, one record each")
    ap.add_argument("--hours", type=float, default=1.0, help="wall-clock hours of fuzzing shared by the targets")
    ap.add_argument("--seconds", type=int, default=0,
                    help="instead of --hours: each target this many seconds, in one round (make fuzz, make report)")
    ap.add_argument("--jobs", type=int, default=1, help="processes per target (libFuzzer -fork, AFL++ instances)")
    ap.add_argument("--engine", choices=("libfuzzer", "afl"), default="libfuzzer")
    ap.add_argument("--targets", default="", help="comma-separated targets (default: every corpus/TARGET.options)")
    ap.add_argument("--no-build", action="store_true", help="use the binaries in FUZZ_BUILD as they are")
    ap.add_argument("--nice", type=int, default=None, help="run the engines under nice -n N")
    ap.add_argument("--corpus-root", default=None,
                    help="folder of TARGET/ corpora, dicts and options (default corpus/; for a test-only target "
                         "such as fuzz_planted, the campaign's working folder)")
    ap.add_argument("--regression", default=None,
                    help="where findings are filed (default corpus/regression/; for a test-only target, the "
                         "campaign's working folder)")
    ap.add_argument("--record", default=None,
                    help="campaign records file ('-': none; default corpus/campaigns.jsonl, or the campaign's "
                         "working folder when every target is test-only)")
    ap.add_argument("--no-merge", action="store_true", help="leave the corpora as they are")
    ap.add_argument("--slice", type=int, default=600, help="about how long one target runs before the next")
    ap.add_argument("--work", default=None, help="working folder (default FUZZ_BUILD/nightly/ID)")
    args = ap.parse_args(argv)
    if args.hours <= 0 or args.seconds < 0 or args.jobs < 1:
        ap.error("--hours must be positive, --seconds not negative and --jobs at least 1")
    return args


def build(args, names):
    cmd = [os.path.join(settings.TOOLS, "setup_fuzz.sh")] + (["--afl"] if args.engine == "afl" else [])
    if any(n in paths.TEST_ONLY_TARGETS for n in names):
        cmd.append("--test-targets")
    say("building: " + " ".join(os.path.relpath(c, settings.ROOT) if c.startswith("/") else c for c in cmd))
    return subprocess.run(cmd, cwd=settings.ROOT).returncode == 0


class Target:
    def __init__(self, name, args, work):
        self.name = name
        self.work = os.path.join(work, name)
        os.makedirs(self.work, exist_ok=True)
        # The snapshot: what this campaign fuzzes, whatever happens to FUZZ_BUILD meanwhile.
        self.binary = os.path.join(self.work, name)
        shutil.copy2(paths.binary(name), self.binary)
        self.filed_binary = paths.binary(name)  # what a reproducer names
        # The planted crash must not reach the committed corpora: a test-only target keeps
        # its corpus and findings in the working folder unless told otherwise.
        test_only = name in paths.TEST_ONLY_TARGETS
        self.corpus_root = args.corpus_root or (os.path.join(work, "corpus") if test_only else paths.CORPUS)
        self.regression = args.regression or (os.path.join(work, "regression") if test_only else paths.REGRESSION)
        self.flags = options_mod.libfuzzer_flags(name, self.corpus_root)
        self.env = options_mod.sanitizer_env(name, self.corpus_root)
        # fuzz_external writes its side files for every input, and libFuzzer's -fork its job
        # folders: on a memory file system, not on a disk (docs/performance-history.md, "The fuzz rows, 2026-12-05").
        scratch = paths.memory_scratch()
        if "TMPDIR" not in self.env and scratch:
            self.env["TMPDIR"] = scratch
        self.corpus = os.path.join(self.corpus_root, name)
        os.makedirs(self.corpus, exist_ok=True)
        self.new = os.path.join(self.work, "new")
        os.makedirs(self.new, exist_ok=True)
        self.spent = {"cpu_seconds": 0.0, "wall_seconds": 0.0, "execs": 0, "peak_rss_mb": 0.0,
                      "rss_series_mb": [], "slices": 0, "budget_seconds": 0.0, "artifacts": set(),
                      "edges_seen": None, "features_seen": None}
        self.last_growth = None
        self.before = None

    def add(self, result, budget_seconds):
        s = self.spent
        for key in ("cpu_seconds", "wall_seconds", "execs"):
            s[key] += result[key]
        s["peak_rss_mb"] = max(s["peak_rss_mb"], result["peak_rss_mb"])
        s["rss_series_mb"] += result["rss_series_mb"]
        s["slices"] += 1
        s["budget_seconds"] += budget_seconds
        s["artifacts"].update(result["artifacts"])
        # The engine's own count at the end of its last slice (libFuzzer's last status line).
        for key in ("edges", "features"):
            if result.get(key) is not None:
                s[key + "_seen"] = result[key]
        self.last_growth = (result["feature_growth"], max(result["wall_seconds"], 1))


def fuzz_slice(t, seconds, args, stopper):
    if args.engine == "afl":
        from gauntlet.fuzz import engine_afl
        return engine_afl.afl(t.name, paths.afl_binary(t.name), t.binary, t.flags, seconds, args.jobs, t.new,
                              t.corpus, t.work, stopper, t.corpus_root, nice=args.nice)
    return engine.libfuzzer(t.binary, t.flags, seconds, args.jobs, t.new, [t.corpus], t.work, stopper,
                            nice=args.nice, env=t.env)


def main(argv=None):
    args = parse_args(argv if argv is not None else sys.argv[1:])
    names = chosen_targets(args)
    if not names:
        return 2
    started = datetime.datetime.now(datetime.timezone.utc)
    commit, dirty = records.commit(), records.source_dirty()
    campaign = f"{started:%Y%m%dT%H%M%SZ}-{commit[:8]}"
    work = os.path.abspath(args.work or os.path.join(paths.FUZZ_BUILD, "nightly", campaign))
    os.makedirs(work, exist_ok=True)
    if args.record is None:
        only_tests = all(n in paths.TEST_ONLY_TARGETS for n in names)
        args.record = os.path.join(work, "campaigns.jsonl") if only_tests else paths.CAMPAIGNS
    engine.become_subreaper()
    stopper = engine.Stopper()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: (say("stop asked: ending the running slice, then merging and recording"),
                                       stopper.stop()))
    targets = [Target(n, args, work) for n in names]
    for t in targets:
        t.before = engine.measure_corpus(t.binary, t.flags, t.corpus, t.work, args.nice, t.env)
        say(f"{t.name}: corpus {t.before['files']} files, cov {t.before['edges']} ft {t.before['features']}")
    run_rounds(targets, args, stopper, campaign)
    meta = {"date": f"{started:%Y-%m-%dT%H:%M:%SZ}", "campaign": campaign, "commit": commit, "source_dirty": dirty}
    out, failing = [], []
    for t in targets:
        rec, findings = finish(t, args, stopper, meta)
        out.append(rec)
        failing += [(t.name, f) for f in findings]
    if args.record != "-":
        records.append(args.record, out)
    print_table(out, args.record)
    for name, f in failing:
        print(f"nightly: FINDING in {name}: [{f['signature']}]" + (" (new)" if f["new"] else " (known)"))
        print(f"  reproduce: {f['reproduce']}")
    return 1 if failing else 0


def chosen_targets(args):
    """The targets to fuzz (built first unless --no-build), or None after saying why not."""
    requested = [n for n in args.targets.split(",") if n]
    if not args.no_build and not build(args, requested):
        say("the build failed")
        return None
    names = requested or paths.targets()
    missing = [n for n in names if not os.access(paths.binary(n), os.X_OK)]
    if not names or missing:
        say(f"no binary for {', '.join(missing) or 'any target'} in {paths.FUZZ_BUILD}/bin")
        return None
    return names


def run_rounds(targets, args, stopper, campaign):
    """Fuzzes every target in rounds: --seconds gives each that long in one round, --hours
    shares the time by coverage growth (budget.py)."""
    if args.seconds:
        n_rounds, total = 1, args.seconds * len(targets)
    else:
        total = args.hours * 3600
        n_rounds = budget.rounds_for(total, len(targets), args.slice)
    say(f"campaign {campaign}: {len(targets)} targets, {total:.0f} s in {n_rounds} round(s), "
        f"engine {args.engine}, jobs {args.jobs}")
    deadline = time.monotonic() + total
    for r in range(n_rounds):
        if stopper.stopped:
            break
        round_seconds = (deadline - time.monotonic()) / (n_rounds - r)
        growth = {t.name: t.last_growth for t in targets if t.last_growth} if r else None
        shares = budget.plan([t.name for t in targets], round_seconds, growth)
        for t in targets:
            if stopper.stopped:
                break
            seconds = args.seconds or max(10, int(shares[t.name]))
            say(f"round {r + 1}/{n_rounds}: {t.name} for {seconds} s")
            result = fuzz_slice(t, seconds, args, stopper)
            t.add(result, seconds)
            say(f"  {t.name}: {result['execs']} execs, {result['cpu_seconds']:.0f} cpu-s, "
                f"ft +{result['feature_growth']}, peak rss {result['peak_rss_mb']:.0f} MiB, "
                f"{len(result['artifacts'])} finding file(s) so far")


def finish(t, args, stopper, meta):
    """Merges (unless --no-merge), measures and triages one target: (its record, findings)."""
    added = 0
    after = t.before
    if not args.no_merge:
        added, _ = engine.merge(t.binary, t.flags, t.corpus, [t.new], t.work, args.nice, t.env)
        after = engine.measure_corpus(t.binary, t.flags, t.corpus, t.work, args.nice, t.env)
    if args.engine == "afl":
        # AFL++ counts coverage on a map of its own. What it reached, in libFuzzer's terms, is
        # the corpus with AFL++'s finds, which a merge keeps whole (-merge=1 keeps every feature).
        seen = after if not args.no_merge else engine.measure_corpus(t.binary, t.flags, t.corpus, t.work, args.nice,
                                                                     t.env, also=[t.new])
        t.spent["edges_seen"], t.spent["features_seen"] = seen["edges"], seen["features"]
    findings, unreproduced, untriaged = triage.triage(t.name, t.binary, t.flags, sorted(t.spent["artifacts"]),
                                                      os.path.join(t.work, "triage"), args.engine, t.regression,
                                                      say, shown_binary=t.filed_binary)
    s, rss = t.spent, t.spent["rss_series_mb"]
    rec = dict(meta, **{
        "end": f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%dT%H:%M:%SZ}",
        "host": f"{os.cpu_count()} cores", "target": t.name, "engine": args.engine, "jobs": args.jobs,
        "nice": args.nice, "budget_seconds": round(s["budget_seconds"]),
        "wall_seconds": round(s["wall_seconds"], 1), "cpu_seconds": round(s["cpu_seconds"], 1),
        "execs": s["execs"], "slices": s["slices"],
        "edges_before": t.before["edges"], "edges_after": after["edges"],
        "features_before": t.before["features"], "features_after": after["features"],
        "edges_seen": s["edges_seen"], "features_seen": s["features_seen"],
        "corpus_before": t.before["files"], "corpus_after": after["files"], "new_inputs": added,
        "found_inputs": sum(1 for e in os.scandir(t.new) if e.is_file()),
        "peak_rss_mb": round(s["peak_rss_mb"]), "rss_start_mb": rss[0] if rss else None,
        "rss_end_mb": rss[-1] if rss else None,
        "findings": [{k: f[k] for k in ("signature", "filed", "new", "copies")} for f in findings],
        "unreproduced": len(unreproduced), "untriaged": untriaged, "stopped_early": stopper.stopped,
    })
    return rec, findings


def print_table(recs, record_path):
    print(f"{'target':<22} {'cpu-s':>8} {'execs':>11} {'edges':>13} {'features':>15} {'new':>5} "
          f"{'rss MiB':>8} findings")
    for r in recs:
        print(f"{r['target']:<22} {r['cpu_seconds']:>8.0f} {r['execs']:>11} "
              f"{str(r['edges_before']) + '->' + str(r['edges_after']):>13} "
              f"{str(r['features_before']) + '->' + str(r['features_after']):>15} {r['new_inputs']:>5} "
              f"{r['peak_rss_mb']:>8} {len(r['findings'])}")
    if record_path != "-":
        print(f"nightly: {len(recs)} record(s) appended to {triage.rel(record_path)}")


if __name__ == "__main__":
    sys.exit(main())
