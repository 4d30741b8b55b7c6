// The state of one parse: the input range, the nesting depth, the field path, and
// the one choke point every refusal goes through (spec section 7).
#pragma once

#include "storage.hpp"

#include <onnximport/error.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace onnximport::detail {

class Context {
public:
    Context(Storage& storage, const uint8_t* base, uint64_t size, int max_nesting,
            std::string_view root_message)
        : storage(storage), base(base), size(size), max_nesting(max_nesting) {
        path.reserve(64);
        path.push_back({root_message, -1});
    }

    Storage& storage;
    const uint8_t* base;
    uint64_t size;
    int max_nesting;
    int depth = 0;

    struct Segment {
        std::string_view name;
        int64_t index;  ///< -1 for a singular field
    };
    std::vector<Segment> path;

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
        c_.path.push_back({name, index});
    }
    ~PathScope() { c_.path.pop_back(); }
    PathScope(const PathScope&) = delete;
    PathScope& operator=(const PathScope&) = delete;

private:
    Context& c_;
};

}  // namespace onnximport::detail
