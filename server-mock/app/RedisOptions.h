#pragma once

// Qt
#include <QString>

namespace Presence::Server {

class ServerCommandLine;
struct ServerOptions;

// Presence, chats and friends in Redis, shared by every gateway that uses it: --redis,
// --redis-prefix, --ttl-ms and --friends-from-redis, checked and read into ServerOptions. Read
// after the connections' options: the store's grace is the gateway's.
class RedisOptions {
public:
    [[nodiscard]] static bool read(
        const ServerCommandLine &line, ServerOptions &options, QString *error);
};

} // namespace Presence::Server
