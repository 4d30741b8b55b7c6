// Unions of byte ranges that overlap: payload work on threads (io/payloads.hpp,
// external/files.hpp) reads each byte once however many tensors alias it (docs/rules.md
// E11: one file's range may back any number of tensors).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace onnximport::detail {

/// [begin, end) within the space `key` names (a file, or 0 for addresses).
struct Interval {
    uintptr_t key = 0;
    uint64_t begin = 0;
    uint64_t end = 0;
};

struct Unions {
    /// The maximal unions of overlapping non-empty intervals of one key, ordered by the
    /// lowest index of an interval each holds.
    std::vector<Interval> spans;
    /// For each interval, the index of its span; SIZE_MAX for an empty one.
    std::vector<size_t> span_of;
};

/// Intervals that share at least one byte join one span; intervals that only meet do not,
/// so disjoint intervals give themselves back, in their own order. O(n log n).
Unions union_of(std::span<const Interval> intervals);

}  // namespace onnximport::detail
