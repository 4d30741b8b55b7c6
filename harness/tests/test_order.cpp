// The resolved order (resolve/order.hpp, spec section 4 "Order"): Kahn's algorithm taking
// the ready node with the smallest file index, checked against the rule written plainly
// on graphs of every shape the fast paths treat apart (chains, reversed chains, fans).
#include "core/scratch.hpp"
#include "resolve/order.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

using namespace onnximport::detail;

namespace {

/// Node f reads the outputs of the nodes in preds[f]; value v is node v's output.
using Preds = std::vector<std::vector<uint32_t>>;

/// The spec's rule as written: repeatedly emit the smallest file index whose readers' producers are all
/// emitted (O(n^2)).
std::vector<uint32_t> reference_order(const Preds& preds) {
    const size_t n = preds.size();
    std::vector<bool> done(n, false);
    std::vector<uint32_t> order;
    while (order.size() < n) {
        for (uint32_t f = 0; f < n; ++f) {
            if (done[f]) continue;
            bool ready = true;
            for (uint32_t p : preds[f]) ready = ready && done[p];
            if (!ready) continue;
            done[f] = true;
            order.push_back(f);
            break;
        }
    }
    return order;
}

std::vector<uint32_t> importer_order(const Preds& preds) {
    Scratch scratch(preds.size(), nullptr);
    ReadLists reads(scratch);
    std::vector<uint32_t> producer(preds.size());
    for (uint32_t f = 0; f < preds.size(); ++f) {
        producer[f] = f;
        reads.begin.push_back(static_cast<uint32_t>(reads.values.size()));
        for (uint32_t p : preds[f]) {
            reads.values.push_back(p);
            if (p >= f) reads.file_order_topological = false;
        }
    }
    reads.begin.push_back(static_cast<uint32_t>(reads.values.size()));
    // Each value's readers, each once, in file order (what read_by_value gives).
    std::vector<std::vector<uint32_t>> by_value(preds.size());
    for (uint32_t f = 0; f < preds.size(); ++f)
        for (uint32_t p : preds[f])
            if (by_value[p].empty() || by_value[p].back() != f) by_value[p].push_back(f);
    ValueReaders readers(scratch);
    std::vector<uint32_t> all;
    for (const std::vector<uint32_t>& r : by_value) {
        readers.start.push_back(static_cast<uint32_t>(all.size()));
        all.insert(all.end(), r.begin(), r.end());
        readers.end.push_back(static_cast<uint32_t>(all.size()));
    }
    readers.all = all.data();
    std::vector<uint32_t> node_values(preds.size() + 1);
    for (uint32_t f = 0; f <= preds.size(); ++f) node_values[f] = f;
    NodeOrder order = order_nodes(reads, readers, producer, node_values, scratch);
    BOOST_REQUIRE(!order.cycle);
    if (!order.reordered) {
        std::vector<uint32_t> identity(preds.size());
        for (uint32_t f = 0; f < preds.size(); ++f) identity[f] = f;
        return identity;
    }
    return {order.order.begin(), order.order.end()};
}

/// A random DAG over a random permutation of the nodes: each node reads up to `fan` nodes
/// earlier in the permutation.
Preds random_dag(std::mt19937& rng, uint32_t n, uint32_t fan) {
    std::vector<uint32_t> perm(n);
    for (uint32_t i = 0; i < n; ++i) perm[i] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    Preds preds(n);
    for (uint32_t i = 1; i < n; ++i) {
        const uint32_t reads = std::uniform_int_distribution<uint32_t>(0, fan)(rng);
        for (uint32_t k = 0; k < reads; ++k)
            preds[perm[i]].push_back(perm[std::uniform_int_distribution<uint32_t>(0, i - 1)(rng)]);
    }
    return preds;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(order)

BOOST_AUTO_TEST_CASE(a_reversed_chain_is_emitted_last_node_first) {
    Preds preds(50);
    for (uint32_t f = 0; f + 1 < 50; ++f) preds[f] = {f + 1};
    BOOST_TEST(importer_order(preds) == reference_order(preds));
}

BOOST_AUTO_TEST_CASE(ready_nodes_come_out_smallest_file_index_first_on_random_graphs) {
    std::mt19937 rng(31);
    for (int round = 0; round < 300; ++round) {
        const uint32_t n = std::uniform_int_distribution<uint32_t>(1, 60)(rng);
        const uint32_t fan = std::uniform_int_distribution<uint32_t>(0, 4)(rng);
        const Preds preds = random_dag(rng, n, fan);
        BOOST_TEST(importer_order(preds) == reference_order(preds), "round " << round);
    }
}

BOOST_AUTO_TEST_SUITE_END()
