#pragma once

// Qt
#include <QString>

namespace Presence::Server {

class ServerCommandLine;
struct ServerOptions;

// The admin and heartbeat HTTP API: --admin, --admin-token or --admin-token-file,
// --admin-remote and --heartbeat-ttl-ms, checked and read into ServerOptions. Read after the
// listening options: with --tls-cert the API speaks HTTPS with the same certificate.
class AdminOptions {
public:
    [[nodiscard]] static bool read(
        const ServerCommandLine &line, ServerOptions &options, QString *error);
    // The admin token: printable ASCII without spaces, long enough not to be guessed.
    [[nodiscard]] static bool isAcceptableToken(const QString &token);
};

} // namespace Presence::Server
