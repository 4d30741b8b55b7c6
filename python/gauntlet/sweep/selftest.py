"""Self-tests of the backend-test sweep (spec section 8). Models are built here
with the Python onnx package, so the tests need no data set.

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
import hashlib
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import AttributeProto, TensorProto, helper

from gauntlet import settings

ONNX_DUMP = settings.module_argv("gauntlet.sweep.onnx_dump")
COMPARE = os.path.join(settings.TOOLS, "compare_onnx_dump.sh")
SWEEP = settings.module_argv("gauntlet") + ["sweep"]
DOMAIN = "test.gauntlet"
SKIP_EXIT = 77  # ctest's SKIP_RETURN_CODE for the sweep tests


def f32(bits):
    """The float with this bit pattern (quiet NaN payloads survive the trip through a double)."""
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def base_model(name, nodes=(), initializers=(), value_info=(), sparse=(), **kw):
    """x -> Identity -> y, plus whatever the case adds; every name it reads is defined."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])
    graph = helper.make_graph([helper.make_node("Identity", ["x"], ["y"], name="id")] + list(nodes),
                              name, [x], [y], initializer=list(initializers), value_info=list(value_info),
                              sparse_initializer=list(sparse))
    model = helper.make_model(graph, producer_name="selftest", producer_version="1",
                              opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(DOMAIN, 1)], **kw)
    model.ir_version = 8
    return model


def save(model, data_dir, name):
    os.makedirs(os.path.join(data_dir, name), exist_ok=True)
    onnx.save(model, os.path.join(data_dir, name, "model.onnx"))
    return os.path.join(data_dir, name)


# ---- edge: models the sweep must pass --------------------------------------------------

# element type -> (dims, typed field, entries): values chosen so the section 3 rules
# matter (bool any non-zero, low bits kept, packed bytes, 6-bit stream, NaN payloads).
TYPED = {
    1: ([4], "float_data", [f32(0x7FC00123), -0.0, float("inf"), f32(0x00000001)]),
    2: ([3], "int32_data", [0, 255, 263]),
    3: ([3], "int32_data", [-1, -128, 127]),
    4: ([2], "int32_data", [65535, 70000]),
    5: ([2], "int32_data", [-1, -32768]),
    6: ([2], "int32_data", [-2**31, 2**31 - 1]),
    7: ([2], "int64_data", [-2**63, 2**63 - 1]),
    9: ([4], "int32_data", [0, 1, 2, -1]),
    10: ([3], "int32_data", [0x3C00, 0x7E01, 0x1FFFF]),
    11: ([3], "double_data", [1.5, struct.unpack("<d", struct.pack("<Q", 0x7FF8000000000ABC))[0], -0.0]),
    12: ([2], "uint64_data", [2**32 - 1, 2**32 + 5]),
    13: ([2], "uint64_data", [2**64 - 1, 0]),
    14: ([2], "float_data", [1.0, 2.0, 3.0, f32(0x7FC0BEEF)]),
    15: ([1], "double_data", [1.0, -2.0]),
    16: ([2], "int32_data", [0x3F80, 0x17FC0]),
    17: ([3], "int32_data", [0x7E, 0xFF, 0x101]),
    18: ([2], "int32_data", [0x80, 0x01]),
    19: ([2], "int32_data", [0x7C, 0x3FF]),
    20: ([2], "int32_data", [0x80, 0x55]),
    21: ([5], "int32_data", [0x21, 0x43, 0x105]),
    22: ([5], "int32_data", [0xF8, 0x7F, 0x10F]),
    23: ([3], "int32_data", [0x9A, 0x0B]),
    24: ([2], "int32_data", [0xFF, 0x7F]),
    25: ([7], "int32_data", [0xE4, 0x1B]),
    26: ([5], "int32_data", [0x1B, 0x103]),
    27: ([5], "int32_data", [63, 1, 0x45, 33, 2]),
    28: ([6], "int32_data", [0, 0x3F, 0x7F, 21, 42, -1]),
}
from gauntlet.data_types import BITS


def typed_tensor(code):
    dims, name, values = TYPED[code]
    t = TensorProto(name="typed_%d" % code, data_type=code, dims=dims)
    getattr(t, name).extend(values)
    return t


