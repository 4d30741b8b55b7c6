// The small model the consumers import (harness/install/), written byte by byte: a user's
// program has no model builder.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace consumer {

/// A protobuf field: key, then a varint or a length and bytes (all lengths < 128 here).
inline void put(std::vector<uint8_t>& out, int field, int wire, const std::vector<uint8_t>& payload) {
    out.push_back(static_cast<uint8_t>(field << 3 | wire));
    if (wire == 2) out.push_back(static_cast<uint8_t>(payload.size()));
    out.insert(out.end(), payload.begin(), payload.end());
}

inline std::vector<uint8_t> text(const char* s) {
    return std::vector<uint8_t>(s, s + std::char_traits<char>::length(s));
}

/// ir_version 9, producer "consumer", opset 21, a graph of one Relu node from x to y.
inline std::vector<uint8_t> relu_model() {
    std::vector<uint8_t> node, graph, input, output, model;
    put(node, 1, 2, text("x"));
    put(node, 2, 2, text("y"));
    put(node, 4, 2, text("Relu"));
    put(input, 1, 2, text("x"));
    put(output, 1, 2, text("y"));
    put(graph, 1, 2, node);
    put(graph, 11, 2, input);
    put(graph, 12, 2, output);
    put(model, 1, 0, {9});
    put(model, 2, 2, text("consumer"));
    put(model, 7, 2, graph);
    put(model, 8, 2, {0x10, 21});  // opset_import: version 21 of the default domain
    return model;
}

}  // namespace consumer
