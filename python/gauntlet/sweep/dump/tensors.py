"""TENSOR blocks of the dump: a tensor's fields, and the SHA-256 of its data in the raw
layout, typed fields converted here bit for bit (sweep/DUMP_FORMAT.md)."""
import hashlib
import os
import struct

import numpy as np
import onnx

from gauntlet.data_types import BITS
from gauntlet.sweep.dump.names import element_type, q
from gauntlet.sweep.dump.representable import field
from gauntlet.sweep.dump.wire_bits import fixed_entries

# The typed field that serves each element type (docs/rules.md T7); int32_data otherwise.
TYPED_FIELD = {1: "float_data", 14: "float_data", 11: "double_data", 15: "double_data",
               7: "int64_data", 13: "uint64_data", 12: "uint64_data", 8: "string_data"}
# TensorProto's float_data and double_data field numbers, and the size of an entry.
FLOAT_FIELDS = {"float_data": (4, 4), "double_data": (10, 8)}


def pack_six_bit(values):
    """Element k's low 6 bits at bit 6k of a little-endian bit stream."""
    acc = 0
    for k, v in enumerate(values):
        acc |= (int(v) & 0x3F) << (6 * k)
    return acc.to_bytes((6 * len(values) + 7) // 8, "little")


def typed_raw_bytes(t, code):
    name = TYPED_FIELD.get(code, "int32_data")
    values = getattr(t, name)
    if name in FLOAT_FIELDS:  # the entries' bytes as written: the raw layout, bit for bit
        return b"".join(fixed_entries(t.SerializeToString(), *FLOAT_FIELDS[name]))
    if name == "int64_data":
        return np.array(values, dtype="<i8").tobytes()
    if name == "uint64_data":
        if code == 12:  # uint32: the low 32 bits
            return (np.array(values, dtype=np.uint64) & 0xFFFFFFFF).astype("<u4").tobytes()
        return np.array(values, dtype="<u8").tobytes()
    bits = BITS[code]
    ints = np.array(values, dtype=np.int64)
    if code == 9:  # bool: any non-zero entry is 1
        return (ints.astype(np.uint32) != 0).astype(np.uint8).tobytes()
    if bits == 32:
        return ints.astype("<i4").tobytes()
    if bits == 16:
        return (ints & 0xFFFF).astype("<u2").tobytes()
    if bits == 6:
        return pack_six_bit(values)
    # 8-bit types, and the packed bytes of the 4- and 2-bit types: the low byte.
    return (ints & 0xFF).astype(np.uint8).tobytes()


def external_bytes(t, model_dir, expected):
    info = {e.key: e.value for e in t.external_data}
    offset = int(info.get("offset", "0") or 0)
    length = int(info["length"]) if info.get("length") else expected
    with open(os.path.join(model_dir, info["location"]), "rb") as f:
        f.seek(offset)
        return f.read(length)


def tensor_data(t, ctx):
    """(source, size, hash) of the tensor's data, wherever it is held."""
    code = t.data_type
    count = 1
    for d in t.dims:
        count *= d
    sha = hashlib.sha256()
    if t.data_location == onnx.TensorProto.EXTERNAL:
        expected = (count * BITS.get(code, 0) + 7) // 8
        data = external_bytes(t, ctx["dir"], expected)
        source, size = "external", len(data)
        sha.update(data)
    elif t.HasField("raw_data"):
        source, size = "raw", len(t.raw_data)
        sha.update(t.raw_data)
    elif code == onnx.TensorProto.STRING:
        source, size = "strings", len(t.string_data)
        for s in t.string_data:
            sha.update(struct.pack("<Q", len(s)))
            sha.update(s)
    elif len(getattr(t, TYPED_FIELD.get(code, "int32_data"))):
        data = typed_raw_bytes(t, code)
        source, size = "typed", len(data)
        sha.update(data)
    else:
        source, size = "none", 0
    return source, size, sha


def dump_tensor(out, ind, t, ctx):
    out.append(ind + "name " + q(t.name))
    out.append(ind + "data_type " + element_type(t.data_type))
    out.append(ind + "dims" + "".join(" %d" % d for d in t.dims))
    out.append(ind + "data_location %d" % t.data_location)
    for e in t.external_data:
        out.append(ind + "external_data " + q(e.key) + " " + q(e.value))
    if t.doc_string:
        out.append(ind + "doc_string " + q(t.doc_string))
    for e in field(t, "metadata_props", ()):
        out.append(ind + "metadata_props " + q(e.key) + " " + q(e.value))
    source, size, sha = tensor_data(t, ctx)
    out.append(ind + "source " + source)
    out.append(ind + "bytes %d" % size)
    out.append(ind + "sha256 " + sha.hexdigest())


def dump_sparse(out, ind, s, ctx):
    out.append(ind + "dims" + "".join(" %d" % d for d in s.dims))
    out.append(ind + "values")
    dump_tensor(out, ind + "  ", s.values, ctx)
    out.append(ind + "indices")
    dump_tensor(out, ind + "  ", s.indices, ctx)
