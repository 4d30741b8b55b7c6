// A small protobuf encoder for tests and generators: writes exactly the bytes asked
// for, including ones no real encoder would (overlong varints, wrong wire types,
// lengths that lie), so hostile inputs can be built field by field.
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>

namespace onnximport::testing {

enum Wire : unsigned { VARINT = 0, I64 = 1, LEN = 2, SGROUP = 3, EGROUP = 4, I32 = 5 };

/// A field number, written as a number or as one of importer/schema/onnx_fields.hpp's enums.
struct FieldNumber {
    uint32_t value;
    constexpr FieldNumber(uint32_t v) noexcept : value(v) {}
    template <class E>
        requires std::is_enum_v<E>
    constexpr FieldNumber(E e) noexcept : value(static_cast<uint32_t>(e)) {}
};

/// Bytes of the varint encoding of v.
constexpr size_t varint_size(uint64_t v) noexcept {
    size_t n = 1;
    for (; v >= 0x80; v >>= 7) ++n;
    return n;
}

class WireWriter {
public:
    /// Bytes of a length-delimited field whose payload is `payload` bytes: key, length, payload.
    static constexpr size_t len_field_size(FieldNumber field, uint64_t payload) noexcept {
        return varint_size((uint64_t{field.value} << 3) | LEN) + varint_size(payload) + payload;
    }

    /// A plain varint (no key).
    WireWriter& varint(uint64_t v) {
        while (v >= 0x80) {
            buf_ += static_cast<char>((v & 0x7F) | 0x80);
            v >>= 7;
        }
        buf_ += static_cast<char>(v);
        return *this;
    }
    WireWriter& key(FieldNumber field, unsigned wire) { return varint((uint64_t{field.value} << 3) | wire); }
    WireWriter& raw(std::string_view bytes) {
        buf_.append(bytes);
        return *this;
    }
    WireWriter& u8(uint8_t b) {
        buf_ += static_cast<char>(b);
        return *this;
    }

    WireWriter& int_field(FieldNumber field, uint64_t v) { return key(field, VARINT).varint(v); }
    WireWriter& bytes_field(FieldNumber field, std::string_view s) {
        key(field, LEN).varint(s.size());
        return raw(s);
    }
    WireWriter& message(FieldNumber field, const WireWriter& m) { return bytes_field(field, m.str()); }
    WireWriter& fixed32_field(FieldNumber field, uint32_t v) {
        key(field, I32);
        char b[4];
        std::memcpy(b, &v, 4);
        return raw({b, 4});
    }
    WireWriter& fixed64_field(FieldNumber field, uint64_t v) {
        key(field, I64);
        char b[8];
        std::memcpy(b, &v, 8);
        return raw({b, 8});
    }
    WireWriter& float_field(FieldNumber field, float f) {
        uint32_t v;
        std::memcpy(&v, &f, 4);
        return fixed32_field(field, v);
    }
    WireWriter& packed_varints(FieldNumber field, std::initializer_list<uint64_t> values) {
        WireWriter inner;
        for (uint64_t v : values) inner.varint(v);
        return bytes_field(field, inner.str());
    }
    template <class Range>
    WireWriter& packed_varint_range(FieldNumber field, const Range& values) {
        WireWriter inner;
        for (auto v : values) inner.varint(static_cast<uint64_t>(v));
        return bytes_field(field, inner.str());
    }

    const std::string& str() const noexcept { return buf_; }
    size_t size() const noexcept { return buf_.size(); }

private:
    std::string buf_;
};

}  // namespace onnximport::testing
