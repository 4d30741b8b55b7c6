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
    explicit OrtNodeFacts(Scratch& scratch) : nodes(&scratch), implicit_inputs(&scratch) {}

    uint32_t max_node_index = 0;
    ScratchVector<Entry> nodes;  ///< in file order, one per node
    ScratchVector<std::string_view> implicit_inputs;
};

}  // namespace onnximport::detail
