// The writers' progress reports: WriteOptions::progress called every 16 MiB written and
// at the end, from whichever thread wrote (one at a time).
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>

namespace onnximport::detail {

class Progress {
public:
    Progress(const std::function<void(uint64_t, uint64_t)>& report, uint64_t total) : report_(report), total_(total) {}

    void advance(uint64_t bytes) {
        if (!report_) return;
        std::lock_guard<std::mutex> lock(mutex_);
        done_ += bytes;
        if (done_ < next_ && done_ < total_) return;
        next_ = done_ + step;
        report_(done_, total_);
    }

private:
    static constexpr uint64_t step = uint64_t{16} << 20;
    const std::function<void(uint64_t, uint64_t)>& report_;
    uint64_t total_;
    uint64_t done_ = 0;
    uint64_t next_ = step;
    std::mutex mutex_;
};

}  // namespace onnximport::detail
