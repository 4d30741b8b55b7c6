// Short-string helpers of the hot paths: names are almost always short and ASCII.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace onnximport::detail {

/// The n < 8 bytes at p as one word, loaded without a byte loop and without reading past
/// p + n: two overlapping loads, or three bytes (some bytes may appear twice). For a given
/// n, different bytes give different words.
inline uint64_t load_short(const void* p, size_t n) noexcept {
    const auto* b = static_cast<const unsigned char*>(p);
    if (n >= 4) {
        uint32_t lo, hi;
        std::memcpy(&lo, b, 4);
        std::memcpy(&hi, b + n - 4, 4);
        return lo | uint64_t{hi} << 32;
    }
    if (n == 0) return 0;
    return b[0] | uint64_t{b[n / 2]} << 8 | uint64_t{b[n - 1]} << 16;
}

/// a == b, without a call to memcmp for names of up to 16 bytes (nearly all of them).
inline bool same_name(std::string_view a, std::string_view b) noexcept {
    const size_t n = a.size();
    if (n != b.size()) return false;
    if (a.data() == b.data()) return true;  // a shared .ort string: no byte to load (docs/ort.md)
    if (n < 8) return load_short(a.data(), n) == load_short(b.data(), n);
    if (n > 16) return std::memcmp(a.data(), b.data(), n) == 0;
    uint64_t a0, a1, b0, b1;  // two overlapping words each
    std::memcpy(&a0, a.data(), 8);
    std::memcpy(&b0, b.data(), 8);
    std::memcpy(&a1, a.data() + n - 8, 8);
    std::memcpy(&b1, b.data() + n - 8, 8);
    return a0 == b0 && a1 == b1;
}

/// True when every byte is below 0x80: ASCII is valid UTF-8 without the full check. Sixteen
/// bytes a turn (docs/performance-history.md, "Small dimensions"); the last sixteen, or the last
/// eight and the first eight, are loaded overlapping what came before instead of a tail of
/// smaller loads (docs/performance-history.md, "ASCII checks without a tail").
inline bool all_ascii(const uint8_t* p, const uint8_t* end) noexcept {
    constexpr uint64_t high_bits = 0x8080808080808080ull;
    const auto n = static_cast<size_t>(end - p);
    uint64_t w0, w1;
    if (n < 8) return (load_short(p, n) & high_bits) == 0;
    if (n <= 16) {
        std::memcpy(&w0, p, 8);
        std::memcpy(&w1, end - 8, 8);
        return ((w0 | w1) & high_bits) == 0;
    }
    std::memcpy(&w0, end - 16, 8);
    std::memcpy(&w1, end - 8, 8);
    uint64_t high = w0 | w1;
    for (; end - p > 16; p += 16) {
        std::memcpy(&w0, p, 8);
        std::memcpy(&w1, p + 8, 8);
        high |= w0 | w1;
    }
    return (high & high_bits) == 0;
}

}  // namespace onnximport::detail
