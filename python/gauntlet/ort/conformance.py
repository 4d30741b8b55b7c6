"""Conformance of the .ort reader against ONNX Runtime.

usage: conformance.py --build BUILD [--peer DIR] [--subset N] DATA_DIR

For every DATA_DIR/<rel>/model.onnx, ONNX Runtime (npm onnxruntime-node installed by
tools/install_peer.sh into DIR: default BUILD/peer, else build/peer of the checkout)
writes <rel>/model.ort; build/bin/dump-all dumps both files with our importer; the dumps
are compared after the normalizations ONNX Runtime applies (normalize.py,
docs/ort-normalizations.md). Everything else must be equal.

--subset N takes N models spread evenly over the sorted list (deterministic).
Writes BUILD/ort-conformance/<data set>/: ort/ (the .ort files), onnx-dump/, ort-dump/,
table.tsv (model, status, detail), ort-refused.tsv (ONNX Runtime's own errors) and
diffs/. The last line is `N passed, N failed`. Exit 0 when nothing failed, 1 otherwise,
2 on a usage error, 77 when node or the npm peer is missing (a skip, with the reason).
"""
import argparse
import difflib
import os
import shutil
import subprocess
import sys
import time

from gauntlet import settings
from gauntlet.ort import dumptree
from gauntlet.ort import normalize
from gauntlet.ort import peer
from gauntlet.ort.write_all import write_all

SKIP = 77


def find_models(data):
    rels = []
    for dirpath, _dirs, files in os.walk(data, followlinks=True):
        if "model.onnx" in files:
            rels.append(os.path.relpath(dirpath, data).replace(os.sep, "/"))
    return sorted(rels)


def subset(rels, n):
    if n is None or n >= len(rels):
        return rels
    step = len(rels) / n
    return [rels[int(i * step)] for i in range(n)]


def dump_all(build, data, out, file_name):
    cmd = [os.path.join(build, "bin", "dump-all"), "--file", file_name, data, out]
    rc = subprocess.run(cmd, stdout=subprocess.DEVNULL).returncode
    if rc > 1:
        raise SystemExit("ort_conformance: %s failed with exit %d" % (" ".join(cmd), rc))


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def compare(out, rel, applied_counts):
    """(status, detail) of one model whose .ort ONNX Runtime wrote."""
    ours = os.path.join(out, "ort-dump", rel)
    if os.path.exists(ours + ".refused"):
        return "failed", "our reader refused the .ort: " + read(ours + ".refused").strip()
    onnx = os.path.join(out, "onnx-dump", rel)
    if not os.path.exists(onnx + ".dump"):
        return "failed", "our importer refused the .onnx: " + read(onnx + ".refused").strip()
    a, b = dumptree.parse(read(onnx + ".dump")), dumptree.parse(read(ours + ".dump"))
    applied = normalize.normalize(a, b)
    ta, tb = dumptree.render(a), dumptree.render(b)
    if ta == tb:
        for name in applied:
            applied_counts[name] = applied_counts.get(name, 0) + 1
        return "passed", ",".join(sorted(applied))
    return "failed", "dumps differ after normalization: " + write_diff(out, rel, ta, tb)


def write_diff(out, rel, ta, tb):
    """OUT/diffs/<rel>.diff: the normalized .onnx dump against the .ort's; returns its path."""
    diff = "".join(difflib.unified_diff(ta.splitlines(True), tb.splitlines(True), "onnx (normalized)", "ort"))
    path = os.path.join(out, "diffs", rel + ".diff")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(diff)
    return path


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--build")
    ap.add_argument("--peer")
    ap.add_argument("--subset", type=int)
    ap.add_argument("data", nargs="?")
    args = ap.parse_args(argv[1:])
    build = settings.build_dir(args.build)
    data = settings.backend_data(build, "ort conformance", args.data)
    module = peer.module(args.peer, build)
    reason = peer.missing(module)
    if reason:
        print("skipped: " + reason)
        return SKIP
    rels = subset(find_models(data), args.subset)
    if not rels:
        print("ort_conformance: no model.onnx under " + data, file=sys.stderr)
        return 2
    out = os.path.join(build, "ort-conformance", os.path.basename(data.rstrip("/")) + (
        "-subset%d" % args.subset if args.subset else ""))
    shutil.rmtree(out, ignore_errors=True)
    t0 = time.time()
    jobs = [(r, os.path.join(data, r, "model.onnx"), os.path.join(out, "ort", r, "model.ort")) for r in rels]
    ort_errors, version = write_all(module, jobs)
    t1 = time.time()
    dump_all(build, data, os.path.join(out, "onnx-dump"), "model.onnx")
    written = [r for r in rels if os.path.exists(os.path.join(out, "ort", r, "model.ort"))]
    if written:
        dump_all(build, os.path.join(out, "ort"), os.path.join(out, "ort-dump"), "model.ort")
    return report(out, data, rels, written, ort_errors, version, t1 - t0)


def report(out, data, rels, written, ort_errors, version, write_seconds):
    rows, applied = [], {}
    for rel in rels:
        if rel in written:
            rows.append((rel,) + compare(out, rel, applied))
        else:
            rows.append((rel, "not-written", ort_errors.get(rel) or "no .ort file"))
    with open(os.path.join(out, "table.tsv"), "w", encoding="utf-8") as f:
        f.writelines("%s\t%s\t%s\n" % row for row in rows)
    with open(os.path.join(out, "ort-refused.tsv"), "w", encoding="utf-8") as f:
        f.writelines("%s\t%s\n" % (r, m) for r, m in sorted(ort_errors.items()) if m)
    print("ort_conformance: %s, ONNX Runtime %s (%.1f s to write)" % (data, version, write_seconds))
    for rel, message in sorted(ort_errors.items()):
        if message:
            wrote = "wrote the .ort, then" if rel in written else "wrote no .ort:"
            print("  ONNX Runtime %s refused %s: %s" % (wrote, rel, message[:300]))
    failed = [r for r in rows if r[1] == "failed"]
    for rel, _status, detail in failed:
        print("  FAILED %s: %s" % (rel, detail))
    imported = sum(1 for r in written if os.path.exists(os.path.join(out, "ort-dump", r + ".dump")))
    print("ort_conformance: %d models, ONNX Runtime wrote %d .ort files (%d refused by it), our reader imported %d"
          % (len(rels), len(written), sum(1 for m in ort_errors.values() if m), imported))
    for name, n in sorted(applied.items(), key=lambda kv: -kv[1]):
        print("  normalization %s: %d models" % (name, n))
    print("%d passed, %d failed" % (len(written) - len(failed), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
