// The Model's arena (spec section 6): every object of the imported graph lives in a few
// large blocks freed with the Model. Allocation is a pointer bump; nothing is freed one
// by one, and no destructor runs, so only trivially destructible objects go here.
#pragma once

#include "core/blocks.hpp"

#include <onnximport/list.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <string_view>
#include <type_traits>

namespace onnximport::detail {

class Arena {
public:
    /// `pool`: where blocks of pooled_block and more come from and go back to (a
    /// Workspace's), or null.
    /// `first_block_size`: resolution's scratch knows what it needs in advance.
    /// `first_region`: bytes its owner holds (inside itself, or on the stack) that the arena
    /// fills before it takes a block, so that a small model takes none (docs/performance-history.md,
    /// "First bytes inside their owners"); its blocks then start at twice the region.
    explicit Arena(BlockUse use = BlockUse::Objects, std::shared_ptr<BlockPool> pool = nullptr,
                   size_t first_block_size = first_block, std::span<std::byte> first_region = {})
        : cur_(reinterpret_cast<uintptr_t>(first_region.data())), end_(cur_ + first_region.size()),
          next_block_(std::max(first_block_size, 2 * first_region.size())), use_(use), pool_(std::move(pool)) {}
    ~Arena();
    Arena(const Arena&) = delete;
    Arena& operator=(const Arena&) = delete;

    void* allocate(size_t n, size_t align) {
        uintptr_t p = (cur_ + (align - 1)) & ~uintptr_t(align - 1);
        if (p + n > end_ || p < cur_) [[unlikely]]
            return grow(n, align);
        cur_ = p + n;
        return reinterpret_cast<void*>(p);
    }

    /// A value-initialized T.
    template <class T>
    T* make() {
        static_assert(std::is_trivially_destructible_v<T>, "the arena runs no destructors");
        return new (allocate(sizeof(T), alignof(T))) T();
    }

    /// A copy of `s` in the arena (for strings the importer makes, not views of the input).
    std::string_view copy(std::string_view s) {
        if (s.empty()) return {};
        auto* p = static_cast<char*>(allocate(s.size(), 1));
        std::memcpy(p, s.data(), s.size());
        return {p, s.size()};
    }

    /// Lengthens the allocation that ends at `end` by n bytes, if it is the latest one and
    /// its block has room: a list being filled grows without a copy (ListAccess::append_in_place).
    bool extend(const void* end, size_t n) noexcept {
        if (reinterpret_cast<uintptr_t>(end) != cur_ || n > end_ - cur_) return false;
        cur_ += n;
        return true;
    }

    /// Bytes obtained from the heap so far (all blocks, used or not), and in how many blocks
    /// (the first region is not counted: its owner holds it).
    size_t reserved() const noexcept { return reserved_; }
    size_t block_count() const noexcept { return block_count_; }

    // Blocks double from 4 KiB (a small model pays little) up to 16 MiB (a large one gets
    // few blocks; the unused tail of the last one is never touched, so never resident).
    // Blocks of pooled_block and more are reused through the pool if any (blocks.hpp).
    static constexpr size_t first_block = 4 * 1024;
    static constexpr size_t max_block = 16u << 20;

private:
    [[gnu::noinline]] void* grow(size_t n, size_t align);

    /// The start of every block, linking it to the next: no list of the blocks is allocated
    /// beside them, one heap allocation fewer per arena (docs/performance.md).
    struct alignas(16) Block {
        Block* next;
        size_t size;
        size_t used;  ///< bytes placed, this header included; set when the arena moves on
        bool pooled;  ///< allocated as a PoolBlock (blocks.hpp)
    };

