"""`selftest.py signalling-nan BUILD_DIR`: float bits that Python floats would change.
Signalling NaNs and -0.0 in float attributes and in float_data / double_data keep their
bits in both dumps, and the dumps agree."""
import hashlib
import os
import shutil
import struct
import tempfile

from onnx import AttributeProto, TensorProto, helper

from gauntlet.sweep.dump_pair import compare, run_dumps
from gauntlet.sweep.model_builders import DOMAIN, attribute, base_model

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




def main(build_dir):
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
