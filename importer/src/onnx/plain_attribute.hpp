// Plain scalar attributes (docs/performance-history.md, "Plain attributes"): the bytes of an
// AttributeProto that is an ASCII name, one float or one small integer and its declared type,
// found and read without entering the message. Inline: read_plain_node's scan calls it per
// attribute (docs/performance-history.md, "Plain attributes inline").
#pragma once

#include "core/strings.hpp"
#include "format/attribute_type.hpp"

#include <onnx_fields.hpp>
#include <onnximport/model.hpp>

#include <bit>
#include <cstdint>
#include <cstring>

namespace onnximport::detail {

namespace plain_attribute {
// A plain scalar attribute is the field's length, then name (0a Ln ...), f (15 and four bytes)
// or i (18 vv), and type (a0 01 and 1 or 2), in field-number order as protobuf writes them.
constexpr uint8_t name_key = +proto::Attribute::name << 3 | 2;
constexpr uint8_t f_key = +proto::Attribute::f << 3 | 5;
constexpr uint8_t i_key = +proto::Attribute::i << 3;
constexpr uint32_t type_key = +proto::Attribute::type << 3;  // a varint of two bytes
static_assert(type_key >= 0x80 && type_key < 0x4000);
}  // namespace plain_attribute

/// Where the plain scalar attribute whose length byte is at p ends, or null when the bytes
/// from p to `end` do not start with one.
inline const uint8_t* plain_scalar_attribute_end(const uint8_t* p, const uint8_t* end) noexcept {
    using namespace plain_attribute;
    const auto left = static_cast<size_t>(end - p);
    if (left < 1 || p[0] >= 0x80 || p[0] > left - 1) return nullptr;
    const uint8_t* q = p + 1;
    const size_t n = p[0];
    if (n < 7 || q[0] != name_key || q[1] >= 0x80 || q[1] > n - 7) return nullptr;
    const uint8_t* name = q + 2;
    const uint8_t* value = name + q[1];
    const bool is_float = value[0] == f_key;
    const size_t value_bytes = is_float ? 5 : 2;
    if (!is_float && (value[0] != i_key || value[1] >= 0x80)) return nullptr;
    const uint8_t* type = value + value_bytes;
    if (type + 3 != q + n || type[0] != ((type_key & 0x7f) | 0x80) || type[1] != type_key >> 7) return nullptr;
    const auto declared = static_cast<AttributeType>(type[2]);
    if (declared != (is_float ? AttributeType::Float : AttributeType::Int)) return nullptr;
    if (!all_ascii(name, value)) return nullptr;  // the general path checks UTF-8
    return q + n;
}

/// Reads the plain scalar attribute whose length byte is at p (plain_scalar_attribute_end
/// said it is one) into a, a fresh Attribute.
inline void read_plain_scalar_attribute_at(const uint8_t* p, Attribute& a) noexcept {
    using namespace plain_attribute;
    const uint8_t* name = p + 3;
    const uint8_t* value = name + p[2];
    a.name = as_view({name, value});
    if (value[0] == f_key) {
        uint32_t bits;
        std::memcpy(&bits, value + 1, 4);  // little-endian hosts only, as Reader::fixed32
        a.f = std::bit_cast<float>(bits);
        a.type = AttributeType::Float;
    } else {
        a.i = value[1];
        a.type = AttributeType::Int;
    }
    a.type_declared = true;
}

}  // namespace onnximport::detail
