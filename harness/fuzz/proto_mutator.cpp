// Structure-aware mutation for the .onnx fuzz targets: libFuzzer's LLVMFuzzerCustomMutator and
// LLVMFuzzerCustomCrossOver, which understand the protobuf wire layout (proto_mutate.hpp).
//
// The build also makes each target without this file (TARGET_plain: libFuzzer's own
// mutators only), for the with/without comparison of `python3 -m gauntlet fuzz-compare`.
#include "proto_mutate.hpp"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

gauntlet_fuzz::proto::Mutator& mutator() {
    static gauntlet_fuzz::proto::Mutator m(LLVMFuzzerMutate);
    return m;
}

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
    return mutator().mutate(data, size, max_size, seed);
}

extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t* data1, size_t size1, const uint8_t* data2, size_t size2,
                                            uint8_t* out, size_t max_out_size, unsigned int seed) {
    return mutator().cross_over(data1, size1, data2, size2, out, max_out_size, seed);
}
