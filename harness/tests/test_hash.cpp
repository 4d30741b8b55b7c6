// The one hashing policy for names from the input (core/hash.hpp): keyed per import,
// strongly universal multiply-shift for short names, NH before it for medium ones, SipHash-1-3
// for long ones, and free of the seed-independent collisions the project's old
// multiply-and-shift hash had.
#include "core/hash.hpp"
#include "core/hash_key_reserve.hpp"
#include "model/access.hpp"
#include "model/storage.hpp"

#include <onnximport/import.hpp>
#include <onnximport/workspace.hpp>

#include <boost/test/unit_test.hpp>

#include <cstring>
#include <set>
#include <string>
#include <vector>

using namespace onnximport::detail;

namespace {

/// 16-byte names built to collide under any seed of the importer's hash before SipHash (core/hash.hpp)
/// (h = (h ^ w) * k; h ^= h >> 29 per word): flipping bit 63 of the first word passes the
/// multiply unchanged and reaches the second word as bits 63 and 34, which the second
/// word's own flip cancels. Each of `bits` choices doubles the set.
std::vector<std::string> names_colliding_under_the_old_hash(unsigned count) {
    std::vector<std::string> names;
    for (unsigned i = 0; i < count; ++i) {
        uint64_t w0 = 0x6161616161616161ull, w1 = 0x6262626262626262ull;  // "aaaaaaaa", "bbbbbbbb"
        if (i & 1) w0 ^= 1ull << 63, w1 ^= (1ull << 63) | (1ull << 34);
        w0 ^= uint64_t{i >> 1} << 8;  // distinct names otherwise: a difference the old hash kept
        std::string s(16, '\0');
        std::memcpy(s.data(), &w0, 8);
        std::memcpy(s.data() + 8, &w1, 8);
        names.push_back(s);
    }
    return names;
}

uint64_t old_hash(const std::string& s, uint64_t seed) {
    constexpr uint64_t k = 0x9E3779B97F4A7C15ull;
    uint64_t h = seed ^ (s.size() * k);
    for (size_t at = 0; at + 8 <= s.size(); at += 8) {
        uint64_t w;
        std::memcpy(&w, s.data() + at, 8);
        h = (h ^ w) * k;
        h ^= h >> 29;
    }
    return h;
}

/// SipHash-1-3 as its paper writes it, the last word built byte by byte: what hash_name's
/// overlapping loads of the tail (sip::tail) must give.
uint64_t reference_siphash13(const std::string& s, const HashKey& key) {
    sip::State st{key.k0 ^ 0x736f6d6570736575ull, key.k1 ^ 0x646f72616e646f6dull,
                  key.k0 ^ 0x6c7967656e657261ull, key.k1 ^ 0x7465646279746573ull};
    const size_t whole = s.size() / 8 * 8;
    for (size_t at = 0; at < whole; at += 8) {
        uint64_t w = 0;
        for (size_t i = 0; i < 8; ++i) w |= uint64_t{static_cast<uint8_t>(s[at + i])} << (8 * i);
        st.absorb(w);
    }
    uint64_t last = uint64_t{static_cast<uint8_t>(s.size())} << 56;
    for (size_t i = whole; i < s.size(); ++i) last |= uint64_t{static_cast<uint8_t>(s[i])} << (8 * (i - whole));
    st.absorb(last);
    st.v2 ^= 0xff;
    for (int i = 0; i < 3; ++i) st.round();
    return st.v0 ^ st.v1 ^ st.v2 ^ st.v3;
}

/// The high 64 bits of the 128-bit product of a and b, from 32-bit halves: a second way to
/// the arithmetic hash_short_name leaves to the compiler's 128-bit type.
uint64_t high_of_product(uint64_t a, uint64_t b, uint64_t& low) {
    const uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    const uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    const uint64_t middle = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    low = (middle << 32) | (p00 & 0xffffffffu);
    return p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32);
}

/// Adds the 128-bit number (high, low) to (sum_high, sum_low), modulo 2^128.
void add128(uint64_t& sum_high, uint64_t& sum_low, uint64_t high, uint64_t low) {
    sum_low += low;
    sum_high += high + (sum_low < low);
}

