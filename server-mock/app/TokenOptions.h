#pragma once

// Qt
#include <QString>

namespace Presence::Server {

class ServerCommandLine;
struct GatewayConfig;

// Who may sign in besides the users file's tokens: --jwt-hs256-secret-file and
// --jwt-public-key-file, each [KID=]FILE and repeatable, read as one JSON Web Token verifier
// into the gateway's config (none when neither is given).
class TokenOptions {
public:
    [[nodiscard]] static bool read(
        const ServerCommandLine &line, GatewayConfig &config, QString *error);
};

} // namespace Presence::Server
