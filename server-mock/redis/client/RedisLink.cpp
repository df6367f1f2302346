#include "server-mock/redis/client/RedisLink.h"

namespace Presence::Server {

void RedisLink::relay(const RedisLink *owned, Ready ready)
{
    connect(owned, &RedisLink::stateChanged, this, &RedisLink::stateChanged);
    if (ready == Ready::Relayed)
        connect(owned, &RedisLink::ready, this, &RedisLink::ready);
    connect(owned, &RedisLink::connectionLost, this, &RedisLink::connectionLost);
    connect(owned, &RedisLink::connectFailed, this, &RedisLink::connectFailed);
    connect(owned, &RedisLink::retryScheduled, this, &RedisLink::retryScheduled);
}

} // namespace Presence::Server
