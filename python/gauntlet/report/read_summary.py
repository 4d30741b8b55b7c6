"""What a Python reader read (docs/matrix.md, "What each importer read"): the summary that
read_summary.js gives for the JavaScript readers, from an onnx.ModelProto of either protobuf
backend. 64-bit integers are decimal strings, as in JSON from JavaScript.
"""
import hashlib
import struct

# elem_type -> (typed field, bytes per element in the raw layout); the same table as
# read_summary.js. Sub-byte and string types have no hash.
TYPED = {
    1: ("float_data", 4), 14: ("float_data", 4),
    2: ("int32_data", 1), 3: ("int32_data", 1), 9: ("int32_data", 1),
    17: ("int32_data", 1), 18: ("int32_data", 1), 19: ("int32_data", 1), 20: ("int32_data", 1), 24: ("int32_data", 1),
    4: ("int32_data", 2), 5: ("int32_data", 2), 10: ("int32_data", 2), 16: ("int32_data", 2),
    6: ("int32_data", 4),
    7: ("int64_data", 8),
    11: ("double_data", 8), 15: ("double_data", 8),
    12: ("uint64_data", 4), 13: ("uint64_data", 8),
}
EXTERNAL = 1  # TensorProto.DataLocation.EXTERNAL
BOOL = 9  # a BOOL's int32_data value is true when not 0 (docs/rules.md T12): hashed as 1


def typed_bytes(field, size, values):
    if field == "float_data":
        return struct.pack(f"<{len(values)}f", *values)
    if field == "double_data":
        return struct.pack(f"<{len(values)}d", *values)
    mask = (1 << (8 * size)) - 1
    return b"".join((int(v) & mask).to_bytes(size, "little") for v in values)


def tensor_hash(t):
    if t.data_location == EXTERNAL:
        return None
    if t.raw_data:
        return hashlib.sha256(t.raw_data).hexdigest()
    typed = TYPED.get(t.data_type)
    if typed is None:
        return None
    values = list(getattr(t, typed[0]))
    if t.data_type == BOOL:
        values = [1 if v else 0 for v in values]
    return hashlib.sha256(typed_bytes(typed[0], typed[1], values)).hexdigest()


def summarize(model):
    graph = model.graph
    return {
        "ir_version": str(model.ir_version),
        "opsets": [[o.domain, str(o.version)] for o in model.opset_import],
        "nodes": len(graph.node),
        "op_types": [n.op_type for n in graph.node],
        "initializers": [{"name": t.name, "elem_type": t.data_type, "dims": [str(d) for d in t.dims],
                          "sha256": tensor_hash(t)} for t in graph.initializer],
    }
