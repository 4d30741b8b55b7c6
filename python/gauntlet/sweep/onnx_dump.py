"""The structural dump (sweep/DUMP_FORMAT.md) written from the Python onnx package: the
reference side of the backend-test sweep (spec section 8).

usage: onnx_dump.py MODEL                  the dump on stdout (exit 3: skipped, reason on stderr)
       onnx_dump.py --dir DATA_DIR OUT_DIR  every DATA_DIR/<rel>/model.onnx to OUT_DIR/<rel>.dump,
                                           or OUT_DIR/<rel>.skipped holding the reason

Only onnx.load and the message fields are used. Typed tensor fields are converted to the raw
layout here (spec section 3) and hashed with hashlib. A model holding a field or enum value
this onnx package does not know is not dumped but skipped with that reason: guessing would
risk a silent pass. Runs under Debian's python3-onnx (gauntlet.settings.PYTHON). The blocks
of the dump are written by the modules of gauntlet/sweep/dump/.
"""
import os
import sys
import time

import onnx

from gauntlet.sweep.dump.graphs import dump_function, dump_optional_graph, message_list
from gauntlet.sweep.dump.names import q
from gauntlet.sweep.dump.representable import Skip, unknown_fields
from gauntlet.sweep.dump.wire_bits import serialization_keeps_float_bits

SKIP_EXIT = 3


def refuse_unrepresentable(m):
    found = []
    unknown_fields(m, "ModelProto", found)
    if found:
        raise Skip("onnx %s cannot represent: %s" % (onnx.__version__, "; ".join(found[:5]) +
                                                     ("; ..." if len(found) > 5 else "")))


def model_header(m):
    out = ["onnx-gauntlet-dump 1",
           "ir_version %d" % m.ir_version,
           "producer_name " + q(m.producer_name),
           "producer_version " + q(m.producer_version),
           "domain " + q(m.domain),
           "model_version %d" % m.model_version]
    if m.doc_string:
        out.append("doc_string " + q(m.doc_string))
    for o in m.opset_import:
        out.append("opset_import " + q(o.domain) + " %d" % o.version)
    for e in m.metadata_props:
        out.append("metadata_props " + q(e.key) + " " + q(e.value))
    return out


def dump_model(m, model_dir):
    refuse_unrepresentable(m)
    ctx = {"dir": model_dir}
    out = model_header(m)
    dump_optional_graph(out, "", "graph", m, "graph", ctx)

    def training(o, ind, t):
        dump_optional_graph(o, ind, "initialization", t, "initialization", ctx)
        dump_optional_graph(o, ind, "algorithm", t, "algorithm", ctx)
        for e in t.initialization_binding:
            o.append(ind + "initialization_binding " + q(e.key) + " " + q(e.value))
        for e in t.update_binding:
            o.append(ind + "update_binding " + q(e.key) + " " + q(e.value))

    message_list(out, "", "training_info", m.training_info, training)
    message_list(out, "", "functions", m.functions, lambda o, i, f: dump_function(o, i, f, ctx))
    return "\n".join(out) + "\n"


def dump_file(path):
    # External data is hashed from its file here, as the importer does, rather than
    # letting onnx.load fold it into raw_data (which would change the source line).
    m = onnx.load(path, load_external_data=False)
    return dump_model(m, os.path.dirname(os.path.abspath(path)))


# ---- Command line ----------------------------------------------------------------------

def find_models(root):
    rels = []
    for dirpath, _dirs, files in os.walk(root, followlinks=True):
        if "model.onnx" in files and os.path.isfile(os.path.join(dirpath, "model.onnx")):
            rels.append(os.path.relpath(dirpath, root).replace(os.sep, "/"))
    return sorted(rels)


def dump_dir(data, out_dir):
    start = time.monotonic()
    rels = find_models(data)
    skipped = failed = 0
    for rel in rels:
        path = os.path.join(data, rel, "model.onnx")
        try:
            text, ext = dump_file(path), ".dump"
        except Skip as e:
            text, ext = str(e) + "\n", ".skipped"
            skipped += 1
        except Exception as e:  # the package itself refused the file: record, go on
            text, ext = "onnx could not load or dump it: %s: %s\n" % (type(e).__name__, e), ".failed"
            failed += 1
        target = os.path.join(out_dir, rel + ext)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="ascii", newline="\n") as f:
            f.write(text)
    print("onnx_dump: %d models, %d skipped, %d failed, %.3f s" %
          (len(rels), skipped, failed, time.monotonic() - start))
    return 0


def main(argv):
    if not serialization_keeps_float_bits():
        print("onnx_dump: this protobuf backend loses float bits; use the cpp or upb one", file=sys.stderr)
        return 2
    if len(argv) == 4 and argv[1] == "--dir":
        return dump_dir(argv[2], argv[3])
    if len(argv) != 2 or argv[1].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        sys.stdout.write(dump_file(argv[1]))
    except Skip as e:
        print("skipped: %s" % e, file=sys.stderr)
        return SKIP_EXIT
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
