#include "server-mock/server/RateLimiter.h"

// C++
#include <algorithm>

namespace Presence::Server {

RateLimiter::RateLimiter(int framesPerSecond, int burst, int abuseDropLimit,
    std::chrono::milliseconds abuseWindow, Clock::time_point now)
    : m_bucket(std::max(1, framesPerSecond), std::max(1, burst), now)
    , m_abuseDropLimit(abuseDropLimit)
    , m_abuseWindow(abuseWindow)
    , m_windowStart(now)
{
}

RateLimiter::Verdict RateLimiter::admit(Clock::time_point now)
{
    if (m_bucket.tryTake(now))
        return Verdict::Accept;
    if (now - m_windowStart > m_abuseWindow) {
        m_windowStart = now;
        m_droppedInWindow = 0;
    }
    ++m_droppedInWindow;
    return m_droppedInWindow > m_abuseDropLimit ? Verdict::Abuse : Verdict::Drop;
}

} // namespace Presence::Server
