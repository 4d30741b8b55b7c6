"""The structural dump (sweep/DUMP_FORMAT.md) written from the Python onnx package: the
reference side of the backend-test sweep (spec section 8).

usage: onnx_dump.py MODEL                  the dump on stdout (exit 3: skipped, reason on stderr)
       onnx_dump.py --dir DATA_DIR OUT_DIR  every DATA_DIR/<rel>/model.onnx to OUT_DIR/<rel>.dump,
                                           or OUT_DIR/<rel>.skipped holding the reason

Only onnx.load and the message fields are used. Typed tensor fields are converted to the raw
layout here (spec section 3) and hashed with hashlib. A model holding a field or enum value
this onnx package does not know is not dumped but skipped with that reason: guessing would
risk a silent pass. Runs under Debian's python3-onnx (gauntlet.settings.PYTHON).
"""
import hashlib
import os
import struct
import sys
import time

import numpy as np
import onnx

SKIP_EXIT = 3

DATA_TYPE_NAMES = [
    "UNDEFINED", "FLOAT", "UINT8", "INT8", "UINT16", "INT16", "INT32", "INT64", "STRING", "BOOL",
    "FLOAT16", "DOUBLE", "UINT32", "UINT64", "COMPLEX64", "COMPLEX128", "BFLOAT16", "FLOAT8E4M3FN",
    "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ", "UINT4", "INT4", "FLOAT4E2M1", "FLOAT8E8M0",
    "UINT2", "INT2", "FLOAT6E2M3", "FLOAT6E3M2",
]
ATTRIBUTE_TYPE_NAMES = [
    "UNDEFINED", "FLOAT", "INT", "STRING", "TENSOR", "GRAPH", "FLOATS", "INTS", "STRINGS", "TENSORS",
    "GRAPHS", "SPARSE_TENSOR", "SPARSE_TENSORS", "TYPE_PROTO", "TYPE_PROTOS",
]

from gauntlet.data_types import BITS

# The typed field that serves each element type (spec section 3); int32_data otherwise.
TYPED_FIELD = {1: "float_data", 14: "float_data", 11: "double_data", 15: "double_data",
               7: "int64_data", 13: "uint64_data", 12: "uint64_data", 8: "string_data"}


class Skip(Exception):
    """The model holds something this onnx package cannot represent."""


# ---- Lexical rules -------------------------------------------------------------------

def _escape_table():
    table = []
    for b in range(256):
        if b in (0x22, 0x5C):
            table.append("\\" + chr(b))
        elif 0x20 <= b <= 0x7E:
            table.append(chr(b))
        else:
            table.append("\\x%02x" % b)
    return table


ESCAPE = _escape_table()


def q(value):
    """A quoted string: str fields as UTF-8, bytes fields as they are."""
    if isinstance(value, str):
        if value.isascii() and value.isprintable() and '"' not in value and "\\" not in value:
            return '"' + value + '"'
        value = value.encode("utf-8")
    return '"' + "".join([ESCAPE[b] for b in value]) + '"'


# ---- Float bit patterns from the wire ------------------------------------------------
#
# A float field read through Python becomes a double, and that conversion sets a signalling
# NaN's quiet bit (0x7f800001 -> 0x7fc00001). The bits are therefore read from the message's
# serialized bytes, which the C++ (cpp, upb) protobuf backends write from the stored float.

def _varint(data, i):
    value = shift = 0
    while True:
        b = data[i]
        i += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return value, i


