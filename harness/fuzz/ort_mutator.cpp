// Structure-aware mutation for fuzz_ort: libFuzzer's LLVMFuzzerCustomMutator. A buffer that
// reads as an InferenceSession of importer/schema/ort.fbs is indexed (ort_index.hpp) and
// mutated as FlatBuffers lays it out (ort_mutate.hpp): places changed, objects shared,
// aliased and referenced many times over, so mutants still verify often enough to reach the
// reader's semantic checks and its budget. A share of mutations stay byte-level
// (LLVMFuzzerMutate), and buffers that do not read as a whole get only those.
#include "ort_mutate.hpp"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
    std::mt19937 rng(seed);
    if (size < 8 || rng() % 5 == 0) return LLVMFuzzerMutate(data, size, max_size);
    const size_t out = gauntlet_fuzz::ort::mutate(data, size, max_size, rng);
    return out ? out : LLVMFuzzerMutate(data, size, max_size);
}
