"""`python3 -m gauntlet fuzz-compare TARGET --runs N [--seeds DIR]`: what the structure-aware
mutator is worth. FUZZ_BUILD/bin/TARGET (with it) and TARGET_plain (libFuzzer's own mutators
only; tools/setup_fuzz.sh builds both) each run N executions from the same seeds (default
corpus/TARGET/) with the same dictionary, options and RNG seed; one line per variant gives
the coverage reached, the inputs found and the speed. Nothing is merged or filed."""
import argparse
import os
import sys
import tempfile

from gauntlet.fuzz import engine
from gauntlet.fuzz import options
from gauntlet.fuzz import paths


def run_variant(binary, target, runs, seeds, work):
    """(libFuzzer's log summary, inputs found) of one variant; the seeds are read, never written."""
    new = os.path.join(work, "new")
    os.makedirs(new)
    log = os.path.join(work, "fuzz.log")
    cmd = [binary] + options.libfuzzer_flags(target) + [
        "-seed=1", f"-runs={runs}", "-print_final_stats=1", "-timeout=25",
        f"-artifact_prefix={work}/", new, seeds]
    _, _, _, wall = engine.run_measured(cmd, log, 3600, cwd=work, env=options.sanitizer_env(target))
    with open(log, encoding="utf-8", errors="replace") as f:
        stats = engine.parse_libfuzzer_log(f.read())
    stats["execs_per_second"] = int(stats["execs"] / wall) if wall else 0
    return stats, sum(1 for e in os.scandir(new) if e.is_file())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("target")
    ap.add_argument("--runs", type=int, required=True, help="executions per variant")
    ap.add_argument("--seeds", default=None, help="seed folder (default corpus/TARGET/)")
    args = ap.parse_args(argv)
    seeds = os.path.abspath(args.seeds or os.path.join(paths.CORPUS, args.target))
    variants = [args.target, args.target + "_plain"]
    missing = [v for v in variants if not os.access(paths.binary(v), os.X_OK)]
    if missing:
        print(f"fuzz-compare: {', '.join(missing)} not in {paths.FUZZ_BUILD}/bin (tools/setup_fuzz.sh)",
              file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="fuzz-compare-") as tmp:
        for variant in variants:
            work = os.path.join(tmp, variant)
            os.makedirs(work)
            stats, found = run_variant(paths.binary(variant), args.target, args.runs, seeds, work)
            print(f"{variant}: runs={args.runs} cov: {stats.get('edges', '?')} ft: {stats.get('features', '?')} "
                  f"new_inputs={found} execs/s={stats['execs_per_second']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
