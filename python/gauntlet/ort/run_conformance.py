"""ONNX Runtime runs it (conformance 1 and 2): each backend test model is loaded
in ONNX Runtime, fed its test_data_set_0 inputs, and its outputs compared with the
expected ones within the backend test's tolerance (compare.py).

usage: run_conformance.py [--models-from DIR] [--file NAME] [--subset N] [--timeout S]
                          [--peer DIR] [--out DIR] [--expect-refused] [--not-written TABLE] [DATA]

DATA holds <rel>/model.onnx and <rel>/test_data_set_0/ (default: the ONNX 1.23 backend
data beside the repository). The file run is DIR/<rel>/NAME (--models-from, default
DATA; --file, default model.onnx): the original, or what our writers made of it.
--subset N takes N models spread evenly over the sorted list (deterministic).
--expect-refused: the files are our external-mode .ort. Where the file names a companion
(rule O7: our writer names one when a tensor went there), ONNX Runtime must refuse it for
its external data (it has no reader for it): that refusal passes, with its message; loading
it, or a refusal for another reason that the original does not meet, fails. Where it names
none (no tensor reached the threshold), the file is an inline .ort and is run as one.
--not-written TABLE: a round trip's table.tsv; a model it lists as `unsupported` (our writer
refused it: the format cannot hold it) has no file and is listed as not-written, with the
writer's message.

Outcomes: passed; failed (the first mismatching element); not-written; known (a listed deviation of
ONNX Runtime, python/gauntlet/ort/known-deviations.txt or --known FILE, with its reason);
cannot-load and cannot-run (ONNX Runtime's own error: listed, not failures; for a file
of ours, or a missing one, only when ONNX Runtime cannot run the original either);
not-comparable (the test needs what ONNX Runtime's Node.js API lacks, with the reason).
Writes OUT/table.tsv (model, outcome, detail; default BUILD/ort-run/<name>) and
cannot-run.tsv, and ends with `N passed, N failed`.
Exit 0 when nothing failed, 1 otherwise, 2 on a usage error, 77 when node or the npm
peer is missing (a skip, with the reason).
"""
import argparse
import os
import sys
import time

from google.protobuf.message import DecodeError

HERE = os.path.dirname(os.path.abspath(__file__))
from gauntlet.ort.compare import ATOL, RTOL, compare
from gauntlet.ort.conformance import find_models, subset
from gauntlet import known, settings
from gauntlet.report.peers import Worker
from gauntlet.ort import peer
from gauntlet.ort import run_report
from gauntlet.ort import test_data

SKIP = 77
KNOWN = os.path.join(HERE, "known-deviations.txt")


def answer_of(worker, model, feeds, timeout, optimization=None):
    """ONNX Runtime's answer for one file: (outcome, detail, outputs as run_models.js hands them
    back, or None); optimization "disabled" turns its graph optimizations off."""
    request = {"model": model, "inputs": [test_data.encode(t, a) for t, a in feeds]}
    if optimization:
        request["optimization"] = optimization
    answer, _seconds = worker.request(request, timeout)
    if "crashed" in answer or "timeout" in answer:
        what = "crashed" if "crashed" in answer else "timeout"
        return "cannot-run", "the ONNX Runtime worker %s: %s" % (what, " ".join(answer[what].split())), None
    if not answer.get("ok"):
        stage = "cannot-load" if answer.get("stage") == "load" else "cannot-run"
        return stage, " ".join(str(answer.get("message", "")).split()), None
    return "ran", "", answer["outputs"]


def ask(worker, model, feeds, timeout):
    """ONNX Runtime's answer for one file: (outcome, detail, decoded outputs or None)."""
    outcome, detail, outputs = answer_of(worker, model, feeds, timeout)
    return outcome, detail, None if outputs is None else [test_data.decode(o) for o in outputs]


# ONNX Runtime 1.30: "LoadInitializerOrtFormat Tensor has external data but a data reader was not provided."
EXTERNAL_REFUSAL = "external data"


# The metadata key under which our writer names a .ort's companion file (docs/rules.md, O7).
COMPANION_KEY = b"onnximport.ort_external_data"


def refusal_expected(args, target):
    """Our external .ort that names its companion file, which ONNX Runtime cannot read."""
    if not args.expect_refused or not os.path.isfile(target):
        return False
    with open(target, "rb") as f:
        return COMPANION_KEY in f.read()


def judge_refusal(outcome, detail):
    if outcome == "cannot-load" and EXTERNAL_REFUSAL in detail:
        return "passed", "refused: " + detail
    if outcome == "cannot-load":
        return outcome, detail  # against_original: listed where the original fails too
    return "failed", "ONNX Runtime loaded a file it should refuse" + (": " + detail if detail else "")


def judge(worker, args, rel):
    """(outcome, detail, whether a refusal was expected) of one model."""
    model_dir = os.path.join(args.data, rel)
    target = os.path.join(args.models_from, rel, args.file)
    refuse = refusal_expected(args, target)
    if rel in args.not_written:
        return "not-written", args.not_written[rel], False
    try:
        feeds, expected = test_data.data_set(model_dir)
    except (DecodeError, OSError, ValueError) as e:
        return "not-comparable", "the test's own files do not read: %s" % e, refuse
    except test_data.NotComparable as e:
        if not refuse:
            return "not-comparable", str(e), refuse
        feeds, expected = [], []  # loading is all that is judged
    if not os.path.isfile(target):
        return "missing", "no file %s" % target, refuse
    try:
        outcome, detail, got = ask(worker, target, feeds, args.timeout)
    except test_data.NotComparable as e:
        return "not-comparable", str(e), refuse
    if refuse:
        return judge_refusal(outcome, detail) + (refuse,)
    if outcome != "ran":
        return outcome, detail, refuse
    diff = compare(expected, got, RTOL, ATOL)
    return ("failed", diff, refuse) if diff else ("passed", "", refuse)


