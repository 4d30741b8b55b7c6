// A model with every field kind the importer keeps, for the writer suites: each message,
// each attribute and type kind, each tensor source and typed field, sparse tensors,
// functions, training info, doc strings and metadata everywhere, nodes out of order.
#pragma once

#include <onnx_builders.hpp>
#include <wire_writer.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace write_test {

using onnximport::testing::WireWriter;
namespace P = onnximport::proto;
namespace tb = onnximport::testing;

/// A tensor of `data_type` and `dims` whose values sit in the typed field `field`.
inline WireWriter typed_tensor(std::string_view name, int32_t data_type, const std::vector<int64_t>& dims,
                               P::Tensor field, const std::vector<int64_t>& entries) {
    WireWriter t;
    t.packed_varint_range(P::Tensor::dims, dims).int_field(P::Tensor::data_type, static_cast<uint64_t>(data_type));
    t.bytes_field(P::Tensor::name, name);
    WireWriter inner;
    for (int64_t v : entries) {
        if (field == P::Tensor::float_data) inner.raw(std::string(reinterpret_cast<const char*>(&v), 4));
        else if (field == P::Tensor::double_data) inner.raw(std::string(reinterpret_cast<const char*>(&v), 8));
        else inner.varint(static_cast<uint64_t>(v));
    }
    return t.bytes_field(field, inner.str());
}

/// Raw bytes 0, 1, 2, ... of `count` floats.
inline std::string ramp(size_t bytes) {
    std::string s(bytes, '\0');
    for (size_t i = 0; i < bytes; ++i) s[i] = static_cast<char>(i * 7 + 3);
    return s;
}

/// map<int64, sequence<tensor>> of a float tensor of a value, a parameter (with a
/// denotation) and an unknown dimension, with the type's denotation: every member but optional.
inline WireWriter map_of_sequence_type() {
    using T = P::Type;
    WireWriter dims;
    dims.message(P::Shape::dim, WireWriter().int_field(P::Dimension::dim_value, 0));
    dims.message(P::Shape::dim, WireWriter().bytes_field(P::Dimension::dim_param, "batch")
                                     .bytes_field(P::Dimension::denotation, "DATA_BATCH"));
    dims.message(P::Shape::dim, WireWriter());
    WireWriter tensor = WireWriter().message(T::tensor_type, WireWriter().int_field(P::TensorType::elem_type, 1)
                                                                 .message(P::TensorType::shape, dims))
                            .bytes_field(T::denotation, "TENSOR");
    WireWriter seq = WireWriter().message(T::sequence_type, WireWriter().message(P::ElemType::elem_type, tensor));
    return WireWriter().message(T::map_type, WireWriter().int_field(P::MapType::key_type, 7)
                                                 .message(P::MapType::value_type, seq));
}

inline WireWriter every_type_kind() {
    return WireWriter().message(P::Type::optional_type,
                                WireWriter().message(P::ElemType::elem_type, map_of_sequence_type()));
}

inline WireWriter sparse(std::string_view name) {
    return WireWriter()
        .message(P::SparseTensor::values, tb::tensor_raw(name, 1, {2}, std::string(8, '\x11')))
        .message(P::SparseTensor::indices,
                 typed_tensor(std::string(name) + "_i", 7, {2}, P::Tensor::int64_data, {1, 5}))
        .packed_varints(P::SparseTensor::dims, {3, 3});
}

