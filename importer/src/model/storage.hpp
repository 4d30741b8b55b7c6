// What a Model owns (spec section 6): the input bytes (mapped, read, or the caller's),
// external-data mappings, converted typed-field arrays, the arenas of the graph's objects,
// and the root message itself, so that a moved-from Model owns nothing.
#pragma once

#include "core/arena.hpp"
#include "core/hash_key_reserve.hpp"
#include "io/file_id.hpp"
#include "io/file_view.hpp"
#include "io/input.hpp"

#include <onnximport/model.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace onnximport::detail {

struct Storage {
    /// `key`: the import's own (core/hash.hpp), drawn when first needed.
    Storage(std::string source, ModelInput in, std::shared_ptr<BlockPool> pool, ImportHashKey key)
        : source_name(std::move(source)), input(std::move(in)), pool(pool),
          arena(BlockUse::Objects, pool, Arena::first_block, first_objects),
          node_edges(BlockUse::NodeEdges, pool, Arena::first_block, first_edges), hash_key(key) {}

    std::string source_name;
    ModelInput input;
    /// The Workspace's block pool, or null: where large blocks are reused.
    std::shared_ptr<BlockPool> pool;

    /// Identity of an opened file (io/file_id.hpp): two locations (or links) naming one file
    /// share one mapping.
    using FileId = detail::FileId;
    using FileIdHash = detail::FileIdHash;
    /// External-data files by (dev, inode), one mapping (or range reader) per file. Keyed
    /// by numbers the kernel assigns, not by input bytes.
    std::unordered_map<FileId, std::unique_ptr<FileView>, FileIdHash> external_files;
    /// Ranges read where mapping was unavailable, and converted typed-field data.
    std::vector<std::unique_ptr<std::byte[]>> owned_buffers;

    bool closed = false;
    /// Set by the reader at the first tensor with data_location = EXTERNAL: without one,
    /// loading external data has nothing to walk the graph for.
    bool has_external_tensors = false;
    /// A .ort tensor whose bytes are in the companion file (external_data_offset >= 0).
    struct CompanionRange {
        TensorView* tensor;  ///< in the arena: never moves
        uint64_t offset;
    };
    /// Filled by the .ort reader in file order; loaded after the walk, as for .onnx.
    std::vector<CompanionRange> ort_external;
    /// The companion file the .ort names under its metadata key (format/ort_companion.hpp),
    /// a view into the input; empty when it names none (rule O7).
    std::string_view ort_companion_named;
    /// Read from a .ort: refusals after the walk name fields in its schema (rule O13).
    bool from_ort = false;

    /// The first bytes of `arena` and of `node_edges`: the objects of most small models fit
    /// (docs/performance-history.md, "First bytes inside their owners"), so they take no block.
    alignas(16) std::byte first_objects[4096];  // no more than new aligns: posix_memalign costs more
    alignas(16) std::byte first_edges[1024];
    /// Every message object and List of the model (arena.hpp).
    Arena arena;
    /// The nodes' input and output lists, one after the other in file order: resolution
    /// walks them node by node, and so reads one stream.
    Arena node_edges;
    /// The key of every hash table over names of this import (core/hash.hpp).
    ImportHashKey hash_key;

    ModelProto proto;

    /// A zeroed owned buffer of n bytes, released with the Model (or by close()).
    std::byte* allocate_owned(size_t n) {
        owned_buffers.emplace_back(new std::byte[n ? n : 1]());
        return owned_buffers.back().get();
    }
};

}  // namespace onnximport::detail
