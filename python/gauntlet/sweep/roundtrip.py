"""Round trip of the .onnx writer (conformance 3, the .onnx half).

usage: roundtrip.py --build BUILD [--subset N] [--alignment N] [--threshold BYTES]
                    [--timeout SECONDS] [DATA_DIR]

For every DATA_DIR/<rel>/model.onnx (a folder or a named set; by default the backend data of
gauntlet.settings.backend_data), `onnximport convert`
writes <rel>/model.onnx with its tensors of more than BYTES (default 0: all of them) in
<rel>/model.data at offsets that are multiples of N (default 4096). Then:
  1. our reader imports the copy (build/bin/dump-all) and its dump equals the original's
     once storage is set aside: data_location and external_data lines dropped, an
     external source read as raw (the bytes' SHA-256 still compared);
  2. every external_data offset in the copy's dump is a multiple of N;
  3. the Python onnx package (Debian's, settings.PYTHON) loads the copy with its external data
     (onnx.load, under a time-out per model) and python/gauntlet/sweep/onnx_dump.py of the copy equals
     that of the original, set aside the same way (models onnx cannot represent or load
     in the original are skipped there, with the reason counted).
Writes BUILD/roundtrip/<data set>/: onnx/ (the copies), dumps, table.tsv and diffs/.
--subset N takes N models spread evenly over the sorted list (deterministic). The last
line is `N passed, N failed`; exit 0 when nothing failed, 1 otherwise, 2 on a usage error.
"""
import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import time

from gauntlet import settings
from gauntlet.ort.conformance import find_models, subset  # the same models, the same subsets

STORAGE_LINE = re.compile(r"^\s*(data_location|external_data) ")
OFFSET_LINE = re.compile(r'^\s*external_data "offset" "(\d+)"$')


def storage_blind(text):
    """The dump without what moving bytes between raw_data and an external file changes."""
    out = []
    for line in text.splitlines():
        if STORAGE_LINE.match(line):
            continue
        if line.strip() == "source external":
            line = line.replace("source external", "source raw")
        out.append(line)
    return "\n".join(out) + "\n"


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def convert_all(build, data, out, rels, args):
    """(rel -> refusal message) of the conversions that failed."""
    cli = os.path.join(build, "bin", "onnximport")
    errors = {}
    for rel in rels:
        target = os.path.join(out, "onnx", rel)
        os.makedirs(target, exist_ok=True)
        cmd = [cli, "convert", "--alignment", str(args.alignment), "--threshold", str(args.threshold),
               "--external-data", "model.data", os.path.join(data, rel, "model.onnx"),
               os.path.join(target, "model.onnx")]
        r = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
        if r.returncode != 0:
            errors[rel] = (r.stderr.strip() or "exit %d" % r.returncode)[:500]
    return errors


def dump_all(build, data, out):
    subprocess.run([os.path.join(build, "bin", "dump-all"), data, out], stdout=subprocess.DEVNULL)


def python_check(data, out, rels, timeout):
    """Runs the onnx package in one child process (python_worker below); rel -> result."""
    jobs = [{"rel": r, "original": os.path.join(data, r, "model.onnx"),
             "copy": os.path.join(out, "onnx", r, "model.onnx")} for r in rels]
    cmd = settings.module_argv("gauntlet.sweep.roundtrip") + ["--python-worker", str(timeout)]
    try:
        r = subprocess.run(cmd, input=json.dumps(jobs), capture_output=True, text=True,
                           timeout=timeout * len(jobs) * 3 + 60)
    except subprocess.TimeoutExpired:
        return {j["rel"]: {"status": "failed", "detail": "the onnx package's worker timed out"} for j in jobs}
    results = {}
    for line in r.stdout.splitlines():
        item = json.loads(line)
        results[item.pop("rel")] = item
    for j in jobs:
        results.setdefault(j["rel"], {"status": "failed", "detail": "the onnx worker died: " + r.stderr[-300:]})
    return results


def python_worker(timeout):
    """In the child: onnx.load each copy with its external data, compare onnx_dump's dumps."""
    import signal
    import onnx
    from gauntlet.sweep import onnx_dump

    def on_alarm(_signum, _frame):
        raise TimeoutError("onnx.load took more than %d s" % timeout)

    signal.signal(signal.SIGALRM, on_alarm)
    for job in json.load(sys.stdin):
        signal.alarm(timeout)
        try:
            try:
                original = onnx_dump.dump_file(job["original"])
            except Exception as e:  # onnx 1.12 cannot hold or load the original itself
                result = {"status": "skipped", "detail": "%s: %s" % (type(e).__name__, str(e)[:200])}
            else:
                onnx.load(job["copy"])  # loads the external data too
                same = storage_blind(onnx_dump.dump_file(job["copy"])) == storage_blind(original)
                result = {"status": "passed" if same else "failed",
                          "detail": "" if same else "onnx_dump of the copy differs from the original's"}
        except Exception as e:
            result = {"status": "failed", "detail": "onnx: %s: %s" % (type(e).__name__, str(e)[:300])}
        finally:
            signal.alarm(0)
        result["rel"] = job["rel"]
        print(json.dumps(result), flush=True)
    return 0


