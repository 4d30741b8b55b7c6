// Models for the .ort writer suite: every field kind the .ort format holds (so a round trip
// changes nothing but what docs/ort-normalizations.md lists for our writer), Constants of
// each value kind, and one part per kind of refusal.
#pragma once

#include "write_models.hpp"

#include <string>

namespace write_test {

/// Attributes of kinds 1..10, -0.0 and a doc string included; a subgraph that reads an
/// outer value (an implicit input of its node). An operator of another domain than ai.onnx
/// (the writer checks no arity or attribute against its signature).
inline WireWriter ort_attributes_node() {
    using A = P::Attribute;
    WireWriter sub = WireWriter().message(P::Graph::node, tb::node("Identity", {"X"}, {"sub_out"}))
                         .message(P::Graph::output, tb::value_info("sub_out"));
    WireWriter n = tb::node("LabelEncoder", {"X", ""}, {"C"}, "custom");
    auto attr = [&](std::string_view name, WireWriter a) {
        n.message(P::Node::attribute, a.bytes_field(A::name, name));
    };
    attr("f_negative_zero", WireWriter().float_field(A::f, -0.0f).int_field(A::type, 1));
    attr("i", WireWriter().int_field(A::i, static_cast<uint64_t>(-5)).int_field(A::type, 2));
    attr("s", WireWriter().bytes_field(A::s, "text\x01").int_field(A::type, 3).bytes_field(A::doc_string, "doc"));
    attr("t", WireWriter().message(A::t, tb::tensor_raw("big_attr", 2, {1500}, ramp(1500))).int_field(A::type, 4));
    attr("g", WireWriter().message(A::g, sub).int_field(A::type, 5));
    attr("floats", WireWriter().float_field(A::floats, 1.5f).float_field(A::floats, -2.0f).int_field(A::type, 6));
    attr("ints", WireWriter().packed_varints(A::ints, {1, static_cast<uint64_t>(-3)}).int_field(A::type, 7));
    attr("strings", WireWriter().bytes_field(A::strings, "a").bytes_field(A::strings, "").int_field(A::type, 8));
    attr("tensors", WireWriter().message(A::tensors, typed_tensor("ts", 6, {2}, P::Tensor::int32_data, {-1, 9}))
                        .int_field(A::type, 9));
    attr("graphs", WireWriter().message(A::graphs, tb::minimal_graph()).int_field(A::type, 10));
    n.bytes_field(P::Node::domain, "ai.onnx.ml").bytes_field(P::Node::doc_string, "node doc");
    return n;
}

/// Initializers of each source .ort holds: raw, typed (converted to raw), strings.
inline void add_ort_initializers(WireWriter& g) {
    using F = P::Tensor;
    auto init = [&](WireWriter t) { g.message(P::Graph::initializer, t); };
    init(tb::tensor_raw("W_raw", 1, {500}, ramp(2000)));
    init(tb::tensor_raw("W_two", 1, {100}, ramp(400)));
    init(tb::tensor_raw("small_raw", 1, {2}, ramp(8)).bytes_field(F::doc_string, "small"));
    init(tb::tensor_raw("no_elements", 1, {0, 4}, ""));
    init(WireWriter().packed_varints(F::dims, {2}).int_field(F::data_type, 8).bytes_field(F::name, "str")
             .bytes_field(F::string_data, "hello").bytes_field(F::string_data, std::string("\0\xff", 2)));
    g.message(P::Graph::sparse_initializer, sparse("sp_init"));
}

/// A value of every type member .ort holds (write_models.hpp), with a doc string.
inline WireWriter ort_types_value(std::string_view name) {
    return WireWriter().bytes_field(P::ValueInfo::name, name).message(P::ValueInfo::type, map_of_sequence_type())
        .bytes_field(P::ValueInfo::doc_string, "value doc");
}

/// The graph: nodes out of topological order, doc strings, typed values.
inline WireWriter ort_rich_graph() {
    using G = P::Graph;
    WireWriter g;
    g.message(G::node, tb::node("Identity", {"B"}, {"Y"}, "second"));
    g.message(G::node, tb::node("Add", {"X", "W_two"}, {"B"}, "first"));
    g.message(G::node, ort_attributes_node());
    g.bytes_field(G::doc_string, "graph doc");
    add_ort_initializers(g);
    g.message(G::input, tb::value_info("X", 1, {100}).bytes_field(P::ValueInfo::doc_string, "input doc"));
    g.message(G::output, tb::value_info("Y", 1, {100}));
    g.message(G::output, ort_types_value("C"));
    g.message(G::value_info, tb::value_info("B", 1, {100}));
    return g;
}

inline std::string ort_rich_model() {
    using M = P::Model;
    return WireWriter()
        .int_field(M::ir_version, 10).bytes_field(M::producer_name, "builder").bytes_field(M::producer_version, "1.0")
        .bytes_field(M::domain, "test.domain").int_field(M::model_version, 7).bytes_field(M::doc_string, "model doc")
        .message(M::graph, ort_rich_graph())
        .message(M::opset_import, tb::opset("", 21)).message(M::opset_import, tb::opset("ai.onnx.ml", 4))
        .message(M::metadata_props, tb::string_entry("mk", "mv"))
        .str();
}

/// A Constant node of one value attribute, its output Y the graph's output.
inline std::string constant_model(WireWriter attribute) {
    WireWriter g;
    g.message(P::Graph::node, tb::node("Constant", {}, {"Y"}).message(P::Node::attribute, attribute));
    g.message(P::Graph::output, WireWriter().bytes_field(P::ValueInfo::name, "Y"));
    return tb::model(g).str();
}

/// A graph of one Identity over X, with `extra` appended (an initializer, a value_info...).
inline std::string identity_with(const WireWriter& extra, int64_t ir_version = 9) {
    WireWriter g = tb::minimal_graph();
    g.raw(extra.str());
    return tb::model(g, ir_version).str();
}

}  // namespace write_test
