"""Self-tests of the backend-test sweep (spec section 8). Models are built with the Python
onnx package (model_builders.py), so the tests need no data set; each command is a module.

usage: selftest.py edge DATA_DIR
           writes models that cover what the backend data leaves out (every element type
           through its typed field and through raw_data, escapes, NaN payloads, every
           attribute kind, every TypeProto member, functions, training info, sparse and
           external tensors, nodes out of topological order); the sweep over DATA_DIR
           must pass every one
       selftest.py can-fail BUILD_DIR
           proves the comparison can fail: a changed bit in one initializer, a reordered
           attribute and a float differing only in its NaN payload each produce a diff,
           on the C++ side and on the Python side
       selftest.py signalling-nan BUILD_DIR
           signalling NaNs and -0.0 in float attributes and in float_data / double_data
           keep their bits in both dumps, and the dumps agree
       selftest.py skip-newer BUILD_DIR
           a model holding fields newer than the installed onnx is reported as skipped
           with the field named, never as passed
"""
import sys

from gauntlet.sweep import can_fail, edge_models, signalling_nan, skip_newer

COMMANDS = {"edge": edge_models.write, "can-fail": can_fail.main, "signalling-nan": signalling_nan.main,
            "skip-newer": skip_newer.main}


def main(argv):
    if len(argv) == 3 and argv[1] in COMMANDS:
        return COMMANDS[argv[1]](argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
