// Large arena blocks kept between imports: the policy is described in onnximport/memory.hpp,
// which also has the limit's setter.
#pragma once

#include <cstddef>
#include <cstdint>

namespace onnximport::detail {

/// Blocks this large are aligned to it, use transparent huge pages where the system offers
/// them (with 4 KiB pages a 200,000-node graph spent a quarter of its import in page
/// faults), and are kept here between imports.
inline constexpr size_t large_block = 2u << 20;

/// Which arena a block served. A kept block goes back, preferably, to the same arena in
/// the next import: importing a model again then writes each block as far as before, where
/// a block that served a fuller arena would keep pages resident that no one writes again.
enum class BlockUse : uint8_t { Objects, NodeEdges, HelperObjects, HelperNodeEdges, Scratch };

struct CachedBlock {
    void* data = nullptr;
    size_t size = 0;
    BlockUse use = BlockUse::Objects;
};

/// The smallest kept block of at least `min_size` bytes that served `use`, else the smallest
/// of any use, removed from the cache; a null block when there is none.
CachedBlock take_cached_block(size_t min_size, BlockUse use) noexcept;

/// Where a destroyed Model's large block goes: kept for a later import if the limit
/// allows, else freed. Its first `used` bytes were written.
void give_back_block(CachedBlock b, size_t used) noexcept;

/// Frees a large block (allocated with large_block alignment).
void free_large_block(CachedBlock b) noexcept;

}  // namespace onnximport::detail
