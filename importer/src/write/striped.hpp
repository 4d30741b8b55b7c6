// The writers' parallel step until the importer's pool (core/pool.hpp) takes it over: item
// i of `count` on thread i % n, n = min(threads, count); the first failure is rethrown once
// every thread has joined. Threads only when the caller asked for more than one.
#pragma once

#include <algorithm>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace onnximport::detail {

template <class Job>
void run_striped(size_t count, unsigned threads, const Job& job) {
    const size_t n = std::min<size_t>(threads ? threads : 1, count);
    auto run = [&](size_t first, size_t stride) {
        for (size_t i = first; i < count; i += stride) job(i);
    };
    if (n <= 1) return run(0, 1);
    std::vector<std::exception_ptr> errors(n);
    std::vector<std::thread> pool;
    for (size_t t = 0; t < n; ++t)
        pool.emplace_back([&, t] {
            try {
                run(t, n);
            } catch (...) {
                errors[t] = std::current_exception();
            }
        });
    for (auto& th : pool) th.join();
    for (auto& err : errors)
        if (err) std::rethrow_exception(err);
}

}  // namespace onnximport::detail
