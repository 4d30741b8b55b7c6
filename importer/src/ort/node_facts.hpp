// What the node-graph checks (ort/check_edges.cpp) need of each node of one .ort graph
// beyond the Model's Node: its index and implicit inputs, gathered by the walk as it reads
// each node, so that the checks never read the node's bytes again.
#pragma once

#include "core/scratch.hpp"

#include <cstdint>
#include <string_view>

namespace onnximport::detail {

struct OrtNodeFacts {
    struct Entry {
        uint32_t index;        ///< Node.index
        uint32_t index_at;     ///< where it is stored (or the node), for refusals
        uint32_t implicit_begin;  ///< its implicit inputs in `implicit_inputs`
        uint32_t implicit_count;
    };
    /// A node's values in `places`: its inputs and implicit inputs (numbered as the edges
    /// number a destination), then its outputs.
    struct Values {
        uint32_t first;
        uint32_t inputs;  ///< with the implicit inputs
        uint32_t outputs;
    };
    explicit OrtNodeFacts(Scratch& scratch)
        : nodes(&scratch), implicit_inputs(&scratch), values(&scratch), places(&scratch) {}

    uint32_t max_node_index = 0;
    ScratchVector<Entry> nodes;  ///< in file order, one per node
    ScratchVector<std::string_view> implicit_inputs;
    ScratchVector<Values> values;  ///< in file order, one per node
    /// Where in the buffer the string each value names is; 0 for an empty name (no string
    /// starts at 0). Two ends at the same place name the same value: an edge checked so reads
    /// these dense arrays, not the nodes (docs/performance-history.md, ".ort edges by place").
    ScratchVector<uint32_t> places;
};

}  // namespace onnximport::detail