def raw_tensor(code, dims, seed):
    count = int(np.prod(dims)) if dims else 1
    size = (count * BITS[code] + 7) // 8
    data = np.random.default_rng(seed).integers(0, 256, size, dtype=np.uint8).tobytes()
    return TensorProto(name="raw_%d_%d" % (code, len(dims)), data_type=code, dims=dims, raw_data=data)


def tensor_models(data_dir):
    typed = [typed_tensor(code) for code in sorted(TYPED)]
    strings = TensorProto(name="strings", data_type=TensorProto.STRING, dims=[4],
                          string_data=[b"", b'a"b\\c', b"\x00\xff\n", "ñ€".encode()])
    save(base_model("typed", initializers=typed + [strings]), data_dir, "typed_fields")
    raw = [raw_tensor(code, dims, code * 10 + len(dims))
           for code in sorted(BITS) for dims in ([], [3], [2, 5])]
    empty = [TensorProto(name="empty_float", data_type=1, dims=[0]),
             TensorProto(name="empty_raw", data_type=7, dims=[2, 0], raw_data=b""),
             TensorProto(name="empty_strings", data_type=8, dims=[0])]
    save(base_model("raw", initializers=raw + empty), data_dir, "raw_data")

    values = helper.make_tensor("sv", TensorProto.FLOAT, [3], [1.0, f32(0x7FC00001), -0.0])
    indices = helper.make_tensor("si", TensorProto.INT64, [3], [0, 5, 11])
    sparse = helper.make_sparse_tensor(values, indices, [3, 4])
    save(base_model("sparse", sparse=[sparse]), data_dir, "sparse_initializer")

    # External data: 4 bytes of padding, then two floats; offset and length as written.
    directory = save(base_model("external"), data_dir, "external_data")
    with open(os.path.join(directory, "weights.bin"), "wb") as f:
        f.write(b"\xde\xad\xbe\xef" + struct.pack("<2f", 1.25, -3.5))
    ext = TensorProto(name="ext", data_type=1, dims=[2], data_location=TensorProto.EXTERNAL)
    for k, v in (("location", "weights.bin"), ("offset", "4"), ("length", "8"), ("checksum", "ignored")):
        ext.external_data.add(key=k, value=v)
    model = base_model("external", initializers=[ext])
    with open(os.path.join(directory, "model.onnx"), "wb") as f:
        f.write(model.SerializeToString())


def attribute(name, **fields):
    """An AttributeProto with exactly the given fields (type included only if given)."""
    a = AttributeProto(name=name)
    for key, value in fields.items():
        if key in ("floats", "ints", "strings"):
            getattr(a, key).extend(value)
        elif key in ("tensors", "graphs", "sparse_tensors", "type_protos"):
            getattr(a, key).extend(value)
        elif key in ("t", "g", "sparse_tensor", "tp"):
            getattr(a, key).CopyFrom(value)
        else:
            setattr(a, key, value)
    return a


def small_graph(name, value):
    """A subgraph that reads the outer x (a capture) and defines its own output."""
    return helper.make_graph([helper.make_node("Identity", ["x"], [value])], name, [],
                             [helper.make_tensor_value_info(value, TensorProto.FLOAT, [2])])


def map_type():
    inner = helper.make_tensor_type_proto(TensorProto.FLOAT, ["N", None, 3])
    t = onnx.TypeProto()  # onnx 1.12's helper has no make_map_type_proto
    t.map_type.key_type = TensorProto.INT64
    t.map_type.value_type.CopyFrom(helper.make_sequence_type_proto(inner))
    return t


