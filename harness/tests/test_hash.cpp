// The one hashing policy for names from the input (core/hash.hpp): keyed per
// import, and free of the seed-independent collisions a multiply-and-shift hash has.
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

}  // namespace

BOOST_AUTO_TEST_SUITE(hashing)

BOOST_AUTO_TEST_CASE(the_tail_loads_give_the_bytewise_siphash_for_every_length) {
    const HashKey key{0x0706050403020100ull, 0x0f0e0d0c0b0a0908ull};
    for (size_t n = 0; n <= 40; ++n) {
        std::string s(n, '\0');
        for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>(0x80 + 37 * i + n);  // every byte distinct and high
        // The name sits at the end of its buffer, so a load past it would be caught by the sanitizers.
        std::vector<char> buffer(s.begin(), s.end());
        BOOST_TEST(hash_name(std::string_view(buffer.data(), n), key) == reference_siphash13(s, key), "length " << n);
    }
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
    // SipHash's encoding of the last word (bytes, then the length in the top byte).
    const HashKey key{1, 2};
    std::set<uint64_t> seen;
    for (size_t n = 0; n <= 24; ++n) seen.insert(hash_name(std::string(n, '\0'), key));
    BOOST_TEST(seen.size() == 25u);
}

BOOST_AUTO_TEST_CASE(the_key_decides_the_hash_and_every_import_draws_its_own) {
    const HashKey a = random_hash_key(), b = random_hash_key();
    BOOST_TEST((a.k0 != b.k0 || a.k1 != b.k1));
    BOOST_TEST(hash_name("input_0", a) == hash_name("input_0", a));
    BOOST_TEST(hash_name("input_0", a) != hash_name("input_0", b));
    BOOST_TEST(hash_name("input_0", HashKey{1, 2}) != hash_name("input_0", HashKey{1, 3}));
}

BOOST_AUTO_TEST_CASE(a_reserve_hands_out_each_key_once_across_its_batches) {
    // Three batches and more: a reserve that handed a key out twice, or refilled wrongly at a
    // batch's end, gives a repeat (or zero keys, which an erased slot would hold).
    HashKeyReserve reserve;
    std::set<std::pair<uint64_t, uint64_t>> seen;
    for (int i = 0; i < 50; ++i) {
        const HashKey k = reserve.take();
        BOOST_TEST((k.k0 != 0 || k.k1 != 0));
        seen.insert({k.k0, k.k1});
    }
    BOOST_TEST(seen.size() == 50u);
}

BOOST_AUTO_TEST_CASE(imports_with_one_workspace_each_get_their_own_key) {
    // The reserve is what saves the system call; the policy (a fresh key per import) stays.
    const std::vector<uint8_t> model{0x08, 0x08, 0x3a, 0x00};  // ir_version 8 and an empty graph
    onnximport::Workspace ws;
    onnximport::ImportOptions o;
    o.workspace = &ws;
    std::set<std::pair<uint64_t, uint64_t>> seen;
    for (int i = 0; i < 20; ++i) {
        const onnximport::Model m = onnximport::import_bytes(std::span<const uint8_t>(model), "m", o);
        const HashKey k = ModelAccess::storage_of(m)->hash_key;
        seen.insert({k.k0, k.k1});
    }
    BOOST_TEST(seen.size() == 20u);
}

BOOST_AUTO_TEST_SUITE_END()
