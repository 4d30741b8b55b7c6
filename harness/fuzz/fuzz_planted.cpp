// fuzz_planted: a test-only target with a planted bug, for the tests of the
// nightly campaign itself (python/gauntlet/fuzz/triage_test.py).
// An input that starts with "PLANT" is copied into a heap buffer of its own size and the
// byte one past the end is read: ASan reports a heap-buffer-overflow, always from the
// same frames whatever follows the prefix, so every such input has one stack signature
// and a campaign must file it once. It links no importer code and is never fuzzed by
// default (python/gauntlet/fuzz/paths.py TEST_ONLY_TARGETS).
//
// Oracle: none; the bug is the point.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

namespace {

__attribute__((noinline)) uint8_t planted_read_past_end(const uint8_t* data, size_t size) {
    std::unique_ptr<uint8_t[]> copy(new uint8_t[size]);
    std::memcpy(copy.get(), data, size);
    return copy[size];  // the planted bug
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size >= 5 && std::memcmp(data, "PLANT", 5) == 0) {
        volatile uint8_t sink = planted_read_past_end(data, size);
        (void)sink;
    }
    return 0;
}
