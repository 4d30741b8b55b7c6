// The node graph of a .ort Graph, checked against its nodes as the walk read them: node
// indices unique and below max_node_index (which sizes nothing), and every edge naming
// existing nodes, argument indices in range, and the same value at both ends (rules O8,
// O9). ONNX Runtime rebuilds its graph from these; a reader must not trust them.
#include "core/strings.hpp"
#include "core/text.hpp"
#include "ort/context.hpp"
#include "ort/node_facts.hpp"
#include "ort/reader.hpp"

#include <algorithm>
#include <utility>

namespace onnximport::detail {

namespace {

using NE = fb::NodeEdge;

/// A node as the edges see it: its outputs, and its inputs followed by its implicit
/// inputs (how ONNX Runtime numbers an edge's destination). Its facts are read only for an
/// index past the explicit inputs: a far node's entry is one more cache miss.
struct EdgeNode {
    const Node* node;
    const OrtNodeFacts::Entry* facts;
    const std::string_view* implicit_inputs;  ///< the graph's, from facts->implicit_begin

    uint32_t explicit_inputs() const noexcept { return static_cast<uint32_t>(node->inputs.size()); }
    uint32_t inputs() const noexcept { return explicit_inputs() + facts->implicit_count; }
    bool has_input(int32_t k) const noexcept {
        if (k < 0) return false;
        const auto i = static_cast<uint32_t>(k);
        return i < explicit_inputs() || i - explicit_inputs() < facts->implicit_count;
    }
    std::string_view input(uint32_t k) const noexcept {
        if (k < explicit_inputs()) return node->inputs[k];
        return implicit_inputs[facts->implicit_begin + (k - explicit_inputs())];
    }
};

/// Node index -> node: direct for indices below the number of nodes (ONNX Runtime numbers
/// them 0..n-1), sorted for the rest; sized by the nodes present, never by max_node_index.
class NodeTable {
public:
    NodeTable(OrtContext& c, const Graph& g, const OrtNodeFacts& facts)
        : c_(c), g_(g), facts_(facts), direct_(facts.nodes.size(), absent, &c.scratch), sparse_(&c.scratch) {
        for (uint32_t i = 0; i < facts.nodes.size(); ++i) {
            const OrtNodeFacts::Entry& e = facts.nodes[i];
            if (e.index >= facts.max_node_index) {
                PathScope at(c.path, "nodes", i);
                c.invalid(c.fb.address(e.index_at),
                          "node index " + std::to_string(e.index) + " is not below max_node_index " +
                              std::to_string(facts.max_node_index),
                          "index");
            }
            if (e.index >= direct_.size()) sparse_.push_back({e.index, i});
            else if (direct_[e.index] == absent) direct_[e.index] = i;
            else used_twice(e.index, i);
        }
        std::sort(sparse_.begin(), sparse_.end());
        for (size_t k = 1; k < sparse_.size(); ++k)
            if (sparse_[k].first == sparse_[k - 1].first) used_twice(sparse_[k].first, sparse_[k].second);
    }

    /// The position in the graph's nodes of the node of index `index`; refused when there is none.
    uint32_t position(uint32_t index, const uint8_t* at) const {
        const uint32_t i = find(index);
        if (i == absent) c_.invalid(at, "edge names node index " + std::to_string(index) + ", which no node has");
        return i;
    }
    EdgeNode node(uint32_t index, const uint8_t* at) const { return at_position(position(index, at)); }
    EdgeNode at_position(uint32_t i) const noexcept {
        return {&g_.nodes[i], &facts_.nodes[i], facts_.implicit_inputs.data()};
    }
    size_t size() const noexcept { return direct_.size(); }

    static constexpr uint32_t absent = UINT32_MAX;
    /// The position of the node of index `index`, or absent.
    uint32_t find(uint32_t index) const noexcept {
        if (index < direct_.size()) return direct_[index];
        const auto it = std::lower_bound(sparse_.begin(), sparse_.end(), std::pair{index, uint32_t{0}});
        return it != sparse_.end() && it->first == index ? it->second : absent;
    }

private:
    [[noreturn]] void used_twice(uint32_t index, uint32_t i) const {
        c_.invalid(c_.fb.address(static_cast<uint32_t>(g_.nodes[i].offset)),
                   "node index " + std::to_string(index) + " is used twice");
    }

