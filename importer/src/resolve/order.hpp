// The resolved order of a graph's nodes (spec section 4, "Order"): file order when it is
// already topological, otherwise Kahn's algorithm taking, each time, the ready node with
// the smallest file index. O((nodes + reads) log nodes).
#pragma once

#include "core/scratch.hpp"

#include <cstdint>
#include <span>

namespace onnximport::detail {

/// The values of its own graph each node reads, as compressed rows in file order: node f
/// reads values[begin[f] .. begin[f + 1]). Includes what its subgraphs capture from this
/// graph; reads of enclosing graphs' values are left out (they are always available).
struct ReadLists {
    explicit ReadLists(Scratch& scratch) : begin(&scratch), values(&scratch) {}
    ScratchVector<uint32_t> begin;   ///< node count + 1 entries
    ScratchVector<uint32_t> values;  ///< indices into Graph::values
    /// False once a node reads a value that it or a later node produces: the file order is
    /// then not topological (recorded as the reads are, instead of a pass of its own).
    bool file_order_topological = true;
};

/// Who reads each value, from ReadLists: value v's readers are all[start[v] .. end[v]), node
/// indices in increasing order, each node once. Built in file order (read_by_value, the
/// consumers' own array in the Model's arena), and the edges the order follows.
struct ValueReaders {
    explicit ValueReaders(Scratch& scratch) : start(&scratch), end(&scratch) {}
    ScratchVector<uint32_t> start;  ///< per value
    ScratchVector<uint32_t> end;    ///< per value
    uint32_t* all = nullptr;

    std::span<const uint32_t> of(uint32_t v) const { return {all + start[v], all + end[v]}; }
};

struct NodeOrder {
    explicit NodeOrder(Scratch& scratch) : order(&scratch) {}
    bool reordered = false;
    /// File indices in resolved order; empty when the file order is kept.
    ScratchVector<uint32_t> order;
    /// Set when the nodes have a cycle: a node on it (the smallest file index on the
    /// cycle found) and the value it reads from its predecessor on the cycle.
    bool cycle = false;
    uint32_t cycle_node = 0;
    uint32_t cycle_value = 0;
};

/// @param readers each value's readers, in file indices.
/// @param producer per value, the file index of the node producing it, or no_producer.
/// @param node_values per node and one past the last: the first of the values its outputs
///        define, which are consecutive (Scope::node_values).
/// The order and the working arrays are placed in `scratch`.
NodeOrder order_nodes(const ReadLists& reads, const ValueReaders& readers, std::span<const uint32_t> producer,
                      std::span<const uint32_t> node_values, Scratch& scratch);

}  // namespace onnximport::detail
