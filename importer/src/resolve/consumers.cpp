// The graph in resolved order (spec section 4, "Order" and "Consumers"): nodes moved into
// that order, each value's producer as a resolved index, and each value's readers in
// resolved order, each node once. A node reads what its subgraphs capture.
#include "resolve/consumers.hpp"

#include <algorithm>
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

/// Puts one value's readers, resolved indices mapped from file order, in increasing order:
/// a slice the order turned round (a graph written last to first) in one pass.
void sort_readers(std::span<uint32_t> slice) {
    if (std::is_sorted(slice.begin(), slice.end())) return;
    if (std::is_sorted(slice.rbegin(), slice.rend())) std::reverse(slice.begin(), slice.end());
    else std::sort(slice.begin(), slice.end());
}

}  // namespace

ValueReaders read_by_value(Scope& s, const ReadLists& reads) {
    // Each value's readers go to its slice of one array in the arena: the reads counted per
    // value, the slices' starts summed from the counts, the slices filled in file order. A
    // node's reads of one value are consecutive in the filling, so a node already last in the
    // value's slice is not added again (the slice keeps the repeat's room unused).
    const size_t value_count = s.graph.values.size();
    const uint32_t n = static_cast<uint32_t>(reads.begin.size() - 1);
    ValueReaders r(s.scratch);
    r.start.assign(value_count + 1, 0);
    for (uint32_t v : reads.values) ++r.start[v + 1];
    for (size_t v = 0; v < value_count; ++v) r.start[v + 1] += r.start[v];
    r.end.assign(r.start.begin(), r.start.end() - 1);  // where each slice is filled to
    r.all = ListAccess::make_array<uint32_t>(s.storage.arena, reads.values.size());
    // Plain pointers in the loop: through the vectors, the compiler reloads them after every store.
    const uint32_t* start = r.start.data();
    uint32_t* end = r.end.data();
    uint32_t* all = r.all;
    for (uint32_t f = 0; f < n; ++f)
        for (uint32_t i = reads.begin[f]; i < reads.begin[f + 1]; ++i) {
            const uint32_t v = reads.values[i];
            if (end[v] > start[v] && all[end[v] - 1] == f) continue;
            all[end[v]++] = f;
        }
    return r;
}

void apply_order(Scope& s, ValueReaders& readers, NodeOrder& order) {
    Graph& g = s.graph;
    const uint32_t n = static_cast<uint32_t>(g.nodes.size());
    const bool reordered = order.reordered;
    ScratchVector<uint32_t> position(&s.scratch);  // file index -> resolved index
    if (reordered) {
        position.resize(n);
        for (uint32_t k = 0; k < n; ++k) position[order.order[k]] = k;
        permute_nodes(g.nodes, order.order, s.scratch);
    }
    g.nodes_were_reordered = reordered;
    // One walk over the values (a cache line each) sets their producers and consumers; in a
    // reordered graph the readers become resolved indices first. Plain pointers, as in
    // read_by_value: a List's pointer stored in a Value could otherwise be a vector's.
    const uint32_t* start = readers.start.data();
    const uint32_t* end = readers.end.data();
    const uint32_t* producer = s.producer.data();
    const uint32_t* resolved = position.data();
    const size_t value_count = g.values.size();
    for (size_t v = 0; v < value_count; ++v) {
        Value& value = g.values[v];
        const uint32_t p = producer[v];
        uint32_t* first = readers.all + start[v];
        const uint32_t count = end[v] - start[v];
        if (reordered) {
            for (uint32_t i = 0; i < count; ++i) first[i] = resolved[first[i]];
            if (count > 1) sort_readers({first, count});
        }
        if (p != no_producer) value.producer = static_cast<int32_t>(reordered ? resolved[p] : p);
        ListAccess::view(value.consumers, first, count);
    }
}

}  // namespace onnximport::detail
