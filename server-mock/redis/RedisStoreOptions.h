#pragma once

// C++
#include <chrono>

// Qt
#include <QByteArray>

// Presence
#include "server-mock/redis/client/RedisUrl.h"

namespace Presence::Server {

// Where and how the Redis presence store keeps presence (docs/redis.md).
struct RedisStoreOptions {
    RedisUrl url;
    QByteArray prefix = QByteArrayLiteral("presence:");
    // A connection's liveness in Redis lasts this long unless refreshed; the gateway that
    // holds it refreshes it every ttl / 3.
    std::chrono::milliseconds ttl { 30'000 };
    std::chrono::milliseconds grace { 5'000 };
    // How often this gateway looks for users whose devices expired or whose grace ended
    // (it also looks when Redis says the next one is due sooner).
    std::chrono::milliseconds sweepInterval { 1'000 };
    // Ids per pipelined snapshot round trip.
    int snapshotChunk = 500;
    // Devices renewed per refresh script run: the refresh goes a chunk at a time, the chunks
    // spread over its interval, so that Redis never holds everyone else up for all of them.
    int refreshChunk = 500;
    // Users settled per sweep script run (a long script blocks Redis for everyone).
    int sweepLimit = 200;
};

} // namespace Presence::Server
