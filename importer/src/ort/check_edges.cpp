// The node graph of a .ort Graph, checked against its nodes: node indices unique and
// below max_node_index (which sizes nothing), input_arg_counts summing to the inputs,
// and every edge naming existing nodes, argument indices in range, and the same value
// at both ends. ONNX Runtime rebuilds its graph from these; a reader must not trust them.
#include "ort/context.hpp"
#include "ort/reader.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace onnximport::detail {

namespace {

using Names = flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>;

/// Node index -> node, sized by the nodes present (never by max_node_index).
class NodeTable {
public:
    NodeTable(OrtContext& c, const fb::Graph* fg) : c_(c) {
        const auto* nodes = fg->nodes();
        for (uint32_t i = 0; i < size_of(nodes); ++i) {
            const fb::Node* n = nodes->Get(i);  // zero offsets were refused by the walk
            PathScope at(c.path, "nodes", i);
            if (n->index() >= fg->max_node_index())
                c.invalid(field_at(n, fb::Node::VT_INDEX),
                          "node index " + std::to_string(n->index()) + " is not below max_node_index " +
                              std::to_string(fg->max_node_index()),
                          "index");
            by_index_.emplace_back(n->index(), n);
        }
        std::sort(by_index_.begin(), by_index_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (size_t i = 1; i < by_index_.size(); ++i)
            if (by_index_[i].first == by_index_[i - 1].first)
                c.invalid(by_index_[i].second, "node index " + std::to_string(by_index_[i].first) + " is used twice");
    }

    /// The node of index `index`; refused when there is none.
    const fb::Node* node(uint32_t index, const void* at) const {
        auto it = std::lower_bound(by_index_.begin(), by_index_.end(), index,
                                   [](const auto& entry, uint32_t key) { return entry.first < key; });
        if (it == by_index_.end() || it->first != index)
            c_.invalid(at, "edge names node index " + std::to_string(index) + ", which no node has");
        return it->second;
    }

private:
    const OrtContext& c_;
    std::vector<std::pair<uint32_t, const fb::Node*>> by_index_;
};

/// Argument `i` of a node's inputs followed by its implicit inputs (how ONNX Runtime
/// numbers an edge's destination), or of its outputs.
std::string_view argument(const Names* first, const Names* then, int32_t i) {
    if (i < 0) return {};
    const auto k = static_cast<uint32_t>(i);
    if (k < size_of(first)) return text_of(first->Get(k));
    if (then && k - size_of(first) < then->size()) return text_of(then->Get(k - size_of(first)));
    return {};
}

bool in_range(int32_t i, uint32_t n) { return i >= 0 && static_cast<uint32_t>(i) < n; }

/// One edge from `src` output src_arg_index to `dst` input dst_arg_index.
void check_edge(const OrtContext& c, const fb::EdgeEnd* e, const fb::Node* src, const fb::Node* dst) {
    const uint32_t outputs = size_of(src->outputs());
    const uint32_t inputs = size_of(dst->inputs()) + size_of(dst->implicit_inputs());
    if (!in_range(e->src_arg_index(), outputs))
        c.invalid(e, "src_arg_index " + std::to_string(e->src_arg_index()) + " is not below the source's " +
                         std::to_string(outputs) + " outputs", "src_arg_index");
    if (!in_range(e->dst_arg_index(), inputs))
        c.invalid(e, "dst_arg_index " + std::to_string(e->dst_arg_index()) + " is not below the destination's " +
                         std::to_string(inputs) + " inputs", "dst_arg_index");
    const std::string_view out = argument(src->outputs(), nullptr, e->src_arg_index());
    const std::string_view in = argument(dst->inputs(), dst->implicit_inputs(), e->dst_arg_index());
    if (out != in || out.empty())
        c.invalid(e, "the edge joins output '" + std::string(out) + "' to input '" + std::string(in) +
                         "': not the same value");
}

void check_node_edge(OrtContext& c, const NodeTable& nodes, const fb::NodeEdge* ne) {
    const fb::Node* self = nodes.node(ne->node_index(), field_at(ne, fb::NodeEdge::VT_NODE_INDEX));
    const auto* ins = ne->input_edges();
    for (uint32_t j = 0; j < size_of(ins); ++j) {
        PathScope at(c.path, "input_edges", j);
        check_edge(c, ins->Get(j), nodes.node(ins->Get(j)->node_index(), ins->Get(j)), self);
    }
    const auto* outs = ne->output_edges();
    for (uint32_t j = 0; j < size_of(outs); ++j) {
        PathScope at(c.path, "output_edges", j);
        check_edge(c, outs->Get(j), self, nodes.node(outs->Get(j)->node_index(), outs->Get(j)));
    }
}

void check_arg_counts(OrtContext& c, const fb::Graph* fg) {
    const auto* nodes = fg->nodes();
    for (uint32_t i = 0; i < size_of(nodes); ++i) {
        const fb::Node* n = nodes->Get(i);
        const auto* counts = n->input_arg_counts();
        if (!counts) continue;
        uint64_t sum = 0;  // at most 2^32 entries below 2^31 each: no wrap
        for (uint32_t k = 0; k < counts->size(); ++k) {
            if (counts->Get(k) < 0) {
                PathScope at(c.path, "nodes", i);
                c.invalid(counts, "input_arg_counts holds a negative count", "input_arg_counts");
            }
            sum += static_cast<uint64_t>(counts->Get(k));
        }
        if (sum != size_of(n->inputs())) {
            PathScope at(c.path, "nodes", i);
            c.invalid(counts, "input_arg_counts sum to " + std::to_string(sum) + ", but the node has " +
                                  std::to_string(size_of(n->inputs())) + " inputs", "input_arg_counts");
        }
    }
}

}  // namespace

void check_ort_node_graph(OrtContext& c, const fb::Graph* fg) {
    check_arg_counts(c, fg);
    const NodeTable nodes(c, fg);
    const auto* edges = fg->node_edges();
    std::vector<uint32_t> seen;
    seen.reserve(size_of(edges));
    for (uint32_t i = 0; i < size_of(edges); ++i) {
        const fb::NodeEdge* ne = element(c, edges, i, "node_edges");
        PathScope at(c.path, "node_edges", i);
        check_node_edge(c, nodes, ne);
        seen.push_back(ne->node_index());
    }
    std::sort(seen.begin(), seen.end());
    if (std::adjacent_find(seen.begin(), seen.end()) != seen.end())
        c.invalid(fg, "two node_edges entries describe the same node", "node_edges");
}

}  // namespace onnximport::detail
