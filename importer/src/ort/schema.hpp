// The flatc-generated accessors and verifier of importer/schema/ort.fbs (built into
// the build tree), and the few helpers every .ort reader file needs to read them.
#pragma once

#include <ort_generated.h>

#include <cstdint>
#include <cstring>
#include <string_view>

namespace onnximport::detail {

namespace fb = ::onnximport::ortfb;

/// The buffer carries ONNX Runtime's file identifier: size > 8 and `ORTM` at bytes 4..7,
/// as ONNX Runtime recognizes it. Content decides, never the file name.
inline bool looks_like_ort(const uint8_t* data, uint64_t size) noexcept {
    return size > 8 && std::memcmp(data + 4, "ORTM", 4) == 0;
}

/// A string field as a view into the buffer (the verifier checked its bounds).
inline std::string_view text_of(const flatbuffers::String* s) noexcept {
    return s ? std::string_view(s->c_str(), s->size()) : std::string_view();
}

/// Where a table (or any object of the buffer) starts.
inline const uint8_t* address_of(const void* object) noexcept { return static_cast<const uint8_t*>(object); }

/// Where field `vt` of `table` is stored, or the table itself when the field is absent:
/// the offset a refusal about that field reports.
template <class T>
const uint8_t* field_at(const T* table, flatbuffers::voffset_t vt) noexcept {
    // Generated tables derive privately from flatbuffers::Table; the layout is the same.
    const auto* base = reinterpret_cast<const flatbuffers::Table*>(table);
    const uint8_t* p = base->GetAddressOf(vt);
    return p ? p : address_of(table);
}

}  // namespace onnximport::detail
