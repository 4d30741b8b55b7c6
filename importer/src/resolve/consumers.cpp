// The graph in resolved order (spec section 4, "Order" and "Consumers"): nodes moved into
// that order, each value's producer as a resolved index, and each value's readers in
// resolved order, each node once. A node reads what its subgraphs capture.
#include "resolve/graph.hpp"

#include <algorithm>
#include <utility>

namespace onnximport::detail {

void apply_order(Scope& s, const ReadLists& reads, NodeOrder& order) {
    Graph& g = s.graph;
    const uint32_t n = static_cast<uint32_t>(g.nodes.size());
    std::vector<uint32_t> position;  // file index -> resolved index
    if (order.reordered) {
        position.resize(n);
        std::vector<Node> sorted;
        sorted.reserve(n);
        for (uint32_t k = 0; k < n; ++k) {
            position[order.order[k]] = k;
            // Moving a Node moves its attribute vector's buffer: subgraphs stay in place.
            sorted.push_back(std::move(g.nodes[order.order[k]]));
        }
        g.nodes = std::move(sorted);
    }
    g.nodes_were_reordered = order.reordered;
    auto file_index = [&](uint32_t k) { return order.reordered ? order.order[k] : k; };

    for (size_t v = 0; v < g.values.size(); ++v) {
        uint32_t p = s.producer[v];
        if (p != no_producer) g.values[v].producer = order.reordered ? position[p] : p;
    }

    // Two passes so that each consumer list is allocated once at its final size. `last`
    // holds the last resolved index counted for a value: a node's reads of one value are
    // consecutive in this walk, so it is enough to keep each node once.
    const size_t value_count = g.values.size();
    std::vector<uint32_t> count(value_count, 0);
    std::vector<uint32_t> last(value_count);
    auto for_each_read_once = [&](auto&& visit) {
        std::fill(last.begin(), last.end(), no_producer);
        for (uint32_t k = 0; k < n; ++k) {
            uint32_t f = file_index(k);
            for (uint32_t i = reads.begin[f]; i < reads.begin[f + 1]; ++i) {
                uint32_t v = reads.values[i];
                if (last[v] == k) continue;
                last[v] = k;
                visit(v, k);
            }
        }
    };
    for_each_read_once([&](uint32_t v, uint32_t) { ++count[v]; });
    for (size_t v = 0; v < value_count; ++v) g.values[v].consumers.reserve(count[v]);
    for_each_read_once([&](uint32_t v, uint32_t k) { g.values[v].consumers.push_back(k); });
}

}  // namespace onnximport::detail
