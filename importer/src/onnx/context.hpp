// The state of one parse: the input range, the nesting depth, the field path, and
// the one choke point every refusal goes through (spec section 7).
#pragma once

#include "storage.hpp"

#include <onnximport/error.hpp>
#include <onnximport/options.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace onnximport::detail {

class Context {
public:
    Context(Storage& storage, const uint8_t* base, uint64_t size, int max_nesting,
            std::string_view root_message)
        : storage(storage), base(base), size(size), max_nesting(max_nesting) {
        push_path(root_message, -1);
    }

    Storage& storage;
    const uint8_t* base;
    uint64_t size;
    int max_nesting;
    int depth = 0;

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
