// Model-building shorthands for the hostile cases, on top of the testing builders
// (field numbers are onnx.proto's). Each returns bytes or a WireWriter so a case can
// still append or corrupt fields.
#pragma once

#include <onnx_builders.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hostile {

using onnximport::testing::WireWriter;
namespace ob = onnximport::testing;

// Field numbers used directly by the cases.
namespace f {
// ModelProto
constexpr uint32_t ir_version = 1, producer_name = 2, model_version = 5, graph = 7, opset_import = 8,
                   functions = 25;
// GraphProto
constexpr uint32_t node = 1, name = 2, initializer = 5, input = 11, output = 12, value_info = 13,
                   sparse_initializer = 15;
// TensorProto
constexpr uint32_t dims = 1, data_type = 2, segment = 3, float_data = 4, int32_data = 5, string_data = 6,
                   int64_data = 7, t_name = 8, raw_data = 9, double_data = 10, uint64_data = 11,
                   external_data = 13, data_location = 14;
// AttributeProto
constexpr uint32_t a_name = 1, a_f = 2, a_i = 3, a_s = 4, a_t = 5, a_g = 6, a_floats = 7, a_ints = 8,
                   a_strings = 9, a_tensors = 10, a_graphs = 11, a_tp = 14, a_type_protos = 15, a_type = 20,
                   a_ref = 21, a_sparse = 22, a_sparse_tensors = 23;
// NodeProto
constexpr uint32_t n_input = 1, n_output = 2, n_name = 3, n_op = 4, n_attr = 5, n_domain = 7;
}  // namespace f

/// A tensor header (name, type, dims) without data.
inline WireWriter tensor_head(std::string_view name, int32_t data_type, const std::vector<int64_t>& dims) {
    WireWriter t;
    for (int64_t d : dims) t.int_field(f::dims, static_cast<uint64_t>(d));
    t.int_field(f::data_type, static_cast<uint64_t>(static_cast<int64_t>(data_type)));
    t.bytes_field(f::t_name, name);
    return t;
}

/// The minimal graph (Y = Identity(X)) with extra fields appended by the caller.
inline WireWriter base_graph() { return ob::minimal_graph(); }

/// A model of the minimal graph plus one initializer.
inline std::string model_with_initializer(const WireWriter& tensor) {
    WireWriter g = base_graph();
    g.message(f::initializer, tensor);
    return ob::model(g).str();
}

/// A model of the minimal graph plus one node carrying the given attribute(s).
inline std::string model_with_attributes(const std::vector<WireWriter>& attrs, std::string_view op = "Custom") {
    WireWriter n = ob::node(op, {"X"}, {"Z"}, "n1");
    for (const auto& a : attrs) n.message(f::n_attr, a);
    WireWriter g = base_graph();
    g.message(f::node, n);
    return ob::model(g).str();
}

/// A graph from nodes, inputs and outputs (names only typed as float[1]).
inline WireWriter graph_of(const std::vector<WireWriter>& nodes, const std::vector<std::string>& inputs,
                           const std::vector<std::string>& outputs, std::string_view name = "g") {
    WireWriter g;
    for (const auto& n : nodes) g.message(f::node, n);
    g.bytes_field(f::name, name);
    for (const auto& i : inputs) g.message(f::input, ob::value_info(i));
    for (const auto& o : outputs) g.message(f::output, ob::value_info(o));
    return g;
}

/// A graph whose values carry no types (keeps subgraphs shallow and small).
inline WireWriter bare_graph(const std::vector<WireWriter>& nodes, const std::vector<std::string>& inputs,
                             const std::vector<std::string>& outputs, std::string_view name = "sub") {
    WireWriter g;
    for (const auto& n : nodes) g.message(f::node, n);
    g.bytes_field(f::name, name);
    for (const auto& i : inputs) g.message(f::input, WireWriter().bytes_field(1, i));
    for (const auto& o : outputs) g.message(f::output, WireWriter().bytes_field(1, o));
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
