// The protobuf wire reader (spec section 1): one contiguous range, a cursor, and
// nothing read outside the range. Lengths are compared with what remains before a
// slice is taken; nothing is allocated from a length. It reads and never writes, makes no
// system call, and refuses through core/refusal.hpp.
//
// Hot paths (docs/performance.md): a key or varint of one byte is decoded inline; longer
// ones go to an out-of-line decoder that is unrolled when ten bytes remain and bounded
// otherwise; messages are built only on the failure paths, which are out of line too.
#pragma once

#include "core/refusal.hpp"

#include <cstdint>
#include <cstring>
#include <string>

namespace onnximport::detail {

enum class WireType : uint8_t { Varint = 0, Fixed64 = 1, Len = 2, Fixed32 = 5 };

class Reader {
public:
    Reader(const Refusal& refusal, const uint8_t* begin, const uint8_t* end)
        : refusal_(&refusal), cur_(begin), end_(end) {}

    /// Reads the next key. False at the end of the range.
    bool next() {
        if (cur_ == end_) return false;
        key_at_ = cur_;
        uint64_t key = *cur_;
        if (key < 0x80) [[likely]]
            ++cur_;
        else
            key = varint_slow();
        return set_key(key);
    }

    /// next() for a key of one byte (below 0x80, a known field and wire type) when it is the
    /// next one; false, reading nothing, otherwise. A run of one field (a graph's nodes) is
    /// read without returning to its message's loop for each.
    bool next_if(uint8_t one_byte_key) noexcept {
        if (cur_ == end_ || *cur_ != one_byte_key) return false;
        key_at_ = cur_++;
        field_ = one_byte_key >> 3;
        wire_ = static_cast<WireType>(one_byte_key & 7);
        return true;
    }

    uint32_t field() const noexcept { return field_; }
    /// The field number as a message's enum of field numbers (importer/schema/onnx_fields.hpp).
    template <class FieldEnum>
    FieldEnum field_as() const noexcept {
        return static_cast<FieldEnum>(field_);
    }
    WireType wire() const noexcept { return wire_; }
    bool is(WireType w) const noexcept { return wire_ == w; }
    /// True when the current key has wire type w; otherwise skips its value (a known field
    /// that arrived with the wrong wire type is skipped, spec section 1) and returns false.
    bool expect(WireType w) {
        if (wire_ == w) return true;
        skip();
        return false;
    }
    const uint8_t* key_at() const noexcept { return key_at_; }
    const uint8_t* cursor() const noexcept { return cur_; }
    const uint8_t* end() const noexcept { return end_; }
    bool at_end() const noexcept { return cur_ == end_; }

    /// A varint of at most 10 bytes; the tenth byte may be 0 or 1.
    uint64_t varint() {
        if (cur_ != end_ && *cur_ < 0x80) [[likely]]
            return *cur_++;
        return varint_slow();
    }

    uint32_t fixed32() {
        if (end_ - cur_ < 4) [[unlikely]] fail("32-bit value cut off by the end of the data", cur_);
        uint32_t v;
        std::memcpy(&v, cur_, 4);
        cur_ += 4;
        return v;  // little-endian hosts only (checked at build time)
    }

