// Working memory of one walk (spec section 6, "allocates only the graph"): resolution's
// producers, read lists, order and consumer counts; the .ort walk's name and node tables.
// They live in an arena of their own, dropped when the walk ends; with a Workspace its
// large blocks go back to the pool like a Model's (docs/performance.md: fewer page faults).
#pragma once

#include "core/arena.hpp"
#include "core/blocks.hpp"

#include <bit>
#include <cstddef>
#include <memory_resource>
#include <span>
#include <vector>

namespace onnximport::detail {

class Scratch final : public std::pmr::memory_resource {
public:
    /// Sized for a main graph of `nodes` nodes in file order: one block, rounded to whole
    /// large blocks rather than to a power of two (less room unused). Its blocks go back to
    /// the next import's scratch (BlockUse). Sorting and subgraphs take more as needed.
    /// `first_region`: bytes of the caller's stack it fills first (Arena), which is all a
    /// small graph needs.
    Scratch(size_t nodes, std::shared_ptr<BlockPool> pool, std::span<std::byte> first_region = {})
        : arena_(BlockUse::Scratch, std::move(pool), first_block_size(nodes), first_region) {}

private:
    static size_t first_block_size(size_t nodes) {
        const size_t bytes = 48 * nodes + 4096;
        if (bytes < large_block) return std::bit_ceil(bytes);
        return (bytes + large_block - 1) & ~(large_block - 1);
    }

    void* do_allocate(size_t n, size_t align) override { return arena_.allocate(n, align); }
    void do_deallocate(void*, size_t, size_t) override {}  // all at once, with the arena
    bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }

    Arena arena_;
};

/// A vector of a walk's working memory.
template <class T>
using ScratchVector = std::pmr::vector<T>;

}  // namespace onnximport::detail
