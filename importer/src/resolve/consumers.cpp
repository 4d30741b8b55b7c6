// The graph in resolved order (spec section 4, "Order" and "Consumers"): nodes moved into
// that order, each value's producer as a resolved index, and each value's readers in
// resolved order, each node once. A node reads what its subgraphs capture.
#include "resolve/graph.hpp"

#include <span>

namespace onnximport::detail {

namespace {

/// Puts node order[k] at position k for every k, in place: each cycle of the permutation
/// is rotated through one saved Node (copying a Node copies views; attributes and
/// subgraphs stay where they are).
void permute_nodes(List<Node>& nodes, std::span<const uint32_t> order, Scratch& scratch) {
    const uint32_t n = static_cast<uint32_t>(nodes.size());
    ScratchVector<uint8_t> placed(n, 0, &scratch);
    for (uint32_t start = 0; start < n; ++start) {
        if (placed[start]) continue;
        // Slot k receives order[k]; follow the cycle from `start`.
        Node saved = nodes[start];
        uint32_t k = start;
        while (order[k] != start) {
            nodes[k] = nodes[order[k]];
            placed[k] = 1;
            k = order[k];
        }
        nodes[k] = saved;
        placed[k] = 1;
    }
}

}  // namespace

void apply_order(Scope& s, const ReadLists& reads, NodeOrder& order) {
    Graph& g = s.graph;
    const uint32_t n = static_cast<uint32_t>(g.nodes.size());
    ScratchVector<uint32_t> position(&s.scratch);  // file index -> resolved index
    if (order.reordered) {
        position.resize(n);
        for (uint32_t k = 0; k < n; ++k) position[order.order[k]] = k;
        permute_nodes(g.nodes, order.order, s.scratch);
    }
    g.nodes_were_reordered = order.reordered;
    auto file_index = [&](uint32_t k) { return order.reordered ? order.order[k] : k; };

    // Each value's readers go to its slice of one array in the arena: the reads counted per
    // value, the slices' starts summed from the counts, the slices filled in resolved order;
    // then one walk over the values (a cache line each) sets their producers and consumers.
    // A node's reads of one value are consecutive in the filling, so a node already last in
    // the value's slice is not added again (the slice keeps the repeat's room unused).
    const size_t value_count = g.values.size();
    ScratchVector<uint32_t> start(value_count + 1, 0, &s.scratch);
    for (uint32_t v : reads.values) ++start[v + 1];
    for (size_t v = 0; v < value_count; ++v) start[v + 1] += start[v];
    ScratchVector<uint32_t> end(start.begin(), start.end() - 1, &s.scratch);  // where each slice is filled to
    uint32_t* all = ListAccess::make_array<uint32_t>(s.storage.arena, reads.values.size());
    for (uint32_t k = 0; k < n; ++k) {
        const uint32_t f = file_index(k);
        for (uint32_t i = reads.begin[f]; i < reads.begin[f + 1]; ++i) {
            const uint32_t v = reads.values[i];
            if (end[v] > start[v] && all[end[v] - 1] == k) continue;
            all[end[v]++] = k;
        }
    }
    for (size_t v = 0; v < value_count; ++v) {
        Value& value = g.values[v];
        const uint32_t p = s.producer[v];
        if (p != no_producer) value.producer = static_cast<int32_t>(order.reordered ? position[p] : p);
        ListAccess::view(value.consumers, all + start[v], end[v] - start[v]);
    }
}

}  // namespace onnximport::detail