/// hash_short_name as its comment writes it: the name's bytes into two words one by one,
/// the length in the top byte, then (a * low + b * high + c) mod 2^128, its high half, mixed.
uint64_t reference_short_hash(const std::string& s, const HashKey& key) {
    uint64_t words[2] = {0, uint64_t{s.size()} << 56};
    for (size_t i = 0; i < s.size(); ++i) words[i / 8] |= uint64_t{static_cast<uint8_t>(s[i])} << (8 * (i % 8));
    const uint64_t* k = key.short_key;
    uint64_t sum_high = k[5], sum_low = k[4];
    for (int w = 0; w < 2; ++w) {
        uint64_t low = 0;
        const uint64_t high = high_of_product(k[2 * w], words[w], low) + k[2 * w + 1] * words[w];
        add128(sum_high, sum_low, high, low);
    }
    uint64_t h = sum_high;
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93ull;
    return h ^ h >> 32;
}

/// Adds multiplier * word (a 128-bit number, low word first, times a 64-bit one) to the sum.
void add_product(uint64_t& sum_high, uint64_t& sum_low, const uint64_t* multiplier, uint64_t word) {
    uint64_t low = 0;
    const uint64_t high = high_of_product(multiplier[0], word, low) + multiplier[1] * word;
    add128(sum_high, sum_low, high, low);
}

/// hash_medium_name as its comment writes it: the name's bytes into words one by one, a zero
/// word to make pairs, NH summed from 32-bit halves, then (a * low + b * high + c * length + d)
/// mod 2^128, its high half, mixed.
uint64_t reference_medium_hash(const std::string& s, const HashKey& key) {
    std::vector<uint64_t> words((s.size() + 15) / 16 * 2, 0);
    for (size_t i = 0; i < s.size(); ++i) words[i / 8] |= uint64_t{static_cast<uint8_t>(s[i])} << (8 * (i % 8));
    uint64_t nh_high = 0, nh_low = 0;
    for (size_t i = 0; i < words.size(); i += 2) {
        uint64_t low = 0;
        const uint64_t high = high_of_product(words[i] + key.nh_key[i], words[i + 1] + key.nh_key[i + 1], low);
        add128(nh_high, nh_low, high, low);
    }
    const uint64_t* k = key.short_key;
    uint64_t sum_high = k[5], sum_low = k[4];
    add_product(sum_high, sum_low, k, nh_low);
    add_product(sum_high, sum_low, k + 2, nh_high);
    add_product(sum_high, sum_low, key.length_key, s.size());
    uint64_t h = sum_high;
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93ull;
    return h ^ h >> 32;
}

/// A key whose every word is set (HashKey{a, b} leaves the short names' key zero).
HashKey full_key(uint64_t seed) {
    HashKey key{seed * 0x9e3779b97f4a7c15ull, seed * 0xc2b2ae3d27d4eb4full};
    for (int i = 0; i < 6; ++i) key.short_key[i] = (seed + 1) * 0x165667b19e3779f9ull * (2 * i + 1);
    for (int i = 0; i < 2; ++i) key.length_key[i] = (seed + 3) * 0x27d4eb2f165667c5ull * (2 * i + 1);
    for (int i = 0; i < 14; ++i) key.nh_key[i] = (seed + 5) * 0x94d049bb133111ebull * (2 * i + 1);
    return key;
}

