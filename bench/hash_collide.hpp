// Names crafted to collide: under libstdc++'s std::hash<std::string_view>, which
// the importer's maps used before the one hashing policy, and under the importer's own
// previous multiply-and-shift hash_name (commit 7c3d4f1), whose collisions hold for every seed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gauntlet::bench {

/// libstdc++'s _Hash_bytes(p, n, 0xc70f6907), the hash of std::hash<std::string_view>,
/// written from the algorithm (MurmurHash64A's block step, then two shift-mixes).
uint64_t libstdcxx_hash(std::string_view s) noexcept;

/// The importer's hash_name of commit 7c3d4f1 (value_index.hpp), under `seed`.
uint64_t old_hash_name(std::string_view s, uint64_t seed) noexcept;

/// The characters of every generated name: printable ASCII without '/', '\\' and ':', so a
/// name is valid UTF-8, an external-data location and a plain file name alike.
bool name_char(unsigned char c) noexcept;

/// `count` distinct 16-byte names, each with the same std::hash<std::string_view> (checked
/// against the standard library's own). Deterministic for a given rng_seed.
std::vector<std::string> std_hash_colliding(size_t count, uint64_t rng_seed);

/// `count` distinct random names of `length` bytes from the same characters: the ordinary twins.
std::vector<std::string> ordinary_names(size_t count, uint64_t rng_seed, size_t length = 16);

/// `count` (at most 2^15) distinct 15-byte names, equal but for bytes 5 to 7, each one of 32
/// characters: what differs sits in the high bytes of the first 8-byte word, which a multiply
/// hash read from its low bits never sees, so under one they all share a value. The importer
/// hashes names under 16 bytes by multiply-shift (core/hash.hpp).
std::vector<std::string> high_bytes_only_names(size_t count);

/// `count` (even, at most 2^16) distinct 39-byte names in twins whose first two 8-byte words
/// are swapped, equal otherwise but for bytes 5 to 7 of the word that varies: a sum of word
/// products without a key word per word (NH's, core/hash.hpp) gives twins one value, and a
/// multiply read from its low bits sees none of the rest. The importer hashes names of 16 to
/// 112 bytes by NH, then multiply-shift.
std::vector<std::string> swapped_word_names(size_t count);

/// 2^bits distinct names of 8 * (bits + 1) bytes with the same old_hash_name for every
/// seed: a difference in bit 63 of a word passes the multiply unchanged, and the shift
/// that follows turns it into a difference the next word cancels. Each name but the first
/// has a byte whose top bit alone differs from an ASCII base, so none of those is valid UTF-8.
std::vector<std::string> old_hash_colliding(int bits, uint64_t rng_seed);

/// True when s is well-formed UTF-8 (no overlongs, surrogates or code points past U+10FFFF).
bool valid_utf8(std::string_view s) noexcept;

}  // namespace gauntlet::bench
