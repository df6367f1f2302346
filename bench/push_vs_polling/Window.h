#pragma once

// C++
#include <chrono>

// Presence
#include "bench/push_vs_polling/Clock.h"

namespace PushPollingBench {

// The measured window, set when the changes start; empty until then.
struct Window {
    Clock::time_point start = Clock::time_point::max();
    Clock::time_point end = Clock::time_point::max();
    [[nodiscard]] bool contains(Clock::time_point at) const { return at >= start && at < end; }
    [[nodiscard]] double seconds() const
    {
        return std::chrono::duration<double>(end - start).count();
    }
};

} // namespace PushPollingBench