def against_original(worker, args, rel, outcome, detail):
    """A file of ours that is missing, or that ONNX Runtime cannot load or run, fails unless
    ONNX Runtime cannot run the original either."""
    original = os.path.join(args.data, rel, "model.onnx")
    if outcome not in ("missing", "cannot-load", "cannot-run") or (outcome != "missing" and os.path.samefile(
            os.path.join(args.models_from, rel, args.file), original)):
        return outcome, detail
    feeds, _expected = test_data.data_set(os.path.join(args.data, rel))
    first, first_detail, _got = ask(worker, original, feeds, args.timeout)
    if first in ("cannot-load", "cannot-run"):
        return (first if outcome == "missing" else outcome), detail + " (the original too: %s)" % first_detail
    if outcome == "missing":
        return "failed", detail + ", and ONNX Runtime runs the original model.onnx"
    return "failed", "ONNX Runtime runs the original model.onnx, not this file: " + detail


def with_known(outcome, detail, reason):
    """A listed deviation that still deviates is known; one that passes is a stale line."""
    if reason is None:
        return outcome, detail
    if outcome == "failed":
        return "known", "%s (%s)" % (reason, detail)
    if outcome == "passed":
        return "failed", "listed as a known deviation but passes: remove the line"
    return outcome, detail


def run_all(worker, args, rels):
    listed = {}
    for path in args.known or [KNOWN]:
        with open(path, encoding="utf-8") as f:
            listed.update(known.parse(f.read()))
    rows, start = [], time.monotonic()
    for n, rel in enumerate(rels, 1):
        outcome, detail, refuse = judge(worker, args, rel)
        outcome, detail = against_original(worker, args, rel, outcome, detail)
        if not refuse:
            outcome, detail = with_known(outcome, detail, listed.get(rel))
        rows.append((rel, outcome, detail))
        if n % 200 == 0:
            print("ort_run: %d of %d models, %.0f s" % (n, len(rels), time.monotonic() - start), file=sys.stderr)
    return rows


def writer_refusals(table):
    """rel -> our writer's message, for the models a round trip's table lists as unsupported."""
    refused = {}
    with open(table, encoding="utf-8") as f:
        for line in f:
            cells = line.rstrip("\n").split("\t")
            if len(cells) >= 2 and cells[1] == "unsupported":
                refused[cells[0]] = "our writer refused it (Unsupported): " + (cells[-1] if len(cells) > 2 else "")
    return refused


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data", nargs="?")
    ap.add_argument("--models-from", help="where DIR/<rel>/NAME live (default: DATA)")
    ap.add_argument("--file", default="model.onnx")
    ap.add_argument("--subset", type=int)
    ap.add_argument("--timeout", type=float, default=60, help="seconds per model (default 60)")
    ap.add_argument("--peer", help="the folder tools/install_peer.sh installed into")
    ap.add_argument("--out", help="default BUILD/ort-run/<data set>-<file>[-subsetN]")
    ap.add_argument("--known", action="append",
                    help="a list of known deviations, again for more (default python/gauntlet/ort/known-deviations.txt)")
    ap.add_argument("--expect-refused", action="store_true")
    ap.add_argument("--not-written", metavar="TABLE", help="a round trip's table.tsv (its unsupported rows)")
    args = ap.parse_args(argv[1:])
    args.data = settings.backend_data(settings.build_dir(), "ort run", args.data)
    args.models_from = os.path.abspath(args.models_from or args.data)
    args.not_written = writer_refusals(args.not_written) if args.not_written else {}
    if args.subset is not None and args.subset < 1:
        ap.error("--subset takes a positive count")
    args.out = os.path.abspath(args.out or os.path.join(settings.build_dir(), "ort-run", "%s-%s%s" % (
        os.path.basename(args.data.rstrip("/")), args.file, "-subset%d" % args.subset if args.subset else "")))
    return args


def main(argv):
    args = parse_args(argv)
    module = peer.module(args.peer)
    reason = peer.missing(module)
    if reason:
        print("skipped: " + reason)
        return SKIP
    rels = subset(find_models(args.data), args.subset)
    if not rels:
        print("ort_run: no model.onnx under " + args.data, file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    if os.path.exists(os.path.join(args.out, "worker.log")):
        os.remove(os.path.join(args.out, "worker.log"))  # the worker appends to it
    return report_with_worker(args, module, lambda worker: run_all(worker, args, rels), time.monotonic())


def report_with_worker(args, module, run, start):
    """run(worker) with ONNX Runtime's worker (run_models.js) started and closed around it; its report."""
    worker = Worker("onnxruntime", ["node", os.path.join(HERE, "run_models.js"), module],
                    os.path.join(args.out, "worker.log"))
    worker.start()
    try:
        rows = run(worker)
    finally:
        worker.close()
    return run_report.report(args, rows, worker.version, time.monotonic() - start)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
