// The choice among fuzz_ort's structure-aware mutations (ort_mutate.hpp): one to three in a
// row, the buffer indexed again after each, so a shared object can be shared again.
#include "ort_mutate.hpp"

namespace gauntlet_fuzz::ort {

namespace {

/// Half the mutations change one place, half share, alias or grow references.
Mutation pick(std::mt19937& rng) {
    static const Mutation weighted[] = {mutate_place, mutate_place, mutate_place, mutate_place, mutate_place,
                                        retarget,     retarget,     overlap,      duplicate,    grow};
    return weighted[rng() % (sizeof weighted / sizeof weighted[0])];
}

}  // namespace

size_t mutate(uint8_t* data, size_t size, size_t max_size, std::mt19937& rng) {
    Index ix = index_of(data, size);
    if (!ix.complete || ix.refs.empty()) return 0;
    size_t out = 0;
    for (unsigned steps = 1 + rng() % 3, i = 0; i < steps; ++i) {
        const size_t next = pick(rng)(data, size, max_size, ix, rng);
        if (!next) continue;
        out = size = next;
        if (i + 1 < steps) ix = index_of(data, size);
    }
    return out;
}

}  // namespace gauntlet_fuzz::ort
