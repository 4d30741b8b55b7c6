// Repeated scalar fields (spec section 1): accepted packed (one length-delimited field)
// or unpacked (one key per element), mixed in any order; other wire types are skipped.
#pragma once

#include "wire/reader.hpp"

#include <cstdint>
#include <string>

namespace onnximport::detail {

/// A repeated varint field; push(uint64_t) per element.
template <class Push>
void read_repeated_varint(Reader& r, Push&& push) {
    if (r.is(WireType::Varint)) {
        push(r.varint());
    } else if (r.expect(WireType::Len)) {
        Reader packed = r.sub(r.bytes());
        while (!packed.at_end()) push(packed.varint());
    }
}

/// A repeated fixed-size field (`fixed`: Fixed32 or Fixed64); push(uint64_t) per element.
/// A packed length that is not a multiple of the size is malformed, at the length.
template <class Push>
void read_repeated_fixed(Reader& r, WireType fixed, Push&& push) {
    const uint64_t size = fixed == WireType::Fixed32 ? 4 : 8;
    auto one = [&](Reader& from) {
        if (size == 4) push(from.fixed32());
        else push(from.fixed64());
    };
    if (r.is(fixed)) {
        one(r);
    } else if (r.expect(WireType::Len)) {
        const uint8_t* at = r.cursor();
        Reader::Slice s = r.bytes();
        if (s.size() % size)
            r.fail(
                "packed " + std::to_string(size * 8) + "-bit field length is not a multiple of " + std::to_string(size),
                at);
        Reader packed = r.sub(s);
        while (!packed.at_end()) one(packed);
    }
}

}  // namespace onnximport::detail
