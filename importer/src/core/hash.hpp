// The importer's one hashing policy for names read from the input (docs/performance.md,
// "Hash flooding", "Short names" and "Medium names"): every table keyed by input bytes hashes
// with a keyed hash whose key is fresh per import (derived from the operating system's random
// source: derive_hash_key), so names crafted to collide cannot be prepared in advance.
//
// Names under 16 bytes, most of a graph's, hash with vector multiply-shift under 128-bit
// random multipliers, which is strongly universal: for any two different names, fixed before
// the key is drawn, their hashes are independent and uniform, so no set of names collides
// more often than chance (docs/performance-history.md, "Short names"). Names of 16 to 112 bytes (an
// expanded function's, a layer's path) first pass through NH, whose two words collide for two
// different names with probability at most 2^-64, then through the same multiply-shift with
// the length as a third word. Longer names hash with SipHash-1-3 (a keyed pseudorandom
// function built for hash tables fed by attackers). A multiply-and-shift hash with a 64-bit
// seed, as the project had, has no such bound: its differences survive the seed (a flipped
// top bit passes any odd multiply unchanged), so its collisions can be built without knowing it.
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
    /// Medium names' (hash_medium_name): the length's 128-bit multiplier, low word first,
    /// and NH's key, a word for each word of the longest medium name.
    uint64_t length_key[2] = {};
    uint64_t nh_key[14] = {};
};

/// A fresh key: 16 bytes from the operating system's random source, expanded by
/// derive_hash_key (one draw per import without a Workspace).
HashKey random_hash_key();

/// The 128-bit secret a batch of keys is derived from (HashKeyReserve).
struct KeySeed {
    uint64_t k0 = 0;
    uint64_t k1 = 0;
};

/// 16 bytes from the operating system's random source (std::random_device without getrandom).
KeySeed random_key_seed();

/// SipHash-2-4 (Aumasson and Bernstein, 2012), a pseudorandom function, of one 8-byte message.
uint64_t siphash24_word(KeySeed seed, uint64_t message);

/// Key `counter` of a seed: each word SipHash-2-4 of (counter, the word's place) under the
/// seed. Keys of one seed are as independent as random ones to whoever does not know the seed,
/// and cost less than as many bytes from the kernel's generator (docs/performance-history.md, "Keys
/// derived, not drawn"). counter < 2^58.
HashKey derive_hash_key(KeySeed seed, uint64_t counter);

namespace sip {

struct State {
    uint64_t v0, v1, v2, v3;

    /// SipHash's start under the 128-bit key (k0, k1).
    static State keyed(uint64_t k0, uint64_t k1) noexcept {
        return {k0 ^ 0x736f6d6570736575ull, k1 ^ 0x646f72616e646f6dull, k0 ^ 0x6c7967656e657261ull,
                k1 ^ 0x7465646279746573ull};
    }

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

/// The fixed bijection after multiply-shift's high half: xorshift, odd multiply, xorshift.
inline uint64_t mixed_high_half(uint64_t h) noexcept {
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93ull;  // odd: a bijection
    return h ^ h >> 32;
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
    return mixed_high_half(static_cast<uint64_t>(sum >> 64));
}

/// Names from short_name_limit up to this many bytes (14 words) hash with hash_medium_name.
inline constexpr size_t medium_name_limit = 112;

/// NH (Black, Halevi, Krawczyk, Krovetz, Rogaway, "UMAC: Fast and Secure Message
/// Authentication", 1999) of the name's words, the last zero-padded and a zero word added to
/// make pairs: the sum of (w[2i] + k[2i]) * (w[2i+1] + k[2i+1]), each sum of a word and a key
/// word modulo 2^64 and each product whole, modulo 2^128. Two different names of one length
/// (so of one word count) give equal sums with probability at most 2^-64. Then vector
/// multiply-shift of (the sum's low word, its high word, the length): strongly universal on
/// those three words, and names of different lengths differ in the third. A short name is
/// (its two words, 0) there: a length of 16 or more tells the two kinds apart.
inline uint64_t hash_medium_name(std::string_view s, const HashKey& key) noexcept {
    __extension__ typedef unsigned __int128 u128;
    const char* p = s.data();
    const size_t n = s.size();
    const uint64_t* k = key.nh_key;
    auto word = [p](size_t i) {
        uint64_t w;
        std::memcpy(&w, p + 8 * i, 8);
        return w;
    };
    const size_t last = (n - 1) / 8;  // the last word, whole or not
    const uint64_t last_word = sip::tail(p + 8 * last, n - 8 * last, true);
    u128 nh = 0;
    size_t i = 0;
    for (; i + 2 <= last; i += 2) nh += u128{word(i) + k[i]} * (word(i + 1) + k[i + 1]);
    if (i == last) nh += u128{last_word + k[i]} * k[i + 1];  // an odd count: the zero word added
    else nh += u128{word(i) + k[i]} * (last_word + k[i + 1]);
    const uint64_t* m = key.short_key;
    const u128 sum = (u128{m[1]} << 64 | m[0]) * static_cast<uint64_t>(nh) +
                     (u128{m[3]} << 64 | m[2]) * static_cast<uint64_t>(nh >> 64) +
                     (u128{key.length_key[1]} << 64 | key.length_key[0]) * n + (u128{m[5]} << 64 | m[4]);
    return mixed_high_half(static_cast<uint64_t>(sum >> 64));
}

/// SipHash-1-3 of s under `key`, with SipHash's own encoding of the last word (the bytes
/// left, then the length in the top byte), which keeps different strings different.
inline uint64_t siphash13(std::string_view s, const HashKey& key) noexcept {
    sip::State st = sip::State::keyed(key.k0, key.k1);
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
    if (s.size() < short_name_limit) return hash_short_name(s, key);
    return s.size() <= medium_name_limit ? hash_medium_name(s, key) : siphash13(s, key);
}

/// The hasher of every std::unordered_map keyed by input bytes, made with the import's key
/// (a default one would hash every short name alike). An aggregate on purpose: a constructor
/// of its own changes how GCC inlines resolution (docs/performance-history.md, "Short names").
struct NameHash {
    HashKey key;
    size_t operator()(std::string_view s) const noexcept { return static_cast<size_t>(hash_name(s, key)); }
};

}  // namespace onnximport::detail
