#pragma once

// C++
#include <optional>

// Qt
#include <QHostAddress>
#include <QString>

namespace Presence::Server {

class ServerCommandLine;
struct ServerOptions;

// Where and how the gateway listens: --listen, --transport, --allow-origin,
// --upgrade-timeout-ms, the connection caps and --tls-cert/--tls-key, checked and read into
// ServerOptions (its GatewayConfig, and the certificate's files for SIGHUP).
class ListeningOptions {
public:
    [[nodiscard]] static bool read(
        const ServerCommandLine &line, ServerOptions &options, QString *error);

    struct Endpoint {
        QHostAddress address;
        quint16 port = 0;
    };
    // HOST:PORT with HOST an IP address (IPv6 in brackets) or "localhost"; no DNS lookups.
    [[nodiscard]] static std::optional<Endpoint> endpoint(const QString &text);
};

} // namespace Presence::Server