inline WireWriter attributes_node() {
    using A = P::Attribute;
    WireWriter n = tb::node("Custom", {"X", ""}, {"C"}, "custom");
    auto attr = [&](std::string_view name, WireWriter a) {
        n.message(P::Node::attribute, a.bytes_field(A::name, name));
    };
    attr("f_negative_zero", WireWriter().float_field(A::f, -0.0f));
    attr("i_zero_inferred", WireWriter().int_field(A::i, 0));
    attr("s_declared",
         WireWriter().bytes_field(A::s, "text\x01").int_field(A::type, 3).bytes_field(A::doc_string, "doc"));
    attr("t", WireWriter().message(A::t, tb::tensor_raw("big_attr", 2, {1500}, ramp(1500))));
    attr("floats", WireWriter().float_field(A::floats, 1.5f).float_field(A::floats, -2.0f));
    attr("ints", WireWriter().packed_varints(A::ints, {1, static_cast<uint64_t>(-3)}).int_field(A::type, 7));
    attr("strings", WireWriter().bytes_field(A::strings, "a").bytes_field(A::strings, ""));
    attr("tensors", WireWriter().message(A::tensors, typed_tensor("ts", 6, {2}, P::Tensor::int32_data, {-1, 9})));
    attr("sparse", WireWriter().message(A::sparse_tensor, sparse("sp_attr")));
    attr("sparses", WireWriter().message(A::sparse_tensors, sparse("sp_list")));
    attr("tp", WireWriter().message(A::tp, every_type_kind()));
    attr("tps", WireWriter().message(A::type_protos, WireWriter()).message(A::type_protos, every_type_kind()));
    attr("graphs", WireWriter().message(A::graphs, tb::minimal_graph()).int_field(A::type, 10));
    attr("declared_empty_floats", WireWriter().int_field(A::type, 6));
    n.bytes_field(P::Node::domain, "custom.domain").bytes_field(P::Node::overload, "v2");
    n.bytes_field(P::Node::doc_string, "node doc").message(P::Node::metadata_props, tb::string_entry("nk", "nv"));
    return n;
}

/// Initializers: raw (one above any small threshold), every typed field, strings, empty.
inline void add_initializers(WireWriter& g) {
    using F = P::Tensor;
    auto init = [&](WireWriter t) { g.message(P::Graph::initializer, t); };
    init(tb::tensor_raw("W_raw", 1, {500}, ramp(2000)));
    init(tb::tensor_raw("small_raw", 1, {2}, ramp(8))
             .bytes_field(F::doc_string, "small")
             .message(F::metadata_props, tb::string_entry("tk", "tv")));
    init(typed_tensor("f32", 1, {2}, F::float_data, {0x3f800000, 0x7fc00001}));
    init(typed_tensor("f64", 11, {1}, F::double_data, {0x400921fb54442d18}));
    init(typed_tensor("c64", 14, {1}, F::float_data, {1, 2}));
    init(typed_tensor("i64", 7, {3}, F::int64_data, {-1, 0, int64_t{1} << 40}));
    init(typed_tensor("i32", 6, {2}, F::int32_data, {-7, 2147483647}));
    init(typed_tensor("i16", 5, {2}, F::int32_data, {-2, 300}));
    init(typed_tensor("u16", 4, {1}, F::int32_data, {65535}));
    init(typed_tensor("f16", 10, {1}, F::int32_data, {0x3c00}));
    init(typed_tensor("i8", 3, {3}, F::int32_data, {-128, 127, -1}));
    init(typed_tensor("u8", 2, {1}, F::int32_data, {200}));
    init(typed_tensor("b", 9, {3}, F::int32_data, {1, 0, 1}));
    init(typed_tensor("f8", 17, {1}, F::int32_data, {0x7e}));
    init(typed_tensor("u32", 12, {2}, F::uint64_data, {0xFFFFFFFF, 5}));
    init(typed_tensor("u64", 13, {1}, F::uint64_data, {-1}));
    init(typed_tensor("i4", 22, {3}, F::int32_data, {0x9f, 0x07}));
    init(typed_tensor("u2", 25, {5}, F::int32_data, {0xe4, 0x03}));
    init(typed_tensor("f6", 27, {5}, F::int32_data, {1, 63, 0, 42, 17}));
    init(WireWriter().packed_varints(F::dims, {2}).int_field(F::data_type, 8).bytes_field(F::name, "str")
             .bytes_field(F::string_data, "hello").bytes_field(F::string_data, std::string("\0\xff", 2)));
    init(WireWriter().packed_varints(F::dims, {0, 4}).int_field(F::data_type, 1).bytes_field(F::name, "empty"));
    g.message(P::Graph::sparse_initializer, sparse("sp_init"));
}

