#pragma once

// C++
#include <chrono>

// Qt
#include <QHash>
#include <QString>

// Presence
#include "protocol/TokenBucket.h"

class QHostAddress;

namespace Presence::Server {

// One token bucket per peer address: the admin HTTP server's requests-per-second rule. Time is
// passed in (testable). A bucket left alone long enough to be full again is forgotten, since a
// new one would be the same; the table stays as small as the set of recent peers.
class PeerRateLimiter {
public:
    using Clock = std::chrono::steady_clock;

    PeerRateLimiter(double requestsPerSecond, double burst);

    // Takes a token for peer; when there is none, false and *retryAfter (if given) says how
    // long until there will be one.
    [[nodiscard]] bool admit(const QHostAddress &peer, Clock::time_point now,
        std::chrono::milliseconds *retryAfter = nullptr);

private:
    struct Peer {
        Protocol::TokenBucket bucket;
        Clock::time_point lastSeen;
    };

    void forgetIdlePeers(Clock::time_point now);

    double m_requestsPerSecond;
    double m_burst;
    std::chrono::duration<double> m_refillTime; // empty to full
    QHash<QString, Peer> m_peers;
};

} // namespace Presence::Server
