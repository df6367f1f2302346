#pragma once

// C++
#include <chrono>

// Presence
#include "protocol/TokenBucket.h"

namespace Presence::Server {

// A token bucket for one connection's incoming frames, plus the count of frames it
// dropped recently so that sustained abuse can be told apart from a burst.
// Time is passed in, so the logic is testable without waiting.
class RateLimiter {
public:
    using Clock = std::chrono::steady_clock;
    enum class Verdict { Accept, Drop, Abuse };

    RateLimiter(int framesPerSecond, int burst, int abuseDropLimit,
        std::chrono::milliseconds abuseWindow, Clock::time_point now = Clock::now());

    // Admit one frame arriving at `now`.
    [[nodiscard]] Verdict admit(Clock::time_point now);

private:
    Protocol::TokenBucket m_bucket;
    int m_abuseDropLimit;
    std::chrono::milliseconds m_abuseWindow;
    Clock::time_point m_windowStart;
    int m_droppedInWindow = 0;
};

} // namespace Presence::Server
