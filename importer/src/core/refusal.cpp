// The refusal choke point (core/refusal.hpp).
#include "core/refusal.hpp"

// A function a debugger can break on ("break onnximport_refusal_hook"): every refusal
// passes it just before the throw. Not inlined, not removed.
extern "C" [[gnu::noinline, gnu::used]] void onnximport_refusal_hook() noexcept { asm volatile(""); }

namespace onnximport::detail {

void refuse(ErrorKind kind, std::string_view source, std::optional<uint64_t> offset, std::string field_path,
            std::string message) {
    onnximport_refusal_hook();
    throw ImportError(kind, std::string(source), offset, std::move(field_path), std::move(message));
}

std::string FieldPath::str(std::string_view leaf) const {
    const size_t count = size_ < max_segments ? size_ : max_segments;
    size_t length = leaf.size() + 1;  // one allocation: each segment, its dot and its index's 20 digits and []
    for (size_t i = 0; i < count; ++i) length += segments_[i].name_size + 1 + (segments_[i].index >= 0 ? 22 : 0);
    std::string s;
    s.reserve(length);
    for (size_t i = 0; i < count; ++i) {
        if (i) s += '.';
        s.append(segments_[i].name, segments_[i].name_size);
        if (segments_[i].index >= 0) s.append("[").append(std::to_string(segments_[i].index)).append("]");
    }
    if (!leaf.empty()) s.append(".").append(leaf);
    return s;
}

void Refusal::fail(ErrorKind kind, const uint8_t* at, const std::string& message, std::string_view leaf) const {
    std::optional<uint64_t> offset;
    if (at) offset = offset_of(at);
    refuse(kind, source, offset, path.str(leaf), message);
}

void Refusal::fail_at(ErrorKind kind, uint64_t offset, const std::string& message) const {
    refuse(kind, source, offset, path.str(), message);
}

}  // namespace onnximport::detail