    uint64_t fixed64() {
        if (end_ - cur_ < 8) [[unlikely]] fail("64-bit value cut off by the end of the data", cur_);
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

    /// A reader of a payload this reader returned, refusing the same way.
    Reader sub(Slice s) const noexcept { return Reader(*refusal_, s.begin, s.end); }

    Slice bytes() {
        const uint8_t* at = cur_;
        uint64_t len = varint();
        uint64_t remaining = static_cast<uint64_t>(end_ - cur_);
        if (len > remaining) [[unlikely]] fail_length(len, remaining, at);
        Slice s{cur_, cur_ + len};
        cur_ += len;
        return s;
    }

    /// Moves past the current Len value, which the caller peeked at and found to end at
    /// `value_end`, within the range: bytes() without reading its length again.
    void skip_peeked(const uint8_t* value_end) noexcept { cur_ = value_end; }

    /// Payloads this large (tensor data) stop the scans below: walking on would touch the
    /// key of every tensor of a mapped model, a page each.
    static constexpr uint64_t large_payload = 256 * 1024;

    /// Skips the value of the current key (unknown field or wrong wire type).
    void skip() {
        switch (wire_) {
        case WireType::Varint: varint(); break;
        case WireType::Fixed64: fixed64(); break;
        case WireType::Len: bytes(); break;
        case WireType::Fixed32: fixed32(); break;
        }
    }

    /// How many keys of `field` with wire type Len there are from the current key (included)
    /// to the end of the range: the exact size of a repeated message field, counted from
    /// what is present (each occurrence is at least two bytes), never from a declared
    /// length. Stops quietly at anything malformed; the parse that follows reports it.
    /// Also stops, with the count so far (a lower bound), before a payload of
    /// large_payload bytes or more.
    uint64_t count_len_fields(uint32_t field) const noexcept {
        uint64_t n = 0;
        scan_len_keys(key_at_, [&](uint32_t f, const uint8_t*) { n += f == field; });
        return n;
    }

    /// Calls on_key(field number, position of the key) for every key with wire type Len
    /// from `from` to the end of the range, with count_len_fields' stopping rules. Called
    /// before the first next() with from = cursor(), it sizes all the repeated fields of a
    /// message in one pass.
    /// Returns whether it got to the end of the range.
    template <class OnKey>
    bool scan_len_keys(const uint8_t* from, OnKey&& on_key) const noexcept {
        const uint8_t* p = from;
        while (p < end_) {
            // Each step depends on the length just read: the loads ahead are started here,
            // and only within the input (a pointer past it is not formed).
            if (end_ - p > 2048) __builtin_prefetch(p + 2048);
            const uint8_t* key_at = p;
            uint64_t key;
            if (!peek_varint(p, key)) return false;
            switch (key & 7) {
            case 0: {
                uint64_t ignored;
                if (!peek_varint(p, ignored)) return false;
                break;
            }
            case 1:
                if (end_ - p < 8) return false;
                p += 8;
                break;
            case 2: {
                uint64_t len;
                if (!peek_varint(p, len) || len > static_cast<uint64_t>(end_ - p) || len >= large_payload) return false;
                p += len;
                if (key <= 0xFFFFFFFFu) on_key(static_cast<uint32_t>(key >> 3), key_at);
                break;
            }
            case 5:
                if (end_ - p < 4) return false;
                p += 4;
                break;
            default: return false;
            }
        }
        return true;
    }

    [[noreturn]] void fail(const std::string& message, const uint8_t* at) const {
        refusal_->fail(ErrorKind::Malformed, at, message);
    }

    /// The same rules as varint(), without failing: false for a cut-off or overlong value.
    bool peek_varint(const uint8_t*& p, uint64_t& value) const noexcept {
        if (p < end_ && *p < 0x80) [[likely]] {
            value = *p++;
            return true;
        }
        value = 0;
        for (unsigned i = 0; i < 10 && p < end_; ++i) {
            const uint8_t b = *p++;
            if (i == 9 && b > 1) return false;
            value |= static_cast<uint64_t>(b & 0x7F) << (7 * i);
            if (b < 0x80) return true;
        }
        return false;
    }

private:
    bool set_key(uint64_t key) {
        // Wire types 0, 1, 2 and 5 are read: bit w of 0b100111 is set for those.
        const unsigned wire = static_cast<unsigned>(key & 7);
        // Field numbers 1..2^29-1: key - 8 wraps around for keys below 8.
        if ((key - 8 > 0xFFFFFFFFu - 8) | !((0x27u >> wire) & 1)) [[unlikely]] fail_key(key);
        field_ = static_cast<uint32_t>(key >> 3);
        wire_ = static_cast<WireType>(wire);
        return true;
    }

    [[noreturn, gnu::noinline, gnu::cold]] void fail_key(uint64_t key) const {
        const unsigned wire = static_cast<unsigned>(key & 7);
        if (key > 0xFFFFFFFFu) fail("key does not fit in 32 bits", key_at_);
        if (key >> 3 == 0) fail("field number 0", key_at_);
        if (wire == 3 || wire == 4) fail("group wire type " + std::to_string(wire) + " is not supported", key_at_);
        fail("invalid wire type " + std::to_string(wire), key_at_);
    }

    [[noreturn, gnu::noinline, gnu::cold]] void fail_length(uint64_t len, uint64_t remaining, const uint8_t* at) const {
        fail("length " + std::to_string(len) + " exceeds the " + std::to_string(remaining) + " bytes that remain", at);
    }

    /// A varint of two bytes or more, or one cut off by the end of the range.
    [[gnu::noinline]] uint64_t varint_slow() {
        // Two bytes first: the keys of fields 16 and up, and lengths of 128 to 16,383 bytes.
        if (end_ - cur_ >= 2 && cur_[1] < 0x80) {
            const uint64_t value = (cur_[0] & 0x7Fu) | uint64_t{cur_[1]} << 7;
            cur_ += 2;
            return value;
        }
        const uint8_t* start = cur_;
        if (end_ - cur_ >= 10) {
            // Ten bytes remain: no bounds check per byte.
            uint64_t value = 0;
            for (unsigned i = 0; i < 10; ++i) {
                const uint8_t b = start[i];
                if (i == 9 && b > 1) fail("varint overflows 64 bits", start + 9);
                value |= static_cast<uint64_t>(b & 0x7F) << (7 * i);
                if (b < 0x80) {
                    cur_ = start + i + 1;
                    return value;
                }
            }
        }
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

    const Refusal* refusal_;
    const uint8_t* cur_;
    const uint8_t* end_;
    const uint8_t* key_at_ = nullptr;
    uint32_t field_ = 0;
    WireType wire_ = WireType::Varint;
};

}  // namespace onnximport::detail
