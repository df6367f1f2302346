#include "server-mock/redis/client/RedisLink.h"

namespace Presence::Server {

void RedisLink::relay(const RedisAsyncConnection *connection, Ready ready)
{
    connect(connection, &RedisAsyncConnection::stateChanged, this, &RedisLink::stateChanged);
    if (ready == Ready::Relayed)
        connect(connection, &RedisAsyncConnection::ready, this, &RedisLink::ready);
    connect(connection, &RedisAsyncConnection::connectionLost, this, &RedisLink::connectionLost);
    connect(connection, &RedisAsyncConnection::connectFailed, this, &RedisLink::connectFailed);
    connect(connection, &RedisAsyncConnection::retryScheduled, this, &RedisLink::retryScheduled);
}

} // namespace Presence::Server
