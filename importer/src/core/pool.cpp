// Shares and their threads (pool.hpp).
#include "core/pool.hpp"

#include <algorithm>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

namespace onnximport::detail {

namespace {

/// Where share k of n starts: k * total / n rounded down to the grain (share n ends at total).
uint64_t share_start(unsigned k, unsigned n, uint64_t total, uint64_t grain) {
    if (k >= n) return total;
    const uint64_t even = total / n * k + total % n * k / n;  // k * total / n without overflow
    return even / grain * grain;
}

}  // namespace

void run_shares(unsigned threads, uint64_t total, uint64_t grain,
                const std::function<void(unsigned, uint64_t, uint64_t)>& work) {
    const unsigned n = threads == 0 ? 1 : threads;
    if (grain == 0) grain = 1;
    std::vector<std::exception_ptr> errors(n);
    auto run = [&](unsigned k) {
        try {
            const uint64_t b = share_start(k, n, total, grain), e = share_start(k + 1, n, total, grain);
            if (b < e) work(k, b, e);
        } catch (...) {
            errors[k] = std::current_exception();
        }
    };
    std::vector<std::thread> helpers;
    helpers.reserve(n - 1);
    std::vector<unsigned> unstarted;
    for (unsigned k = 1; k < n; ++k) {
        try {
            helpers.emplace_back(run, k);
        } catch (const std::system_error&) {
            unstarted.push_back(k);  // no thread to be had: the share is done here instead
        }
    }
    run(0);
    for (unsigned k : unstarted) run(k);
    for (std::thread& t : helpers) t.join();
    for (const std::exception_ptr& e : errors)
        if (e) std::rethrow_exception(e);
}

void run_pieces(unsigned threads, std::span<const uint64_t> sizes, uint64_t grain,
                const std::function<void(unsigned, size_t, uint64_t, uint64_t)>& piece) {
    // Range i covers [starts[i], starts[i + 1]) of the line.
    std::vector<uint64_t> starts(sizes.size() + 1, 0);
    for (size_t i = 0; i < sizes.size(); ++i) starts[i + 1] = starts[i] + sizes[i];
    run_shares(threads, starts.back(), grain, [&](unsigned share, uint64_t b, uint64_t e) {
        size_t i = static_cast<size_t>(std::upper_bound(starts.begin(), starts.end(), b) - starts.begin()) - 1;
        for (; i < sizes.size() && starts[i] < e; ++i) {
            const uint64_t from = std::max(b, starts[i]) - starts[i], to = std::min(e, starts[i + 1]) - starts[i];
            if (from < to) piece(share, i, from, to);
        }
    });
}

}  // namespace onnximport::detail
