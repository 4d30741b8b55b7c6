// The process's cache of large arena blocks (block_cache.hpp, onnximport/memory.hpp).
#include "block_cache.hpp"

#include <onnximport/memory.hpp>

#include <sanitizer/asan_interface.h>
#include <sys/mman.h>

// Valgrind's memcheck is told the same as AddressSanitizer (no-ops when not under valgrind).
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#else
#define VALGRIND_MAKE_MEM_NOACCESS(addr, len) ((void)0)
#define VALGRIND_MAKE_MEM_UNDEFINED(addr, len) ((void)0)
#endif

#include <mutex>
#include <new>
#include <vector>

namespace onnximport::detail {

namespace {

struct BlockCache {
    std::mutex mutex;
    size_t limit = default_block_cache_limit;
    size_t bytes = 0;
    std::vector<CachedBlock> blocks;
};

/// Never destroyed: a Model that outlives static destruction still returns its blocks.
BlockCache& cache() {
    static BlockCache* c = new BlockCache;
    return *c;
}

}  // namespace

void free_large_block(CachedBlock b) noexcept {
    ASAN_UNPOISON_MEMORY_REGION(b.data, b.size);
    VALGRIND_MAKE_MEM_UNDEFINED(b.data, b.size);
    ::operator delete[](b.data, std::align_val_t{large_block});
}

CachedBlock take_cached_block(size_t min_size, BlockUse use) noexcept {
    BlockCache& c = cache();
    std::lock_guard lock(c.mutex);
    // The first of the smallest that fit, of the same use if there is one: blocks come back
    // in the order a Model took them, so importing one model again gives each request the
    // block it had, written as far as it will be written again (give_back_block drops what
    // lies beyond).
    auto best = c.blocks.end();
    auto better = [&](auto it) {
        if (best == c.blocks.end()) return true;
        if ((it->use == use) != (best->use == use)) return it->use == use;
        return it->size < best->size;
    };
    for (auto it = c.blocks.begin(); it != c.blocks.end(); ++it)
        if (it->size >= min_size && better(it)) best = it;
    if (best == c.blocks.end()) return {};
    CachedBlock b = *best;
    c.blocks.erase(best);
    c.bytes -= b.size;
    ASAN_UNPOISON_MEMORY_REGION(b.data, b.size);
    // Its bytes are an earlier import's: memcheck reports a read of one not written again.
    VALGRIND_MAKE_MEM_UNDEFINED(b.data, b.size);
    return b;
}

void give_back_block(CachedBlock b, size_t used) noexcept {
    // Before the block is visible to other threads: advice given later could drop pages
    // an import has written meanwhile. The pages past the written ones are dropped now:
    // pages kept resident from an earlier, fuller use would count in this Model's
    // successors' resident size (MADV_FREE pages count until reclaimed). Whole huge
    // pages, so none is split.
    const size_t written = (used + large_block - 1) & ~(large_block - 1);
    auto* bytes = static_cast<char*>(b.data);
    ::madvise(bytes, written, MADV_FREE);
    if (written < b.size) ::madvise(bytes + written, b.size - written, MADV_DONTNEED);
    // Under AddressSanitizer a kept block reads as freed memory: a view that outlives its
    // Model is still reported, as it would be had the block gone back to the heap.
    ASAN_POISON_MEMORY_REGION(b.data, b.size);
    VALGRIND_MAKE_MEM_NOACCESS(b.data, b.size);
    BlockCache& c = cache();
    {
        std::lock_guard lock(c.mutex);
        if (c.bytes + b.size <= c.limit) {
            try {
                c.blocks.push_back(b);
                c.bytes += b.size;
                return;
            } catch (const std::bad_alloc&) {
            }
        }
    }
    free_large_block(b);
}

}  // namespace onnximport::detail

namespace onnximport {

size_t set_block_cache_limit(size_t bytes) noexcept {
    detail::BlockCache& c = detail::cache();
    std::lock_guard lock(c.mutex);
    const size_t previous = c.limit;
    c.limit = bytes;
    while (c.bytes > c.limit) {
        c.bytes -= c.blocks.back().size;
        detail::free_large_block(c.blocks.back());
        c.blocks.pop_back();
    }
    return previous;
}

size_t block_cache_size() noexcept {
    detail::BlockCache& c = detail::cache();
    std::lock_guard lock(c.mutex);
    return c.bytes;
}

}  // namespace onnximport
