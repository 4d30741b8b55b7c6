// The arena's blocks (arena.hpp): plain heap blocks while small; large ones are aligned
// for transparent huge pages and go through the block cache (block_cache.hpp).
#include "arena.hpp"

#include "block_cache.hpp"

#include <sys/mman.h>

namespace onnximport::detail {

Arena::~Arena() {
    if (!blocks_.empty()) blocks_.back().used = cur_ - reinterpret_cast<uintptr_t>(blocks_.back().data);
    for (const Block& b : blocks_) {
        if (b.large) give_back_block({b.data, b.size, use_}, b.used);
        else ::operator delete[](b.data);
    }
}

void* Arena::grow(size_t n, size_t align) {
    size_t size = next_block_;
    if (size < n + align) size = n + align;
    if (next_block_ < max_block) next_block_ *= 2;
    Block b{nullptr, size, 0, size >= large_block};
    blocks_.reserve(blocks_.size() + 1);  // so that no block can leak below
    if (!blocks_.empty()) blocks_.back().used = cur_ - reinterpret_cast<uintptr_t>(blocks_.back().data);
    if (b.large) {
        b.size = (size + large_block - 1) & ~(large_block - 1);
        if (CachedBlock kept = take_cached_block(b.size, use_); kept.data) {
            b.data = kept.data;
            b.size = kept.size;
        } else {
            b.data = ::operator new[](b.size, std::align_val_t{large_block});  // free_large_block
            // Advice only: without huge pages the block works the same, with 4 KiB pages.
            ::madvise(b.data, b.size, MADV_HUGEPAGE);
        }
    } else {
        // Not value-initialized: pages are touched only as objects are placed.
        b.data = ::operator new[](size);
    }
    blocks_.push_back(b);
    reserved_ += b.size;
    cur_ = reinterpret_cast<uintptr_t>(b.data);
    end_ = cur_ + b.size;
    return allocate(n, align);
}

}  // namespace onnximport::detail