def compare_ours(out, rel, alignment):
    """(ok, detail) of our reader's import of the copy."""
    original, copy = os.path.join(out, "original-dump", rel), os.path.join(out, "copy-dump", rel)
    if not os.path.exists(copy + ".dump"):
        return False, "our reader refused the copy: " + read(copy + ".refused").strip()
    a, b = read(original + ".dump"), read(copy + ".dump")
    bad = [int(m.group(1)) for m in map(OFFSET_LINE.match, b.splitlines()) if m and int(m.group(1)) % alignment]
    if bad:
        return False, "external offsets not multiples of %d: %s" % (alignment, bad[:5])
    if storage_blind(a) == storage_blind(b):
        return True, "%d external" % b.count('external_data "location"')
    diff = "".join(difflib.unified_diff(storage_blind(a).splitlines(True), storage_blind(b).splitlines(True),
                                        "original", "copy"))
    path = os.path.join(out, "diffs", rel + ".diff")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(diff)
    return False, "our dumps differ: " + path


def judge(out, rel, convert_errors, python, alignment):
    """(status, detail) of one model."""
    if os.path.exists(os.path.join(out, "original-dump", rel + ".refused")):
        return "skipped", "our importer refuses the original"
    if rel in convert_errors:
        return "failed", "convert: " + convert_errors[rel]
    ok, detail = compare_ours(out, rel, alignment)
    if not ok:
        return "failed", detail
    p = python.get(rel, {"status": "failed", "detail": "no result"})
    if p["status"] == "failed":
        return "failed", p["detail"]
    return "passed", detail + ("; onnx skipped: " + p["detail"] if p["status"] == "skipped" else "")


def main(argv):
    if len(argv) == 3 and argv[1] == "--python-worker":
        return python_worker(int(argv[2]))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--build", help="the build folder (default: $BUILD or build)")
    ap.add_argument("--subset", type=int)
    ap.add_argument("--alignment", type=int, default=4096)
    ap.add_argument("--threshold", type=int, default=0)
    ap.add_argument("--timeout", type=int, default=30)
    ap.add_argument("data", nargs="?")
    args = ap.parse_args(argv[1:])
    build = settings.build_dir(args.build)
    data = settings.backend_data(build, "roundtrip", args.data)
    rels = subset(find_models(data), args.subset)
    if not rels:
        print("roundtrip: no model.onnx under " + data, file=sys.stderr)
        return 2
    out = os.path.join(build, "roundtrip", os.path.basename(data.rstrip("/")) +
                       ("-subset%d" % args.subset if args.subset else ""))
    shutil.rmtree(out, ignore_errors=True)
    t0 = time.time()
    convert_errors = convert_all(build, data, out, rels, args)
    t1 = time.time()
    dump_all(build, data, os.path.join(out, "original-dump"))
    dump_all(build, os.path.join(out, "onnx"), os.path.join(out, "copy-dump"))
    python = python_check(data, out, rels, args.timeout)
    rows = [(rel,) + judge(out, rel, convert_errors, python, args.alignment) for rel in rels]
    return report(out, data, rows, t1 - t0, time.time() - t1)


def report(out, data, rows, convert_seconds, check_seconds):
    with open(os.path.join(out, "table.tsv"), "w", encoding="utf-8") as f:
        f.writelines("%s\t%s\t%s\n" % row for row in rows)
    count = {s: sum(1 for r in rows if r[1] == s) for s in ("passed", "failed", "skipped")}
    onnx_skipped = sum(1 for r in rows if "onnx skipped" in r[2])
    external = sum(1 for r in rows if r[1] == "passed" and not r[2].startswith("0 external"))
    print("roundtrip: %s: %d models, %.1f s to convert, %.1f s to check" %
          (data, len(rows), convert_seconds, check_seconds))
    print("roundtrip: %d copies with external tensors; %d not compared by onnx (it cannot hold the original);"
          " %d skipped (our importer refuses the original)" % (external, onnx_skipped, count["skipped"]))
    for rel, status, detail in rows:
        if status == "failed":
            print("  FAILED %s: %s" % (rel, detail))
    print("%d passed, %d failed" % (count["passed"], count["failed"]))
    return 1 if count["failed"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
