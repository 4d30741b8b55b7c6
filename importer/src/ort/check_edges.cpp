// The node graph of a .ort Graph, checked against its nodes as the walk read them: node
// indices unique and below max_node_index (which sizes nothing), and every edge naming
// existing nodes, argument indices in range, and the same value at both ends (rules O8,
// O9). ONNX Runtime rebuilds its graph from these; a reader must not trust them.
#include "ort/context.hpp"
#include "ort/node_facts.hpp"
#include "ort/reader.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace onnximport::detail {

namespace {

using NE = fb::NodeEdge;

/// A node as the edges see it: its outputs, and its inputs followed by its implicit
/// inputs (how ONNX Runtime numbers an edge's destination).
struct EdgeNode {
    const Node* node;
    const std::string_view* implicit;
    uint32_t implicit_count;

    uint32_t inputs() const noexcept { return static_cast<uint32_t>(node->inputs.size()) + implicit_count; }
    std::string_view input(uint32_t k) const noexcept {
        return k < node->inputs.size() ? node->inputs[k] : implicit[k - node->inputs.size()];
    }
};

/// Node index -> node, sized by the nodes present (never by max_node_index).
class NodeTable {
public:
    NodeTable(OrtContext& c, const Graph& g, const OrtNodeFacts& facts) : c_(c) {
        for (uint32_t i = 0; i < facts.nodes.size(); ++i) {
            const OrtNodeFacts::Entry& e = facts.nodes[i];
            if (e.index >= facts.max_node_index) {
                PathScope at(c.path, "nodes", i);
                c.invalid(c.fb.address(e.index_at),
                          "node index " + std::to_string(e.index) + " is not below max_node_index " +
                              std::to_string(facts.max_node_index),
                          "index");
            }
            by_index_.push_back({e.index, {&g.nodes[i], facts.implicit_inputs.data() + e.implicit_begin,
                                           e.implicit_count}});
        }
        std::sort(by_index_.begin(), by_index_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (size_t i = 1; i < by_index_.size(); ++i)
            if (by_index_[i].first == by_index_[i - 1].first)
                c.invalid(c.fb.address(static_cast<uint32_t>(by_index_[i].second.node->offset)),
                          "node index " + std::to_string(by_index_[i].first) + " is used twice");
    }

    /// The node of index `index`; refused when there is none.
    const EdgeNode& node(uint32_t index, const uint8_t* at) const {
        auto it = std::lower_bound(by_index_.begin(), by_index_.end(), index,
                                   [](const auto& entry, uint32_t key) { return entry.first < key; });
        if (it == by_index_.end() || it->first != index)
            c_.invalid(at, "edge names node index " + std::to_string(index) + ", which no node has");
        return it->second;
    }

private:
    const OrtContext& c_;
    std::vector<std::pair<uint32_t, EdgeNode>> by_index_;
};

bool in_range(int32_t i, uint32_t n) { return i >= 0 && static_cast<uint32_t>(i) < n; }

struct EdgeEnd {
    uint32_t node_index;
    int32_t src_arg_index;
    int32_t dst_arg_index;
};

/// One edge from `src` output src_arg_index to `dst` input dst_arg_index.
void check_edge(const OrtContext& c, const uint8_t* at, const EdgeEnd& e, const EdgeNode& src, const EdgeNode& dst) {
    const auto outputs = static_cast<uint32_t>(src.node->outputs.size());
    if (!in_range(e.src_arg_index, outputs))
        c.invalid(at, "src_arg_index " + std::to_string(e.src_arg_index) + " is not below the source's " +
                          std::to_string(outputs) + " outputs", "src_arg_index");
    if (!in_range(e.dst_arg_index, dst.inputs()))
        c.invalid(at, "dst_arg_index " + std::to_string(e.dst_arg_index) + " is not below the destination's " +
                          std::to_string(dst.inputs()) + " inputs", "dst_arg_index");
    const std::string_view out = src.node->outputs[static_cast<uint32_t>(e.src_arg_index)];
    const std::string_view in = dst.input(static_cast<uint32_t>(e.dst_arg_index));
    if (out != in || out.empty())
        c.invalid(at, "the edge joins output '" + std::string(out) + "' to input '" + std::string(in) +
                          "': not the same value");
}

/// The edges of one vector; `self` is their destination (input edges) or source.
void check_edges(OrtContext& c, const NodeTable& nodes, const FbVector& edges, std::string_view field,
                 const EdgeNode& self, bool inputs) {
    c.fb.charge(uint64_t{edges.count} * 16, edges.at);
    for (uint32_t j = 0; j < edges.count; ++j) {
        PathScope at(c.path, field, j);
        const uint8_t* pos = c.fb.address(edges.entry(j));
        // The struct EdgeEnd: node_index, src_arg_index, dst_arg_index (4 bytes each).
        const EdgeEnd end{c.fb.member_at<uint32_t>(edges, j, 0), c.fb.member_at<int32_t>(edges, j, 4),
                          c.fb.member_at<int32_t>(edges, j, 8)};
        const EdgeNode& other = nodes.node(end.node_index, pos);
        if (inputs) check_edge(c, pos, end, other, self);
        else check_edge(c, pos, end, self, other);
    }
}

}  // namespace

void check_ort_node_graph(OrtContext& c, const FbTable& fg, const Graph& g, const OrtNodeFacts& facts) {
    const NodeTable nodes(c, g, facts);
    const FbVector v = c.fb.vector(fg, fb::Graph::VT_NODE_EDGES, 4, "node_edges");
    std::vector<uint32_t> seen;
    seen.reserve(v.count);
    for (uint32_t i = 0; i < v.count; ++i) {
        const FbTable ne = c.fb.table_at(v, i, "node_edges");
        PathScope at(c.path, "node_edges", i);
        Nested nested(c, ne);
        const auto index = c.fb.scalar<uint32_t>(ne, NE::VT_NODE_INDEX, 0, "node_index");
        const FbVector ins = c.fb.vector(ne, NE::VT_INPUT_EDGES, 12, "input_edges");
        const FbVector outs = c.fb.vector(ne, NE::VT_OUTPUT_EDGES, 12, "output_edges");
        const EdgeNode& self = nodes.node(index, c.at(ne, NE::VT_NODE_INDEX));
        check_edges(c, nodes, ins, "input_edges", self, true);
        check_edges(c, nodes, outs, "output_edges", self, false);
        seen.push_back(index);
    }
    std::sort(seen.begin(), seen.end());
    if (std::adjacent_find(seen.begin(), seen.end()) != seen.end())
        c.invalid(fg, "two node_edges entries describe the same node", "node_edges");
}

}  // namespace onnximport::detail
