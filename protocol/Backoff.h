#pragma once

// C++
#include <chrono>

// Qt
#include <QRandomGenerator>

namespace Presence::Protocol {

using namespace std::chrono_literals;

struct BackoffPolicy {
    std::chrono::milliseconds base = 500ms;
    double factor = 2.0;
    std::chrono::milliseconds cap = 30s;
    // Never retry sooner than this, so a jitter of zero cannot spin.
    std::chrono::milliseconds floor = 100ms;
};

// Retry delays: exponential ceilings with full jitter. Attempt n (from 0) waits a uniformly
// random time in [floor, min(cap, base * factor^n)], so a crowd that lost the same server (clients
// their gateway, gateways their Redis) does not come back in lockstep.
class Backoff {
public:
    using Policy = BackoffPolicy;

    explicit Backoff(Policy policy = {}, quint32 seed = QRandomGenerator::system()->generate());

    // The delay before the next attempt; counts the attempt.
    [[nodiscard]] std::chrono::milliseconds next();
    // Attempts counted since the last reset.
    [[nodiscard]] int attempts() const { return m_attempts; }
    void reset() { m_attempts = 0; }
    // Counts attempts until the ceiling reaches the cap, or stops growing below it: the next
    // delay is drawn from the widest range. For a peer that asked us to slow down.
    void skipToCap();

    // The largest delay attempt n can get (the jitter's upper bound).
    [[nodiscard]] static std::chrono::milliseconds ceiling(const Policy &policy, int attempt);
    [[nodiscard]] const Policy &policy() const { return m_policy; }

private:
    Policy m_policy;
    QRandomGenerator m_random;
    int m_attempts = 0;
};

} // namespace Presence::Protocol
