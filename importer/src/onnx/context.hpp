// The state of one parse: the input range, the nesting depth, the field path, and
// the one choke point every refusal goes through (spec section 7).
#pragma once

#include "storage.hpp"

#include <onnximport/error.hpp>
#include <onnximport/options.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace onnximport::detail {

class Context {
public:
    Context(Storage& storage, const uint8_t* base, uint64_t size, int max_nesting,
            std::string_view root_message)
        : storage(storage), arena(storage.arena), node_edges(storage.node_edges),
          owned_buffers(storage.owned_buffers), has_external_tensors(storage.has_external_tensors), base(base),
          size(size), max_nesting(max_nesting) {
        push_path(root_message, -1);
    }

    /// A helper thread's context (onnx/parallel_graph.hpp): `parent`'s input, limits,
    /// depth and field path, placing what it reads in `heap`.
    Context(const Context& parent, HelperHeap& heap)
        : storage(parent.storage), arena(heap.arena), node_edges(heap.node_edges), owned_buffers(heap.owned_buffers),
          has_external_tensors(heap.has_external_tensors), base(parent.base), size(parent.size),
          max_nesting(parent.max_nesting), depth(parent.depth), path_size(parent.path_size) {
        std::copy_n(parent.path, std::min(path_size, max_path), path);
    }

    Storage& storage;
    // Where this thread places what it reads: the Model's own, or a helper's heap.
    Arena& arena;
    Arena& node_edges;  ///< nodes' inputs and outputs (Storage::node_edges)
    std::vector<std::unique_ptr<std::byte[]>>& owned_buffers;
    bool& has_external_tensors;
    const uint8_t* base;
    uint64_t size;
    int max_nesting;
    int depth = 0;
    /// A graph read may hand its second half to a helper thread (ImportOptions::
    /// parallel_read); cleared once one has, and false in the helper's own context.
    bool may_split = false;

    /// A string_view in parts: a trivial type, so that the array below is not written
    /// when a Context is made (one per import and one per resolution).
    struct Segment {
        const char* name;
        size_t name_size;
        int64_t index;  ///< -1 for a singular field
    };
    /// The reader pushes a segment per message it enters, at most the nesting limit and
    /// the root; resolution three per graph level (node, attribute, g) and the root graph.
    /// A fixed array: a segment is pushed for each of millions of messages.
    static constexpr size_t max_path = ImportOptions::max_nesting_limit + 8;
    Segment path[max_path];
    size_t path_size = 0;  ///< may exceed max_path only if the bounds above were wrong: the path is then cut

    void push_path(std::string_view name, int64_t index) noexcept {
        if (path_size < max_path) [[likely]]
            path[path_size] = {name.data(), name.size(), index};
        ++path_size;
    }
    void pop_path() noexcept { --path_size; }

    /// Copies a string made by the importer (not a view of the input) into the arena.
    std::string_view keep(std::string_view s) {
        if (s.empty()) return {};
        auto* p = static_cast<char*>(arena.allocate(s.size(), 1));
        std::memcpy(p, s.data(), s.size());
        return {p, s.size()};
    }

    /// A zeroed owned buffer of n bytes, released with the Model (or by close()).
    std::byte* allocate_owned(size_t n) { return allocate_owned_in(owned_buffers, n); }

    uint64_t offset_of(const uint8_t* p) const { return static_cast<uint64_t>(p - base); }

    /// "ModelProto.graph.node[3]" (+ ".leaf" when given).
    std::string path_string(std::string_view leaf = {}) const;

    /// Every refusal of the reader goes through here.
    [[noreturn]] void fail(ErrorKind kind, const uint8_t* at, const std::string& message,
                           std::string_view leaf = {}) const;
};

/// Pushes one segment of the field path for the lifetime of the scope.
class PathScope {
public:
    PathScope(Context& c, std::string_view name, int64_t index = -1) : c_(c) {
        c_.push_path(name, index);
    }
    ~PathScope() { c_.pop_path(); }
    PathScope(const PathScope&) = delete;
    PathScope& operator=(const PathScope&) = delete;

private:
    Context& c_;
};

}  // namespace onnximport::detail
