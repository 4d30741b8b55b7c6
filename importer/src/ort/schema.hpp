// The flatc-generated accessors and verifier of importer/schema/ort.fbs (built into
// the build tree), and the few helpers every .ort reader file needs to read them.
#pragma once

#include <ort_generated.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>

namespace onnximport::detail {

namespace fb = ::onnximport::ortfb;

/// The buffer carries ONNX Runtime's file identifier: size > 8 and `ORTM` at bytes 4..7,
/// as ONNX Runtime recognizes it. Content decides, never the file name.
inline bool looks_like_ort(const uint8_t* data, uint64_t size) noexcept {
    return size > 8 && std::memcmp(data + 4, "ORTM", 4) == 0;
}

/// A string field as a view into the buffer (the verifier checked its bounds). An absent
/// one is an empty view with a non-null pointer, like every name of the .onnx reader
/// (hashing and comparing names copies from the pointer).
inline std::string_view text_of(const flatbuffers::String* s) noexcept {
    return s ? std::string_view(s->c_str(), s->size()) : std::string_view("", 0);
}

/// Entry i of an int64 vector. The Verifier aligns a vector's start to its 4-byte length
/// only, so the entries may sit at 4 mod 8: read them without an aligned load.
inline int64_t int64_at(const flatbuffers::Vector<int64_t>* v, uint32_t i) noexcept {
    int64_t x;
    std::memcpy(&x, v->Data() + size_t{i} * sizeof(int64_t), sizeof x);
    return x;
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

/// The bytes reading a verified Tensor touches: its table, vtable, name, dims and raw_data
/// (io/passed_pages.hpp drops them behind the walk).
inline std::pair<const uint8_t*, const uint8_t*> extent_of(const fb::Tensor* t) noexcept {
    const uint8_t* table = address_of(t);
    const uint8_t* vtable = table - flatbuffers::ReadScalar<flatbuffers::soffset_t>(table);
    const uint8_t* lo = std::min(table, vtable);
    const uint8_t* hi = std::max(table, vtable) + sizeof(flatbuffers::uoffset_t);
    const auto cover = [&](const uint8_t* b, size_t n) {
        lo = std::min(lo, b), hi = std::max(hi, b + n);
    };
    if (const auto* s = t->name()) cover(s->Data() - sizeof(flatbuffers::uoffset_t), s->size() + 5);
    if (const auto* d = t->dims()) cover(d->Data() - sizeof(flatbuffers::uoffset_t), d->size() * 8 + 4);
    if (const auto* r = t->raw_data()) cover(r->Data() - sizeof(flatbuffers::uoffset_t), r->size() + 4);
    return {lo, hi};
}

}  // namespace onnximport::detail