    uintptr_t cur_ = 0;
    uintptr_t end_ = 0;
    size_t next_block_ = first_block;
    BlockUse use_;
    std::shared_ptr<BlockPool> pool_;
    size_t reserved_ = 0;
    size_t block_count_ = 0;
    Block* first_ = nullptr;
    Block* last_ = nullptr;
};

/// How the importer fills a List: exact sizes where the count is known before the
/// elements are read, geometric growth otherwise (the old run stays in the arena unused).
struct ListAccess {
    /// Room for n elements in all, without growing again.
    template <class T>
    static void reserve(Arena& a, List<T>& l, size_t n) {
        static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
        if (n <= l.capacity_) return;
        T* fresh = static_cast<T*>(a.allocate(n * sizeof(T), alignof(T)));
        if (l.size_) std::memcpy(static_cast<void*>(fresh), l.data_, l.size_ * sizeof(T));
        l.data_ = fresh;
        l.capacity_ = static_cast<uint32_t>(n);
    }

    /// Room for `extra` more elements, at least doubling the capacity when it grows: a
    /// list filled by many short runs (a packed field repeated) is not copied at each.
    template <class T>
    static void reserve_more(Arena& a, List<T>& l, size_t extra) {
        const size_t need = size_t{l.size_} + extra;
        if (need > l.capacity_) reserve(a, l, need > 2 * size_t{l.capacity_} ? need : 2 * size_t{l.capacity_});
    }

    template <class T>
    static size_t capacity(const List<T>& l) noexcept {
        return l.capacity_;
    }

    /// Appends a value-initialized element and returns it. The reference stays valid
    /// until the next append to the same list.
    template <class T>
    static T& append(Arena& a, List<T>& l) {
        if (l.size_ == l.capacity_) [[unlikely]]
            reserve(a, l, l.capacity_ ? size_t{l.capacity_} * 2 : 4);
        return *new (l.data_ + l.size_++) T();
    }

    /// append() for a T whose every member has a default member initializer: built by those
    /// alone, without value-initialization's zeroing of the whole object first, so the compiler
    /// can drop the stores a caller overwrites at once (docs/performance-history.md, "Nodes built once").
    template <class T>
    static T& append_by_members(Arena& a, List<T>& l) {
        static_assert(!std::is_trivially_default_constructible_v<T>, "a trivial T would be left uninitialized");
        if (l.size_ == l.capacity_) [[unlikely]]
            reserve(a, l, l.capacity_ ? size_t{l.capacity_} * 2 : 4);
        return *new (l.data_ + l.size_++) T;
    }

    /// Appends to a list whose final size is not known, leaving no room unused: while the
    /// list is the arena's latest allocation (nothing else was placed since it last grew),
    /// it grows in place by one element; otherwise it moves, doubling. A node's inputs,
    /// outputs and attributes are filled so, with no scan of the node to count them first.
    template <class T>
    static T& append_in_place(Arena& a, List<T>& l) {
        if (l.size_ == l.capacity_) {
            if (l.data_ && a.extend(l.data_ + l.capacity_, sizeof(T))) ++l.capacity_;
            else reserve(a, l, l.capacity_ ? size_t{l.capacity_} * 2 : 1);
        }
        return *new (l.data_ + l.size_++) T();
    }

    template <class T>
    static void push_back(Arena& a, List<T>& l, const T& v) {
        append(a, l) = v;
    }

    /// The list over n elements someone else placed in the arena (slices of one array).
    template <class T>
    static void view(List<T>& l, T* data, size_t n) noexcept {
        l.data_ = data;
        l.size_ = static_cast<uint32_t>(n);
        l.capacity_ = static_cast<uint32_t>(n);
    }

    /// n value-initialized elements in the arena, not in any list yet.
    template <class T>
    static T* make_array(Arena& a, size_t n) {
        static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
        T* p = static_cast<T*>(a.allocate(n * sizeof(T), alignof(T)));
        for (size_t i = 0; i < n; ++i) new (p + i) T();
        return p;
    }

    /// Room for n elements in the arena that the caller writes, each, before any is read.
    template <class T>
    static T* make_array_for_overwrite(Arena& a, size_t n) {
        static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
        return static_cast<T*>(a.allocate(n * sizeof(T), alignof(T)));
    }
};

}  // namespace onnximport::detail