def wire_fields(data):
    """(field number, wire type, payload) of each top-level field of serialized bytes; the
    payload is the value of a varint and the bytes of any other wire type."""
    i = 0
    while i < len(data):
        key, i = _varint(data, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            payload, i = _varint(data, i)
        elif wire in (1, 5):
            size = 8 if wire == 1 else 4
            payload, i = data[i:i + size], i + size
        elif wire == 2:
            size, i = _varint(data, i)
            payload, i = data[i:i + size], i + size
        else:
            raise ValueError("wire type %d in a serialized message" % wire)
        yield number, wire, payload


def fixed_entries(data, number, size):
    """The little-endian bytes of each entry of a repeated or singular fixed32 (size 4) or
    fixed64 (size 8) field, packed or not, in order."""
    entries = []
    for n, wire, payload in wire_fields(data):
        if n != number:
            continue
        if wire == 2:
            entries += [payload[k:k + size] for k in range(0, len(payload), size)]
        else:
            entries.append(payload)
    return entries


def float_bits(entry):
    """An entry of fixed_entries(..., 4) as the dump writes a float."""
    return "0x%08x" % struct.unpack("<I", entry)[0]


def serialization_keeps_float_bits():
    """False under the pure-Python protobuf backend, which holds floats as Python floats."""
    a = onnx.AttributeProto()
    a.ParseFromString(b"\x15\x01\x00\x80\x7f")  # f = 0x7f800001, a signalling NaN
    return a.SerializeToString() == b"\x15\x01\x00\x80\x7f"


def element_type(code):
    name = DATA_TYPE_NAMES[code] if 0 <= code < len(DATA_TYPE_NAMES) else "?"
    return "%d %s" % (code, name)


def has_field(msg, name):
    """True when the field exists in this onnx version and holds something."""
    if name not in msg.DESCRIPTOR.fields_by_name:
        return False
    field = msg.DESCRIPTOR.fields_by_name[name]
    if field.label == field.LABEL_REPEATED:
        return len(getattr(msg, name)) > 0
    return msg.HasField(name)


def field(msg, name, default):
    """A field that newer onnx versions have; the default where this version lacks it
    (a model that sets it is skipped before it gets here: an unknown field)."""
    return getattr(msg, name) if name in msg.DESCRIPTOR.fields_by_name else default


# ---- Representability ----------------------------------------------------------------

# Fields of later onnx.proto versions that the importer reads, by (message, number): named
# in skip reasons. Other unknown fields are reported by number only.
NEWER_FIELDS = {
    ("NodeProto", 8): "overload", ("NodeProto", 9): "metadata_props",
    ("GraphProto", 16): "metadata_props", ("TensorProto", 16): "metadata_props",
    ("ValueInfoProto", 4): "metadata_props", ("FunctionProto", 11): "attribute_proto",
    ("FunctionProto", 12): "value_info", ("FunctionProto", 13): "overload",
    ("FunctionProto", 14): "metadata_props",
}


def unknown_fields(msg, path, found):
    """Collects every unknown field of msg and its sub-messages (fields newer than this
    onnx, or enum values it does not know, which protobuf keeps as unknown fields)."""
    unknown = msg.UnknownFields()
    if len(unknown):
        message = msg.DESCRIPTOR.name
        numbers = sorted({f.field_number for f in unknown})
        named = ["%d (%s)" % (n, NEWER_FIELDS[(message, n)]) if (message, n) in NEWER_FIELDS else str(n)
                 for n in numbers]
        found.append("%s (%s) field %s" % (path, message, ", ".join(named)))
    for fd, value in msg.ListFields():
        if fd.type != fd.TYPE_MESSAGE:
            continue
        if fd.label == fd.LABEL_REPEATED:
            for i, item in enumerate(value):
                unknown_fields(item, "%s.%s[%d]" % (path, fd.name, i), found)
        else:
            unknown_fields(value, path + "." + fd.name, found)


# ---- Tensors: the raw layout (spec section 3) ----------------------------------------

def pack_six_bit(values):
    """Element k's low 6 bits at bit 6k of a little-endian bit stream."""
    acc = 0
    for k, v in enumerate(values):
        acc |= (int(v) & 0x3F) << (6 * k)
    return acc.to_bytes((6 * len(values) + 7) // 8, "little")


# TensorProto's float_data and double_data field numbers, and the size of an entry.
FLOAT_FIELDS = {"float_data": (4, 4), "double_data": (10, 8)}


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


def dump_tensor(out, ind, t, ctx):
    code = t.data_type
    out.append(ind + "name " + q(t.name))
    out.append(ind + "data_type " + element_type(code))
    out.append(ind + "dims" + "".join(" %d" % d for d in t.dims))
    out.append(ind + "data_location %d" % t.data_location)
    for e in t.external_data:
        out.append(ind + "external_data " + q(e.key) + " " + q(e.value))
    if t.doc_string:
        out.append(ind + "doc_string " + q(t.doc_string))
    for e in field(t, "metadata_props", ()):
        out.append(ind + "metadata_props " + q(e.key) + " " + q(e.value))
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
    out.append(ind + "source " + source)
    out.append(ind + "bytes %d" % size)
    out.append(ind + "sha256 " + sha.hexdigest())


def dump_sparse(out, ind, s, ctx):
    out.append(ind + "dims" + "".join(" %d" % d for d in s.dims))
    out.append(ind + "values")
    dump_tensor(out, ind + "  ", s.values, ctx)
    out.append(ind + "indices")
    dump_tensor(out, ind + "  ", s.indices, ctx)


# ---- Types ---------------------------------------------------------------------------

def dump_type(out, ind, t):
    """A TYPE block; t is None for an inner type field that is absent."""
    if t is None:
        out.append(ind + "type absent")
        return
    kind = t.WhichOneof("value")
    inner = ind + "  "
    if kind is None:
        out.append(ind + "type none")
    elif kind in ("tensor_type", "sparse_tensor_type"):
        out.append(ind + "type " + kind[:-5])
        tt = getattr(t, kind)
        out.append(inner + "elem_type " + element_type(tt.elem_type))
        if not tt.HasField("shape"):
            out.append(inner + "shape absent")
        else:
            out.append(inner + "shape %d" % len(tt.shape.dim))
            for d in tt.shape.dim:
                which = d.WhichOneof("value")
                if which == "dim_value":
                    out.append(inner + "  dim value %d" % d.dim_value)
                elif which == "dim_param":
                    out.append(inner + "  dim param " + q(d.dim_param))
                else:
                    out.append(inner + "  dim unknown")
                if d.denotation:
                    out.append(inner + "    denotation " + q(d.denotation))
    elif kind in ("sequence_type", "optional_type"):
        out.append(ind + "type " + kind[:-5])
        st = getattr(t, kind)
        dump_type(out, inner, st.elem_type if st.HasField("elem_type") else None)
    elif kind == "map_type":
        out.append(ind + "type map")
        out.append(inner + "key_type " + element_type(t.map_type.key_type))
        dump_type(out, inner, t.map_type.value_type if t.map_type.HasField("value_type") else None)
    elif kind == "opaque_type":
        out.append(ind + "type opaque")
        out.append(inner + "domain " + q(t.opaque_type.domain))
        out.append(inner + "name " + q(t.opaque_type.name))
    else:
        raise Skip("TypeProto member %s is not in the dump format" % kind)
    if t.denotation:
        out.append(inner + "denotation " + q(t.denotation))


def dump_value_infos(out, ind, keyword, values):
    for v in values:
        out.append(ind + keyword + " " + q(v.name))
        dump_type(out, ind + "  ", v.type)
        if v.doc_string:
            out.append(ind + "  doc_string " + q(v.doc_string))
        for e in field(v, "metadata_props", ()):
            out.append(ind + "  metadata_props " + q(e.key) + " " + q(e.value))


# ---- Attributes, nodes, graphs, functions ---------------------------------------------

# Spec section 2: with no type, the type is that of the first field set in this order.
INFERENCE_ORDER = [("f", 1), ("i", 2), ("s", 3), ("t", 4), ("g", 5), ("sparse_tensor", 11),
                   ("tp", 13), ("floats", 6), ("ints", 7), ("strings", 8), ("tensors", 9),
                   ("graphs", 10), ("sparse_tensors", 12), ("type_protos", 14)]


def message_list(out, ind, keyword, items, each):
    out.append(ind + "%s %d" % (keyword, len(items)))
    for i, item in enumerate(items):
        out.append(ind + "  [%d]" % i)
        each(out, ind + "    ", item)


def dump_attribute(out, ind, a, ctx):
    if a.HasField("type"):
        code, how = a.type, "declared"
    else:
        code, how = 0, "inferred"
        for name, c in INFERENCE_ORDER:
            if has_field(a, name):
                code = c
                break
    name = ATTRIBUTE_TYPE_NAMES[code] if 0 <= code < len(ATTRIBUTE_TYPE_NAMES) else "?"
    out.append(ind + "attr_type %d %s %s" % (code, name, how))
    if a.ref_attr_name:
        out.append(ind + "ref_attr_name " + q(a.ref_attr_name))
    if a.doc_string:
        out.append(ind + "doc_string " + q(a.doc_string))
    inner = ind + "  "
    # AttributeProto.f is field 2, floats field 7 (both fixed32 on the wire).
    wire = a.SerializeToString() if a.HasField("f") or len(a.floats) else b""
    f_entries = fixed_entries(wire, 2, 4)
    fbits = float_bits(f_entries[-1]) if f_entries else "0x00000000"
    if code == 1 or fbits != "0x00000000":
        out.append(ind + "f " + fbits)
    if code == 2 or a.i != 0:
        out.append(ind + "i %d" % a.i)
    if code == 3 or len(a.s):
        out.append(ind + "s " + q(a.s))
    if a.HasField("t"):
        out.append(ind + "t")
        dump_tensor(out, inner, a.t, ctx)
    if a.HasField("g"):
        out.append(ind + "g")
        dump_graph(out, inner, a.g, ctx)
    if a.HasField("sparse_tensor"):
        out.append(ind + "sparse_tensor")
        dump_sparse(out, inner, a.sparse_tensor, ctx)
    if a.HasField("tp"):
        out.append(ind + "tp")
        dump_type(out, inner, a.tp)
    if code == 6 or len(a.floats):
        out.append(ind + "floats %d" % len(a.floats) + "".join(" " + float_bits(f) for f in fixed_entries(wire, 7, 4)))
    if code == 7 or len(a.ints):
        out.append(ind + "ints %d" % len(a.ints) + "".join(" %d" % i for i in a.ints))
    if code == 8 or len(a.strings):
        out.append(ind + "strings %d" % len(a.strings) + "".join(" " + q(s) for s in a.strings))
    if code == 9 or len(a.tensors):
        message_list(out, ind, "tensors", a.tensors, lambda o, i, t: dump_tensor(o, i, t, ctx))
    if code == 10 or len(a.graphs):
        message_list(out, ind, "graphs", a.graphs, lambda o, i, g: dump_graph(o, i, g, ctx))
    if code == 12 or len(a.sparse_tensors):
        message_list(out, ind, "sparse_tensors", a.sparse_tensors, lambda o, i, s: dump_sparse(o, i, s, ctx))
    if code == 14 or len(a.type_protos):
        message_list(out, ind, "type_protos", a.type_protos, dump_type)


def dump_nodes(out, ind, nodes, ctx):
    inner = ind + "  "
    for index, n in enumerate(nodes):
        out.append(ind + "node %d" % index)
        out.append(inner + "name " + q(n.name))
        out.append(inner + "op_type " + q(n.op_type))
        out.append(inner + "domain " + q(n.domain))
        overload = field(n, "overload", "")
        if overload:
            out.append(inner + "overload " + q(overload))
        for s in n.input:
            out.append(inner + "input " + q(s))
        for s in n.output:
            out.append(inner + "output " + q(s))
        for a in n.attribute:
            out.append(inner + "attribute " + q(a.name))
            dump_attribute(out, inner + "  ", a, ctx)
        if n.doc_string:
            out.append(inner + "doc_string " + q(n.doc_string))
        for e in field(n, "metadata_props", ()):
            out.append(inner + "metadata_props " + q(e.key) + " " + q(e.value))


def dump_graph(out, ind, g, ctx):
    out.append(ind + "name " + q(g.name))
    if g.doc_string:
        out.append(ind + "doc_string " + q(g.doc_string))
    dump_value_infos(out, ind, "input", g.input)
    dump_value_infos(out, ind, "output", g.output)
    dump_value_infos(out, ind, "value_info", g.value_info)
    for t in g.initializer:
        out.append(ind + "initializer")
        dump_tensor(out, ind + "  ", t, ctx)
    for s in g.sparse_initializer:
        out.append(ind + "sparse_initializer")
        dump_sparse(out, ind + "  ", s, ctx)
    dump_nodes(out, ind, g.node, ctx)
    for e in field(g, "metadata_props", ()):
        out.append(ind + "metadata_props " + q(e.key) + " " + q(e.value))


def dump_optional_graph(out, ind, keyword, msg, name, ctx):
    if not msg.HasField(name):
        out.append(ind + keyword + " absent")
        return
    out.append(ind + keyword)
    dump_graph(out, ind + "  ", getattr(msg, name), ctx)


def dump_function(out, ind, f, ctx):
    out.append(ind + "name " + q(f.name))
    out.append(ind + "domain " + q(f.domain))
    overload = field(f, "overload", "")
    if overload:
        out.append(ind + "overload " + q(overload))
    for s in f.input:
        out.append(ind + "input " + q(s))
    for s in f.output:
        out.append(ind + "output " + q(s))
    for s in f.attribute:
        out.append(ind + "attribute " + q(s))
    for a in field(f, "attribute_proto", ()):
        out.append(ind + "attribute_proto " + q(a.name))
        dump_attribute(out, ind + "  ", a, ctx)
    for o in f.opset_import:
        out.append(ind + "opset_import " + q(o.domain) + " %d" % o.version)
    dump_value_infos(out, ind, "value_info", field(f, "value_info", ()))
    dump_nodes(out, ind, f.node, ctx)
    if f.doc_string:
        out.append(ind + "doc_string " + q(f.doc_string))
    for e in field(f, "metadata_props", ()):
        out.append(ind + "metadata_props " + q(e.key) + " " + q(e.value))


def dump_model(m, model_dir):
    found = []
    unknown_fields(m, "ModelProto", found)
    if found:
        raise Skip("onnx %s cannot represent: %s" % (onnx.__version__, "; ".join(found[:5]) +
                                                     ("; ..." if len(found) > 5 else "")))
    ctx = {"dir": model_dir}
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
