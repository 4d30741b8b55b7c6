"""`python3 -m gauntlet fuzz-prune [--targets T,...] [--dry-run]`: cuts each committed corpus to a
coverage-preserving subset of itself, as ClusterFuzzLite's prune mode does to its own store
(docs/fuzzing.md, "The committed corpora: minimized"). Campaigns only add to a corpus; this is
the step that takes away what later inputs made redundant.

Per target, with its libFuzzer binary (FUZZ_BUILD/bin, tools/setup_fuzz.sh) and options:
  1. measures the corpus (edges, features, files, bytes);
  2. copies the named seeds (any file not named by a SHA-1, as libFuzzer and the campaign name
     what they keep; tests read the named ones by name) into an empty folder, then merges the
     corpus into it (libFuzzer -merge=1): what adds coverage beyond the seeds is kept;
  3. merges the corpus into the cut once more: what a pass did not count (the targets that read
     files or start threads cover an edge or two more or less from one pass to the next) gets
     its second chance (and a copy such a pass made of a named seed is dropped);
  4. measures the cut, and replaces the corpus by it only if its edges are within the corpus's
     own spread: two passes over each, the cut's higher count no lower than the corpus's lower
     one (fuzz_external counted 4713, 4715 and 4715 edges in three passes over one folder);
     features are printed, not judged: they move more.
One table row per target; nothing is recorded in corpus/campaigns.jsonl (no fuzzing ran). Run it
while no campaign runs: what a campaign merges after the cut's merge would be removed with the rest.
Exit status: 2 when a target's binary is missing, 0 otherwise."""
import argparse
import hashlib
import os
import re
import shutil
import sys
import tempfile

from gauntlet.fuzz import engine
from gauntlet.fuzz import options
from gauntlet.fuzz import paths

SHA1_NAME = re.compile(r"[0-9a-f]{40}")


def is_named_seed(file_name):
    return not SHA1_NAME.fullmatch(file_name)


def content_sha1(path):
    """The name libFuzzer's merge gives the file's bytes."""
    with open(path, "rb") as f:
        return hashlib.sha1(f.read()).hexdigest()


def drop_seed_copies(folder, seeds):
    """Removes the copies of named seeds a merge added under their SHA-1 (a pass that counted a
    seed's edges late finds them new in its copy: fuzz_ort's first cut added two)."""
    for seed in seeds:
        copy = os.path.join(folder, content_sha1(seed))
        if os.path.exists(copy):
            os.remove(copy)


def folder_bytes(folder):
    return sum(e.stat().st_size for e in os.scandir(folder) if e.is_file())


def measure_passes(binary, flags, folder, work, nice, env):
    """measure_corpus's figures of the first of two passes, with the edges of both in `edges_passes`."""
    first = engine.measure_corpus(binary, flags, folder, work, nice, env)
    second = engine.measure_corpus(binary, flags, folder, work, nice, env)
    first["edges_passes"] = [first["edges"], second["edges"]]
    first["bytes"] = folder_bytes(folder)
    return first


def keeps_coverage(before, after):
    """The cut may replace the corpus: every pass counted, and the cut's best pass reaches the
    corpus's worst (a loss beyond the spread of passes over one folder fails it)."""
    passes = before["edges_passes"] + after["edges_passes"]
    return None not in passes and max(after["edges_passes"]) >= min(before["edges_passes"])


def replace_with(corpus_dir, kept_dir):
    """corpus_dir's files become kept_dir's: files the cut dropped are removed, any it named
    differently (a SHA-1 name that was not its content's) copied in."""
    kept = {e.name for e in os.scandir(kept_dir) if e.is_file()}
    for e in os.scandir(corpus_dir):
        if e.is_file() and e.name not in kept:
            os.remove(e.path)
    for name in kept:
        if not os.path.exists(os.path.join(corpus_dir, name)):
            shutil.copy2(os.path.join(kept_dir, name), os.path.join(corpus_dir, name))


def prune(target, binary, corpus_dir, work, apply=True, nice=None, corpus_root=paths.CORPUS):
    """One target's row: before and after, and whether the corpus was replaced."""
    flags = options.libfuzzer_flags(target, corpus_root)
    env = options.sanitizer_env(target, corpus_root)
    before = measure_passes(binary, flags, corpus_dir, work, nice, env)
    kept_dir = os.path.join(work, "kept")
    os.makedirs(kept_dir)
    seeds = [e for e in os.scandir(corpus_dir) if e.is_file() and is_named_seed(e.name)]
    for e in seeds:
        shutil.copy2(e.path, os.path.join(kept_dir, e.name))
    for _ in range(2):
        engine.merge(binary, flags, kept_dir, [corpus_dir], work, nice, env)
    drop_seed_copies(kept_dir, [e.path for e in seeds])
    after = measure_passes(binary, flags, kept_dir, work, nice, env)
    replaced = apply and keeps_coverage(before, after)
    if replaced:
        replace_with(corpus_dir, kept_dir)
    return {"target": target, "before": before, "after": after, "replaced": replaced}


TABLE_HEAD = "| target | files | bytes | cov / ft | replaced |\n| --- | ---: | ---: | --- | --- |"


def table_row(r):
    """A markdown row for docs/fuzzing.md: before -> after."""
    b, a = r["before"], r["after"]

    def edges(m):
        low, high = min(m["edges_passes"]), max(m["edges_passes"])
        return f"{low}" if low == high else f"{low}-{high}"
    return (f"| `{r['target']}` | {b['files']:,} -> {a['files']:,} | {b['bytes']:,} -> {a['bytes']:,} | "
            f"{edges(b)} / {b['features']} -> {edges(a)} / {a['features']} | {'yes' if r['replaced'] else 'no'} |")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--targets", default="", help="comma-separated targets (default: every built one)")
    ap.add_argument("--dry-run", action="store_true", help="measure the cut, change no corpus")
    ap.add_argument("--nice", type=int, default=None, help="run libFuzzer under nice -n N")
    args = ap.parse_args(argv)
    targets = [t for t in args.targets.split(",") if t] or paths.targets()
    missing = [t for t in targets if not os.access(paths.binary(t), os.X_OK)]
    if missing or not targets:
        print(f"fuzz-prune: {', '.join(missing) or 'no target'} not in {paths.FUZZ_BUILD}/bin (tools/setup_fuzz.sh)",
              file=sys.stderr)
        return 2
    print(TABLE_HEAD, flush=True)
    for target in targets:
        with tempfile.TemporaryDirectory(prefix=f"prune-{target}-", dir=paths.memory_scratch()) as work:
            row = prune(target, paths.binary(target), os.path.join(paths.CORPUS, target), work,
                        apply=not args.dry_run, nice=args.nice)
        print(table_row(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
