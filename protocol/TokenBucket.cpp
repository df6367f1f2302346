#include "protocol/TokenBucket.h"

// C++
#include <algorithm>
#include <cmath>

namespace Presence::Protocol {

TokenBucket::TokenBucket(double ratePerSecond, double capacity, Clock::time_point now)
    : m_ratePerSecond(std::max(0.001, ratePerSecond))
    , m_capacity(std::max(1.0, capacity))
    , m_tokens(m_capacity)
    , m_lastRefill(now)
{
}

void TokenBucket::refill(Clock::time_point now)
{
    if (now <= m_lastRefill)
        return;
    const std::chrono::duration<double> elapsed = now - m_lastRefill;
    m_tokens = std::min(m_capacity, m_tokens + elapsed.count() * m_ratePerSecond);
    m_lastRefill = now;
}

bool TokenBucket::tryTake(Clock::time_point now)
{
    refill(now);
    if (m_tokens < 1.0)
        return false;
    m_tokens -= 1.0;
    return true;
}

std::chrono::milliseconds TokenBucket::timeUntilToken(Clock::time_point now)
{
    refill(now);
    if (m_tokens >= 1.0)
        return std::chrono::milliseconds(0);
    const double seconds = (1.0 - m_tokens) / m_ratePerSecond;
    return std::chrono::milliseconds(qint64(std::ceil(seconds * 1000.0)));
}

} // namespace Presence::Protocol
