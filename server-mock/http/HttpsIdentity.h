#pragma once

// C++
#include <optional>

// Qt
#include <QSslConfiguration>
#include <QString>

namespace Presence::Server {

// A server's TLS identity as Qt's sockets take it (QSslConfiguration): a PEM certificate chain
// (the server's first) and its PEM private key, RSA or EC. For the admin API's HTTPS, from the
// same files as the gateway's wss:// (TlsContext); TLS 1.2 or newer.
class HttpsIdentity {
public:
    // Nullopt with *error naming the file and what is wrong with it.
    [[nodiscard]] static std::optional<QSslConfiguration> load(
        const QString &certificateFile, const QString &keyFile, QString *error);
};

} // namespace Presence::Server
