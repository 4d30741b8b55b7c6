"""`onnximport convert model.ort model.onnx` against ONNX Runtime (docs/write.md, "From a .ort"):
ONNX Runtime runs our .onnx of each .ort it writes with outputs bitwise equal to its run of the .ort.

usage: ort_to_onnx.py [--build BUILD] [--subset N] [--peer DIR] [--known FILE] [--timeout S] [DATA]

For every DATA/<rel>/model.onnx, ONNX Runtime (npm onnxruntime-node, tools/install_peer.sh) writes
its .ort (write_all.py, graph optimizations off), `onnximport convert` turns that .ort into a .onnx,
and ONNX Runtime runs both files on the test_data_set_0 inputs, graph optimizations off for both
(on, it optimizes the .onnx it loads and not its unoptimized .ort: fused kernels round otherwise). The
outputs must be equal bit for bit: the same names, element types and shapes in the same order, the
same bytes (NaNs included) and the same strings. The expected outputs are not consulted.

Outcomes: passed; failed (our converter refused the .ort, comparable or not; ONNX Runtime cannot load
or run our .onnx; or the first output that differs); known (listed in python/gauntlet/ort/known-deviations-ort-to-onnx.txt
or --known FILE, with its reason); not-written (ONNX Runtime wrote no .ort: its message);
cannot-load and cannot-run (ONNX Runtime cannot run its own .ort); not-comparable (the test needs
what ONNX Runtime's Node.js API lacks). Files go to BUILD/ort-to-onnx/<data>[-subsetN]: theirs/ (the
.ort files), ours/ (our .onnx files), table.tsv and cannot-run.tsv. The last line is `N passed, N failed`;
exit 1 when any failed, 2 on a usage error, 77 without node or the peer.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

import numpy as np
from google.protobuf.message import DecodeError

from gauntlet import known, settings
from gauntlet.ort import test_data
from gauntlet.ort.conformance import find_models, subset
from gauntlet.ort import peer
from gauntlet.ort.run_conformance import answer_of, report_with_worker, with_known
from gauntlet.ort.write_all import write_all

HERE = os.path.dirname(os.path.abspath(__file__))
KNOWN = os.path.join(HERE, "known-deviations-ort-to-onnx.txt")


def convert_all(build, out, rels):
    """rel -> what `onnximport convert` said, for each .ort it did not turn into a .onnx."""
    errors = {}
    for rel in rels:
        src, dst = os.path.join(out, "theirs", rel, "model.ort"), os.path.join(out, "ours", rel, "model.onnx")
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        p = subprocess.run([os.path.join(build, "bin", "onnximport"), "convert", src, dst],
                           capture_output=True, text=True, errors="replace")
        if p.returncode != 0:
            errors[rel] = "onnximport convert exit %d: %s" % (p.returncode, " ".join(p.stderr.split())[:400])
    return errors


def element_difference(i, theirs, ours):
    """Where two outputs of one element type and shape first differ bit for bit."""
    (_t, a), (_u, b) = test_data.decode(theirs), test_data.decode(ours)
    if a.dtype != object:  # compare the bits: NaN equals NaN only with the same payload
        unsigned = np.dtype("u%d" % a.dtype.itemsize)
        a, b = a.view(unsigned), b.view(unsigned)
    bad = np.asarray(a != b, dtype=bool).reshape(a.shape)
    if not bad.any():  # bytes that decode alike (a bool other than 0 or 1)
        return "output %d (%s): the bytes differ" % (i, theirs["name"])
    first = tuple(int(k) for k in np.argwhere(bad)[0]) if bad.ndim else ()
    return "output %d (%s): %d of %d elements differ; first at %s: ours %s, the .ort's %s" % (
        i, theirs["name"], int(bad.sum()), bad.size, list(first), shown(ours, first), shown(theirs, first))


def shown(output, at):
    """The element at `at` of one output, as its own type shows it."""
    _t, array = test_data.decode(output)
    value = array[at]
    return str(value) if isinstance(value, np.generic) else repr(value)


def difference(theirs, ours):
    """None when our .onnx's outputs equal the .ort's bit for bit, else the first difference."""
    if len(theirs) != len(ours):
        return "%d outputs, the .ort's run %d" % (len(ours), len(theirs))
    for i, (a, b) in enumerate(zip(theirs, ours)):
        for key in ("name", "type", "dims"):
            if a[key] != b[key]:
                return "output %d: %s %s, the .ort's %s" % (i, key, b[key], a[key])
        if a.get("data") != b.get("data") or a.get("strings") != b.get("strings"):
            return element_difference(i, a, b)
    return None


def judge(worker, args, rel):
    """(outcome, detail) of one model."""
    if rel in args.not_written:
        return "not-written", args.not_written[rel]
    if rel in args.convert_errors:  # every .ort ONNX Runtime writes must convert, comparable or not
        return "failed", args.convert_errors[rel]
    try:
        feeds, _expected = test_data.data_set(os.path.join(args.data, rel))
    except (DecodeError, OSError, ValueError) as e:
        return "not-comparable", "the test's own files do not read: %s" % e
    except test_data.NotComparable as e:
        return "not-comparable", str(e)
    theirs_file, ours_file = (os.path.join(args.out, side, rel, name)
                              for side, name in (("theirs", "model.ort"), ("ours", "model.onnx")))
    outcome, detail, theirs = answer_of(worker, theirs_file, feeds, args.timeout, "disabled")
    if outcome != "ran":
        return outcome, "ONNX Runtime's own .ort: " + detail
    outcome, detail, ours = answer_of(worker, ours_file, feeds, args.timeout, "disabled")
    if outcome != "ran":
        return "failed", "ONNX Runtime runs its .ort, not our .onnx of it (%s): %s" % (outcome, detail)
    try:
        diff = difference(theirs, ours)
    except test_data.NotComparable as e:
        return "not-comparable", str(e)
    return ("failed", diff) if diff else ("passed", "")


def run_all(worker, args, rels):
    listed = {}
    for path in args.known or [KNOWN]:
        with open(path, encoding="utf-8") as f:
            listed.update(known.parse(f.read()))
    rows, start = [], time.monotonic()
    for n, rel in enumerate(rels, 1):
        outcome, detail = with_known(*judge(worker, args, rel), listed.get(rel))
        rows.append((rel, outcome, detail))
        if n % 200 == 0:
            print("ort_to_onnx: %d of %d models, %.0f s" % (n, len(rels), time.monotonic() - start), file=sys.stderr)
    return rows


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data", nargs="?")
    ap.add_argument("--build")
    ap.add_argument("--subset", type=int)
    ap.add_argument("--peer", help="the folder tools/install_peer.sh installed into")
    ap.add_argument("--timeout", type=float, default=60, help="seconds per run (default 60)")
    ap.add_argument("--known", action="append",
                    help="a list of known deviations, again for more (default %s)" % os.path.relpath(KNOWN))
    args = ap.parse_args(argv[1:])
    if args.subset is not None and args.subset < 1:
        ap.error("--subset takes a positive count")
    args.build = settings.build_dir(args.build)
    args.data = settings.backend_data(args.build, "ort to-onnx", args.data)
    args.out = os.path.join(args.build, "ort-to-onnx", os.path.basename(args.data.rstrip("/")) + (
        "-subset%d" % args.subset if args.subset else ""))
    args.models_from, args.file = os.path.join(args.out, "ours"), "model.onnx"  # run_report's first line
    return args


def main(argv):
    args = parse_args(argv)
    module = peer.module(args.peer, args.build)
    reason = peer.missing(module)
    if reason:
        print("skipped: " + reason)
        return settings.SKIP
    rels = subset(find_models(args.data), args.subset)
    if not rels:
        print("ort_to_onnx: no model.onnx under " + args.data, file=sys.stderr)
        return 2
    shutil.rmtree(args.out, ignore_errors=True)
    start = time.monotonic()
    theirs = {r: os.path.join(args.out, "theirs", r, "model.ort") for r in rels}
    ort_errors, _version = write_all(module, [(r, os.path.join(args.data, r, "model.onnx"), theirs[r]) for r in rels])
    written = [r for r in rels if os.path.isfile(theirs[r])]
    args.not_written = {r: "ONNX Runtime wrote no .ort: " + (ort_errors.get(r) or "no message")
                        for r in rels if r not in written}
    args.convert_errors = convert_all(args.build, args.out, written)
    return report_with_worker(args, module, lambda worker: run_all(worker, args, rels), start)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
