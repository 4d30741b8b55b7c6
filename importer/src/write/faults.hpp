// The output layer's test seam: a write failure injected after a number of bytes, and
// short writes. Null everywhere but in tests; never a process-wide switch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <mutex>

namespace onnximport::detail {

struct WriteFaults {
    /// Bytes written (over all files of one output) before every further write fails.
    uint64_t fail_after = std::numeric_limits<uint64_t>::max();
    int error = 28;  ///< ENOSPC, the errno the failing write reports
    /// Each write call passes at most this many bytes to the kernel: short writes.
    size_t max_chunk = std::numeric_limits<size_t>::max();

    /// How many of `wanted` bytes the next write may pass; 0 means fail with `error`.
    size_t allow(size_t wanted) {
        std::lock_guard<std::mutex> lock(mutex_);  // the writers' threads share one budget
        if (written_ >= fail_after) return 0;
        uint64_t n = wanted < max_chunk ? wanted : max_chunk;
        if (n > fail_after - written_) n = fail_after - written_;
        written_ += n;
        return static_cast<size_t>(n);
    }

private:
    std::mutex mutex_;
    uint64_t written_ = 0;
};

}  // namespace onnximport::detail
