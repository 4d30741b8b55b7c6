"""Builders of the sweep's self-test models (gauntlet/sweep/selftest.py): a small valid
model to extend, tensors through their typed fields and raw_data, attributes with exactly
the fields given."""
import os
import struct

import numpy as np
import onnx
from onnx import AttributeProto, TensorProto, helper

from gauntlet.data_types import BITS

DOMAIN = "test.gauntlet"


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