def attribute_models(data_dir):
    sparse = helper.make_sparse_tensor(helper.make_tensor("v", TensorProto.INT32, [1], [7]),
                                       helper.make_tensor("i", TensorProto.INT64, [1], [2]), [4])
    attrs = [
        attribute("nan", type=AttributeProto.FLOAT, f=f32(0x7FC00ABC)),
        attribute("neg_zero", type=AttributeProto.FLOAT, f=-0.0),
        attribute("zero", type=AttributeProto.FLOAT, f=0.0),
        attribute("i", type=AttributeProto.INT, i=-(2**63)),
        attribute("s", type=AttributeProto.STRING, s=b'q"\\\x00\x7f\x80\xff'),
        attribute("t", type=AttributeProto.TENSOR, t=typed_tensor(28)),
        attribute("g", type=AttributeProto.GRAPH, g=small_graph("g", "gy")),
        attribute("sparse", type=AttributeProto.SPARSE_TENSOR, sparse_tensor=sparse),
        attribute("tp", type=AttributeProto.TYPE_PROTO, tp=map_type()),
        attribute("floats", type=AttributeProto.FLOATS, floats=[f32(0x7F800001 | 0x400000), -0.0, 1e-45]),
        attribute("ints", type=AttributeProto.INTS, ints=[0, -1, 2**62]),
        attribute("strings", type=AttributeProto.STRINGS, strings=[b"", b"\t", "é".encode()]),
        attribute("tensors", type=AttributeProto.TENSORS, tensors=[typed_tensor(21), raw_tensor(10, [2], 1)]),
        attribute("graphs", type=AttributeProto.GRAPHS, graphs=[small_graph("g0", "a0"), small_graph("g1", "a1")]),
        attribute("sparse_tensors", type=AttributeProto.SPARSE_TENSORS, sparse_tensors=[sparse]),
        attribute("type_protos", type=AttributeProto.TYPE_PROTOS,
                  type_protos=[map_type(), helper.make_optional_type_proto(map_type())]),
        attribute("empty_ints", type=AttributeProto.INTS),
        attribute("inferred_ints", ints=[3, 2, 1]),
        attribute("inferred_f", f=2.5),
        attribute("stray", type=AttributeProto.INT, i=4, f=1.0, s=b"also"),
        attribute("ñame\u2028", type=AttributeProto.STRING, s=b"", doc_string="doc\nstring"),
    ]
    node = helper.make_node("Everything", ["x"], ["z", ""], name="every attribute", domain=DOMAIN,
                            doc_string="a node\twith a tab")
    node.attribute.extend(attrs)
    # A node whose second attribute precedes the first in the file (order is dumped).
    later = helper.make_node("Pair", ["z", "", "x"], ["w"], domain=DOMAIN, b=1, a=2)
    save(base_model("attributes", nodes=[node, later]), data_dir, "attributes")


def type_models(data_dir):
    def vi(name, tp, doc=""):
        return helper.make_value_info(name, tp, doc)

    tensor = helper.make_tensor_type_proto(TensorProto.BFLOAT16, ["batch", None, 0, 5])
    tensor.tensor_type.shape.dim[0].denotation = "DATA_BATCH"
    tensor.denotation = "IMAGE"
    no_shape = onnx.TypeProto()
    no_shape.tensor_type.elem_type = 17  # FLOAT8E4M3FN, newer than onnx 1.12
    rank0 = helper.make_tensor_type_proto(21, [])  # UINT4
    sparse = onnx.TypeProto()
    sparse.sparse_tensor_type.elem_type = TensorProto.FLOAT
    sparse.sparse_tensor_type.shape.dim.add().dim_value = 7
    opaque = onnx.TypeProto()
    opaque.opaque_type.domain = "com.example"
    opaque.opaque_type.name = "Thing"
    seq_absent = onnx.TypeProto()
    seq_absent.sequence_type.SetInParent()
    map_absent = onnx.TypeProto()
    map_absent.map_type.key_type = TensorProto.STRING
    infos = [vi("t", tensor, "doc"), vi("no_shape", no_shape), vi("rank0", rank0), vi("sparse", sparse),
             vi("opaque", opaque), vi("seq_absent", seq_absent), vi("map_absent", map_absent),
             vi("map", map_type()), vi("optional", helper.make_optional_type_proto(map_type())),
             onnx.ValueInfoProto(name="no_type")]
    save(base_model("types", value_info=infos), data_dir, "types")


def function_models(data_dir):
    body = [helper.make_node("Mul", ["a", "scale"], ["b"]),
            helper.make_node("LeakyRelu", ["b"], ["c"])]
    body[1].attribute.append(AttributeProto(name="alpha", ref_attr_name="slope", type=AttributeProto.FLOAT))
    body[0].attribute.append(AttributeProto(name="ref_untyped", ref_attr_name="other"))
    fn = helper.make_function(DOMAIN, "Scaled", ["a", "scale"], ["c"], body,
                              [helper.make_opsetid("", 17)], ["slope", "other"])
    fn.doc_string = "a function"
    call = helper.make_node("Scaled", ["x", "x"], ["s"], domain=DOMAIN, slope=0.5)
    init = helper.make_graph([helper.make_node("Constant", [], ["seed"],
                                               value=helper.make_tensor("c", 1, [1], [3.0]))],
                             "init", [], [helper.make_tensor_value_info("seed", TensorProto.FLOAT, [1])])
    training = onnx.TrainingInfoProto()
    training.initialization.CopyFrom(init)
    training.initialization_binding.add(key="seed", value="seed")
    training.update_binding.add(key="w", value="w_new")
    model = base_model("functions", nodes=[call], functions=[fn])
    model.training_info.append(training)
    model.doc_string = "model doc \u00ff"
    model.domain = "ai.gauntlet"
    model.model_version = -3
    helper.set_model_props(model, {"key \"1\"": "value\\1", "k2": ""})
    save(model, data_dir, "functions_training")


