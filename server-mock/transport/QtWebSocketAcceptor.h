#pragma once

// C++
#include <functional>

// Qt
#include <QHash>
#include <QHostAddress>
#include <QObject>
#include <QPointer>
#include <QStringList>

// Presence
#include "server-mock/transport/ConnectionRefusal.h"
#include "server-mock/transport/TransportLimits.h"

class QTcpServer;
class QTcpSocket;
class QWebSocket;
class QWebSocketCorsAuthenticator;
class QWebSocketServer;

namespace Presence::Server {

class ClientTransport;

// Qt's WebSocket server side up to the upgrade, kept for comparison with our own
// (WebSocketAcceptor): a QTcpServer accepts (so that sockets get TCP_NODELAY before the
// handshake), answers 503 when the admission check refuses, and QWebSocketServer does the
// upgrade, refusing an Origin not allowed; each upgraded socket is handed over as a
// QtWebSocketTransport. It has no connection caps and no TLS.
class QtWebSocketAcceptor : public QObject {
    Q_OBJECT
public:
    using AdmissionCheck = std::function<bool()>;

    // The upgrade must be done within limits.upgradeTimeout.
    QtWebSocketAcceptor(
        TransportLimits limits, QStringList allowedOrigins, QObject *parent = nullptr);
    ~QtWebSocketAcceptor() override;

    [[nodiscard]] bool listen(const QHostAddress &address, quint16 port, QString *error);
    // Stops listening; a handshake that completes afterwards is closed with 1001.
    void close();
    [[nodiscard]] QHostAddress address() const;
    [[nodiscard]] quint16 port() const;
    void setAdmissionCheck(AdmissionCheck check) { m_admissionCheck = std::move(check); }

Q_SIGNALS:
    // Upgraded: the receiver adopts the transport.
    void transportReady(Presence::Server::ClientTransport *transport);
    void refused(Presence::Server::ConnectionRefusal reason);

private:
    void onNewTcpConnection();
    void onNewConnection();
    void onOriginCheck(QWebSocketCorsAuthenticator *authenticator);
    // The TCP socket a handshake came on, kept from accept time: QWebSocket does not expose
    // it. Keyed by the peer's address and port, the one thing both sides know.
    [[nodiscard]] QTcpSocket *takeAccepted(const QWebSocket *socket);

    TransportLimits m_limits;
    QStringList m_allowedOrigins;
    QTcpServer *m_listener;
    QWebSocketServer *m_server;
    AdmissionCheck m_admissionCheck;
    QHash<QString, QPointer<QTcpSocket>> m_accepted; // until its handshake completes
    bool m_closed = false;
};

} // namespace Presence::Server
