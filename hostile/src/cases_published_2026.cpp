// Hostile cases for the loader-bug shapes published in 2026 that the corpus lacked
// (hostile/README.md, "Published loader bugs"): unknown groups nested deep under the
// protobuf runtimes, tensors whose dims and payload disagree by far (dims trusted over
// the bytes), a tensor with two sources inside a function, and operators the version
// converter, ONNX Runtime's 2026 load fixes and TensorRT's parser choke on, imported as
// written (D9).
#include "build.hpp"
#include "rules.hpp"

namespace hostile {

namespace r = rules;

namespace {

constexpr uint32_t unknown_field = 1000;  // not a ModelProto field
constexpr unsigned start_group = 3, end_group = 4;

/// The minimal model, then an unknown group field nested `depth` deep.
std::string nested_groups(int depth) {
    WireWriter w;
    w.raw(ob::minimal_model());
    for (int i = 0; i < depth; ++i) w.varint((uint64_t{unknown_field} << 3) | start_group);
    for (int i = 0; i < depth; ++i) w.varint((uint64_t{unknown_field} << 3) | end_group);
    return w.str();
}

/// The minimal graph with the given extra nodes and initializers, in a model importing
/// `opset_version` of the default domain.
std::string with_nodes(const std::vector<WireWriter>& nodes, const std::vector<WireWriter>& initializers = {},
                       int64_t opset_version = 21) {
    WireWriter g = base_graph();
    for (const auto& n : nodes) g.message(p::Graph::node, n);
    for (const auto& t : initializers) g.message(p::Graph::initializer, t);
    return ob::model(g, 9, opset_version).str();
}

WireWriter floats_attr(std::string_view name, float v) {
    return WireWriter()
        .bytes_field(p::Attribute::name, name)
        .float_field(p::Attribute::f, v)
        .int_field(p::Attribute::type, 1);
}

WireWriter int64_tensor(std::string_view name, const std::vector<int64_t>& values) {
    std::string raw;
    for (int64_t v : values)
        for (int b = 0; b < 8; ++b) raw += static_cast<char>((static_cast<uint64_t>(v) >> (8 * b)) & 0xFF);
    return ob::tensor_raw(name, 7, {static_cast<int64_t>(values.size())}, raw);
}

void add_group_cases(Corpus& c) {
    // libprotobuf, pure-Python protobuf and protobuf-es stop at their recursion limits;
    // protobufjs 6 skips them. W3 refuses the first group whatever its depth.
    c.refuse("Malformed", "unknown-group-nested-200", r::wire_bad,
             "an unknown field 1000 as a group, nested 200 deep after a valid model", nested_groups(200));
    c.refuse("Malformed", "unknown-group-nested-5000", r::wire_bad,
             "an unknown field 1000 as a group, nested 5000 deep after a valid model", nested_groups(5000));
}

void add_payload_cases(Corpus& c) {
    c.refuse("InvalidModel", "raw-dims-million-4-bytes", r::raw_len,
             "FLOAT dims [1000000] with 4 bytes of raw_data (OpenCV trusted the dims)",
             model_with_initializer(ob::tensor_raw("T", 1, {1000000}, floats_le({1}))));
    c.refuse("InvalidModel", "typed-dims-million-one-float", r::typed_len,
             "FLOAT dims [1000000] with one float_data value",
             model_with_initializer(tensor_head("T", 1, {1000000}).float_field(p::Tensor::float_data, 1.0F)));
    c.refuse("InvalidModel", "raw-int64-one-element-4096-bytes", r::raw_len,
             "INT64 dims [1] with 4096 bytes of raw_data (onnx-mlir read past the element)",
             model_with_initializer(ob::tensor_raw("T", 7, {1}, pattern(4096))));
    c.refuse("InvalidModel", "mix-raw-and-float-data-in-function", r::mixing,
             "a function body's Constant tensor with raw_data and float_data (the checker passes it)", [] {
                 WireWriter t = ob::tensor_raw("v", 1, {1}, floats_le({1}));
                 t.float_field(p::Tensor::float_data, 2.0F);
                 WireWriter body = ob::node("Constant", {}, {"b"}, "k");
                 body.message(p::Node::attribute, ob::attr_tensor("value", t));
                 WireWriter fn;
                 fn.bytes_field(p::Function::name, "f")
                     .bytes_field(p::Function::output, "b")
                     .message(p::Function::node, body)
                     .message(p::Function::opset_import, ob::opset("", 21));
                 fn.bytes_field(p::Function::domain, "local");
                 return ob::minimal_model() + WireWriter().message(p::Model::functions, fn).str();
             }());
}

void add_converter_cases(Corpus& c) {
    c.accept("op-upsample-6-scale-attributes-no-inputs", r::operators,
             "Upsample at opset 6 with width_scale and height_scale attributes and no inputs",
             with_nodes({ob::node("Upsample", {}, {"u"}, "up")
                             .message(p::Node::attribute, floats_attr("width_scale", 2))
                             .message(p::Node::attribute, floats_attr("height_scale", 2))},
                        {}, 6),
             {{"node_count", 2}, {"ir_version", 9}});
    c.accept("op-gemm-rank-1-operands", r::operators, "Gemm whose A and B are rank-1 initializers",
             with_nodes({ob::node("Gemm", {"A", "B"}, {"g"}, "gemm")},
                        {ob::tensor_raw("A", 1, {2}, floats_le({1, 2})),
                         ob::tensor_raw("B", 1, {2}, floats_le({3, 4}))}),
             {{"node_count", 2}, {"tensor_dims", {{"A", {2}}, {"B", {2}}}}});
    c.accept("op-cast-softmax-missing-inputs", r::operators, "Cast and Softmax nodes with no inputs",
             with_nodes({ob::node("Cast", {}, {"c"}, "cast").message(p::Node::attribute, ob::attr_int("to", 1)),
                         ob::node("Softmax", {}, {"s"}, "softmax")}),
             {{"node_count", 3}});
}

void add_ort_load_fix_cases(Corpus& c) {
    c.accept("op-inputs-to-operator-without-inputs", r::operators,
             "a Constant (whose schema has no inputs) given the graph input X",
             with_nodes({ob::node("Constant", {"X"}, {"k"}, "const")
                             .message(p::Node::attribute,
                                      ob::attr_tensor("value", ob::tensor_raw("v", 1, {1}, floats_le({1}))))}),
             {{"node_count", 2}});
    c.accept("op-graph-attribute-on-relu", r::operators, "a Relu carrying a graph attribute `body`",
             with_nodes({ob::node("Relu", {"X"}, {"r"}, "relu")
                             .message(p::Node::attribute, ob::attr_graph("body", bare_graph({}, {}, {}, "b")))}),
             {{"node_count", 2}});
    c.accept("op-conv-weight-more-spatial-dims", r::operators,
             "Conv of the rank-1 input X with a rank-6 weight (ONNX Runtime over-read its dilations)",
             with_nodes({ob::node("Conv", {"X", "W"}, {"y"}, "conv")},
                        {ob::tensor_raw("W", 1, {1, 1, 1, 1, 1, 1}, floats_le({1}))}),
             {{"tensor_dims", {{"W", {1, 1, 1, 1, 1, 1}}}}});
    c.accept("op-constantofshape-terabytes", r::operators,
             "ConstantOfShape of the shape [2^20, 2^20, 2^10] (4 PiB of float at constant folding)",
             with_nodes({ob::node("ConstantOfShape", {"shape"}, {"z"}, "cos")},
                        {int64_tensor("shape", {int64_t{1} << 20, int64_t{1} << 20, int64_t{1} << 10})}),
             {{"tensor_dims", {{"shape", {3}}}}});
    c.accept("loop-body-input-is-body-initializer", r::values,
             "a Loop body whose input `cond_in` is also a body initializer (its default value, as before IR 4)", [] {
                 WireWriter body = bare_graph({ob::node("Identity", {"cond_in"}, {"cond_out"}, "keep")},
                                              {"iter", "cond_in"}, {"cond_out"}, "body");
                 body.message(p::Graph::initializer, ob::tensor_raw("cond_in", 9, {}, std::string(1, '\1')));
                 return with_nodes({ob::node("Loop", {"", ""}, {}, "loop").message(p::Node::attribute,
                                                                              ob::attr_graph("body", body))});
             }(),
             {{"node_count", 2}});
}

/// What TensorRT's parser is said to mishandle: a shape whose element count overflows its
/// 32-bit arithmetic, an axis one past the last.
void add_tensorrt_cases(Corpus& c) {
    c.accept("op-eyelike-dims-product-overflows-int32", r::operators,
             "EyeLike of an input declared [65536, 65537]: 2^32 + 2^16 elements, past int32", [] {
                 WireWriter g = base_graph();
                 g.message(p::Graph::input, ob::value_info("E", 1, {65536, 65537}));
                 g.message(p::Graph::node, ob::node("EyeLike", {"E"}, {"eye"}, "eye"));
                 return ob::model(g).str();
             }(),
             {{"node_count", 2}, {"value_shape", {{"E", {65536, 65537}}}}});
    c.accept("op-axis-equal-to-rank", r::operators, "Softmax of the rank-1 input X with axis 1, one past its last axis",
             with_nodes({ob::node("Softmax", {"X"}, {"s"}, "softmax").message(p::Node::attribute,
                                                                             ob::attr_int("axis", 1))}),
             {{"node_count", 2}});
}

}  // namespace

void add_published_2026_cases(Corpus& c) {
    add_group_cases(c);
    add_payload_cases(c);
    add_converter_cases(c);
    add_ort_load_fix_cases(c);
    add_tensorrt_cases(c);
}

}  // namespace hostile
