// The importer's one hashing policy for names read from the input (docs/rules.md, D-rules
// on resources): every table keyed by input bytes hashes with a keyed hash whose key is
// drawn per import, so names crafted to collide cannot be prepared in advance.
//
// The function is SipHash-1-3 (a keyed pseudorandom function built for hash tables fed by
// attackers); a multiply-and-shift hash, seeded or not, has differences that survive the
// seed (a flipped top bit passes any odd multiply unchanged), so its collisions can be
// built without knowing it.
#pragma once


#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace onnximport::detail {

struct HashKey {
    uint64_t k0 = 0;
    uint64_t k1 = 0;
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

/// SipHash-1-3 of s under `key`, with SipHash's own encoding of the last word (the bytes
/// left, then the length in the top byte), which keeps different strings different.
inline uint64_t hash_name(std::string_view s, const HashKey& key) noexcept {
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

/// The hasher of every std::unordered_map keyed by input bytes.
struct NameHash {
    HashKey key;
    size_t operator()(std::string_view s) const noexcept { return static_cast<size_t>(hash_name(s, key)); }
};

}  // namespace onnximport::detail
