// Touching payload pages on shares of threads (payloads.hpp).
#include "io/payloads.hpp"

#include "core/intervals.hpp"
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
    // Tensors may alias one range any number of times: each byte is touched once.
    std::vector<Interval> places(ranges.size());
    for (size_t i = 0; i < ranges.size(); ++i) {
        const auto at = reinterpret_cast<uintptr_t>(ranges[i].data);
        places[i] = {0, at, at + ranges[i].size};
    }
    const Unions unions = union_of(places);
    std::vector<ByteRange> spans;
    std::vector<uint64_t> sizes;
    uint64_t total = 0;
    for (const Interval& v : unions.spans) {
        spans.push_back({reinterpret_cast<const uint8_t*>(v.begin), v.end - v.begin});
        total += sizes.emplace_back(v.end - v.begin);
    }
    const unsigned n = total >= parallel_min_bytes ? std::max(threads, 1u) : 1u;
    std::vector<uint64_t> sums(n, 0);
    run_pieces(n, sizes, share_grain, [&](unsigned share, size_t i, uint64_t from, uint64_t to) {
        sums[share] += touch_piece(spans[i], from, to);
    });
    uint64_t sum = 0;
    for (uint64_t s : sums) sum += s;
    return sum;
}

}  // namespace onnximport::detail
