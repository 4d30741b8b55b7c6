// Payload work after the structural walk (the .ort spec's "Parallelization"): tensor
// bytes are disjoint ranges at known places, so making them resident can be shared out
// to threads (core/pool.hpp) when ImportOptions::threads asks for more than one.
#pragma once

#include <cstdint>
#include <span>

namespace onnximport::detail {

/// Below this many bytes in all, payload work stays on the calling thread: starting
/// threads would cost more than it saves. Fuzz builds lower it to reach the parallel path.
#ifdef ONNXIMPORT_SMALL_PARALLEL_WORK
inline constexpr uint64_t parallel_min_bytes = 1;
#else
inline constexpr uint64_t parallel_min_bytes = uint64_t{4} << 20;
#endif

struct ByteRange {
    const uint8_t* data = nullptr;
    uint64_t size = 0;
};

/// Reads one byte of every page of every range (of a mapping, or of any memory) on up to
/// `threads` threads, so that the pages are resident when the import returns. Ranges that
/// overlap are touched as their union, once (core/intervals.hpp): the work is bounded by
/// the bytes the ranges cover, not by how many tensors alias them. Returns the sum of the
/// bytes read (each span's first byte and every page start after it): it keeps the reads
/// from being optimized away and lets a test check that every page was read, once.
uint64_t touch_pages(std::span<const ByteRange> ranges, unsigned threads);

}  // namespace onnximport::detail
