// What one benchmark child measures about itself: wall time, resident size
// from /proc/self/status, and the heap bytes counted by the replaced allocator.
#pragma once

#include <chrono>
#include <cstdint>

namespace gauntlet::bench {

/// Resident figures of this process in KiB, from /proc/self/status.
struct Resident {
    uint64_t rss_kib = 0;       ///< VmRSS: resident now
    uint64_t hwm_kib = 0;       ///< VmHWM: peak resident since exec
    uint64_t file_kib = 0;      ///< RssFile: of which file-backed (mapped model pages)
    uint64_t anon_kib = 0;      ///< RssAnon: of which anonymous (heap, read buffers)
};
Resident read_resident();

/// Totals of the replaced global allocator (counting_alloc.cpp) since the process began.
struct HeapCounters {
    uint64_t bytes = 0;   ///< bytes requested, freed or not
    uint64_t calls = 0;   ///< allocation calls
};
HeapCounters heap_counters() noexcept;

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace gauntlet::bench
