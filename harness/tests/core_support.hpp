// Shared helpers of the importer-core suites (spec sections 1-3, 6, 7): importing test
// bytes, and asserting a refusal's kind, offset and field path in one place.
#pragma once

#include <onnximport/import.hpp>
#include <onnx_builders.hpp>
#include "onnx/tensor_alone.hpp"
#include <wire_writer.hpp>

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <optional>
#include <memory>
#include <span>
#include <string>

namespace core_test {

using namespace onnximport;
using onnximport::testing::WireWriter;
namespace tb = onnximport::testing;

inline std::span<const uint8_t> span_of(const std::string& s) {
    return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

/// Sections 1-3 only: no resolution and no external files, so a test of the reader is
/// not also a test of the resolver.
inline ImportOptions parse_only() {
    ImportOptions o;
    o.resolve = false;
    o.load_external_data = false;
    return o;
}

/// The Model owns a copy of the bytes (import_bytes of a vector).
inline std::vector<uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }
inline Model import_model(const std::string& bytes, ImportOptions o = parse_only()) {
    return import_bytes(bytes_of(bytes), "test.onnx", o);
}
inline Model import_tensor(const std::string& bytes, ImportOptions o = parse_only()) {
    return onnximport::detail::import_tensor_bytes(bytes_of(bytes), "tensor.pb", o);
}

/// Runs f, which must throw an ImportError; returns it so a test can check more.
template <class F>
ImportError refusal_of(F&& f) {
    try {
        f();
    } catch (const ImportError& e) {
        return e;
    }
    BOOST_FAIL("expected an ImportError, the input was accepted");
    throw;  // unreachable: BOOST_FAIL throws
}

/// Asserts kind, offset (nullopt: none known) and field path of a refusal.
inline void check_error(const ImportError& e, ErrorKind kind, std::optional<uint64_t> offset,
                        const std::string& path) {
    BOOST_TEST_INFO("refusal: " << e.what());
    BOOST_TEST(to_string(e.kind()) == to_string(kind));
    BOOST_TEST_INFO("refusal: " << e.what());
    BOOST_TEST(e.offset().has_value() == offset.has_value());
    if (e.offset() && offset) {
        BOOST_TEST_INFO("refusal: " << e.what());
        BOOST_TEST(*e.offset() == *offset);
    }
    BOOST_TEST_INFO("refusal: " << e.what());
    BOOST_TEST(e.field_path() == path);
}

inline void expect_model_error(const std::string& bytes, ErrorKind kind, std::optional<uint64_t> offset,
                               const std::string& path, ImportOptions o = parse_only()) {
    check_error(refusal_of([&] { import_model(bytes, o); }), kind, offset, path);
}
inline void expect_tensor_error(const std::string& bytes, ErrorKind kind, std::optional<uint64_t> offset,
                                const std::string& path) {
    check_error(refusal_of([&] { import_tensor(bytes); }), kind, offset, path);
}

/// Bytes of a length-delimited field's key and length before its payload.
inline uint64_t len_header(onnximport::testing::FieldNumber field, uint64_t payload) {
    using onnximport::testing::varint_size;
    return varint_size(uint64_t{field.value} << 3 | 2) + varint_size(payload);
}

/// ModelProto with ir_version and an opset first and the graph as the last field, so
/// the graph's payload starts at a known place: graph_payload_offset().
inline std::string model_graph_last(const std::string& graph, uint64_t ir_version = 9) {
    using M = onnximport::proto::Model;
    return WireWriter()
        .int_field(M::ir_version, ir_version)
        .message(M::opset_import, tb::opset("", 21))
        .bytes_field(M::graph, graph)
        .str();
}
inline uint64_t graph_payload_offset(const std::string& graph, uint64_t ir_version = 9) {
    using M = onnximport::proto::Model;
    std::string prefix =
        WireWriter().int_field(M::ir_version, ir_version).message(M::opset_import, tb::opset("", 21)).str();
    return prefix.size() + len_header(M::graph, graph.size());
}

/// A model whose graph holds one node with the given attribute (as the node's last field).
inline std::string model_with_attribute(const WireWriter& attribute) {
    WireWriter node = tb::node("Custom", {"X"}, {"Y"}, "n0");
    node.message(onnximport::proto::Node::attribute, attribute);
    return model_graph_last(WireWriter().message(onnximport::proto::Graph::node, node).str());
}
/// Offset of that attribute's key (the graph's only field is the node).
inline uint64_t attribute_key_offset(const WireWriter& attribute) {
    WireWriter node = tb::node("Custom", {"X"}, {"Y"}, "n0");
    uint64_t node_prefix = node.size();
    node.message(onnximport::proto::Node::attribute, attribute);
    std::string graph = WireWriter().message(onnximport::proto::Graph::node, node).str();
    return graph_payload_offset(graph) + len_header(onnximport::proto::Graph::node, node.size()) + node_prefix;
}

}  // namespace core_test
