// Work split into byte shares over threads started and joined within one call: the only
// place the importer starts threads, and only when ImportOptions::threads asks for more
// than one.
#pragma once

#include <cstdint>
#include <functional>

namespace onnximport::detail {

/// Calls work(share, begin, end) once for each of `threads` disjoint shares that together cover
/// [0, total) in order, share 0 on the calling thread, and returns when all have ended.
/// Shares start at multiples of `grain` (a page size, so no two threads share a page).
/// A share whose thread cannot be started runs on the calling thread. An exception of a
/// share is rethrown after the join: the one of the lowest share, as one thread would.
void run_shares(unsigned threads, uint64_t total, uint64_t grain, const std::function<void(unsigned, uint64_t, uint64_t)>& work);

}  // namespace onnximport::detail