def reordered_models(data_dir):
    """Nodes not in topological order: resolution sorts them (spec section 4), and the dump
    must still list them in file order, as the Python side sees them. The subgraph's
    nodes are out of order too."""
    late = helper.make_node("Neg", ["m"], ["y2"], name="reads m, listed first")
    early = helper.make_node("Abs", ["x"], ["m"], name="writes m")
    body = helper.make_graph([helper.make_node("Identity", ["b1"], ["b2"]),
                              helper.make_node("Identity", ["m"], ["b1"])], "body", [],
                             [helper.make_tensor_value_info("b2", TensorProto.FLOAT, [2])])
    cond = helper.make_node("If", ["c"], ["y3"], then_branch=body, else_branch=body)
    c = TensorProto(name="c", data_type=TensorProto.BOOL, dims=[], int32_data=[1])
    model = base_model("reordered", nodes=[cond, late, early], initializers=[c])
    save(model, data_dir, "reordered_nodes")


def cmd_edge(data_dir):
    if os.path.exists(data_dir):
        shutil.rmtree(data_dir)
    tensor_models(data_dir)
    attribute_models(data_dir)
    type_models(data_dir)
    function_models(data_dir)
    reordered_models(data_dir)
    return 0


# ---- can-fail: the comparison sees what it must see ------------------------------------

