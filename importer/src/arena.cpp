// The arena's blocks (arena.hpp): plain heap blocks while small, huge-page-aligned ones
// with transparent huge pages requested once they are 2 MiB or more.
#include "arena.hpp"

#include <sys/mman.h>

namespace onnximport::detail {

Arena::~Arena() {
    for (const Block& b : blocks_) {
        if (b.huge) ::operator delete[](b.data, std::align_val_t{huge_page});
        else ::operator delete[](b.data);
    }
}

void* Arena::grow(size_t n, size_t align) {
    size_t size = next_block_;
    if (size < n + align) size = n + align;
    if (next_block_ < max_block) next_block_ *= 2;
    Block b{nullptr, size >= huge_page};
    blocks_.reserve(blocks_.size() + 1);  // so that no block can leak below
    if (b.huge) {
        size = (size + huge_page - 1) & ~(huge_page - 1);
        b.data = ::operator new[](size, std::align_val_t{huge_page});
        // Advice only: without huge pages the block works the same, with 4 KiB pages.
        ::madvise(b.data, size, MADV_HUGEPAGE);
    } else {
        // Not value-initialized: pages are touched only as objects are placed.
        b.data = ::operator new[](size);
    }
    blocks_.push_back(b);
    reserved_ += size;
    cur_ = reinterpret_cast<uintptr_t>(b.data);
    end_ = cur_ + size;
    return allocate(n, align);
}

}  // namespace onnximport::detail
