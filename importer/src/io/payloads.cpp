// Touching payload pages on shares of threads (payloads.hpp).
#include "io/payloads.hpp"

#include "core/pool.hpp"

#include <algorithm>
#include <vector>

namespace onnximport::detail {

namespace {

/// The bytes a range's pages are touched at: its first byte and every page start after
/// it. The set depends on the range alone, so the sum does not depend on the shares.
uint64_t touch_piece(const ByteRange& r, uint64_t from, uint64_t to) {
    uint64_t sum = 0;
    if (from == 0 && to > 0) sum += r.data[0];
    const auto base = reinterpret_cast<uintptr_t>(r.data);
    const uintptr_t lo = base + std::max<uint64_t>(from, 1), hi = base + to;
    for (uintptr_t p = (lo + share_grain - 1) / share_grain * share_grain; p < hi; p += share_grain)
        sum += *reinterpret_cast<const volatile uint8_t*>(p);
    return sum;
}

}  // namespace

uint64_t touch_pages(std::span<const ByteRange> ranges, unsigned threads) {
    // The ranges laid end to end: range i covers [starts[i], starts[i + 1]) of that line.
    std::vector<uint64_t> starts(ranges.size() + 1, 0);
    for (size_t i = 0; i < ranges.size(); ++i) starts[i + 1] = starts[i] + ranges[i].size;
    const uint64_t total = starts.back();
    const unsigned n = total >= parallel_min_bytes ? std::max(threads, 1u) : 1u;
    std::vector<uint64_t> sums(n, 0);
    run_shares(n, total, share_grain, [&](unsigned share, uint64_t b, uint64_t e) {
        size_t i = static_cast<size_t>(std::upper_bound(starts.begin(), starts.end(), b) - starts.begin()) - 1;
        for (; i < ranges.size() && starts[i] < e; ++i) {
            const uint64_t from = std::max(b, starts[i]) - starts[i], to = std::min(e, starts[i + 1]) - starts[i];
            sums[share] += touch_piece(ranges[i], from, to);
        }
    });
    uint64_t sum = 0;
    for (uint64_t s : sums) sum += s;
    return sum;
}

}  // namespace onnximport::detail
