#pragma once

// C++
#include <optional>

// Qt
#include <QSslConfiguration>
#include <QTcpServer>

// Presence
#include "server-mock/http/HttpLimits.h"

namespace Presence::Server {

// The listening socket given to QHttpServer::bind(): every connection waits behind an
// HttpRequestGate, and reaches the HTTP server only once its request has arrived whole and
// within the limits. Also caps the connections open at once.
class GatedTcpServer : public QTcpServer {
    Q_OBJECT
public:
    explicit GatedTcpServer(const HttpLimits &limits, QObject *parent = nullptr);

    // HTTPS with this identity from the next connection on (a reload swaps it); the TLS
    // handshake counts in the request's time. Unset: HTTP.
    void setTls(std::optional<QSslConfiguration> tls) { m_tls = std::move(tls); }
    [[nodiscard]] bool isSecure() const { return m_tls.has_value(); }

protected:
    void incomingConnection(qintptr socketDescriptor) override;

private:
    void handOver(QTcpSocket *socket);

    HttpLimits m_limits;
    std::optional<QSslConfiguration> m_tls;
    int m_open = 0;
};

} // namespace Presence::Server
