// The arena blocks (arena.hpp) a pool can keep between imports for a caller who asks for
// reuse with a Workspace (onnximport/workspace.hpp), and that pool. Without one, an import
// owns every block it takes and frees it with its Model.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace onnximport::detail {

/// Blocks this large are aligned to it and use transparent huge pages where the system
/// offers them (docs/performance.md: page faults on large graphs).
inline constexpr size_t large_block = 2u << 20;

/// Blocks this large go through a Workspace's pool too. Smaller ones come from malloc, which
/// keeps them for the next import itself; larger ones glibc gives back to the kernel when
/// freed (mmap, or trimming the heap), so that every import of a mid-size graph faulted its
/// pages in again (docs/performance-history.md, "Mid-size graphs").
inline constexpr size_t pooled_block = 64u << 10;

/// Which arena a block served: a kept block goes back preferably to the same kind of arena,
/// which then writes it as far as before (no stale resident pages beyond).
enum class BlockUse : uint8_t { Objects, NodeEdges, Scratch };

struct PoolBlock {
    void* data = nullptr;
    size_t size = 0;
    BlockUse use = BlockUse::Objects;
    size_t held = 0;  ///< kept: the bytes of its pages that stay resident (BlockPool's limit counts these)
};

/// A fresh block of `size` bytes (pooled_block or more; from large_block on, a multiple of
/// it and aligned to it), or throws std::bad_alloc.
PoolBlock allocate_pool_block(size_t size, BlockUse use);
void free_pool_block(PoolBlock b) noexcept;

/// The blocks a Workspace keeps. Models imported with one return their blocks here when
/// they are destroyed, from any thread: hence the mutex.
class BlockPool {
public:
    explicit BlockPool(size_t limit) noexcept : limit_(limit) {}
    ~BlockPool();
    BlockPool(const BlockPool&) = delete;
    BlockPool& operator=(const BlockPool&) = delete;

    /// The smallest kept block of at least `min_size` bytes that served `use`, else the
    /// smallest of any use; a null block when none fits.
    PoolBlock take(size_t min_size, BlockUse use) noexcept;
    /// Keeps b (its first `used` bytes were written) if the limit allows, else frees it.
    void give_back(PoolBlock b, size_t used) noexcept;
    /// The bytes the kept blocks hold resident: a large block's pages past its written ones
    /// are given back to the kernel (blocks.cpp, advise_kept), so they count for nothing.
    size_t kept_bytes() const noexcept;

private:
    mutable std::mutex mutex_;
    const size_t limit_;
    size_t bytes_ = 0;
    std::vector<PoolBlock> blocks_;
};

}  // namespace onnximport::detail
