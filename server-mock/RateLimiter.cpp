#include "server-mock/RateLimiter.h"

#include <algorithm>

namespace Presence::Gateway {

RateLimiter::RateLimiter(int framesPerSecond, int burst, int abuseDropLimit,
    std::chrono::milliseconds abuseWindow, Clock::time_point now)
    : m_ratePerSecond(std::max(1, framesPerSecond))
    , m_capacity(std::max(1, burst))
    , m_tokens(m_capacity)
    , m_lastRefill(now)
    , m_abuseDropLimit(abuseDropLimit)
    , m_abuseWindow(abuseWindow)
    , m_windowStart(now)
{
}

RateLimiter::Verdict RateLimiter::admit(Clock::time_point now)
{
    if (now > m_lastRefill) {
        const std::chrono::duration<double> elapsed = now - m_lastRefill;
        m_tokens = std::min(m_capacity, m_tokens + elapsed.count() * m_ratePerSecond);
        m_lastRefill = now;
    }
    if (m_tokens >= 1.0) {
        m_tokens -= 1.0;
        return Verdict::Accept;
    }
    if (now - m_windowStart > m_abuseWindow) {
        m_windowStart = now;
        m_droppedInWindow = 0;
    }
    ++m_droppedInWindow;
    return m_droppedInWindow > m_abuseDropLimit ? Verdict::Abuse : Verdict::Drop;
}

} // namespace Presence::Gateway
