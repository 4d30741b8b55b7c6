"""The sweep's edge models (`selftest.py edge DATA_DIR`): what the backend data leaves out
(every element type through its typed field and through raw_data, escapes, NaN payloads,
every attribute kind, every TypeProto member, functions, training info, sparse and external
tensors, nodes out of topological order). The sweep over them must pass every one."""
import os
import shutil
import struct

import onnx
from onnx import AttributeProto, TensorProto, helper

from gauntlet.data_types import BITS
from gauntlet.sweep.model_builders import (DOMAIN, TYPED, attribute, base_model, f32, map_type, raw_tensor, save,
                                           small_graph, typed_tensor)


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


def write(data_dir):
    """Writes every edge model into data_dir, which is emptied first."""
    if os.path.exists(data_dir):
        shutil.rmtree(data_dir)
    tensor_models(data_dir)
    attribute_models(data_dir)
    type_models(data_dir)
    function_models(data_dir)
    reordered_models(data_dir)
    return 0

