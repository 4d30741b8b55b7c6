// Crafting colliding names. libstdc++'s hash of 16 bytes is
//   h = seed ^ len * mul;  h = (h ^ D(block)) * mul for each 8-byte block;  final mixes of h
// with D(w) = shift_mix(w * mul) * mul, where shift_mix(v) = v ^ v >> 47. D is a bijection
// (mul is odd, shift_mix is its own inverse), so for any first block the second can be
// solved to reach a chosen h: every name with that h has the same hash. Random first blocks
// are tried until the solved second block is made of name characters.
#include "hash_collide.hpp"

#include <cstring>
#include <functional>
#include <stdexcept>
#include <unordered_set>

namespace gauntlet::bench {

namespace {

constexpr uint64_t std_seed = 0xc70f6907ull;  // libstdc++'s _Hash_impl seed
constexpr uint64_t mul = (uint64_t{0xc6a4a793} << 32) + 0x5bd1e995;
constexpr size_t name_length = 16;

constexpr uint64_t inverse(uint64_t a) {
    uint64_t x = a;  // Newton's iteration doubles the correct low bits each step
    for (int i = 0; i < 6; ++i) x *= 2 - a * x;
    return x;
}
constexpr uint64_t mul_inv = inverse(mul);
static_assert(mul * mul_inv == 1);

uint64_t shift_mix(uint64_t v) { return v ^ (v >> 47); }
uint64_t block_mix(uint64_t w) { return shift_mix(w * mul) * mul; }
uint64_t block_unmix(uint64_t y) { return shift_mix(y * mul_inv) * mul_inv; }

uint64_t load(const char* p) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
}

struct SplitMix {
    uint64_t s;
    uint64_t next() {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
};

/// The name characters, for drawing random ones.
const std::string& alphabet() {
    static const std::string a = [] {
        std::string s;
        for (int c = 0; c < 256; ++c)
            if (name_char(static_cast<unsigned char>(c))) s += static_cast<char>(c);
        return s;
    }();
    return a;
}

/// Eight random name characters as one little-endian word.
uint64_t random_block(SplitMix& rng) {
    const std::string& a = alphabet();
    uint64_t r = rng.next(), w = 0;
    for (int i = 0; i < 8; ++i, r >>= 8)
        w |= uint64_t{static_cast<unsigned char>(a[((r & 0xFF) * a.size()) >> 8])} << (8 * i);
    return w;
}

bool block_of_name_chars(uint64_t w) {
    for (int i = 0; i < 8; ++i, w >>= 8)
        if (!name_char(static_cast<unsigned char>(w & 0xFF))) return false;
    return true;
}

std::string two_blocks(uint64_t a, uint64_t b) {
    std::string s(name_length, '\0');
    std::memcpy(s.data(), &a, 8);
    std::memcpy(s.data() + 8, &b, 8);
    return s;
}

}  // namespace

bool name_char(unsigned char c) noexcept { return c > 0x20 && c < 0x7F && c != '/' && c != '\\' && c != ':'; }

uint64_t libstdcxx_hash(std::string_view s) noexcept {
    const char* p = s.data();
    const size_t len = s.size();
    uint64_t h = std_seed ^ (len * mul);
    for (size_t i = 0; i + 8 <= len; i += 8) h = (h ^ block_mix(load(p + i))) * mul;
    if (size_t rest = len & 7) {
        uint64_t tail = 0;  // the last len % 8 bytes, little-endian
        for (size_t i = rest; i-- > 0;) tail = (tail << 8) + static_cast<unsigned char>(p[len - rest + i]);
        h = (h ^ tail) * mul;
    }
    h = shift_mix(h) * mul;
    return shift_mix(h);
}

uint64_t old_hash_name(std::string_view s, uint64_t seed) noexcept {
    constexpr uint64_t k = 0x9E3779B97F4A7C15ull;
    const char* p = s.data();
    size_t n = s.size();
    uint64_t h = seed ^ (n * k);
    for (; n >= 8; n -= 8, p += 8) {
        h = (h ^ load(p)) * k;
        h ^= h >> 29;
    }
    if (n) {  // load_short of 7c3d4f1: two overlapping 4-byte loads, or three bytes
        const auto* b = reinterpret_cast<const unsigned char*>(p);
        uint64_t w;
        if (n >= 4) {
            uint32_t lo, hi;
            std::memcpy(&lo, b, 4);
            std::memcpy(&hi, b + n - 4, 4);
            w = lo | uint64_t{hi} << 32;
        } else {
            w = b[0] | uint64_t{b[n / 2]} << 8 | uint64_t{b[n - 1]} << 16;
        }
        h = (h ^ w) * k;
    }
    h ^= h >> 32;
    h *= 0xD6E8FEB86659FD93ull;
    h ^= h >> 32;
    return h;
}

std::vector<std::string> std_hash_colliding(size_t count, uint64_t rng_seed) {
    SplitMix rng{rng_seed};
    const uint64_t h0 = std_seed ^ (name_length * mul);
    auto after_first = [&](uint64_t first) { return (h0 ^ block_mix(first)) * mul; };
    // The state every name must reach after its second block: that of one random name.
    const uint64_t target = (after_first(random_block(rng)) ^ block_mix(random_block(rng))) * mul;
    std::vector<std::string> out;
    std::unordered_set<std::string> seen;
    uint64_t expected = 0;
    while (out.size() < count) {
        const uint64_t first = random_block(rng);
        const uint64_t second = block_unmix((target * mul_inv) ^ after_first(first));
        if (!block_of_name_chars(second)) continue;
        std::string name = two_blocks(first, second);
        if (!seen.insert(name).second) continue;
        const uint64_t h = std::hash<std::string_view>{}(name);
        if (out.empty()) expected = h;
        if (h != expected || libstdcxx_hash(name) != h)
            throw std::logic_error("std_hash_colliding: a crafted name does not collide under std::hash");
        out.push_back(std::move(name));
    }
    return out;
}

std::vector<std::string> ordinary_names(size_t count, uint64_t rng_seed, size_t length) {
    SplitMix rng{rng_seed};
    std::vector<std::string> out;
    std::unordered_set<std::string> seen;
    while (out.size() < count) {
        std::string name;
        while (name.size() < length) name += two_blocks(random_block(rng), random_block(rng));
        name.resize(length);
        if (seen.insert(name).second) out.push_back(std::move(name));
    }
    return out;
}

std::vector<std::string> high_bytes_only_names(size_t count) {
    static constexpr char chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef";
    if (count > 32 * 32 * 32) throw std::logic_error("high_bytes_only_names: at most 2^15 names");
    std::vector<std::string> out;
    for (size_t i = 0; i < count; ++i) {
        std::string name = "value___output_";
        name[5] = chars[i % 32];
        name[6] = chars[i / 32 % 32];
        name[7] = chars[i / 1024];
        out.push_back(std::move(name));
    }
    return out;
}

std::vector<std::string> swapped_word_names(size_t count) {
    static constexpr char chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef";
    if (count > 2 * 32 * 32 * 32 || count % 2) throw std::logic_error("swapped_word_names: an even count up to 2^16");
    std::vector<std::string> out;
    for (size_t i = 0; i < count / 2; ++i) {
        std::string first = "AAAAA___";
        first[5] = chars[i % 32];
        first[6] = chars[i / 32 % 32];
        first[7] = chars[i / 1024];
        const std::string second = "BBBBBBBB", rest = "_expanded_function_out_";
        out.push_back(first + second + rest);
        out.push_back(second + first + rest);
    }
    return out;
}

std::vector<std::string> old_hash_colliding(int bits, uint64_t rng_seed) {
    SplitMix rng{rng_seed};
    const int blocks = bits + 1;
    std::vector<uint64_t> base(static_cast<size_t>(blocks));
    for (auto& b : base) b = random_block(rng);
    constexpr uint64_t top = uint64_t{1} << 63;
    constexpr uint64_t carried = top ^ (top >> 29);  // a top-bit difference after h ^= h >> 29
    std::vector<std::string> out;
    for (uint64_t v = 0; v < (uint64_t{1} << bits); ++v) {
        std::string name(8 * static_cast<size_t>(blocks), '\0');
        bool incoming = false;  // does the state carry a difference into this block?
        for (int j = 0; j < blocks; ++j) {
            const bool outgoing = j < bits && (v >> j & 1);
            const uint64_t w = base[static_cast<size_t>(j)] ^ (incoming ? carried : 0) ^ (outgoing ? top : 0);
            std::memcpy(name.data() + 8 * j, &w, 8);
            incoming = outgoing;
        }
        out.push_back(std::move(name));
    }
    for (uint64_t seed : {uint64_t{0}, rng.next(), rng.next(), rng.next(), ~uint64_t{0}}) {
        const uint64_t h = old_hash_name(out[0], seed);
        for (auto& n : out)
            if (old_hash_name(n, seed) != h)
                throw std::logic_error("old_hash_colliding: names differ under the old hash_name");
    }
    return out;
}

bool valid_utf8(std::string_view s) noexcept {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const auto* end = p + s.size();
    while (p < end) {
        const unsigned c = *p;
        const size_t n = c < 0x80                 ? 1
                         : c >= 0xC2 && c <= 0xDF ? 2
                         : c >= 0xE0 && c <= 0xEF ? 3
                         : c >= 0xF0 && c <= 0xF4 ? 4
                                                  : 0;
        if (n == 0 || static_cast<size_t>(end - p) < n) return false;
        for (size_t i = 1; i < n; ++i)
            if ((p[i] & 0xC0) != 0x80) return false;
        if ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] > 0x9F) || (c == 0xF0 && p[1] < 0x90) ||
            (c == 0xF4 && p[1] > 0x8F))
            return false;  // overlong, surrogate, or past U+10FFFF
        p += n;
    }
    return true;
}

}  // namespace gauntlet::bench
