"""`selftest.py can-fail BUILD_DIR`: the comparison sees what it must see. A changed bit in
one initializer, a reordered attribute and a float differing only in its NaN payload each
produce a diff, on the C++ side and on the Python side."""
import os
import shutil
import struct
import tempfile

import onnx
from onnx import AttributeProto, TensorProto, helper

from gauntlet.sweep.dump_pair import compare, run_dumps
from gauntlet.sweep.model_builders import DOMAIN, attribute, base_model, f32, typed_tensor


def check_pair(build_dir, work, label, original, mutated, expect_in_diff):
    """Both sides agree on each model, and each side's dumps of the two differ."""
    failures = []
    paths = []
    for tag, model in (("original", original), ("mutated", mutated)):
        path = os.path.join(work, label + "-" + tag + ".onnx")
        with open(path, "wb") as f:
            f.write(model.SerializeToString())
        paths.append(path)
    (cpp_a, py_a), (cpp_b, py_b) = run_dumps(build_dir, paths[0]), run_dumps(build_dir, paths[1])
    for side, a, b in (("cpp", cpp_a, py_a), ("cpp/py mutated", cpp_b, py_b)):
        rc, diff = compare(a, b, work)
        if rc != 0:
            failures.append("%s: the two sides disagree on one model:\n%s" % (label, diff))
    for side, a, b in (("C++", cpp_a, cpp_b), ("Python", py_a, py_b), ("C++ vs Python", cpp_a, py_b)):
        rc, diff = compare(a, b, work)
        if rc != 1:
            failures.append("%s: %s dumps of original and mutated compare equal (exit %d)" % (label, side, rc))
        elif expect_in_diff not in diff:
            failures.append("%s: %s diff lacks %r:\n%s" % (label, side, expect_in_diff, diff))
    print("%-22s %s" % (label, "ok" if not failures else "FAILED"))
    return failures


def copy_of(model):
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    return copy


def changed_bit_raw():
    """A changed bit in one initializer's raw_data."""
    raw = TensorProto(name="w", data_type=1, dims=[4], raw_data=struct.pack("<4f", 1, 2, 3, 4))
    original = base_model("bit", initializers=[raw])
    mutated = copy_of(original)
    data = bytearray(mutated.graph.initializer[0].raw_data)
    data[9] ^= 0x10
    mutated.graph.initializer[0].raw_data = bytes(data)
    return original, mutated


def changed_bit_typed():
    """A changed bit in one initializer's typed field."""
    typed = base_model("bit", initializers=[typed_tensor(6)])
    flipped = copy_of(typed)
    flipped.graph.initializer[0].int32_data[1] ^= 1 << 20
    return typed, flipped


def reordered_attribute():
    """The same attributes in another file order."""
    node = helper.make_node("Pair", ["x"], ["z"], domain=DOMAIN, alpha=1, beta=2)
    original = base_model("order", nodes=[node])
    mutated = copy_of(original)
    attrs = list(mutated.graph.node[1].attribute)
    del mutated.graph.node[1].attribute[:]
    mutated.graph.node[1].attribute.extend(reversed(attrs))
    return original, mutated


def nan_model(bits):
    """A float attribute holding the NaN with these bits."""
    n = helper.make_node("Pair", ["x"], ["z"], domain=DOMAIN)
    n.attribute.append(attribute("nan", type=AttributeProto.FLOAT, f=f32(bits)))
    return base_model("nan", nodes=[n])


def main(build_dir):
    work = tempfile.mkdtemp(prefix="sweep-can-fail-")
    failures = []
    try:
        failures += check_pair(build_dir, work, "changed-bit-raw", *changed_bit_raw(), "sha256")
        failures += check_pair(build_dir, work, "changed-bit-typed", *changed_bit_typed(), "sha256")
        failures += check_pair(build_dir, work, "reordered-attribute", *reordered_attribute(), 'attribute "')
        # Both quiet NaNs: only the payload differs.
        failures += check_pair(build_dir, work, "nan-payload", nan_model(0x7FC00001), nan_model(0x7FC00002),
                               "f 0x7fc0000")
    finally:
        shutil.rmtree(work)
    for f in failures:
        print(f)
    return 1 if failures else 0
