// The clock of ImportOptions::times (onnximport/options.hpp): each lap adds the time since
// the last one to a step. Without times to fill it reads no clock.
#pragma once

#include <onnximport/options.hpp>

#include <chrono>

namespace onnximport::detail {

class StepClock {
public:
    explicit StepClock(ImportTimes* times) : times_(times) {
        if (times_) last_ = Clock::now();
    }

    /// The time since the last lap (or since the clock was made) goes to `step`.
    void lap(double ImportTimes::*step) {
        if (!times_) return;
        const Clock::time_point now = Clock::now();
        times_->*step += std::chrono::duration<double>(now - last_).count();
        last_ = now;
    }

private:
    using Clock = std::chrono::steady_clock;
    ImportTimes* times_;
    Clock::time_point last_{};
};

}  // namespace onnximport::detail
