// The blocks a Workspace's pool can keep, and the pool (blocks.hpp).
#include "core/blocks.hpp"

#include <sanitizer/asan_interface.h>
#include <sys/mman.h>

// Valgrind's memcheck is told the same as AddressSanitizer (no-ops when not under valgrind).
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#else
#define VALGRIND_MAKE_MEM_NOACCESS(addr, len) ((void)0)
#define VALGRIND_MAKE_MEM_UNDEFINED(addr, len) ((void)0)
#endif

#include <algorithm>
#include <new>

namespace onnximport::detail {

PoolBlock allocate_pool_block(size_t size, BlockUse use) {
    if (size < large_block) return {::operator new[](size), size, use};
    PoolBlock b{::operator new[](size, std::align_val_t{large_block}), size, use};
    // Advice only: without huge pages the block works the same, with 4 KiB pages.
    ::madvise(b.data, b.size, MADV_HUGEPAGE);
    return b;
}

void free_pool_block(PoolBlock b) noexcept {
    ASAN_UNPOISON_MEMORY_REGION(b.data, b.size);
    VALGRIND_MAKE_MEM_UNDEFINED(b.data, b.size);
    if (b.size < large_block) ::operator delete[](b.data);
    else ::operator delete[](b.data, std::align_val_t{large_block});
}

BlockPool::~BlockPool() {
    for (const PoolBlock& b : blocks_) free_pool_block(b);
}

size_t BlockPool::kept_bytes() const noexcept {
    std::lock_guard lock(mutex_);
    return bytes_;
}

PoolBlock BlockPool::take(size_t min_size, BlockUse use) noexcept {
    std::lock_guard lock(mutex_);
    // Blocks come back in the order a Model took them, so importing one model again gives
    // each request the block it had, written as far as it will be written again.
    auto best = blocks_.end();
    auto better = [&](auto it) {
        if (best == blocks_.end()) return true;
        if ((it->use == use) != (best->use == use)) return it->use == use;
        return it->size < best->size;
    };
    for (auto it = blocks_.begin(); it != blocks_.end(); ++it)
        if (it->size >= min_size && better(it)) best = it;
    if (best == blocks_.end()) return {};
    PoolBlock b = *best;
    blocks_.erase(best);
    bytes_ -= b.held;
    ASAN_UNPOISON_MEMORY_REGION(b.data, b.size);
    // Its bytes are an earlier import's: memcheck reports a read of one not written again.
    VALGRIND_MAKE_MEM_UNDEFINED(b.data, b.size);
    b.use = use;
    return b;
}

namespace {

/// Pages past the written ones are dropped: kept resident from a fuller use, they would count
/// in the next Model's resident size. Whole huge pages, so none is split. The written ones are
/// MADV_FREE: the kernel may take them under memory pressure. Only for large blocks: a block
/// of small pages would then miss the TLB and set each page's dirty bit again when reused,
/// which cost mid-size graphs more than they gained (docs/performance-history.md, "Mid-size graphs").
/// Returns the bytes left resident: the written huge pages.
size_t advise_kept(PoolBlock b, size_t used) noexcept {
    const size_t written = std::min((used + large_block - 1) & ~(large_block - 1), b.size);
    auto* bytes = static_cast<char*>(b.data);
    ::madvise(bytes, written, MADV_FREE);
    if (written < b.size) ::madvise(bytes + written, b.size - written, MADV_DONTNEED);
    return written;
}

}  // namespace

void BlockPool::give_back(PoolBlock b, size_t used) noexcept {
    b.held = b.size >= large_block ? advise_kept(b, used) : b.size;
    // A kept block reads as freed memory: a view that outlives its Model is still reported.
    ASAN_POISON_MEMORY_REGION(b.data, b.size);
    VALGRIND_MAKE_MEM_NOACCESS(b.data, b.size);
    {
        std::lock_guard lock(mutex_);
        if (bytes_ + b.held <= limit_) {
            try {
                blocks_.push_back(b);
                bytes_ += b.held;
                return;
            } catch (const std::bad_alloc&) {
            }
        }
    }
    free_pool_block(b);
}

}  // namespace onnximport::detail
