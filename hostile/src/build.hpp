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

// Short names for the field numbers the cases use, taken from onnx.proto's enums
// (importer/schema/onnx_fields.hpp), the one place they are written.
namespace f {
using onnximport::proto::operator+;
namespace p = onnximport::proto;
// ModelProto
constexpr uint32_t ir_version = +p::Model::ir_version, producer_name = +p::Model::producer_name,
                   model_version = +p::Model::model_version, graph = +p::Model::graph,
                   opset_import = +p::Model::opset_import, functions = +p::Model::functions;
// GraphProto
constexpr uint32_t node = +p::Graph::node, name = +p::Graph::name, initializer = +p::Graph::initializer,
                   input = +p::Graph::input, output = +p::Graph::output, value_info = +p::Graph::value_info,
                   sparse_initializer = +p::Graph::sparse_initializer;
// TensorProto
constexpr uint32_t dims = +p::Tensor::dims, data_type = +p::Tensor::data_type, segment = +p::Tensor::segment,
                   float_data = +p::Tensor::float_data, int32_data = +p::Tensor::int32_data,
                   string_data = +p::Tensor::string_data, int64_data = +p::Tensor::int64_data,
                   t_name = +p::Tensor::name, raw_data = +p::Tensor::raw_data, double_data = +p::Tensor::double_data,
                   uint64_data = +p::Tensor::uint64_data, external_data = +p::Tensor::external_data,
                   data_location = +p::Tensor::data_location;
// AttributeProto
constexpr uint32_t a_name = +p::Attribute::name, a_f = +p::Attribute::f, a_i = +p::Attribute::i,
                   a_s = +p::Attribute::s, a_t = +p::Attribute::t, a_g = +p::Attribute::g,
                   a_floats = +p::Attribute::floats, a_ints = +p::Attribute::ints, a_strings = +p::Attribute::strings,
                   a_tensors = +p::Attribute::tensors, a_graphs = +p::Attribute::graphs, a_tp = +p::Attribute::tp,
                   a_type_protos = +p::Attribute::type_protos, a_type = +p::Attribute::type,
                   a_ref = +p::Attribute::ref_attr_name, a_sparse = +p::Attribute::sparse_tensor,
                   a_sparse_tensors = +p::Attribute::sparse_tensors;
// NodeProto
constexpr uint32_t n_input = +p::Node::input, n_output = +p::Node::output, n_name = +p::Node::name,
                   n_op = +p::Node::op_type, n_attr = +p::Node::attribute, n_domain = +p::Node::domain;
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
