"""A backend test's data set as arrays, and arrays in ONNX Runtime's JavaScript layout.

The input_<i>.pb and output_<i>.pb files are parsed by Debian's python3-onnx (1.12, its
protobuf classes and numpy_helper), already what the project's Python tools use: no
other protobuf dependency, and numpy_helper handles every typed field and raw_data of
the element types 1..13, the ones ONNX Runtime's Node.js binding takes and returns.
Every other test raises NotComparable with the reason.
"""
import base64
import glob
import os
import re

import numpy as np
import onnx
from onnx import numpy_helper


class NotComparable(Exception):
    """The test cannot be fed to or compared with ONNX Runtime's Node.js API."""


# TensorProto element type -> (ONNX Runtime's JavaScript type name, numpy dtype of the
# values compared). Types 14..20 and 23 and up have no tensor type in that API
# (onnxruntime-common's Tensor.Type: no complex, bfloat16, float8, float4 or 2-bit);
# onnxruntime-node 1.30 refuses INT4 and UINT4 inputs ("Tensor.type is not supported")
# and aborts the process on such an output (measured: docs/ort.md).
ORT_TYPES = {
    1: ("float32", np.float32), 2: ("uint8", np.uint8), 3: ("int8", np.int8), 4: ("uint16", np.uint16),
    5: ("int16", np.int16), 6: ("int32", np.int32), 7: ("int64", np.int64), 8: ("string", object),
    9: ("bool", np.bool_), 10: ("float16", np.float16), 11: ("float64", np.float64),
    12: ("uint32", np.uint32), 13: ("uint64", np.uint64),
}
TYPE_NAMES = {v: k for k, v in onnx.TensorProto.DataType.items()}
# Codes newer than onnx 1.12 (onnx.proto's TensorProto.DataType).
TYPE_NAMES.update({17: "FLOAT8E4M3FN", 18: "FLOAT8E4M3FNUZ", 19: "FLOAT8E5M2", 20: "FLOAT8E5M2FNUZ", 21: "UINT4",
                   22: "INT4", 23: "FLOAT4E2M1", 24: "FLOAT8E8M0", 25: "UINT2", 26: "INT2"})


def type_name(elem_type):
    return TYPE_NAMES.get(elem_type, str(elem_type))


def tensor_array(tensor):
    """(element type, numpy array) of a TensorProto; strings as Python str."""
    t = tensor.data_type
    if t not in ORT_TYPES:
        raise NotComparable("element type %s: ONNX Runtime's Node.js API has no tensor of it" % type_name(t))
    try:
        return t, numpy_helper.to_array(tensor)  # strings decoded from UTF-8
    except UnicodeDecodeError:
        raise NotComparable("a string that is not UTF-8: JavaScript strings hold text") from None


def value_kind(type_proto):
    """tensor_type, sequence_type, map_type, optional_type or sparse_tensor_type."""
    return type_proto.WhichOneof("value")


def read_value(path, kind, what):
    """The array of one .pb file whose declared kind is `kind` (a tensor, or an optional holding one)."""
    with open(path, "rb") as f:
        data = f.read()
    if kind == "tensor_type":
        return tensor_array(onnx.TensorProto.FromString(data))
    if kind == "optional_type":
        opt = onnx.OptionalProto.FromString(data)
        if opt.HasField("tensor_value"):
            return tensor_array(opt.tensor_value)
        raise NotComparable("%s is an empty optional or holds no tensor" % what)
    raise NotComparable("%s is a %s: ONNX Runtime's Node.js API feeds and returns tensors only"
                        % (what, kind.replace("_type", "")))


def numbered(folder, prefix):
    files = glob.glob(os.path.join(folder, prefix + "_*.pb"))
    index = {int(re.search(r"_(\d+)\.pb$", f).group(1)): f for f in files if re.search(r"_(\d+)\.pb$", f)}
    return [index[i] for i in sorted(index)]


def data_set(model_dir, set_name="test_data_set_0"):
    """([(elem type, array)] inputs, [(elem type, array)] expected outputs) of one model's data set.

    The i-th input file feeds the i-th graph input that no initializer provides, and the
    i-th output file is the i-th graph output, as ONNX's backend test runner pairs them.
    """
    model = onnx.load(os.path.join(model_dir, "model.onnx"), load_external_data=False)
    graph = model.graph
    initialized = {t.name for t in graph.initializer}
    inputs = [v for v in graph.input if v.name not in initialized]
    folder = os.path.join(model_dir, set_name)
    in_files, out_files = numbered(folder, "input"), numbered(folder, "output")
    if len(in_files) > len(inputs):
        raise NotComparable("%d input files for %d graph inputs" % (len(in_files), len(inputs)))
    if len(out_files) != len(graph.output):
        raise NotComparable("%d output files for %d graph outputs" % (len(out_files), len(graph.output)))
    feeds = [read_value(f, value_kind(v.type), "input %d (%s)" % (i, v.name))
             for i, (f, v) in enumerate(zip(in_files, inputs))]
    expected = [read_value(f, value_kind(v.type), "output %d (%s)" % (i, v.name))
                for i, (f, v) in enumerate(zip(out_files, graph.output))]
    return feeds, expected


def encode(elem_type, array):
    """The request form of one input tensor (run_models.js)."""
    name, dtype = ORT_TYPES[elem_type]
    dims = [int(d) for d in array.shape]
    if elem_type == 8:
        return {"type": name, "dims": dims, "strings": [str(s) for s in array.ravel()]}
    raw = np.ascontiguousarray(array, dtype=np.dtype(dtype).newbyteorder("<")).tobytes()
    return {"type": name, "dims": dims, "data": base64.b64encode(raw).decode("ascii")}


ORT_NAMES = {v[0]: k for k, v in ORT_TYPES.items()}


def decode(output):
    """(element type, array) of one output as run_models.js hands it back."""
    if output["type"] not in ORT_NAMES:
        raise NotComparable("ONNX Runtime returned an output of type %s" % output["type"])
    elem_type = ORT_NAMES[output["type"]]
    dims = tuple(int(d) for d in output["dims"])
    if elem_type == 8:
        return elem_type, np.array(output["strings"], dtype=object).reshape(dims)
    raw = np.frombuffer(base64.b64decode(output["data"]), dtype=np.uint8)
    dtype = np.dtype(ORT_TYPES[elem_type][1]).newbyteorder("<")
    if elem_type == 9:
        return elem_type, raw.astype(np.bool_).reshape(dims)
    return elem_type, raw.view(dtype).reshape(dims)