def run_dumps(build_dir, path):
    cpp = subprocess.run([os.path.join(build_dir, "bin", "onnximport"), "dump", path],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if cpp.returncode != 0:
        raise AssertionError("onnximport dump refused %s: %s" % (path, cpp.stderr.decode()))
    py = subprocess.run(ONNX_DUMP + [path], stdout=subprocess.PIPE, check=True)
    return cpp.stdout, py.stdout


def compare(a_text, b_text, work):
    a, b = os.path.join(work, "a.dump"), os.path.join(work, "b.dump")
    for path, text in ((a, a_text), (b, b_text)):
        with open(path, "wb") as f:
            f.write(text)
    r = subprocess.run([COMPARE, a, b], stdout=subprocess.PIPE)
    return r.returncode, r.stdout.decode("utf-8", "replace")


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


def cmd_can_fail(build_dir):
    work = tempfile.mkdtemp(prefix="sweep-can-fail-")
    failures = []
    try:
        # A changed bit in one initializer (raw_data), and in a typed field.
        raw = TensorProto(name="w", data_type=1, dims=[4], raw_data=struct.pack("<4f", 1, 2, 3, 4))
        original = base_model("bit", initializers=[raw])
        mutated = onnx.ModelProto()
        mutated.CopyFrom(original)
        data = bytearray(mutated.graph.initializer[0].raw_data)
        data[9] ^= 0x10
        mutated.graph.initializer[0].raw_data = bytes(data)
        failures += check_pair(build_dir, work, "changed-bit-raw", original, mutated, "sha256")

        typed = base_model("bit", initializers=[typed_tensor(6)])
        flipped = onnx.ModelProto()
        flipped.CopyFrom(typed)
        flipped.graph.initializer[0].int32_data[1] ^= 1 << 20
        failures += check_pair(build_dir, work, "changed-bit-typed", typed, flipped, "sha256")

        # A reordered attribute: same attributes, other file order.
        node = helper.make_node("Pair", ["x"], ["z"], domain=DOMAIN, alpha=1, beta=2)
        original = base_model("order", nodes=[node])
        mutated = onnx.ModelProto()
        mutated.CopyFrom(original)
        attrs = list(mutated.graph.node[1].attribute)
        del mutated.graph.node[1].attribute[:]
        mutated.graph.node[1].attribute.extend(reversed(attrs))
        failures += check_pair(build_dir, work, "reordered-attribute", original, mutated, 'attribute "')

        # A float differing only in its NaN payload (both quiet NaNs).
        def nan_model(bits):
            n = helper.make_node("Pair", ["x"], ["z"], domain=DOMAIN)
            n.attribute.append(attribute("nan", type=AttributeProto.FLOAT, f=f32(bits)))
            return base_model("nan", nodes=[n])
        failures += check_pair(build_dir, work, "nan-payload", nan_model(0x7FC00001), nan_model(0x7FC00002),
                               "f 0x7fc0000")
    finally:
        shutil.rmtree(work)
    for f in failures:
        print(f)
    return 1 if failures else 0


# ---- signalling-nan: float bits that Python floats would change -------------------------

# Bit patterns Python cannot carry in a float: signalling NaNs (a double conversion sets
# their quiet bit), with payloads and sign, and -0.0; by the place they are written.
SNAN32 = {"f": [0x7F800001], "f_negative": [0xFF800005], "f_negative_zero": [0x80000000],
          "floats": [0x7FA00000, 0x80000000, 0x7F8ABCDE], "float_data": [0x7F800001, 0x80000000, 0x3F800000],
          "complex64": [0x7F800002, 0xFF800003]}
SNAN64 = {"double_data": [0x7FF0000000000001, 0x8000000000000000, 0xFFF00000DEADBEEF]}


def sentinels():
    """A distinct ordinary value per pattern, exactly representable, to be replaced in the
    serialized model: (sentinel bytes, pattern bytes) pairs and the sentinels as floats."""
    pairs, values, k = [], {}, 1
    for key, patterns in list(SNAN32.items()) + list(SNAN64.items()):
        size = 4 if key in SNAN32 else 8
        values[key] = []
        for bits in patterns:
            if size == 4:
                sentinel = 0x4B1D0000 + k
                values[key].append(struct.unpack("<f", struct.pack("<I", sentinel))[0])
            else:
                sentinel = 0x4161D00000000000 + k
                values[key].append(struct.unpack("<d", struct.pack("<Q", sentinel))[0])
            fmt = "<I" if size == 4 else "<Q"
            pairs.append((struct.pack(fmt, sentinel), struct.pack(fmt, bits)))
            k += 1
    return pairs, values


def snan_model_bytes():
    pairs, v = sentinels()
    node = helper.make_node("Pair", ["x"], ["z"], domain=DOMAIN)
    node.attribute.extend([attribute("f", type=AttributeProto.FLOAT, f=v["f"][0]),
                           attribute("f_negative", type=AttributeProto.FLOAT, f=v["f_negative"][0]),
                           attribute("f_negative_zero", type=AttributeProto.FLOAT, f=v["f_negative_zero"][0]),
                           attribute("floats", type=AttributeProto.FLOATS, floats=v["floats"])])
    tensors = [TensorProto(name="float_data", data_type=TensorProto.FLOAT, dims=[3], float_data=v["float_data"]),
               TensorProto(name="complex64", data_type=TensorProto.COMPLEX64, dims=[1], float_data=v["complex64"]),
               TensorProto(name="double_data", data_type=TensorProto.DOUBLE, dims=[3], double_data=v["double_data"])]
    data = base_model("snan", nodes=[node], initializers=tensors).SerializeToString()
    for sentinel, bits in pairs:
        if data.count(sentinel) != 1:
            raise AssertionError("sentinel %s occurs %d times" % (sentinel.hex(), data.count(sentinel)))
        data = data.replace(sentinel, bits)
    return data


def expected_lines():
    """What both dumps must hold: the attribute lines and each tensor's hash of its raw
    layout, computed here from the patterns (not by either dumper)."""
    def bits32(key):
        return " ".join("0x%08x" % b for b in SNAN32[key])
    lines = ["f " + bits32(key) for key in ("f", "f_negative", "f_negative_zero")]
    lines.append("floats 3 " + bits32("floats"))
    raw = {key: b"".join(struct.pack("<I", b) for b in SNAN32[key]) for key in ("float_data", "complex64")}
    raw["double_data"] = b"".join(struct.pack("<Q", b) for b in SNAN64["double_data"])
    for key, data in raw.items():
        lines.append("source typed\nbytes %d\nsha256 %s" % (len(data), hashlib.sha256(data).hexdigest()))
    return lines


def cmd_signalling_nan(build_dir):
    work = tempfile.mkdtemp(prefix="sweep-snan-")
    failures = []
    try:
        path = os.path.join(work, "snan.onnx")
        with open(path, "wb") as f:
            f.write(snan_model_bytes())
        cpp, py = run_dumps(build_dir, path)
        lines = expected_lines()
        for side, text in (("C++", cpp.decode()), ("Python", py.decode())):
            body = "\n".join(line.strip() for line in text.splitlines())
            for line in lines:
                if line not in body:
                    failures.append("%s dump lacks %r" % (side, line))
            if "0x7fc" in body or "0xffc" in body:
                failures.append("%s dump shows a quieted NaN" % side)
        rc, diff = compare(cpp, py, work)
        if rc != 0:
            failures.append("the two dumps differ:\n" + diff)
    finally:
        shutil.rmtree(work)
    for f in failures:
        print("FAILED: " + f)
    print("signalling NaNs and -0.0 in attributes and float_data/double_data: %s" % ("FAILED" if failures else "ok"))
    return 1 if failures else 0


# ---- skip-newer: what the installed onnx cannot represent ------------------------------

def with_unknown_field(message, field_number, payload):
    """The message with a length-delimited field appended that this onnx may not know."""
    assert field_number < 16
    extra = bytes([field_number << 3 | 2, len(payload)]) + payload
    copy = type(message)()
    copy.ParseFromString(message.SerializeToString() + extra)
    return copy


def cmd_skip_newer(build_dir):
    # A fixed place, so the sweep's table for it does not pile up under BUILD/sweep/.
    data = os.path.join(build_dir, "sweep-skip-newer-models")
    if os.path.exists(data):
        shutil.rmtree(data)
    try:
        cases = {}
        # NodeProto.overload (8) and TensorProto.metadata_props (16 needs two key bytes;
        # ValueInfoProto.metadata_props (4) stands in for the metadata fields).
        if "overload" not in onnx.NodeProto.DESCRIPTOR.fields_by_name:
            model = base_model("overload")
            node = with_unknown_field(model.graph.node[0], 8, b"v2")
            model.graph.node[0].CopyFrom(node)
            save(model, data, "node_overload")
            cases["node_overload"] = "(NodeProto) field 8 (overload)"
        if "metadata_props" not in onnx.ValueInfoProto.DESCRIPTOR.fields_by_name:
            model = base_model("metadata")
            entry = onnx.StringStringEntryProto(key="k", value="v").SerializeToString()
            model.graph.input[0].CopyFrom(with_unknown_field(model.graph.input[0], 4, entry))
            save(model, data, "value_info_metadata")
            cases["value_info_metadata"] = "(ValueInfoProto) field 4 (metadata_props)"
        # An enum value this onnx does not know: data_location 2 is refused by the importer,
        # so an AttributeProto.type beyond TYPE_PROTOS cannot be used either; unknown enum
        # values are unknown fields to proto2 and take the same path as the cases above.
        if not cases:
            print("skip-newer: the installed onnx %s knows every field used here; nothing to test"
                  % onnx.__version__)
            return SKIP_EXIT
        env = dict(os.environ, BUILD=build_dir)
        r = subprocess.run(SWEEP + [data], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
        text = r.stdout.decode("utf-8", "replace")
        print(text, end="")
        lines = text.strip().splitlines()
        failures = []
        expected = "0 passed, 0 failed, %d skipped" % len(cases)
        if r.returncode != 0 or not lines or not lines[-1].startswith(expected):
            failures.append("expected the last line to start with %r, exit 0 (got exit %d)"
                            % (expected, r.returncode))
        for rel, reason in cases.items():
            if not any(line.startswith(rel + "\tskipped\t") and reason in line for line in lines):
                failures.append("%s is not reported as skipped naming %r" % (rel, reason))
        for f in failures:
            print("FAILED: " + f)
        return 1 if failures else 0
    finally:
        shutil.rmtree(data)


def main(argv):
    if len(argv) == 3 and argv[1] == "edge":
        return cmd_edge(argv[2])
    if len(argv) == 3 and argv[1] == "can-fail":
        return cmd_can_fail(argv[2])
    if len(argv) == 3 and argv[1] == "signalling-nan":
        return cmd_signalling_nan(argv[2])
    if len(argv) == 3 and argv[1] == "skip-newer":
        return cmd_skip_newer(argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
