#pragma once

// Qt
#include <QByteArray>

namespace Presence::Server {

// One Lua script as the client runs it (RedisClient::evalScript): its source, and its SHA1 for
// EVALSHA. Which scripts there are, and what they do, is the stores' business (RedisScripts).
struct RedisScript {
    QByteArray source;
    QByteArray sha1; // hex, for EVALSHA
};

} // namespace Presence::Server
