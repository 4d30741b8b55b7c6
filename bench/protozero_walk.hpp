// The floor row of docs/performance.md: a walk with protozero's pbf_reader (Debian libprotozero-dev)
// over every field the importer reads, building nothing.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gauntlet::bench {

/// Walks a ModelProto: every field of the model, graphs, nodes, attributes, value_info,
/// types and tensor metadata is decoded; tensor payloads (raw_data and the typed data
/// fields) are skipped. Returns a sum of what was read so the walk cannot be optimized
/// away. @throws protozero::exception on malformed input.
uint64_t protozero_walk(const char* data, size_t size);

}  // namespace gauntlet::bench
