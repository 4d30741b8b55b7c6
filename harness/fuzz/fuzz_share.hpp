// Which inputs a fuzz target gives its expensive checks (docs/fuzzing.md, "What each
// execution checks"): every input gets the target's fast checks; a fixed share of inputs,
// chosen by a hash of their bytes, also gets the checks that cost many imports' time
// (dumps, threads, files). The choice depends on the bytes alone, so an input that breaks
// an expensive check breaks it again on replay. GAUNTLET_FUZZ_FULL_ORACLE=1 in the
// environment gives every input every check (ctest's replays of the corpora set it).
#pragma once

#include "fuzz_check.hpp"

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>

namespace gauntlet_fuzz {

/// One input in this many gets the expensive checks. They cost 8 to 12 times the fast ones
/// in the replay drivers (docs/fuzzing.md, "What each execution checks"), so at one in 16
/// the fast checks take most of the time again while every kind of input still meets the
/// expensive ones often.
inline constexpr uint64_t expensive_check_share = 16;

/// A hash of the bytes, fixed across builds and runs: eight bytes a step (a rotate, an xor
/// and a multiply each), then a finalizer that makes every bit of the result depend on all
/// of them. Byte by byte (FNV-1a), one multiply waited for the last on every byte of every
/// input (docs/performance-history.md, "The fuzz rows, 2026-12-05").
GAUNTLET_NO_COVERAGE inline uint64_t input_hash(std::span<const uint8_t> bytes) noexcept {
    constexpr uint64_t k = 0x517cc1b727220a95u;
    uint64_t h = bytes.size();
    size_t at = 0;
    for (; at + 8 <= bytes.size(); at += 8) {
        uint64_t word;
        std::memcpy(&word, bytes.data() + at, 8);
        h = (std::rotl(h, 5) ^ word) * k;
    }
    uint64_t tail = 0;
    if (at < bytes.size()) std::memcpy(&tail, bytes.data() + at, bytes.size() - at);
    h = (std::rotl(h, 5) ^ tail) * k;
    // MurmurHash3's 64-bit finalizer.
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdu;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53u;
    return h ^ (h >> 33);
}

inline bool full_oracle_everywhere() noexcept {
    static const bool full = [] {
        const char* v = std::getenv("GAUNTLET_FUZZ_FULL_ORACLE");
        return v && std::strcmp(v, "1") == 0;
    }();
    return full;
}

/// True for the inputs that get the expensive checks.
inline bool gets_expensive_checks(std::span<const uint8_t> bytes) noexcept {
    return full_oracle_everywhere() || input_hash(bytes) % expensive_check_share == 0;
}

}  // namespace gauntlet_fuzz
