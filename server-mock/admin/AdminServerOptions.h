#pragma once

// C++
#include <chrono>
#include <optional>

// Qt
#include <QHostAddress>
#include <QSslConfiguration>
#include <QString>

// Presence
#include "server-mock/http/HttpLimits.h"

namespace Presence::Server {

// How an AdminServer listens and what it allows; defaults are the documented ones
// (docs/admin-api.md).
struct AdminServerOptions {
    // Loopback by default. Any other address exposes the admin endpoints (fault injection,
    // simulated presence) to the network, guarded by the admin token alone, over plain HTTP:
    // refusing such an address unless asked for is the caller's job.
    QHostAddress address = QHostAddress::LocalHost;
    quint16 port = 0; // 0 picks a free port
    // The bearer token of the /admin endpoints; empty turns them off (403).
    QString adminToken;
    // Told to heartbeat clients as ttl_ms: how long one POST /api/heartbeat keeps them
    // present. It must be what AdminBackend::heartbeat() applies; the default is the silence a
    // WebSocket client is allowed (heartbeat 25 s + slack 10 s).
    std::chrono::milliseconds heartbeatTtl { 35'000 };
    // Ids in one GET /api/presence, duplicates counted, as max_ids_per_request in the protocol.
    int maxIdsPerRequest = 500;
    // A token bucket per peer address, over every request (any endpoint, any answer).
    double requestsPerSecond = 50;
    double requestBurst = 100;
    HttpLimits http;
    // HTTPS with this identity (HttpsIdentity, from --tls-cert and --tls-key); unset: HTTP.
    std::optional<QSslConfiguration> tls;
};

} // namespace Presence::Server
