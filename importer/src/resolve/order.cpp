// Topological order with the stable smallest-file-index rule, and cycle reporting
// (spec section 4, "Order").
#include "resolve/order.hpp"

#include "resolve/scope.hpp"

#include <algorithm>
#include <functional>
#include <vector>

namespace onnximport::detail {

namespace {

/// Called when Kahn's algorithm stopped early. Every node not emitted reads at least one
/// value produced by another node not emitted, so following "first such producer" from
/// any of them must come back to a node already seen: that node is on a cycle.
void find_cycle(const ReadLists& reads, std::span<const uint32_t> producer,
                std::span<const uint8_t> emitted, NodeOrder& out) {
    const uint32_t n = static_cast<uint32_t>(emitted.size());
    auto step = [&](uint32_t f, uint32_t& value) {
        for (uint32_t i = reads.begin[f]; i < reads.begin[f + 1]; ++i) {
            uint32_t p = producer[reads.values[i]];
            if (p != no_producer && !emitted[p]) {
                value = reads.values[i];
                return p;
            }
        }
        return no_producer;  // unreachable: the node would have been emitted
    };
    uint32_t start = 0;
    while (start < n && emitted[start]) ++start;
    std::vector<uint8_t> seen(n, 0);  // only when refusing
    uint32_t f = start, value = 0;
    while (!seen[f]) {
        seen[f] = 1;
        f = step(f, value);
    }
    // f is on the cycle: walk it once and report its smallest file index, so the node
    // named does not depend on where the walk entered.
    uint32_t best = f, best_value = 0;
    uint32_t g = f;
    do {
        uint32_t v = 0;
        uint32_t next = step(g, v);
        if (g <= best) {
            best = g;
            best_value = v;
        }
        g = next;
    } while (g != f);
    out.cycle = true;
    out.cycle_node = best;
    out.cycle_value = best_value;
}

/// Kahn's algorithm taking, each time, the ready node with the smallest file index. A node's
/// successors are the readers of the values it defines. The smallest ready node is held
/// outside the heap when it is below everything in it, so a chain (each node readying the
/// next) never touches the heap. Emits fewer than all nodes when they have a cycle.
void emit_smallest_ready(ScratchVector<uint32_t>& indegree, const ValueReaders& readers,
                         std::span<const uint32_t> node_values, ScratchVector<uint32_t>& order, Scratch& scratch) {
    const uint32_t n = static_cast<uint32_t>(indegree.size());
    constexpr uint32_t none = UINT32_MAX;
    // A min-heap of the other ready file indices. Seeded in increasing order, which is
    // already a valid min-heap.
    ScratchVector<uint32_t> ready(&scratch);
    ready.reserve(n);
    for (uint32_t f = 0; f < n; ++f)
        if (indegree[f] == 0) ready.push_back(f);
    const auto later = std::greater<uint32_t>();
    // Plain pointers: through the vectors, the compiler reloads them after every store.
    uint32_t* waiting = indegree.data();
    const uint32_t* start = readers.start.data();
    const uint32_t* end = readers.end.data();
    uint32_t next = none;  // when set, smaller than every file index in `ready`
    order.reserve(n);
    while (next != none || !ready.empty()) {
        uint32_t f = next;
        next = none;
        if (f == none) {
            std::pop_heap(ready.begin(), ready.end(), later);
            f = ready.back();
            ready.pop_back();
        }
        order.push_back(f);
        for (uint32_t v = node_values[f]; v < node_values[f + 1]; ++v)
            for (uint32_t i = start[v]; i < end[v]; ++i) {
                uint32_t r = readers.all[i];
                if (--waiting[r] != 0) continue;
                if (next == none ? ready.empty() || r < ready.front() : r < next) std::swap(r, next);
                if (r == none) continue;
                ready.push_back(r);
                std::push_heap(ready.begin(), ready.end(), later);
            }
    }
}

}  // namespace

NodeOrder order_nodes(const ReadLists& reads, const ValueReaders& readers, std::span<const uint32_t> producer,
                      std::span<const uint32_t> node_values, Scratch& scratch) {
    NodeOrder out(scratch);
    const uint32_t n = static_cast<uint32_t>(reads.begin.size() - 1);
    if (reads.file_order_topological) return out;
    out.reordered = true;

    // A node waits for each value it reads that a node produces, once per value.
    ScratchVector<uint32_t> indegree(n, 0, &scratch);
    for (uint32_t v = 0; v < producer.size(); ++v)
        if (producer[v] != no_producer)
            for (uint32_t r : readers.of(v)) ++indegree[r];

    emit_smallest_ready(indegree, readers, node_values, out.order, scratch);
    if (out.order.size() < n) {
        ScratchVector<uint8_t> emitted(n, 0, &scratch);  // only when refusing
        for (uint32_t f : out.order) emitted[f] = 1;
        find_cycle(reads, producer, emitted, out);
    }
    return out;
}

}  // namespace onnximport::detail
