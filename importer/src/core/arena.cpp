// The arena's blocks (arena.hpp): plain heap blocks while small; large ones are aligned
// for transparent huge pages and reused through a Workspace's pool when there is one.
#include "core/arena.hpp"

namespace onnximport::detail {

Arena::~Arena() {
    if (!blocks_.empty()) blocks_.back().used = cur_ - reinterpret_cast<uintptr_t>(blocks_.back().data);
    for (const Block& b : blocks_) {
        if (!b.large) ::operator delete[](b.data);
        else if (pool_) pool_->give_back({b.data, b.size, use_}, b.used);
        else free_large_block({b.data, b.size, use_});
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
        LargeBlock kept = pool_ ? pool_->take(b.size, use_) : LargeBlock{};
        if (!kept.data) kept = allocate_large_block(b.size, use_);
        b.data = kept.data;
        b.size = kept.size;
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
