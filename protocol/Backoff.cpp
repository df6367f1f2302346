#include "protocol/Backoff.h"

// C++
#include <algorithm>
#include <cmath>

namespace Presence::Protocol {

Backoff::Backoff(Policy policy, quint32 seed)
    : m_policy(policy)
    , m_random(seed)
{
}

std::chrono::milliseconds Backoff::ceiling(const Policy &policy, int attempt)
{
    const double grown = double(policy.base.count()) * std::pow(policy.factor, attempt);
    const double capped = std::min(grown, double(policy.cap.count()));
    return std::max(policy.floor, std::chrono::milliseconds(qint64(capped)));
}

std::chrono::milliseconds Backoff::next()
{
    const auto high = ceiling(m_policy, m_attempts);
    ++m_attempts;
    const qint64 low = std::min(m_policy.floor, high).count();
    return std::chrono::milliseconds(m_random.bounded(qint64(low), qint64(high.count()) + 1));
}

void Backoff::skipToCap()
{
    // Bounded: a policy whose ceilings stop growing below the cap must not spin here.
    for (auto reached = ceiling(m_policy, m_attempts); reached < m_policy.cap;) {
        ++m_attempts;
        const auto grown = ceiling(m_policy, m_attempts);
        if (grown <= reached)
            break;
        reached = grown;
    }
}

} // namespace Presence::Protocol
