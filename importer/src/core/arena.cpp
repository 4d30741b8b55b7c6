// The arena's blocks (arena.hpp): plain heap blocks while small; from pooled_block on
// they are reused through a Workspace's pool when there is one, and large ones are aligned
// for transparent huge pages (blocks.hpp).
#include "core/arena.hpp"

namespace onnximport::detail {

Arena::~Arena() {
    if (last_) last_->used = cur_ - reinterpret_cast<uintptr_t>(last_);
    // In the order taken: a Workspace's pool hands each block of the next import of the same
    // model back to the request that had it (BlockPool::take).
    for (Block* b = first_; b;) {
        Block* const next = b->next;  // read before the block goes (and is poisoned)
        if (!b->pooled) ::operator delete[](static_cast<void*>(b));
        else if (pool_) pool_->give_back({b, b->size, use_}, b->used);
        else free_pool_block({b, b->size, use_});
        b = next;
    }
}

void* Arena::grow(size_t n, size_t align) {
    size_t size = next_block_;
    if (size < sizeof(Block) + n + align) size = sizeof(Block) + n + align;
    if (next_block_ < max_block) next_block_ *= 2;
    void* data;
    // Without a pool, only large blocks are pool blocks: for their alignment.
    const bool pooled = size >= (pool_ ? pooled_block : large_block);
    if (pooled) {
        if (size >= large_block) size = (size + large_block - 1) & ~(large_block - 1);
        PoolBlock kept = pool_ ? pool_->take(size, use_) : PoolBlock{};
        if (!kept.data) kept = allocate_pool_block(size, use_);
        data = kept.data;
        size = kept.size;
    } else {
        // Not value-initialized: pages are touched only as objects are placed.
        data = ::operator new[](size);
    }
    Block* const b = new (data) Block{nullptr, size, 0, pooled};
    if (last_) {
        last_->used = cur_ - reinterpret_cast<uintptr_t>(last_);
        last_->next = b;
    } else {
        first_ = b;
    }
    last_ = b;
    ++block_count_;
    reserved_ += size;
    cur_ = reinterpret_cast<uintptr_t>(data) + sizeof(Block);
    end_ = reinterpret_cast<uintptr_t>(data) + size;
    return allocate(n, align);
}

}  // namespace onnximport::detail
