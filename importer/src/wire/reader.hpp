// The protobuf wire reader (spec section 1): one contiguous range, a cursor, and
// nothing read outside the range. Lengths are compared with what remains before a
// slice is taken; nothing is allocated from a length.
#pragma once

#include "onnx/context.hpp"

#include <cstdint>
#include <cstring>
#include <string>

namespace onnximport::detail {

enum class WireType : uint8_t { Varint = 0, Fixed64 = 1, Len = 2, Fixed32 = 5 };

class Reader {
public:
    Reader(Context& c, const uint8_t* begin, const uint8_t* end) : c_(&c), cur_(begin), end_(end) {}

    /// Reads the next key. False at the end of the range.
    bool next() {
        if (cur_ == end_) return false;
        key_at_ = cur_;
        uint64_t key = varint();
        if (key > 0xFFFFFFFFu) fail("key does not fit in 32 bits", key_at_);
        field_ = static_cast<uint32_t>(key >> 3);
        unsigned wire = static_cast<unsigned>(key & 7);
        if (field_ == 0) fail("field number 0", key_at_);
        if (wire == 3 || wire == 4) fail("group wire type " + std::to_string(wire) + " is not supported", key_at_);
        if (wire > 5) fail("invalid wire type " + std::to_string(wire), key_at_);
        wire_ = static_cast<WireType>(wire);
        return true;
    }

    uint32_t field() const noexcept { return field_; }
    WireType wire() const noexcept { return wire_; }
    bool is(WireType w) const noexcept { return wire_ == w; }
    const uint8_t* key_at() const noexcept { return key_at_; }
    const uint8_t* cursor() const noexcept { return cur_; }
    const uint8_t* end() const noexcept { return end_; }
    bool at_end() const noexcept { return cur_ == end_; }

    /// A varint of at most 10 bytes; the tenth byte may be 0 or 1.
    uint64_t varint() {
        if (cur_ != end_ && *cur_ < 0x80) return *cur_++;
        const uint8_t* start = cur_;
        uint64_t value = 0;
        for (unsigned i = 0; i < 10; ++i) {
            if (cur_ == end_) fail("varint cut off by the end of the data", start);
            uint8_t b = *cur_++;
            if (i == 9 && b > 1) fail("varint overflows 64 bits", cur_ - 1);
            value |= static_cast<uint64_t>(b & 0x7F) << (7 * i);
            if (b < 0x80) return value;
        }
        return value;  // unreachable: the tenth byte is 0 or 1
    }

    uint32_t fixed32() {
        if (end_ - cur_ < 4) fail("32-bit value cut off by the end of the data", cur_);
        uint32_t v;
        std::memcpy(&v, cur_, 4);
        cur_ += 4;
        return v;  // little-endian hosts only (checked at build time)
    }

    uint64_t fixed64() {
        if (end_ - cur_ < 8) fail("64-bit value cut off by the end of the data", cur_);
        uint64_t v;
        std::memcpy(&v, cur_, 8);
        cur_ += 8;
        return v;
    }

    /// A length-delimited payload as a sub-range [begin, end).
    struct Slice {
        const uint8_t* begin;
        const uint8_t* end;
        uint64_t size() const { return static_cast<uint64_t>(end - begin); }
    };

    Slice bytes() {
        const uint8_t* at = cur_;
        uint64_t len = varint();
        uint64_t remaining = static_cast<uint64_t>(end_ - cur_);
        if (len > remaining)
            fail("length " + std::to_string(len) + " exceeds the " + std::to_string(remaining) +
                     " bytes that remain",
                 at);
        Slice s{cur_, cur_ + len};
        cur_ += len;
        return s;
    }

    /// Skips the value of the current key (unknown field or wrong wire type).
    void skip() {
        switch (wire_) {
        case WireType::Varint: varint(); break;
        case WireType::Fixed64: fixed64(); break;
        case WireType::Len: bytes(); break;
        case WireType::Fixed32: fixed32(); break;
        }
    }

    [[noreturn]] void fail(const std::string& message, const uint8_t* at) const {
        c_->fail(ErrorKind::Malformed, at, message);
    }

private:
    Context* c_;
    const uint8_t* cur_;
    const uint8_t* end_;
    const uint8_t* key_at_ = nullptr;
    uint32_t field_ = 0;
    WireType wire_ = WireType::Varint;
};

}  // namespace onnximport::detail
