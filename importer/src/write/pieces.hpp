// Ranges laid end to end and split into the byte shares of core/pool.hpp: how the writers
// spread tensor copies over the threads asked for. piece(range, from, to) is called for
// each part [from, to) of a range that falls in a share, the parts of one share in order.
#pragma once

#include "core/pool.hpp"

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace onnximport::detail {

template <class Piece>
void run_pieces(unsigned threads, std::span<const uint64_t> sizes, uint64_t grain, const Piece& piece) {
    std::vector<uint64_t> starts(sizes.size() + 1, 0);  // starts[i]: where range i begins
    for (size_t i = 0; i < sizes.size(); ++i) starts[i + 1] = starts[i] + sizes[i];
    if (starts.back() == 0) return;
    run_shares(threads ? threads : 1, starts.back(), grain, [&](unsigned, uint64_t begin, uint64_t end) {
        // The first range that ends after `begin`.
        size_t i = static_cast<size_t>(std::upper_bound(starts.begin(), starts.end(), begin) - starts.begin()) - 1;
        for (; i < sizes.size() && starts[i] < end; ++i) {
            const uint64_t from = std::max(begin, starts[i]) - starts[i];
            const uint64_t to = std::min(end, starts[i + 1]) - starts[i];
            if (from < to) piece(i, from, to);
        }
    });
}

}  // namespace onnximport::detail
