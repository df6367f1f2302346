#pragma once

// Qt
#include <QString>

namespace Presence::Server {

class ServerCommandLine;
struct GatewayConfig;

// What each connection is served and allowed, and how long the gateway waits for it: the
// timers (--grace-ms, --heartbeat-ms, --hello-timeout-ms, --drain-ms), the limits
// (--max-subscriptions, --max-ids-per-request, --max-availability-friends, --max-frame-bytes,
// --rate-limit, --rate-burst), the intervals of availability changes and digests, and
// --no-chat, checked and read into the gateway's config.
class ConnectionOptions {
public:
    [[nodiscard]] static bool read(
        const ServerCommandLine &line, GatewayConfig &config, QString *error);
};

} // namespace Presence::Server
