// Model-building shorthands for the hostile cases, on top of the testing builders
// (field numbers from importer/schema/onnx_fields.hpp). Each returns bytes or a WireWriter so a case can
// still append or corrupt fields.
#pragma once

#include <onnx_builders.hpp>
#include <onnx_fields.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hostile {

using onnximport::testing::WireWriter;
namespace ob = onnximport::testing;

// Field numbers are onnx.proto's enums (importer/schema/onnx_fields.hpp), the one place they are written.
namespace p = onnximport::proto;

/// A tensor header (name, type, dims) without data.
inline WireWriter tensor_head(std::string_view name, int32_t data_type, const std::vector<int64_t>& dims) {
    WireWriter t;
    for (int64_t d : dims) t.int_field(p::Tensor::dims, static_cast<uint64_t>(d));
    t.int_field(p::Tensor::data_type, static_cast<uint64_t>(static_cast<int64_t>(data_type)));
    t.bytes_field(p::Tensor::name, name);
    return t;
}

/// The minimal graph (Y = Identity(X)) with extra fields appended by the caller.
inline WireWriter base_graph() { return ob::minimal_graph(); }

/// A model of the minimal graph plus one initializer.
inline std::string model_with_initializer(const WireWriter& tensor) {
    WireWriter g = base_graph();
    g.message(p::Graph::initializer, tensor);
    return ob::model(g).str();
}

/// A model of the minimal graph plus one node carrying the given attribute(s).
inline std::string model_with_attributes(const std::vector<WireWriter>& attrs, std::string_view op = "Custom") {
    WireWriter n = ob::node(op, {"X"}, {"Z"}, "n1");
    for (const auto& a : attrs) n.message(p::Node::attribute, a);
    WireWriter g = base_graph();
    g.message(p::Graph::node, n);
    return ob::model(g).str();
}

/// A graph from nodes, inputs and outputs (names only typed as float[1]).
inline WireWriter graph_of(const std::vector<WireWriter>& nodes, const std::vector<std::string>& inputs,
                           const std::vector<std::string>& outputs, std::string_view name = "g") {
    WireWriter g;
    for (const auto& n : nodes) g.message(p::Graph::node, n);
    g.bytes_field(p::Graph::name, name);
    for (const auto& i : inputs) g.message(p::Graph::input, ob::value_info(i));
    for (const auto& o : outputs) g.message(p::Graph::output, ob::value_info(o));
    return g;
}

/// A graph whose values carry no types (keeps subgraphs shallow and small).
inline WireWriter bare_graph(const std::vector<WireWriter>& nodes, const std::vector<std::string>& inputs,
                             const std::vector<std::string>& outputs, std::string_view name = "sub") {
    WireWriter g;
    for (const auto& n : nodes) g.message(p::Graph::node, n);
    g.bytes_field(p::Graph::name, name);
    for (const auto& i : inputs) g.message(p::Graph::input, WireWriter().bytes_field(p::ValueInfo::name, i));
    for (const auto& o : outputs) g.message(p::Graph::output, WireWriter().bytes_field(p::ValueInfo::name, o));
    return g;
}

/// Little-endian bytes of a float array.
inline std::string floats_le(const std::vector<float>& v) {
    std::string s(v.size() * 4, '\0');
    for (size_t i = 0; i < v.size(); ++i) std::memcpy(&s[i * 4], &v[i], 4);
    return s;
}

/// n bytes of a fixed, recognisable pattern (different seeds give different bytes).
inline std::string pattern(size_t n, unsigned seed = 1) {
    std::string s(n, '\0');
    for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 37 + seed * 11 + 5) & 0xFF);
    return s;
}

}  // namespace hostile
