#pragma once

// C++
#include <memory>

// Qt
#include <QHash>
#include <QPointer>
#include <QStringList>

// Presence
#include "server-mock/transport/ClientAcceptor.h"
#include "server-mock/transport/ConnectionCap.h"
#include "server-mock/transport/TransportLimits.h"

class QTcpServer;
class QTcpSocket;
class QWebSocket;
class QWebSocketCorsAuthenticator;
class QWebSocketServer;

namespace Presence::Server {

// Qt's WebSocket server side up to the upgrade, kept for comparison with our own
// (WebSocketAcceptor): a QTcpServer accepts (so that sockets get TCP_NODELAY before the
// handshake), answers 503 when the admission check refuses, and QWebSocketServer does the
// upgrade, refusing an Origin not allowed; each upgraded socket is handed over as a
// QtWebSocketTransport. It has no connection caps and no TLS: a listen() with either fails.
class QtWebSocketAcceptor : public ClientAcceptor {
    Q_OBJECT
public:
    // The upgrade must be done within limits.upgradeTimeout.
    QtWebSocketAcceptor(TransportLimits limits, QStringList allowedOrigins,
        ConnectionCap::Limits cap = {}, QObject *parent = nullptr);
    ~QtWebSocketAcceptor() override;

    [[nodiscard]] bool listen(const QHostAddress &address, quint16 port, QString *error) override;
    // Stops listening; a handshake that completes afterwards is closed with 1001.
    void close() override;
    [[nodiscard]] QHostAddress address() const override;
    [[nodiscard]] quint16 port() const override;
    void setAdmissionCheck(AdmissionCheck check) override { m_admissionCheck = std::move(check); }
    // Only to refuse to listen: Qt's transport here is plain ws://.
    void setTls(std::shared_ptr<const TlsContext> tls) override { m_tls = std::move(tls); }
    // Not counted: QWebSocketServer holds the sockets it upgrades until they are done.
    [[nodiscard]] std::optional<int> heldCount() const override { return std::nullopt; }

private:
    void onNewTcpConnection();
    void onNewConnection();
    void onOriginCheck(QWebSocketCorsAuthenticator *authenticator);
    // The TCP socket a handshake came on, kept from accept time: QWebSocket does not expose
    // it. Keyed by the peer's address and port, the one thing both sides know.
    [[nodiscard]] QTcpSocket *takeAccepted(const QWebSocket *socket);

    TransportLimits m_limits;
    QStringList m_allowedOrigins;
    ConnectionCap::Limits m_cap;
    QTcpServer *m_listener;
    QWebSocketServer *m_server;
    AdmissionCheck m_admissionCheck;
    std::shared_ptr<const TlsContext> m_tls;
    QHash<QString, QPointer<QTcpSocket>> m_accepted; // until its handshake completes
    bool m_closed = false;
};

} // namespace Presence::Server
