"""Compares the two sides of the backend-test sweep (spec section 8) and writes the
per-model table.

usage: report.py OUT_DIR CPP_SECONDS PY_SECONDS

OUT_DIR holds cpp/ (written by dump-all: <rel>.dump or <rel>.refused) and py/ (written by
python/gauntlet/sweep/onnx_dump.py --dir: <rel>.dump, <rel>.skipped or <rel>.failed). Writes
OUT_DIR/table.tsv (model, status, detail), OUT_DIR/skipped.txt (model and reason),
OUT_DIR/diffs/<rel>.diff (the unified diff from tools/compare_onnx_dump.sh) and prints the
summary; its last line is `N passed, N failed` (`, N skipped` when any were skipped).
Exit 1 on any failure. A model counts as passed only when both dumps exist and are equal.
"""
import os
import subprocess
import sys

from gauntlet import settings
from gauntlet.text import one_line

COMPARE = os.path.join(settings.TOOLS, "compare_onnx_dump.sh")


def outcomes(side_dir):
    """{rel: (extension, path)} for every file a side wrote."""
    found = {}
    for dirpath, _dirs, files in os.walk(side_dir):
        for name in files:
            stem, ext = os.path.splitext(name)
            rel = os.path.relpath(os.path.join(dirpath, stem), side_dir).replace(os.sep, "/")
            found[rel] = (ext, os.path.join(dirpath, name))
    return found


def read(path):
    with open(path, "rb") as f:
        return f.read()



def first_difference(a, b):
    la, lb = a.split(b"\n"), b.split(b"\n")
    for i in range(max(len(la), len(lb))):
        x = la[i] if i < len(la) else b"<end of dump>"
        y = lb[i] if i < len(lb) else b"<end of dump>"
        if x != y:
            return "line %d: cpp %s | py %s" % (i + 1, one_line(x) or "<empty>", one_line(y) or "<empty>")
    return "dumps differ"


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    out_dir, cpp_seconds, py_seconds = argv[1], float(argv[2]), float(argv[3])
    cpp = outcomes(os.path.join(out_dir, "cpp"))
    py = outcomes(os.path.join(out_dir, "py"))
    rows, skipped = [], []
    for rel in sorted(set(cpp) | set(py)):
        c, p = cpp.get(rel), py.get(rel)
        if c is None or p is None:
            status, detail = "fail", "only one side wrote a result (%s)" % ("cpp" if c else "py")
        elif c[0] == ".refused":
            status, detail = "refused", one_line(read(c[1]))
        elif p[0] == ".skipped":
            status, detail = "skipped", one_line(read(p[1]))
            skipped.append((rel, detail))
        elif p[0] != ".dump":
            status, detail = "fail", "python side: " + one_line(read(p[1]))
        else:
            a, b = read(c[1]), read(p[1])
            if a == b:
                status, detail = "pass", ""
            else:
                status, detail = "diff", first_difference(a, b)
                target = os.path.join(out_dir, "diffs", rel + ".diff")
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, "wb") as f:
                    f.write(subprocess.run([COMPARE, c[1], p[1]], stdout=subprocess.PIPE).stdout)
        rows.append((rel, status, detail))

    with open(os.path.join(out_dir, "table.tsv"), "w", encoding="utf-8") as f:
        f.write("model\tstatus\tdetail\n")
        for row in rows:
            f.write("\t".join(row) + "\n")
    with open(os.path.join(out_dir, "skipped.txt"), "w", encoding="utf-8") as f:
        for rel, reason in skipped:
            f.write("%s\t%s\n" % (rel, reason))

    passed = sum(1 for r in rows if r[1] == "pass")
    n_skipped = len(skipped)
    failed = len(rows) - passed - n_skipped
    for rel, status, detail in rows:
        if status not in ("pass", "skipped"):
            print("%s\t%s\t%s" % (rel, status, detail))
    for rel, reason in skipped:
        print("%s\tskipped\t%s" % (rel, reason))
    print("table: %s" % os.path.join(out_dir, "table.tsv"))
    print("wall time: C++ side %.2f s, Python side %.2f s (%d models)" % (cpp_seconds, py_seconds, len(rows)))
    summary = "%d passed, %d failed" % (passed, failed)
    if n_skipped:
        summary += ", %d skipped (reasons: %s)" % (n_skipped, os.path.join(out_dir, "skipped.txt"))
    print(summary)
    return 1 if failed or not rows else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
