"""Our .ort writer's kernel type-string resolver against ONNX Runtime's (docs/ort.md, "The
kernel type-string resolver").

usage: gauntlet ort resolver [--build BUILD] [--subset N] [--peer DIR] [DATA]

For each DATA/<rel>/model.onnx, ONNX Runtime (npm onnxruntime-node, tools/install_peer.sh)
writes its .ort (write_all.py) and our `onnximport convert` writes ours; flatc reads both
resolvers (importer/schema/ort.fbs). A model passes when every operator version (op_id) both
resolvers carry has equal entries: the same kernel type strings, each with the same inputs and
outputs in the same order. Also counted, not failed: operators only ONNX Runtime's file has
(nodes it adds or keeps, such as Constant, which our writer lifts), models our writer refused
(by reason: an operator ONNX Runtime runs only as its function, and the rest as Unsupported),
and models ONNX Runtime wrote no .ort of. An operator only our file has fails: ONNX Runtime
rewrote it away, so our .ort of it would not run. Files go to BUILD/ort-resolver/<data>[-subsetN].
DATA defaults as for the other tools (the shared backend data, else the generated data set).
The last line is `N passed, N failed`; exit 1 when any failed, 77 without node or the peer.
"""
import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile

from gauntlet import settings
from gauntlet.ort.conformance import find_models, subset
from gauntlet.ort import peer
from gauntlet.ort.write_all import write_all

SCHEMA = os.path.join(settings.ROOT, "importer", "schema", "ort.fbs")


def resolver(ort_file):
    """{op_id: [(kernel_type_str, [(arg_type, index), ...]), ...]} of a .ort, from flatc's JSON."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["flatc", "--json", "--raw-binary", "--strict-json", "-o", tmp, SCHEMA, "--", ort_file],
                       check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(tmp, os.path.splitext(os.path.basename(ort_file))[0] + ".json")) as f:
            tree = json.load(f)
    out = {}
    for op in tree.get("kernel_type_str_resolver", {}).get("op_kernel_type_str_args", []):
        out[op["op_id"]] = [(s["kernel_type_str"], [(a.get("arg_type", "INPUT"), a.get("index", 0))
                                                   for a in s.get("args", [])])
                            for s in op.get("kernel_type_str_args", [])]
    return out


def refusal_reason(stderr):
    return "function-only" if "only as its function" in stderr else "unsupported"


def compare(theirs, ours):
    """(differing op_ids, op_ids only in ours, op_ids only in theirs, shared count)."""
    shared = set(theirs) & set(ours)
    return (sorted(i for i in shared if theirs[i] != ours[i]), sorted(set(ours) - set(theirs)),
            sorted(set(theirs) - set(ours)), len(shared))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build")
    ap.add_argument("--subset", type=int)
    ap.add_argument("--peer")
    ap.add_argument("data", nargs="?")
    args = ap.parse_args(argv[1:])
    build = settings.build_dir(args.build)
    data = settings.backend_data(build, "ort resolver", args.data)
    module = peer.module(args.peer, build)
    reason = peer.missing(module)
    if reason:
        print("skipped: " + reason)
        return settings.SKIP
    rels = subset(find_models(data), args.subset)
    out = os.path.join(build, "ort-resolver", os.path.basename(data.rstrip("/")) + (
        "-subset%d" % args.subset if args.subset else ""))
    shutil.rmtree(out, ignore_errors=True)
    jobs = [(r, os.path.join(data, r, "model.onnx"), os.path.join(out, "theirs", r, "model.ort")) for r in rels]
    write_all(module, jobs)
    counts, failures = collections.Counter(), []
    for rel in rels:
        theirs_file, ours_file = jobs[rels.index(rel)][2], os.path.join(out, "ours", rel, "model.ort")
        os.makedirs(os.path.dirname(ours_file), exist_ok=True)
        p = subprocess.run([os.path.join(build, "bin", "onnximport"), "convert", os.path.join(data, rel, "model.onnx"),
                            ours_file], capture_output=True, text=True)
        if p.returncode != 0:
            counts["refused by our writer: " + refusal_reason(p.stderr) if p.returncode == 1 else "convert failed"] += 1
            if p.returncode != 1:
                failures.append("%s: convert exit %d %s" % (rel, p.returncode, p.stderr.strip()))
            continue
        if not os.path.exists(theirs_file):
            counts["no .ort from ONNX Runtime"] += 1
            continue
        differ, only_ours, only_theirs, shared = compare(resolver(theirs_file), resolver(ours_file))
        counts["operators compared"] += shared
        counts["operators only in ONNX Runtime's"] += len(only_theirs)
        if differ or only_ours:
            failures.append("%s: differ %s, only ours %s" % (rel, differ, only_ours))
        else:
            counts["models compared"] += 1
    for f in failures:
        print("FAIL:", f)
    for key in sorted(counts):
        print("%s: %d" % (key, counts[key]))
    print("%d passed, %d failed" % (counts["models compared"], len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
