// The one way every layer refuses input (spec section 7): a kind, the input's name, the
// byte offset and the field path, thrown as the one ImportError by refuse().
#pragma once

#include <onnximport/error.hpp>
#include <onnximport/options.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace onnximport::detail {

/// Every ImportError of the importer is thrown here; a debugger breaks on
/// onnximport_refusal_hook to stop at the first refusal.
[[noreturn]] void refuse(ErrorKind kind, std::string_view source, std::optional<uint64_t> offset,
                         std::string field_path, std::string message);

/// "ModelProto.graph.node[3].attribute[1]": one segment per message entered. A fixed array
/// of trivial segments, since one is pushed for each of millions of messages.
class FieldPath {
public:
    explicit FieldPath(std::string_view root) noexcept { push(root, -1); }

    void push(std::string_view name, int64_t index) noexcept {
        if (size_ < max_segments) [[likely]]
            segments_[size_] = {name.data(), name.size(), index};
        ++size_;
    }
    void pop() noexcept { --size_; }
    /// Segments pushed and not popped, the root included (also those cut off).
    size_t size() const noexcept { return size_; }

    /// The path, with ".leaf" appended when given.
    std::string str(std::string_view leaf = {}) const;

private:
    struct Segment {
        const char* name;
        size_t name_size;
        int64_t index;  ///< -1 for a singular field
    };
    /// The reader pushes one per nesting level and the root; resolution three per graph
    /// level (node, attribute, g). Beyond it the path is cut, never overrun.
    static constexpr size_t max_segments = ImportOptions::max_nesting_limit + 8;
    Segment segments_[max_segments];
    size_t size_ = 0;
};

/// Where refusals come from while one input is read or resolved: its name, the base that
/// offsets count from, and the current field path.
struct Refusal {
    Refusal(std::string_view source, const uint8_t* base, std::string_view root) noexcept
        : source(source), base(base), path(root) {}

    std::string_view source;
    const uint8_t* base;
    FieldPath path;

    uint64_t offset_of(const uint8_t* p) const noexcept { return static_cast<uint64_t>(p - base); }

    /// At the byte `at` (null: no offset known), with ".leaf" after the current path.
    [[noreturn]] void fail(ErrorKind kind, const uint8_t* at, const std::string& message,
                           std::string_view leaf = {}) const;
    /// At an offset recorded earlier (resolution reports the messages' own offsets).
    [[noreturn]] void fail_at(ErrorKind kind, uint64_t offset, const std::string& message) const;
};

/// Pushes one segment of the field path for the lifetime of the scope.
class PathScope {
public:
    PathScope(FieldPath& p, std::string_view name, int64_t index = -1) noexcept : p_(p) { p_.push(name, index); }
    ~PathScope() { p_.pop(); }
    PathScope(const PathScope&) = delete;
    PathScope& operator=(const PathScope&) = delete;

private:
    FieldPath& p_;
};

}  // namespace onnximport::detail
