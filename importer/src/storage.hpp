// What a Model owns: the input bytes (mapped, read, or the caller's), external-data
// mappings, converted typed-field arrays and the arena of the graph's objects (spec
// section 6).
#pragma once

#include "arena.hpp"
#include "external/mapped_file.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace onnximport::detail {

/// A zeroed buffer of n bytes, added to `buffers`.
inline std::byte* allocate_owned_in(std::vector<std::unique_ptr<std::byte[]>>& buffers, size_t n) {
    buffers.emplace_back(new std::byte[n ? n : 1]());
    return buffers.back().get();
}

/// What a helper thread places the objects it reads in while it reads the second half of
/// a large graph (onnx/parallel_graph.hpp). The Model keeps it (Storage::helper_heaps):
/// the objects are the graph's.
struct HelperHeap {
    Arena arena{BlockUse::HelperObjects};
    Arena node_edges{BlockUse::HelperNodeEdges};
    std::vector<std::unique_ptr<std::byte[]>> owned_buffers;
    bool has_external_tensors = false;
};

struct Storage {
    std::string source_name;

    // The model input: one contiguous range, from one of the three owners below.
    const uint8_t* input = nullptr;
    uint64_t input_size = 0;
    std::unique_ptr<MappedFile> input_mapping;
    std::unique_ptr<uint8_t[]> input_buffer;

    /// Identity of an opened file, from fstat of its descriptor: two locations (or links)
    /// naming one file share one mapping.
    struct FileId {
        uint64_t dev = 0;
        uint64_t ino = 0;
        bool operator==(const FileId&) const = default;
    };
    struct FileIdHash {
        size_t operator()(const FileId& f) const noexcept {
            return std::hash<uint64_t>{}(f.ino ^ (f.dev * 0x9E3779B97F4A7C15ull));
        }
    };
    /// External-data files by (dev, inode), one mapping (or range reader) per file.
    std::unordered_map<FileId, std::unique_ptr<MappedFile>, FileIdHash> external_files;
    /// Ranges read where mapping was unavailable, and converted typed-field data.
    std::vector<std::unique_ptr<std::byte[]>> owned_buffers;

    bool closed = false;
    /// Set by the reader at the first tensor with data_location = EXTERNAL: without one,
    /// loading external data has nothing to walk the graph for.
    bool has_external_tensors = false;

    /// Every message object and List of the model (arena.hpp), except the next one's.
    Arena arena;
    /// The nodes' input and output lists, one after the other in file order with nothing
    /// between them: resolution walks them node by node three times (define_values, the
    /// node loop, consumers), and so it reads one stream instead of a line per list.
    Arena node_edges{BlockUse::NodeEdges};
    /// The helper threads' heaps, if a graph was read by more than one thread.
    std::vector<std::unique_ptr<HelperHeap>> helper_heaps;
    /// Seed of the value indexes' hash (value_index.hpp): the process's, drawn once (model.cpp).
    uint64_t hash_seed = 0;

    /// A zeroed owned buffer of n bytes, released with the Model (or by close()).
    std::byte* allocate_owned(size_t n) { return allocate_owned_in(owned_buffers, n); }
};

}  // namespace onnximport::detail
