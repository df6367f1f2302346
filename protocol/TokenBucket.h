#pragma once

// C++
#include <chrono>

// Qt
#include <QtGlobal>

namespace Presence::Protocol {

// The frame-rate rule of the protocol as a token bucket: `rate` frames per second sustained,
// `capacity` in a burst. The gateway polices incoming frames with it; clients pace their own
// frames with it so that they are never the ones rate-limited. Time is passed in (testable).
class TokenBucket {
public:
    using Clock = std::chrono::steady_clock;

    TokenBucket(double ratePerSecond, double capacity, Clock::time_point now = Clock::now());

    // Takes one token if there is one.
    [[nodiscard]] bool tryTake(Clock::time_point now);
    // How long until a token will be there (zero if one is).
    [[nodiscard]] std::chrono::milliseconds timeUntilToken(Clock::time_point now);

private:
    void refill(Clock::time_point now);

    double m_ratePerSecond;
    double m_capacity;
    double m_tokens;
    Clock::time_point m_lastRefill;
};

} // namespace Presence::Protocol
