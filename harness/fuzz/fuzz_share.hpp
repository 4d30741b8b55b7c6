// Which inputs a fuzz target gives its expensive checks (docs/fuzzing.md, "What each
// execution checks"): every input gets the target's fast checks; a fixed share of inputs,
// chosen by a hash of their bytes, also gets the checks that cost many imports' time
// (dumps, threads, files). The choice depends on the bytes alone, so an input that breaks
// an expensive check breaks it again on replay. GAUNTLET_FUZZ_FULL_ORACLE=1 in the
// environment gives every input every check (ctest's replays of the corpora set it).
#pragma once

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

/// FNV-1a of the bytes: cheap beside one import, and fixed across builds and runs.
inline uint64_t input_hash(std::span<const uint8_t> bytes) noexcept {
    uint64_t h = 0xcbf29ce484222325u;
    for (uint8_t b : bytes) h = (h ^ b) * 0x100000001b3u;
    return h;
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