inline WireWriter rich_graph() {
    using G = P::Graph;
    WireWriter sub = tb::minimal_graph();
    sub.message(G::initializer, tb::tensor_raw("sub_W", 1, {300}, ramp(1200)));
    WireWriter g;
    // File order is not topological: resolution reorders, the writer keeps file order.
    g.message(G::node, tb::node("Identity", {"B"}, {"Y"}, "second"));
    g.message(G::node,
              tb::node("If", {"X"}, {"B"}, "first").message(P::Node::attribute, tb::attr_graph("then_branch", sub)));
    g.message(G::node, attributes_node());
    g.bytes_field(G::name, "rich").bytes_field(G::doc_string, "graph doc");
    add_initializers(g);
    g.message(G::input, tb::value_info("X").bytes_field(P::ValueInfo::doc_string, "input doc")
                            .message(P::ValueInfo::metadata_props, tb::string_entry("vk", "vv")));
    g.message(G::output, tb::value_info("Y"));
    g.message(G::output,
              WireWriter().bytes_field(P::ValueInfo::name, "C").message(P::ValueInfo::type, every_type_kind()));
    WireWriter opaque = WireWriter().message(P::Type::opaque_type, WireWriter().bytes_field(P::OpaqueType::domain, "d")
                                                                         .bytes_field(P::OpaqueType::name, "n"));
    g.message(G::value_info, WireWriter().bytes_field(P::ValueInfo::name, "B").message(P::ValueInfo::type, opaque));
    g.message(G::value_info,
              WireWriter()
                  .bytes_field(P::ValueInfo::name, "unused")
                  .message(P::ValueInfo::type, WireWriter().message(P::Type::sparse_tensor_type, WireWriter())));
    g.message(G::metadata_props, tb::string_entry("gk", "gv"));
    return g;
}

inline WireWriter rich_function() {
    using F = P::Function;
    using A = P::Attribute;
    WireWriter body = tb::node("Mul", {"a", "b"}, {"c"}, "mul");
    body.message(P::Node::attribute,
                 WireWriter().bytes_field(A::name, "alpha").bytes_field(A::ref_attr_name, "alpha_ref"));
    return WireWriter()
        .bytes_field(F::name, "MyFn")
        .bytes_field(F::domain, "custom.domain")
        .bytes_field(F::overload, "o1")
        .bytes_field(F::input, "a")
        .bytes_field(F::input, "b")
        .bytes_field(F::output, "c")
        .bytes_field(F::attribute, "alpha_ref")
        .message(F::attribute_proto,
                 WireWriter().bytes_field(A::name, "beta").float_field(A::f, 0.5f).int_field(A::type, 1))
        .message(F::node, body)
        .message(F::opset_import, tb::opset("", 21))
        .message(F::value_info, tb::value_info("c"))
        .bytes_field(F::doc_string, "fn doc")
        .message(F::metadata_props, tb::string_entry("fk", "fv"));
}

/// The whole model's bytes.
inline std::string rich_model() {
    using M = P::Model;
    using T = P::TrainingInfo;
    WireWriter training = WireWriter()
        .message(T::initialization, tb::minimal_graph())
        .message(T::algorithm, tb::minimal_graph())
        .message(T::initialization_binding, tb::string_entry("X", "Y"))
        .message(T::update_binding, tb::string_entry("Y", "X"));
    return WireWriter()
        .int_field(M::ir_version, 10).bytes_field(M::producer_name, "builder").bytes_field(M::producer_version, "1.0")
        .bytes_field(M::domain, "test.domain").int_field(M::model_version, 7).bytes_field(M::doc_string, "model doc")
        .message(M::graph, rich_graph())
        .message(M::opset_import, tb::opset("", 21)).message(M::opset_import, tb::opset("custom.domain", 1))
        .message(M::metadata_props, tb::string_entry("mk", "mv"))
        .message(M::training_info, training)
        .message(M::functions, rich_function())
        .str();
}

}  // namespace write_test
