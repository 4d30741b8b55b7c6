// The importer's one hashing policy for names read from the input (docs/performance.md,
// "Hash flooding" and "Short names"): every table keyed by input bytes hashes with a keyed
// hash whose key is drawn per import, so names crafted to collide cannot be prepared in advance.
//
// Names of 16 bytes and more hash with SipHash-1-3 (a keyed pseudorandom function built for
// hash tables fed by attackers). Shorter names, most of a graph's, hash with vector
// multiply-shift under 128-bit random multipliers, which is strongly universal: for any two
// different names, fixed before the key is drawn, their hashes are independent and uniform,
// so no set of names collides more often than chance (docs/performance.md, "Short names").
// A multiply-and-shift hash with a 64-bit seed, as the project had, has no such bound: its
// differences survive the seed (a flipped top bit passes any odd multiply unchanged), so its
// collisions can be built without knowing it.
#pragma once


#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>

namespace onnximport::detail {

/// A key drawn whole (random_hash_key, HashKeyReserve): with its words zero, every short name
/// would hash alike.
struct HashKey {
    uint64_t k0 = 0;  ///< SipHash's key
    uint64_t k1 = 0;
    /// The short names' key, as low and high words: two 128-bit multipliers, then the addend.
    uint64_t short_key[6] = {};
};

/// A fresh key from the operating system's random source (one draw per import).
HashKey random_hash_key();

namespace sip {

struct State {
    uint64_t v0, v1, v2, v3;

    void round() noexcept {
        v0 += v1; v1 = std::rotl(v1, 13); v1 ^= v0; v0 = std::rotl(v0, 32);
        v2 += v3; v3 = std::rotl(v3, 16); v3 ^= v2;
        v0 += v3; v3 = std::rotl(v3, 21); v3 ^= v0;
        v2 += v1; v1 = std::rotl(v1, 17); v1 ^= v2; v2 = std::rotl(v2, 32);
    }
    void absorb(uint64_t m) noexcept {
        v3 ^= m;
        round();
        v0 ^= m;
    }
};

/// The n < 8 bytes at p as a little-endian word (high bytes zero), as memcpy into a zeroed
/// word gives, without memcpy's byte loop for a variable n: overlapping loads, never past
/// p + n. `after_word` says the 8 bytes before p + n belong to the string (it has 8 or more).
inline uint64_t tail(const char* p, size_t n, bool after_word) noexcept {
    if (n == 0) return 0;  // an empty view may have no data pointer at all
    if (after_word) {
        uint64_t w;
        std::memcpy(&w, p + n - 8, 8);
        return w >> (8 * (8 - n));
    }
    const auto* b = reinterpret_cast<const unsigned char*>(p);
    if (n >= 4) {
        uint32_t lo, hi;  // overlapping: the bytes both cover are equal, so OR keeps them
        std::memcpy(&lo, b, 4);
        std::memcpy(&hi, b + n - 4, 4);
        return lo | uint64_t{hi} << (8 * (n - 4));
    }
    return b[0] | uint64_t{b[n / 2]} << (8 * (n / 2)) | uint64_t{b[n - 1]} << (8 * (n - 1));
}

}  // namespace sip

/// Names below this length hash with hash_short_name.
inline constexpr size_t short_name_limit = 16;

/// A name shorter than short_name_limit as two words: its bytes, zero-padded, and its length
/// in the top byte of the second (which no byte reaches), so different names give different
/// words.
inline std::pair<uint64_t, uint64_t> short_name_words(std::string_view s) noexcept {
    const char* p = s.data();
    const size_t n = s.size();
    uint64_t low = 0, high = 0;
    if (n >= 8) {
        std::memcpy(&low, p, 8);
        high = sip::tail(p + 8, n - 8, true);
    } else {
        low = sip::tail(p, n, false);
    }
    return {low, high | uint64_t{n} << 56};
}

/// Vector multiply-shift (Dietzfelbinger, 1996; Thorup, "High Speed Hashing for Integers and
/// Strings", 2015): the high 64 bits of a * low + b * high + c modulo 2^128, with a, b and c
/// the key's 128-bit numbers, is strongly universal on the two words. A fixed bijection
/// follows: it keeps that bound and spreads names that differ by steps (a counter) over the
/// table, where the high bits alone would place them in arithmetic progression.
inline uint64_t hash_short_name(std::string_view s, const HashKey& key) noexcept {
    __extension__ typedef unsigned __int128 u128;
    const auto [low, high] = short_name_words(s);
    const uint64_t* k = key.short_key;
    const u128 sum = (u128{k[1]} << 64 | k[0]) * low + (u128{k[3]} << 64 | k[2]) * high + (u128{k[5]} << 64 | k[4]);
    uint64_t h = static_cast<uint64_t>(sum >> 64);
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93ull;  // odd: a bijection
    return h ^ h >> 32;
}

/// SipHash-1-3 of s under `key`, with SipHash's own encoding of the last word (the bytes
/// left, then the length in the top byte), which keeps different strings different.
inline uint64_t siphash13(std::string_view s, const HashKey& key) noexcept {
    sip::State st{key.k0 ^ 0x736f6d6570736575ull, key.k1 ^ 0x646f72616e646f6dull,
                  key.k0 ^ 0x6c7967656e657261ull, key.k1 ^ 0x7465646279746573ull};
    const char* p = s.data();
    size_t n = s.size();
    for (; n >= 8; n -= 8, p += 8) {
        uint64_t w;
        std::memcpy(&w, p, 8);
        st.absorb(w);
    }
    st.absorb(sip::tail(p, n, s.size() >= 8) | uint64_t{static_cast<uint8_t>(s.size())} << 56);
    st.v2 ^= 0xff;
    st.round();
    st.round();
    st.round();
    return st.v0 ^ st.v1 ^ st.v2 ^ st.v3;
}

/// The hash of a name from the input under the import's key.
inline uint64_t hash_name(std::string_view s, const HashKey& key) noexcept {
    return s.size() < short_name_limit ? hash_short_name(s, key) : siphash13(s, key);
}

/// The hasher of every std::unordered_map keyed by input bytes, made with the import's key
/// (a default one would hash every short name alike). An aggregate on purpose: a constructor
/// of its own changes how GCC inlines resolution (docs/performance.md, "Short names").
struct NameHash {
    HashKey key;
    size_t operator()(std::string_view s) const noexcept { return static_cast<size_t>(hash_name(s, key)); }
};

}  // namespace onnximport::detail
