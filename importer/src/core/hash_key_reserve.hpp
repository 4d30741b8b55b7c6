// Keys for the imports of one Workspace (core/hash.hpp's policy: a fresh key per import).
#pragma once

#include "core/hash.hpp"

#include <array>
#include <cstddef>
#include <mutex>

namespace onnximport::detail {

/// The keys of one Workspace's imports: each import still takes a fresh key of its own from
/// the operating system's source, but they are drawn a batch at a time, so an import does
/// not pay a system call for it (a fifth of a small model's import: docs/performance.md,
/// "Opening the model file and the hash key"). A key is erased from the reserve when taken.
class HashKeyReserve {
public:
    /// The next key; random_hash_key() when the batch cannot be drawn whole.
    HashKey take();

private:
    /// Keys drawn with one system call (fill_random's loop takes more only when a signal
    /// cuts one short), so that one call serves many imports (docs/performance.md, "Short names").
    static constexpr size_t batch = 64;
    std::mutex mutex_;  ///< a Workspace may serve imports on several threads
    std::array<HashKey, batch> keys_{};
    size_t left_ = 0;
};

}  // namespace onnximport::detail
