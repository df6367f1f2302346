#include "server-mock/http/PeerRateLimiter.h"

// C++
#include <algorithm>

// Qt
#include <QHostAddress>

namespace Presence::Server {

namespace {

// Sweeping only past this many peers keeps the common case (a few local tools) free of work.
constexpr qsizetype kSweepAbove = 256;

// 127.0.0.1 and ::ffff:127.0.0.1 are the same peer on a dual-stack socket.
QString keyOf(const QHostAddress &peer)
{
    bool isV4 = false;
    const quint32 v4 = peer.toIPv4Address(&isV4);
    return isV4 ? QHostAddress(v4).toString() : peer.toString();
}

} // namespace

PeerRateLimiter::PeerRateLimiter(double requestsPerSecond, double burst)
    : m_requestsPerSecond(requestsPerSecond)
    , m_burst(burst)
    , m_refillTime(burst / std::max(0.001, requestsPerSecond))
{
}

bool PeerRateLimiter::admit(
    const QHostAddress &peer, Clock::time_point now, std::chrono::milliseconds *retryAfter)
{
    const QString key = keyOf(peer);
    auto it = m_peers.find(key);
    if (it == m_peers.end()) {
        if (m_peers.size() >= kSweepAbove)
            forgetIdlePeers(now);
        it = m_peers.insert(
            key, Peer { Protocol::TokenBucket(m_requestsPerSecond, m_burst, now), now });
    }
    it->lastSeen = now;
    if (it->bucket.tryTake(now))
        return true;
    if (retryAfter)
        *retryAfter = it->bucket.timeUntilToken(now);
    return false;
}

void PeerRateLimiter::forgetIdlePeers(Clock::time_point now)
{
    m_peers.removeIf(
        [&](QHash<QString, Peer>::iterator it) { return now - it->lastSeen >= m_refillTime; });
}

} // namespace Presence::Server
