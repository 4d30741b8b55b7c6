// Keys for the imports of one Workspace (core/hash.hpp's policy: a fresh key per import).
#pragma once

#include "core/hash.hpp"

#include <cstddef>
#include <mutex>

namespace onnximport::detail {

/// The keys of one Workspace's imports: each import that hashes takes a fresh key of its own,
/// derived from a seed the operating system's source gives for a batch of them, so an import
/// pays neither a system call nor the kernel's generation of a whole key (docs/performance-history.md,
/// "Opening the model file and the hash key" and "Keys derived, not drawn"). The seed is
/// erased when its batch is spent.
class HashKeyReserve {
public:
    /// The next key.
    HashKey take();

private:
    /// Keys per seed: a seed read from the reserve's memory gives no more than these.
    static constexpr size_t batch = 64;
    std::mutex mutex_;  ///< a Workspace may serve imports on several threads
    KeySeed seed_;
    size_t left_ = 0;
};

/// The key of one import, drawn when a table over names first needs it: a graph of a few
/// values compares names instead of hashing them (model/value_index.hpp), so most small
/// models draw none (docs/performance-history.md, "The key drawn when a table needs it"). Tables are
/// made on the importing thread only, so the draw needs no lock of its own.
class ImportHashKey {
public:
    /// `reserve`: the Workspace's, which must outlive the import; null to draw alone.
    explicit ImportHashKey(HashKeyReserve* reserve) noexcept : reserve_(reserve) {}

    /// The key; the first call draws it.
    const HashKey& get() {
        if (!drawn_) {
            key_ = reserve_ ? reserve_->take() : random_hash_key();
            drawn_ = true;
        }
        return key_;
    }

    bool drawn() const noexcept { return drawn_; }
    /// The key get() drew (all zeros before).
    const HashKey& drawn_key() const noexcept { return key_; }

    /// At the end of the import: a later draw (none is made today) takes a key of its own,
    /// since the Workspace may be gone by then.
    void forget_reserve() noexcept { reserve_ = nullptr; }

private:
    HashKeyReserve* reserve_;
    bool drawn_ = false;
    HashKey key_;
};

}  // namespace onnximport::detail
