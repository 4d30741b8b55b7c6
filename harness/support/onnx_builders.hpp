// Builders for ONNX messages on top of WireWriter, with onnx.proto's field numbers.
// Each returns the message's bytes so a test can still append or corrupt fields.
#pragma once

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
    for (int64_t d : dims) t.int_field(1, static_cast<uint64_t>(d));
    t.int_field(2, static_cast<uint64_t>(static_cast<int64_t>(data_type)));
    t.bytes_field(8, name);
    t.bytes_field(9, raw);
    return t;
}

/// TypeProto of a tensor with a fixed shape.
inline WireWriter tensor_type(int32_t elem_type, const std::vector<int64_t>& dims) {
    WireWriter shape;
    for (int64_t d : dims) shape.message(1, WireWriter().int_field(1, static_cast<uint64_t>(d)));
    WireWriter tt;
    tt.int_field(1, static_cast<uint64_t>(elem_type)).message(2, shape);
    return WireWriter().message(1, tt);
}

/// ValueInfoProto with a tensor type.
inline WireWriter value_info(std::string_view name, int32_t elem_type = 1, const std::vector<int64_t>& dims = {1}) {
    return WireWriter().bytes_field(1, name).message(2, tensor_type(elem_type, dims));
}

/// NodeProto; attributes appended by the caller with .message(5, ...).
inline WireWriter node(std::string_view op_type, const std::vector<std::string>& inputs,
                       const std::vector<std::string>& outputs, std::string_view name = {}) {
    WireWriter n;
    for (auto& i : inputs) n.bytes_field(1, i);
    for (auto& o : outputs) n.bytes_field(2, o);
    if (!name.empty()) n.bytes_field(3, name);
    n.bytes_field(4, op_type);
    return n;
}

/// AttributeProto helpers.
inline WireWriter attr_int(std::string_view name, int64_t v) {
    return WireWriter().bytes_field(1, name).int_field(3, static_cast<uint64_t>(v)).int_field(20, 2);
}
inline WireWriter attr_graph(std::string_view name, const WireWriter& graph) {
    return WireWriter().bytes_field(1, name).message(6, graph).int_field(20, 5);
}
inline WireWriter attr_tensor(std::string_view name, const WireWriter& tensor) {
    return WireWriter().bytes_field(1, name).message(5, tensor).int_field(20, 4);
}

/// OperatorSetIdProto.
inline WireWriter opset(std::string_view domain, int64_t version) {
    WireWriter o;
    if (!domain.empty()) o.bytes_field(1, domain);
    return o.int_field(2, static_cast<uint64_t>(version));
}

/// ModelProto around a graph: ir_version, one opset of the default domain, producer.
inline WireWriter model(const WireWriter& graph, int64_t ir_version = 9, int64_t opset_version = 21) {
    return WireWriter()
        .int_field(1, static_cast<uint64_t>(ir_version))
        .bytes_field(2, "onnx-gauntlet")
        .message(7, graph)
        .message(8, opset("", opset_version));
}

/// The smallest valid model: Y = Identity(X), float[1].
inline WireWriter minimal_graph() {
    return WireWriter()
        .message(1, node("Identity", {"X"}, {"Y"}, "n0"))
        .bytes_field(2, "g")
        .message(11, value_info("X"))
        .message(12, value_info("Y"));
}
inline std::string minimal_model() { return model(minimal_graph()).str(); }

}  // namespace onnximport::testing
