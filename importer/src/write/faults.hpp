// The output layer's test seam: a write failure injected after a number of bytes, short
// writes, the named-temporary fallback, and a kill at the Nth file-system step (suite
// write_kill). Null everywhere but in tests; never a process-wide switch.
#pragma once

#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <mutex>

namespace onnximport::detail {

struct WriteFaults {
    /// Bytes written (over all files of one output) before every further write fails.
    uint64_t fail_after = std::numeric_limits<uint64_t>::max();
    int error = ENOSPC;  ///< the errno the failing write reports
    /// Each write call passes at most this many bytes to the kernel: short writes.
    size_t max_chunk = std::numeric_limits<size_t>::max();
    /// Temporary names even where O_TMPFILE works: the fallback's own test.
    bool named_temporaries = false;
    /// Publishing without replacing takes the link-and-unlink fallback even where
    /// renameat2(RENAME_NOREPLACE) works: the fallback's own test.
    bool link_publish = false;
    /// The writer raises SIGKILL instead of taking its step number `kill_at_step` (from 1; 0:
    /// never). A step is each file-system action another process could see: creating a file,
    /// each write call, an fsync, naming (link), a rename, an unlink, the folder's fsync.
    uint64_t kill_at_step = 0;

    /// Called before each step; counts it and dies at kill_at_step (docs/write.md, "What a kill can leave").
    void step() {
        std::lock_guard<std::mutex> lock(mutex_);
        if (++steps_ == kill_at_step) ::raise(SIGKILL);
    }
    /// Steps taken so far.
    uint64_t steps() {
        std::lock_guard<std::mutex> lock(mutex_);
        return steps_;
    }

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
    uint64_t steps_ = 0;
};

/// One step of a writer (WriteFaults::step), nothing without a seam.
inline void step(WriteFaults* faults) {
    if (faults) faults->step();
}

}  // namespace onnximport::detail
