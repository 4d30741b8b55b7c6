// Graph tables (docs/ort.md, "Writing"): initializers (the graph's, then its lifted
// Constants), the NodeArgs, the nodes in file order with indices 0..n-1, one NodeEdge per
// node (what ONNX Runtime's minimal build orders and plans with), and the input and output
// names.
#include "write/ort/lift_constant.hpp"
#include "write/ort/node_args.hpp"
#include "write/ort/put_node.hpp"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace onnximport::detail {

namespace {

template <class T>
using Vec = flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<T>>>;

/// The graph's nodes as the file has them, Constants to lift apart.
struct Parts {
    std::vector<const Node*> nodes;      ///< kept, file order
    std::vector<const Node*> constants;  ///< lifted, file order
};

Parts split(const Graph& g) {
    std::vector<const Node*> all;
    for (const Node& n : g.nodes) all.push_back(&n);
    std::sort(all.begin(), all.end(), [](const Node* x, const Node* y) { return x->file_index < y->file_index; });
    Parts p;
    for (const Node* n : all) (constant_value(*n) ? p.constants : p.nodes).push_back(n);
    return p;
}

NodeArgTable collect_args(const Graph& g, const Parts& p, std::span<const Graph* const> scopes) {
    NodeArgTable args(g, scopes);
    for (const ValueInfo& v : g.inputs) args.add_declared(v);
    for (const ValueInfo& v : g.outputs) args.add_declared(v);
    for (const ValueInfo& v : g.value_info) args.add_declared(v);
    for (const TensorView& t : g.initializers) args.add_tensor(t.name, t);
    for (const SparseTensor& s : g.sparse_initializers) args.add_used(s.values.name);
    for (const Node* n : p.constants) args.add_used(n->outputs[0]);
    for (const Node* n : p.nodes) {
        for (std::string_view i : n->inputs) args.add_used(i);
        for (std::string_view o : n->outputs) args.add_used(o);
    }
    return args;
}

/// Initializers: the graph's own, then its lifted dense Constants.
Vec<fb::Tensor> put_initializers(OrtAssembly& a, const Graph& g, const Parts& p) {
    std::vector<flatbuffers::Offset<fb::Tensor>> items;
    for (size_t i = 0; i < g.initializers.size(); ++i) {
        PathScope at(a.refusal.path, "initializer", static_cast<int64_t>(i));
        items.push_back(put_tensor(a, g.initializers[i], g.initializers[i].name));
    }
    for (const Node* n : p.constants) {
        const Attribute& v = *constant_value(*n);
        if (lifts_to_sparse(v)) continue;
        PathScope at(a.refusal.path, "node", n->file_index);
        items.push_back(put_lifted(a, *n, v));
    }
    return a.fbb.CreateVector(items);
}

Vec<fb::SparseTensor> put_sparse_initializers(OrtAssembly& a, const Graph& g, const Parts& p) {
    std::vector<flatbuffers::Offset<fb::SparseTensor>> items;
    for (size_t i = 0; i < g.sparse_initializers.size(); ++i) {
        PathScope at(a.refusal.path, "sparse_initializer", static_cast<int64_t>(i));
        items.push_back(put_sparse(a, g.sparse_initializers[i]));
    }
    for (const Node* n : p.constants) {
        const Attribute& v = *constant_value(*n);
        if (!lifts_to_sparse(v)) continue;
        PathScope at(a.refusal.path, "node", n->file_index);
        if (!v.sparse_tensor()) a.unsupported("Constant's sparse_value has no sparse tensor");
        items.push_back(put_sparse(a, *v.sparse_tensor(), n->outputs[0]));
    }
    return items.empty() ? Vec<fb::SparseTensor>() : a.fbb.CreateVector(items);
}

}  // namespace

flatbuffers::Offset<fb::Graph> put_graph(OrtAssembly& a, const Graph& g, std::vector<const Graph*>& scopes) {
    const Parts p = split(g);
    const auto initializers = put_initializers(a, g, p);
    const auto sparse = put_sparse_initializers(a, g, p);
    const NodeArgTable args = collect_args(g, p, scopes);
    const auto arg_items = args.put(a);
    const auto node_args = a.fbb.CreateVector(arg_items);
    scopes.push_back(&g);
    const auto node_items = put_nodes(a, p.nodes, scopes);
    const auto nodes = a.fbb.CreateVector(node_items);
    const auto edge_items = put_edges(a, p.nodes, scopes);
    scopes.pop_back();
    const auto edges = a.fbb.CreateVector(edge_items);
    std::vector<std::string_view> names;
    for (const ValueInfo& v : g.inputs) names.push_back(v.name);
    const auto input_items = put_strings(a, names);
    const auto inputs = a.fbb.CreateVector(input_items);
    names.clear();
    for (const ValueInfo& v : g.outputs) names.push_back(v.name);
    const auto output_items = put_strings(a, names);
    const auto outputs = a.fbb.CreateVector(output_items);
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