/// The name sits at the end of its buffer, so a load past it would be caught by the sanitizers.
template <class Hash>
uint64_t hash_at_buffer_end(const std::string& s, Hash&& hash) {
    std::vector<char> buffer(s.begin(), s.end());
    return hash(std::string_view(buffer.data(), s.size()));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(hashing)

BOOST_AUTO_TEST_CASE(the_tail_loads_give_the_bytewise_siphash_for_every_length) {
    const HashKey key = full_key(1);
    for (size_t n = 0; n <= 40; ++n) {
        std::string s(n, '\0');
        for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>(0x80 + 37 * i + n);  // every byte distinct and high
        const auto sip = [&](std::string_view v) { return siphash13(v, key); };
        BOOST_TEST(hash_at_buffer_end(s, sip) == reference_siphash13(s, key), "length " << n);
    }
}

BOOST_AUTO_TEST_CASE(short_names_hash_with_multiply_shift_medium_ones_with_nh_and_long_ones_with_siphash) {
    const HashKey key = full_key(2);
    for (size_t n = 0; n <= 130; ++n) {
        std::string s(n, '\0');
        for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>(0x80 + 41 * i + n);
        const auto name = [&](std::string_view v) { return hash_name(v, key); };
        const uint64_t expected = n < short_name_limit     ? reference_short_hash(s, key)
                                  : n <= medium_name_limit ? reference_medium_hash(s, key)
                                                           : reference_siphash13(s, key);
        BOOST_TEST(hash_at_buffer_end(s, name) == expected, "length " << n);
    }
}

BOOST_AUTO_TEST_CASE(medium_names_built_to_collide_under_a_symmetric_or_unkeyed_sum_spread_over_the_table) {
    // 39-byte names in twins whose first two words are swapped, and otherwise equal but for
    // the high bytes of those words: a sum of word products without NH's per-word key (or one
    // key word for both of a pair) gives each twin the other's value, and a multiply read from
    // its low bits sees none of the rest. Under the key they spread as random ones do: 4096
    // draws from 65536 buckets leave about 3975 distinct, rarely below 3900.
    const HashKey key = random_hash_key();
    std::set<uint64_t> buckets;
    std::set<std::string> names;
    for (int i = 0; i < 2048; ++i) {
        std::string s = "AAAAAAAABBBBBBBB_expanded_function_out_";
        s[5] = static_cast<char>('A' + i % 16);
        s[6] = static_cast<char>('A' + i / 16 % 16);
        s[7] = static_cast<char>('A' + i / 256);
        std::string twin = s.substr(8, 8) + s.substr(0, 8) + s.substr(16);
        for (const std::string& n : {s, twin}) {
            names.insert(n);
            buckets.insert(hash_name(n, key) & 0xffff);
        }
    }
    BOOST_TEST_REQUIRE(names.size() == 4096u);
    BOOST_TEST(buckets.size() > 3850u);
}

BOOST_AUTO_TEST_CASE(different_short_names_are_different_words) {
    // Zero bytes and the length: "a", "a\0" and "a\0\0" differ only in their lengths.
    std::set<std::pair<uint64_t, uint64_t>> seen;
    size_t names = 0;
    for (char c : {'\0', 'a', '\xff'})
        for (size_t n = 0; n < short_name_limit; ++n)
            for (size_t at = 0; at <= n; ++at, ++names) {
                std::string s(n, '\0');
                if (at < n) s[at] = c;
                seen.insert(short_name_words(s));
            }
    // Repeats are the same name written twice (all zeros, or no byte to set).
    std::set<std::string> distinct;
    for (char c : {'\0', 'a', '\xff'})
        for (size_t n = 0; n < short_name_limit; ++n)
            for (size_t at = 0; at <= n; ++at) {
                std::string s(n, '\0');
                if (at < n) s[at] = c;
                distinct.insert(s);
            }
    BOOST_TEST(names > distinct.size());
    BOOST_TEST(seen.size() == distinct.size());
}

BOOST_AUTO_TEST_CASE(short_names_that_differ_only_in_high_bits_spread_over_the_table) {
    // A multiply hash read from its low bits ignores what differs only in a word's high bytes
    // (a flipped top bit passes any odd multiply unchanged): these 4096 names, equal but for
    // bytes 5 to 7, would all share one slot. Under the key they spread as random ones do:
    // 4096 draws from 65536 buckets leave about 3975 distinct, rarely below 3900.
    const HashKey key = random_hash_key();
    std::set<uint64_t> buckets;
    for (int i = 0; i < 4096; ++i) {
        std::string s = "value" + std::string(3, 'A') + "_output";
        s[5] = static_cast<char>('A' + i % 16);
        s[6] = static_cast<char>('A' + i / 16 % 16);
        s[7] = static_cast<char>('A' + i / 256);
        buckets.insert(hash_name(s, key) & 0xffff);
    }
    BOOST_TEST(buckets.size() > 3850u);
}

BOOST_AUTO_TEST_CASE(the_old_multiply_hash_had_collisions_for_every_seed_and_the_keyed_hash_has_none) {
    const auto names = names_colliding_under_the_old_hash(64);
    for (uint64_t seed : {0ull, 1ull, 0x5EEDull, ~0ull}) {
        std::set<uint64_t> old;
        for (const auto& n : names) old.insert(old_hash(n, seed));
        BOOST_TEST(old.size() == names.size() / 2);  // every pair collides, whatever the seed
    }
    const HashKey key = random_hash_key();
    std::set<uint64_t> keyed;
    for (const auto& n : names) keyed.insert(hash_name(n, key));
    BOOST_TEST(keyed.size() == names.size());
}

BOOST_AUTO_TEST_CASE(strings_of_different_lengths_hash_differently) {
    // Both encodings put the length in the top byte of the last word.
    const HashKey key = full_key(3);
    std::set<uint64_t> seen;
    for (size_t n = 0; n <= 24; ++n) seen.insert(hash_name(std::string(n, '\0'), key));
    BOOST_TEST(seen.size() == 25u);
}

BOOST_AUTO_TEST_CASE(the_key_decides_the_hash_and_every_import_draws_its_own) {
    const HashKey a = random_hash_key(), b = random_hash_key();
    BOOST_TEST((a.k0 != b.k0 || a.k1 != b.k1));
    BOOST_TEST(hash_name("input_0", a) == hash_name("input_0", a));
    BOOST_TEST(hash_name("input_0", a) != hash_name("input_0", b));
    const std::string long_name(medium_name_limit + 1, 'l');
    BOOST_TEST(hash_name(long_name, a) != hash_name(long_name, b));
    // Each part of the key counts, for the names it hashes.
    HashKey other = a;
    other.k1 ^= 1;
    BOOST_TEST(hash_name(long_name, a) != hash_name(long_name, other));
    BOOST_TEST(hash_name("input_0", a) == hash_name("input_0", other));
    // A high word's bit 0 moves the high half by the word it multiplies (or by 1); a
    // multiplier's low word's bit 63 by half of it. The addend's low word reaches the high
    // half only through a carry, so no one bit of it is sure to.
    for (int i : {0, 1, 2, 3, 5}) {
        other = a;
        other.short_key[i] ^= i % 2 ? 1 : uint64_t{1} << 63;
        BOOST_TEST(hash_name("input_0", a) != hash_name("input_0", other), "short_key word " << i);
    }
    // Every NH word and the length's multiplier count for a medium name of 14 words; neither
    // for a short name. A deterministic key, so that no change of NH's sum can cancel by chance.
    // The multiplier's low word's bit 63 moves the high half by half the (even) length.
    const HashKey d = full_key(7);
    const std::string medium(medium_name_limit, 'm');
    for (int i = 0; i < 16; ++i) {
        other = d;
        if (i < 14) other.nh_key[i] ^= 1;
        else other.length_key[i - 14] ^= i == 14 ? uint64_t{1} << 63 : 1;
        BOOST_TEST(hash_name(medium, d) != hash_name(medium, other), "medium key word " << i);
        BOOST_TEST(hash_name("input_0", d) == hash_name("input_0", other), "medium key word " << i);
    }
}

BOOST_AUTO_TEST_CASE(a_reserve_hands_out_each_key_once_across_its_batches) {
    // Three batches of 64 and more: a reserve that handed a key out twice, or derived keys from
    // a spent (erased) seed at a batch's end, gives a repeat.
    HashKeyReserve reserve;
    std::set<std::pair<uint64_t, uint64_t>> seen, short_keys;
    for (int i = 0; i < 200; ++i) {
        const HashKey k = reserve.take();
        BOOST_TEST((k.k0 != 0 || k.k1 != 0));
        BOOST_TEST((k.short_key[0] != 0 || k.short_key[5] != 0));
        seen.insert({k.k0, k.k1});
        short_keys.insert({k.short_key[0], k.short_key[5]});
    }
    BOOST_TEST(seen.size() == 200u);
    BOOST_TEST(short_keys.size() == 200u);
}

BOOST_AUTO_TEST_CASE(keys_are_derived_with_siphash_2_4_and_differ_in_every_word) {
    // The reference implementation's vector: key bytes 00..0f, message bytes 00..07.
    const KeySeed reference{0x0706050403020100ull, 0x0f0e0d0c0b0a0908ull};
    BOOST_TEST(siphash24_word(reference, 0x0706050403020100ull) == 0x93f5f5799a932462ull);
    // A seed and a counter give one key; another counter or another seed, another key in
    // each of its 24 words (a repeat among 72 random words: probability about 2^-54).
    const KeySeed seed = random_key_seed();
    KeySeed other_seed = seed;
    other_seed.k1 ^= 1;
    const HashKey a = derive_hash_key(seed, 5), b = derive_hash_key(seed, 6), c = derive_hash_key(other_seed, 5);
    const HashKey again = derive_hash_key(seed, 5);
    BOOST_TEST(std::memcmp(&a, &again, sizeof a) == 0);
    std::set<uint64_t> words;
    for (const HashKey* k : {&a, &b, &c}) {
        uint64_t w[sizeof(HashKey) / 8];
        std::memcpy(w, k, sizeof w);
        words.insert(std::begin(w), std::end(w));
    }
    BOOST_TEST(words.size() == 3 * sizeof(HashKey) / 8);
}

BOOST_AUTO_TEST_CASE(imports_with_one_workspace_each_get_their_own_key) {
    // The reserve is what saves the system call; the policy (a fresh key per import that
    // hashes) stays. 17 graph inputs: more than a table compares without hashing.
    std::vector<uint8_t> graph;
    for (int i = 0; i < 17; ++i) {
        const std::vector<uint8_t> input{0x5a, 0x04, 0x0a, 0x02, 'v', static_cast<uint8_t>('a' + i)};
        graph.insert(graph.end(), input.begin(), input.end());
    }
    BOOST_TEST_REQUIRE(graph.size() < 0x80u);
    std::vector<uint8_t> model{0x08, 0x08, 0x3a, static_cast<uint8_t>(graph.size())};
    model.insert(model.end(), graph.begin(), graph.end());
    onnximport::Workspace ws;
    onnximport::ImportOptions o;
    o.workspace = &ws;
    std::set<std::pair<uint64_t, uint64_t>> seen;
    for (int i = 0; i < 20; ++i) {
        onnximport::Model m = onnximport::import_bytes(std::span<const uint8_t>(model), "m", o);
        BOOST_TEST_REQUIRE(m.graph()->values.size() == 17u);
        BOOST_TEST_REQUIRE(ModelAccess::storage_of(m)->hash_key.drawn());
        const HashKey& k = ModelAccess::storage_of(m)->hash_key.drawn_key();
        seen.insert({k.k0, k.k1});
    }
    BOOST_TEST(seen.size() == 20u);
}

BOOST_AUTO_TEST_CASE(an_import_that_hashes_no_name_draws_no_key) {
    // Three values: compared, not hashed (model/value_index.hpp, linear_records).
    const std::vector<uint8_t> model{
        0x08, 0x08,                                                                  // ir_version 8
        0x3a, 0x11,                                                                  // graph
        0x0a, 0x0a, 0x0a, 0x01, 'x', 0x12, 0x01, 'y', 0x22, 0x02, 'I', 'd',          //   node x -> Id -> y
        0x5a, 0x03, 0x0a, 0x01, 'x',                                                 //   input x
        0x42, 0x02, 0x10, 0x0d};                                                     // opset_import 13
    onnximport::Workspace ws;
    onnximport::ImportOptions o;
    o.workspace = &ws;
    onnximport::Model m = onnximport::import_bytes(std::span<const uint8_t>(model), "m", o);
    BOOST_TEST_REQUIRE(m.graph()->nodes.size() == 1u);
    BOOST_TEST(!ModelAccess::storage_of(m)->hash_key.drawn());
}

BOOST_AUTO_TEST_SUITE_END()