    const OrtContext& c_;
    const Graph& g_;
    const OrtNodeFacts& facts_;
    ScratchVector<uint32_t> direct_;                       ///< index -> position, for indices < nodes
    ScratchVector<std::pair<uint32_t, uint32_t>> sparse_;  ///< (index, position), sorted, the rest
};

bool in_range(int32_t i, uint32_t n) { return i >= 0 && static_cast<uint32_t>(i) < n; }

struct EdgeEnd {
    uint32_t node_index;
    int32_t src_arg_index;
    int32_t dst_arg_index;
};

/// Whether the edge's two ends are the same string of the buffer, by the facts' dense arrays
/// alone: how the edges of a file whose writer shares strings hold (ours does: docs/ort.md,
/// "Shared strings"). An edge that fails this may still hold by the names' bytes (edge_holds).
bool same_place(const OrtNodeFacts& facts, uint32_t src, uint32_t dst, const EdgeEnd& e) noexcept {
    const OrtNodeFacts::Values& s = facts.values[src];
    const OrtNodeFacts::Values& d = facts.values[dst];
    if (!in_range(e.src_arg_index, s.outputs) || !in_range(e.dst_arg_index, d.inputs)) return false;
    const uint32_t out = facts.places[s.first + s.inputs + static_cast<uint32_t>(e.src_arg_index)];
    return out != 0 && out == facts.places[d.first + static_cast<uint32_t>(e.dst_arg_index)];
}

/// Whether check_edge accepts the edge, without a refusal's message: what nearly every edge
/// gets, with no path segment pushed for it.
bool edge_holds(const EdgeEnd& e, const EdgeNode& src, const EdgeNode& dst) noexcept {
    if (!in_range(e.src_arg_index, static_cast<uint32_t>(src.node->outputs.size())) ||
        !dst.has_input(e.dst_arg_index))
        return false;
    const std::string_view out = src.node->outputs[static_cast<uint32_t>(e.src_arg_index)];
    return !out.empty() && same_name(out, dst.input(static_cast<uint32_t>(e.dst_arg_index)));
}

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
    if (!same_name(out, in) || out.empty())
        c.invalid(at, "the edge joins output " + quoted(out, '\'') + " to input " + quoted(in, '\'') +
                          ": not the same value");
}

/// The edges of one vector, their work charged already; `self` is their destination (input
/// edges) or source.
void check_edges(OrtContext& c, const NodeTable& nodes, const OrtNodeFacts& facts, const FbVector& edges,
                 std::string_view field, uint32_t self, bool inputs) {
    for (uint32_t j = 0; j < edges.count; ++j) {
        // The struct EdgeEnd: node_index, src_arg_index, dst_arg_index (4 bytes each).
        const EdgeEnd end{c.fb.member_at<uint32_t>(edges, j, 0), c.fb.member_at<int32_t>(edges, j, 4),
                          c.fb.member_at<int32_t>(edges, j, 8)};
        if (const uint32_t i = nodes.find(end.node_index); i != NodeTable::absent) {
            const uint32_t src = inputs ? i : self, dst = inputs ? self : i;
            if (same_place(facts, src, dst, end) ||
                edge_holds(end, nodes.at_position(src), nodes.at_position(dst)))
                continue;
        }
        // Refused: the checks again, each with its message, at this edge's path.
        PathScope at(c.path, field, j);
        const uint8_t* pos = c.fb.address(edges.entry(j));
        const EdgeNode other = nodes.node(end.node_index, pos);
        if (inputs) check_edge(c, pos, end, other, nodes.at_position(self));
        else check_edge(c, pos, end, nodes.at_position(self), other);
    }
}

/// A node_edges entry as read: the node it describes and its two vectors of edges.
struct EdgesEntry {
    uint32_t self = 0;  ///< the node's position in the graph's nodes
    FbVector ins, outs;
};

/// Reads node_edges entry i: its node must exist and have no entry before; the work of its
/// edges is charged.
EdgesEntry read_entry(OrtContext& c, const NodeTable& nodes, const FbVector& v, uint32_t i,
                      ScratchVector<bool>& described) {
    const FbTable ne = c.fb.table_at(v, i, "node_edges");
    PathScope at(c.path, "node_edges", i);
    Nested nested(c, ne);
    const auto index = c.fb.scalar<uint32_t>(ne, NE::VT_NODE_INDEX, 0, "node_index");
    EdgesEntry e;
    e.ins = c.fb.vector(ne, NE::VT_INPUT_EDGES, 12, "input_edges");
    e.outs = c.fb.vector(ne, NE::VT_OUTPUT_EDGES, 12, "output_edges");
    const uint8_t* index_at = c.at(ne, NE::VT_NODE_INDEX);
    e.self = nodes.position(index, index_at);
    if (described[e.self])
        c.invalid(index_at, "node index " + std::to_string(index) + " has a node_edges entry already", "node_index");
    described[e.self] = true;
    for (const FbVector* edges : {&e.ins, &e.outs}) c.fb.charge(uint64_t{edges->count} * 16, edges->at);
    return e;
}

}  // namespace

void check_ort_node_graph(OrtContext& c, const FbTable& fg, const Graph& g, const OrtNodeFacts& facts) {
    const NodeTable nodes(c, g, facts);
    const FbVector v = c.fb.vector(fg, fb::Graph::VT_NODE_EDGES, 4, "node_edges");
    ScratchVector<bool> described(nodes.size(), false, &c.scratch);
    constexpr uint32_t tables_ahead = 8;  // ONNX Runtime's entries are not in the order of their tables
    for (uint32_t i = 0; i < v.count; ++i) {
        c.fb.prefetch_table(v, i + tables_ahead);
        const EdgesEntry e = read_entry(c, nodes, v, i, described);
        PathScope at(c.path, "node_edges", i);
        check_edges(c, nodes, facts, e.ins, "input_edges", e.self, true);
        check_edges(c, nodes, facts, e.outs, "output_edges", e.self, false);
    }
}

}  // namespace onnximport::detail
