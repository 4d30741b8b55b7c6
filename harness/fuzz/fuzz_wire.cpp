// fuzz_wire: the protobuf wire reader on its own (spec section 1), checked against a
// second, deliberately plain implementation of the same section written here.
//
// Oracle: for the input as a message, and recursively for every length-delimited
// payload that is itself a valid message (a few levels deep), the reader and the
// reference agree on
//  - the sequence of fields (number, wire type, varint/fixed value, payload range),
//  - accept vs refuse, and the offset of the refusal (key errors at the key, a varint
//    cut off at its first byte, a tenth varint byte above 1 at that byte, a length
//    beyond the remainder at the length, a fixed value cut off at its first byte);
//  - every payload read as a packed varint / fixed32 / fixed64 field: the values, or
//    the refusal offset (a packed fixed length that is not a multiple of the width is
//    refused at the length);
//  - every payload's UTF-8 verdict: the first byte of the first ill-formed sequence
//    (Unicode Table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF).
// Every refusal is Malformed with an offset inside the input.
#include "fuzz_check.hpp"

#include "core/refusal.hpp"
#include "wire/packed.hpp"
#include "wire/reader.hpp"
#include "core/utf8.hpp"

#include <array>
#include <optional>
#include <vector>

namespace {

using onnximport::ImportError;
using onnximport::detail::Reader;
using onnximport::detail::Refusal;
using namespace gauntlet_fuzz;

constexpr size_t npos = static_cast<size_t>(-1);

struct Field {
    uint32_t number;
    unsigned wire;
    uint64_t value;       ///< varint / fixed value; payload length for wire 2
    size_t payload = 0;   ///< offset of the payload (wire 2)
    bool operator==(const Field&) const = default;
};

struct Walk {
    std::vector<Field> fields;
    size_t error_at = npos;  ///< npos when the range is a valid message
};

// ---- the reference: a direct transcription of spec section 1 ----------------------

bool ref_varint(const uint8_t* d, size_t end, size_t& pos, uint64_t& v, size_t& err) {
    const size_t start = pos;
    v = 0;
    for (unsigned i = 0; i < 10; ++i) {
        if (pos == end) { err = start; return false; }
        const uint8_t b = d[pos++];
        if (i == 9 && b > 1) { err = pos - 1; return false; }
        v |= static_cast<uint64_t>(b & 0x7F) << (7 * i);
        if (!(b & 0x80)) return true;
    }
    err = start;  // cannot happen: the tenth byte is 0 or 1 here
    return false;
}

void ref_walk(const uint8_t* d, size_t begin, size_t end, Walk& w) {
    w.fields.clear();  // the caller's buffer (WalkBuffers)
    w.error_at = npos;
    size_t pos = begin;
    while (pos < end) {
        const size_t key_at = pos;
        uint64_t key;
        if (!ref_varint(d, end, pos, key, w.error_at)) return;
        const unsigned wire = key & 7;
        if (key > 0xFFFFFFFFu || (key >> 3) == 0 || wire == 3 || wire == 4 || wire > 5) {
            w.error_at = key_at;
            return;
        }
        Field f{static_cast<uint32_t>(key >> 3), wire, 0};
        if (wire == 0) {
            if (!ref_varint(d, end, pos, f.value, w.error_at)) return;
        } else if (wire == 1 || wire == 5) {
            const size_t width = wire == 1 ? 8 : 4;
            if (end - pos < width) { w.error_at = pos; return; }
            for (size_t i = 0; i < width; ++i) f.value |= static_cast<uint64_t>(d[pos + i]) << (8 * i);
            pos += width;
        } else {
            const size_t len_at = pos;
            if (!ref_varint(d, end, pos, f.value, w.error_at)) return;
            if (f.value > end - pos) { w.error_at = len_at; return; }
            f.payload = pos;
            pos += f.value;
        }
        w.fields.push_back(f);
    }
}

/// Packed scalars in [begin, end): width 0 for varints.
void ref_packed(const uint8_t* d, size_t len_at, size_t begin, size_t end, unsigned width, Walk& w) {
    w.fields.clear();  // the caller's buffer (WalkBuffers)
    w.error_at = npos;
    if (width && (end - begin) % width) { w.error_at = len_at; return; }
    size_t pos = begin;
    while (pos < end) {
        Field f{0, 0, 0};
        if (width == 0) {
            if (!ref_varint(d, end, pos, f.value, w.error_at)) return;
        } else {
            for (size_t i = 0; i < width; ++i) f.value |= static_cast<uint64_t>(d[pos + i]) << (8 * i);
            pos += width;
        }
        w.fields.push_back(f);
    }
}

size_t ref_utf8(const uint8_t* p, size_t n) {
    size_t i = 0;
    while (i < n) {
        const uint8_t b = p[i];
        if (b < 0x80) { ++i; continue; }
        size_t len;
        uint32_t cp, min;
        if ((b & 0xE0) == 0xC0) { len = 2; cp = b & 0x1F; min = 0x80; }
        else if ((b & 0xF0) == 0xE0) { len = 3; cp = b & 0x0F; min = 0x800; }
        else if ((b & 0xF8) == 0xF0) { len = 4; cp = b & 0x07; min = 0x10000; }
        else return i;
        if (n - i < len) return i;
        for (size_t k = 1; k < len; ++k) {
            if ((p[i + k] & 0xC0) != 0x80) return i;
            cp = cp << 6 | (p[i + k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
        i += len;
    }
    return npos;
}

// ---- the importer's reader over the same ranges -----------------------------------

/// Walk buffers kept from input to input: a vector per walk cost a sixth of the executions
/// per second (under ASan each allocation records a stack). One pair per nesting level (a
/// level's fields are iterated while deeper levels are walked), one pair for packed readings.
struct WalkBuffers {
    std::array<Walk, 8> ours_at, ref_at;
    Walk ours_packed, ref_packed;
};

struct Harness {
    const uint8_t* data;
    size_t size;
    Refusal ctx{"fuzz_wire", data, "fuzz_wire"};
    int budget = 2000;  ///< sub-walks per input, to keep executions fast
    WalkBuffers& buf;

    Harness(const uint8_t* d, size_t n, WalkBuffers& b) : data(d), size(n), buf(b) {}

    size_t refusal(const ImportError& e) {
        check_error(e, "fuzz_wire", size);
        GAUNTLET_CHECK(e.kind() == onnximport::ErrorKind::Malformed, describe(e));
        return static_cast<size_t>(*e.offset());
    }

    void our_walk(size_t begin, size_t end, Walk& w) {
        w.fields.clear();  // the caller's buffer (WalkBuffers)
        w.error_at = npos;
        Reader r(ctx, data + begin, data + end);
        try {
            while (r.next()) {
                Field f{r.field(), static_cast<unsigned>(r.wire()), 0};
                switch (r.wire()) {
                case onnximport::detail::WireType::Varint: f.value = r.varint(); break;
                case onnximport::detail::WireType::Fixed64: f.value = r.fixed64(); break;
                case onnximport::detail::WireType::Fixed32: f.value = r.fixed32(); break;
                case onnximport::detail::WireType::Len: {
                    auto s = r.bytes();
                    f.value = s.size();
                    f.payload = static_cast<size_t>(s.begin - data);
                    break;
                }
                }
                w.fields.push_back(f);
            }
        } catch (const ImportError& e) {
            w.error_at = refusal(e);
        }
    }

    /// The field whose key is at key_at, read as a packed field by the importer's helpers.
    void our_packed(size_t key_at, size_t end, unsigned width, Walk& w) {
        w.fields.clear();  // the caller's buffer (WalkBuffers)
        w.error_at = npos;
        Reader r(ctx, data + key_at, data + end);
        auto push = [&](uint64_t v) { w.fields.push_back(Field{0, 0, v}); };
        try {
            GAUNTLET_CHECK(r.next(), "key vanished");
            using onnximport::detail::WireType;
            if (width == 0) onnximport::detail::read_repeated_varint(r, push);
            else onnximport::detail::read_repeated_fixed(r, width == 4 ? WireType::Fixed32 : WireType::Fixed64, push);
        } catch (const ImportError& e) {
            w.error_at = refusal(e);
        }
    }

    void compare(const Walk& ours, const Walk& ref, const char* what, size_t at) {
        if (ours.error_at != ref.error_at)
            fuzz_fail(what, "range at " + std::to_string(at) + ": reader refuses at " +
                                (ours.error_at == npos ? "-" : std::to_string(ours.error_at)) + ", reference at " +
                                (ref.error_at == npos ? "-" : std::to_string(ref.error_at)));
        if (!(ours.fields == ref.fields)) fuzz_fail(what, "fields differ in range at " + std::to_string(at));
    }

    void message(size_t begin, size_t end, int depth) {
        if (--budget < 0) return;
        Walk& ours = buf.ours_at[static_cast<size_t>(depth)];
        Walk& ref = buf.ref_at[static_cast<size_t>(depth)];
        our_walk(begin, end, ours);
        ref_walk(data, begin, end, ref);
        compare(ours, ref, "message walk", begin);
        if (ref.error_at != npos && depth > 0) return;  // a failed sub-walk is not a message
        // Re-walk the keys to find where each field's key is.
        size_t pos = begin;
        for (const Field& f : ref.fields) {
            const size_t key_at = pos;
            uint64_t key;
            size_t err;
            ref_varint(data, end, pos, key, err);
            if (f.wire == 0) ref_varint(data, end, pos, key, err);
            else if (f.wire == 1) pos += 8;
            else if (f.wire == 5) pos += 4;
            else pos = f.payload + f.value;
            if (f.wire != 2 || budget < 0) continue;
            const size_t len_at = [&] {
                size_t p = key_at;
                uint64_t k;
                ref_varint(data, end, p, k, err);
                return p;
            }();
            const size_t pb = f.payload, pe = f.payload + f.value;
            for (unsigned width : {0u, 4u, 8u}) {
                our_packed(key_at, end, width, buf.ours_packed);
                ref_packed(data, len_at, pb, pe, width, buf.ref_packed);
                compare(buf.ours_packed, buf.ref_packed, "packed field", pb);
            }
            const uint8_t* bad = onnximport::detail::find_invalid_utf8(data + pb, data + pe);
            const size_t ref_bad = ref_utf8(data + pb, pe - pb);
            GAUNTLET_CHECK((bad ? static_cast<size_t>(bad - data - pb) : npos) == ref_bad,
                           "UTF-8 verdict at " + std::to_string(pb));
            if (depth < 6 && f.value > 0) message(pb, pe, depth + 1);
        }
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static WalkBuffers buffers;
    Harness h(data, size, buffers);
    h.message(0, size, 0);
    return 0;
}
