// Graph tables (docs/ort.md, "Writing") of a graph as the lowering pass planned it
// (lower.hpp): initializers (the graph's, then its lifted Constants), the NodeArgs, the nodes
// in file order with indices 0..n-1, one NodeEdge per node (what ONNX Runtime's minimal build
// orders and plans with), and the input and output names.
#include "write/ort/put_node.hpp"
#include "write/ort/table_keys.hpp"

#include <span>
#include <string>
#include <vector>

namespace onnximport::detail {

namespace {

template <class T>
using Vec = flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<T>>>;

/// The dense initializer a Constant became (lift_constant.hpp).
flatbuffers::Offset<fb::Tensor> put_lifted(OrtAssembly& a, const LiftedConstant& c) {
    using K = LiftedConstant::Kind;
    a.refuse_if(c.refused);
    if (c.kind == K::Tensor) return put_tensor(a, *c.tensor, c.name);
    if (c.kind == K::Strings) return put_string_tensor(a, c.name, c.dims, c.strings);
    return put_owned_tensor(a, c.name, c.data_type, c.dims, c.bytes);
}

/// Initializers: the graph's own, then its lifted dense Constants.
Vec<fb::Tensor> put_initializers(OrtAssembly& a, const Graph& g, const GraphPlan& p) {
    std::vector<flatbuffers::Offset<fb::Tensor>> items;
    for (size_t i = 0; i < g.initializers.size(); ++i) {
        PathScope at(a.refusal.path, "initializer", static_cast<int64_t>(i));
        items.push_back(put_tensor(a, g.initializers[i], g.initializers[i].name));
    }
    for (const LiftedConstant& c : p.dense) {
        PathScope at(a.refusal.path, "node", c.node->file_index);
        items.push_back(put_lifted(a, c));
    }
    return a.fbb.CreateVector(items);
}

Vec<fb::SparseTensor> put_sparse_initializers(OrtAssembly& a, const Graph& g, const GraphPlan& p) {
    std::vector<flatbuffers::Offset<fb::SparseTensor>> items;
    for (size_t i = 0; i < g.sparse_initializers.size(); ++i) {
        PathScope at(a.refusal.path, "sparse_initializer", static_cast<int64_t>(i));
        items.push_back(put_sparse(a, g.sparse_initializers[i]));
    }
    for (const LiftedConstant& c : p.sparse) {
        PathScope at(a.refusal.path, "node", c.node->file_index);
        a.refuse_if(c.refused);
        items.push_back(put_sparse(a, *c.sparse, c.name));
    }
    return items.empty() ? Vec<fb::SparseTensor>() : a.fbb.CreateVector(items);
}

/// The NodeArg's type the plan gives it, each distinct type written once
/// (write/ort/table_pool.hpp).
flatbuffers::Offset<fb::TypeInfo> shared_type(OrtAssembly& a, const PlannedArg& arg) {
    using T = flatbuffers::Offset<fb::TypeInfo>;
    if (arg.declared) return a.tables.get(type_key(*arg.declared), [&] { return put_type(a, *arg.declared).o; });
    if (arg.tensor) {
        const std::span<const int64_t> dims(arg.tensor->dims.data(), arg.tensor->dims.size());
        const std::string key = tensor_type_key(arg.tensor->data_type, dims);
        return a.tables.get(key, [&] { return put_tensor_type(a, *arg.tensor).o; });
    }
    if (!has_inferred_table(arg.inferred)) return T();
    return a.tables.get(inferred_type_key(arg.inferred), [&] { return put_inferred_type(a, arg.inferred).o; });
}

/// A NodeArg with the type the plan gives it.
flatbuffers::Offset<fb::ValueInfo> put_node_arg(OrtAssembly& a, const PlannedArg& arg) {
    const auto type = shared_type(a, arg);
    const auto name = a.names.get(arg.name);
    const auto doc = arg.doc.empty() ? flatbuffers::Offset<flatbuffers::String>()
                                     : a.fbb.CreateString(arg.doc.data(), arg.doc.size());
    fb::ValueInfoBuilder b(a.fbb);
    b.add_name(name);
    if (!doc.IsNull()) b.add_doc_string(doc);
    if (!type.IsNull()) b.add_type(type);
    return b.Finish();
}

Vec<fb::ValueInfo> put_node_args(OrtAssembly& a, const GraphPlan& p) {
    std::vector<flatbuffers::Offset<fb::ValueInfo>> items;
    items.reserve(p.args.size());
    for (size_t i = 0; i < p.args.size(); ++i) {
        PathScope at(a.refusal.path, "node_arg", static_cast<int64_t>(i));
        items.push_back(put_node_arg(a, p.args[i]));
    }
    return a.fbb.CreateVector(items);
}

Vec<flatbuffers::String> put_names(OrtAssembly& a, std::span<const std::string_view> names) {
    const StringOffsets items = put_strings(a, names);
    return a.fbb.CreateVector(items);
}

}  // namespace

flatbuffers::Offset<fb::Graph> put_graph(OrtAssembly& a, const Graph& g) {
    const GraphPlan& p = a.plan->of(g);
    const auto initializers = put_initializers(a, g, p);
    const auto sparse = put_sparse_initializers(a, g, p);
    const auto node_args = put_node_args(a, p);
    const auto node_items = put_nodes(a, p.nodes);
    const auto nodes = a.fbb.CreateVector(node_items);
    const auto edge_items = put_edges(a, p.nodes);
    const auto edges = a.fbb.CreateVector(edge_items);
    const auto inputs = put_names(a, p.inputs);
    const auto outputs = put_names(a, p.outputs);
    fb::GraphBuilder b(a.fbb);
    b.add_initializers(initializers);
    b.add_node_args(node_args);
    b.add_nodes(nodes);
    b.add_max_node_index(static_cast<uint32_t>(p.nodes.size()));
    b.add_node_edges(edges);
    b.add_inputs(inputs);
    b.add_outputs(outputs);
    if (!sparse.IsNull()) b.add_sparse_initializers(sparse);
    return b.Finish();
}

}  // namespace onnximport::detail
