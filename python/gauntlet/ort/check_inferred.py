"""Checks the .ort writer's type inference against the types the models declare.

usage: check_inferred.py --build BUILD [--subset N] DATA_DIR

Every DATA_DIR/<rel>/model.onnx is copied to BUILD/ort-infer-check/<data>/data/<rel>/model.onnx
with the types it declares for values nodes make taken away (value_info dropped, graph and
subgraph outputs untyped; graph inputs kept), in every graph. build/bin/ort-roundtrip writes
those with our writer, and our reader reads them back; the type each taken-away value reads
back with (its NodeArg's, inferred: docs/ort.md, "What is written") is compared with the
one the original declared, kind (tensor or sequence) and element type. A different type
fails; a value left untyped is counted by the operator that makes it (a declared type
the writer cannot infer). The originals come from Debian's python3-onnx. The last line is
`N values agree, N differ, N untyped`; exit 1 when any differ.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

import onnx

from gauntlet import settings
from gauntlet.ort.conformance import find_models, subset

HEADER = re.compile(r'^( *)(input|output|value_info) "((?:[^"\\]|\\.)*)"$')


def type_of(tp):
    """(kind, elem type) of a TypeProto, None where inference has no counterpart."""
    which = tp.WhichOneof("value")
    if which == "tensor_type" and tp.tensor_type.elem_type:
        return ("tensor", tp.tensor_type.elem_type)
    if which == "sequence_type":
        inner = tp.sequence_type.elem_type
        if inner.WhichOneof("value") == "tensor_type" and inner.tensor_type.elem_type:
            return ("sequence", inner.tensor_type.elem_type)
    return None


def graphs_of(g):
    yield g
    for n in g.node:
        for a in n.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                yield from graphs_of(a.g)
            for sub in a.graphs:
                yield from graphs_of(sub)


def strip(model):
    """{name: (declared type, producing op)} of what is taken away; the model is changed."""
    declared = {}
    for g in graphs_of(model.graph):
        producers = {o: n.op_type for n in g.node for o in n.output}
        for v in list(g.value_info) + list(g.output):
            t = type_of(v.type)
            if t and v.name in producers:
                declared[v.name] = (t, producers[v.name])
        del g.value_info[:]
        for o in g.output:
            o.ClearField("type")
    return declared


def read_back(dump_path):
    """{name: (kind, elem)} of every input, output and value_info of the dump, all graphs."""
    lines = open(dump_path, encoding="utf-8").read().splitlines()
    types = {}
    for i, line in enumerate(lines):
        m = HEADER.match(line)
        if not m:
            continue
        depth, name = len(m.group(1)), m.group(3)
        kind, elem = None, None
        for body in lines[i + 1:]:
            if len(body) - len(body.lstrip(" ")) <= depth:
                break
            word = body.split()
            if word[0] == "type" and kind is None:
                kind = word[1]
            elif word[0] == "elem_type" and elem is None:
                elem = int(word[1])
        if kind in ("tensor", "sequence") and elem:
            types.setdefault(name, (kind, elem))
    return types


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--build")
    ap.add_argument("--subset", type=int)
    ap.add_argument("data", nargs="?")
    args = ap.parse_args(argv[1:])
    build = settings.build_dir(args.build)
    data = settings.backend_data(build, "ort inferred", args.data)
    rels = subset(find_models(data), args.subset)
    out = os.path.join(build, "ort-infer-check", os.path.basename(data.rstrip("/")))
    shutil.rmtree(out, ignore_errors=True)
    stripped, declared = os.path.join(out, "data"), {}
    for rel in rels:
        try:
            model = onnx.load(os.path.join(data, rel, "model.onnx"), load_external_data=False)
        except Exception as e:  # what python3-onnx cannot parse, our importer judges elsewhere
            print("  SKIPPED %s: python3-onnx: %s" % (rel, e))
            continue
        declared[rel] = strip(model)
        os.makedirs(os.path.join(stripped, rel), exist_ok=True)
        onnx.save(model, os.path.join(stripped, rel, "model.onnx"))
    rc = subprocess.run([os.path.join(build, "bin", "ort-roundtrip"), stripped, os.path.join(out, "written")],
                        stdout=subprocess.DEVNULL).returncode
    if rc != 0:
        raise SystemExit("check_inferred: ort-roundtrip failed with exit %d" % rc)
    agree, differ, untyped = 0, [], {}
    for rel, values in sorted(declared.items()):
        dump = os.path.join(out, "written", "ort", rel + ".dump")
        if not os.path.exists(dump):
            continue  # refused by the importer or the writer: ort/roundtrip.py reports those
        back = read_back(dump)
        for name, (want, op) in sorted(values.items()):
            got = back.get(name)
            if got is None:
                untyped[op] = untyped.get(op, 0) + 1
            elif got != want:
                differ.append("%s: %s (%s) declared %s %d, inferred %s %d" % (rel, name, op, want[0], want[1],
                                                                            got[0], got[1]))
            else:
                agree += 1
    for line in differ:
        print("  DIFFERS " + line)
    if untyped:
        print("  untyped by operator: " + ", ".join("%s %d" % kv for kv in sorted(untyped.items(), key=lambda kv: -kv[1])))
    print("%d values agree, %d differ, %d untyped" % (agree, len(differ), sum(untyped.values())))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
