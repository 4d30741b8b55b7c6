// The process-wide cache of large arena blocks. A Model's objects live in arena blocks
// (importer/src/arena.hpp); when a Model is destroyed, its blocks of 2 MiB and more are kept
// for the next import instead of going back to the system, up to a limit; resolution's
// working memory does the same when resolution ends. A fresh page costs a fault and the
// kernel's zeroing at first touch: on the 200,000-node bench model, kernel time went from
// 34-44 to 13-23 ms per import with the cache. Kept blocks are marked MADV_FREE, so under
// memory pressure the kernel takes their pages back without swapping them; otherwise the
// next import reuses them.
#pragma once

#include <cstddef>

namespace onnximport {

/// The limit of a new process: room for the large blocks of a 200,000-node graph (146 MiB
/// for the wide bench model, resolution's scratch included: importer/src/resolve/scratch.hpp).
inline constexpr size_t default_block_cache_limit = size_t{256} << 20;

/// Sets how many bytes of blocks the process keeps (0: none) and frees what is kept beyond
/// it. Returns the previous limit. Thread-safe.
size_t set_block_cache_limit(size_t bytes) noexcept;

/// Bytes of blocks kept now.
size_t block_cache_size() noexcept;

}  // namespace onnximport
