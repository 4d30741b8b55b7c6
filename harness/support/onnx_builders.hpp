// Builders for ONNX messages on top of WireWriter, with onnx.proto's field numbers
// (importer/schema/onnx_fields.hpp). Each returns the message's bytes so a test can still
// append or corrupt fields.
#pragma once

#include <onnx_fields.hpp>
#include <wire_writer.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace onnximport::testing {

/// TensorProto with raw_data.
inline WireWriter tensor_raw(std::string_view name, int32_t data_type, const std::vector<int64_t>& dims,
                             std::string_view raw) {
    WireWriter t;
    for (int64_t d : dims) t.int_field(proto::Tensor::dims, static_cast<uint64_t>(d));
    t.int_field(proto::Tensor::data_type, static_cast<uint64_t>(static_cast<int64_t>(data_type)));
    t.bytes_field(proto::Tensor::name, name);
    t.bytes_field(proto::Tensor::raw_data, raw);
    return t;
}

/// TypeProto of a tensor with a fixed shape.
inline WireWriter tensor_type(int32_t elem_type, const std::vector<int64_t>& dims) {
    WireWriter shape;
    for (int64_t d : dims)
        shape.message(proto::Shape::dim, WireWriter().int_field(proto::Dimension::dim_value, static_cast<uint64_t>(d)));
    WireWriter tt;
    tt.int_field(proto::TensorType::elem_type, static_cast<uint64_t>(elem_type))
        .message(proto::TensorType::shape, shape);
    return WireWriter().message(proto::Type::tensor_type, tt);
}

/// ValueInfoProto with a tensor type.
inline WireWriter value_info(std::string_view name, int32_t elem_type = 1, const std::vector<int64_t>& dims = {1}) {
    return WireWriter()
        .bytes_field(proto::ValueInfo::name, name)
        .message(proto::ValueInfo::type, tensor_type(elem_type, dims));
}

/// NodeProto; attributes appended by the caller with .message(proto::Node::attribute, ...).
inline WireWriter node(std::string_view op_type, const std::vector<std::string>& inputs,
                       const std::vector<std::string>& outputs, std::string_view name = {}) {
    WireWriter n;
    for (auto& i : inputs) n.bytes_field(proto::Node::input, i);
    for (auto& o : outputs) n.bytes_field(proto::Node::output, o);
    if (!name.empty()) n.bytes_field(proto::Node::name, name);
    n.bytes_field(proto::Node::op_type, op_type);
    return n;
}

/// AttributeProto helpers.
namespace attribute_type {  // AttributeProto.AttributeType codes
constexpr uint64_t INT = 2, TENSOR = 4, GRAPH = 5;
}
inline WireWriter attr_int(std::string_view name, int64_t v) {
    using A = proto::Attribute;
    return WireWriter()
        .bytes_field(A::name, name)
        .int_field(A::i, static_cast<uint64_t>(v))
        .int_field(A::type, attribute_type::INT);
}
inline WireWriter attr_graph(std::string_view name, const WireWriter& graph) {
    using A = proto::Attribute;
    return WireWriter().bytes_field(A::name, name).message(A::g, graph).int_field(A::type, attribute_type::GRAPH);
}
inline WireWriter attr_tensor(std::string_view name, const WireWriter& tensor) {
    using A = proto::Attribute;
    return WireWriter().bytes_field(A::name, name).message(A::t, tensor).int_field(A::type, attribute_type::TENSOR);
}

/// SparseTensorProto: values, indices and the dense dims, in that order.
inline WireWriter sparse_tensor(const WireWriter& values, const WireWriter& indices, const std::vector<int64_t>& dims) {
    WireWriter s =
        WireWriter().message(proto::SparseTensor::values, values).message(proto::SparseTensor::indices, indices);
    for (int64_t d : dims) s.int_field(proto::SparseTensor::dims, static_cast<uint64_t>(d));
    return s;
}

/// StringStringEntryProto (external_data, metadata_props).
inline WireWriter string_entry(std::string_view key, std::string_view value) {
    return WireWriter()
        .bytes_field(proto::StringStringEntry::key, key)
        .bytes_field(proto::StringStringEntry::value, value);
}

/// OperatorSetIdProto.
inline WireWriter opset(std::string_view domain, int64_t version) {
    WireWriter o;
    if (!domain.empty()) o.bytes_field(proto::OperatorSetId::domain, domain);
    return o.int_field(proto::OperatorSetId::version, static_cast<uint64_t>(version));
}

/// ModelProto around a graph: ir_version, one opset of the default domain, producer.
inline WireWriter model(const WireWriter& graph, int64_t ir_version = 9, int64_t opset_version = 21) {
    return WireWriter()
        .int_field(proto::Model::ir_version, static_cast<uint64_t>(ir_version))
        .bytes_field(proto::Model::producer_name, "onnx-gauntlet")
        .message(proto::Model::graph, graph)
        .message(proto::Model::opset_import, opset("", opset_version));
}

/// The smallest valid model: Y = Identity(X), float[1].
inline WireWriter minimal_graph() {
    return WireWriter()
        .message(proto::Graph::node, node("Identity", {"X"}, {"Y"}, "n0"))
        .bytes_field(proto::Graph::name, "g")
        .message(proto::Graph::input, value_info("X"))
        .message(proto::Graph::output, value_info("Y"));
}
inline std::string minimal_model() { return model(minimal_graph()).str(); }

}  // namespace onnximport::testing
