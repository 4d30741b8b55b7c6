// Work split into byte shares over threads started and joined within one call: the only
// place the importer starts threads, and only when ImportOptions::threads asks for more
// than one.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

namespace onnximport::detail {

/// What shares start at multiples of: x86-64's page, so that no two threads touch or fill one
/// page. Where pages are larger, two shares may meet within one, which costs time, not
/// correctness (each thread still writes only its own bytes).
inline constexpr uint64_t share_grain = 4096;

/// Calls work(share, begin, end) once for each of `threads` disjoint shares that together cover
/// [0, total) in order, share 0 on the calling thread, and returns when all have ended.
/// Shares start at multiples of `grain` (share_grain).
/// A share whose thread cannot be started runs on the calling thread. An exception of a
/// share is rethrown after the join: the one of the lowest share, as one thread would.
void run_shares(unsigned threads, uint64_t total, uint64_t grain,
                const std::function<void(unsigned, uint64_t, uint64_t)>& work);

/// Ranges of these sizes laid end to end, split into shares as run_shares does: calls
/// piece(share, range index, from, to) for each part [from, to) of a range in a share,
/// the parts of one share in order.
void run_pieces(unsigned threads, std::span<const uint64_t> sizes, uint64_t grain,
                const std::function<void(unsigned, size_t, uint64_t, uint64_t)>& piece);

}  // namespace onnximport::detail
