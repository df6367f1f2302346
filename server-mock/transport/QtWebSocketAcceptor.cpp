#include "server-mock/transport/QtWebSocketAcceptor.h"

// Qt
#include <QTcpServer>
#include <QTcpSocket>
#include <QWebSocket>
#include <QWebSocketCorsAuthenticator>
#include <QWebSocketServer>

// Presence
#include "server-mock/transport/Logging.h"
#include "server-mock/transport/QtWebSocketTransport.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

QtWebSocketAcceptor::QtWebSocketAcceptor(
    TransportLimits limits, QStringList allowedOrigins, ConnectionCap::Limits cap, QObject *parent)
    : ClientAcceptor(parent)
    , m_limits(limits)
    , m_allowedOrigins(std::move(allowedOrigins))
    , m_cap(cap)
    , m_listener(new QTcpServer(this))
    , m_server(
          new QWebSocketServer(u"presence-mock-server"_s, QWebSocketServer::NonSecureMode, this))
{
    m_server->setHandshakeTimeout(m_limits.upgradeTimeout);
    connect(m_listener, &QTcpServer::newConnection, this, &QtWebSocketAcceptor::onNewTcpConnection);
    connect(
        m_server, &QWebSocketServer::newConnection, this, &QtWebSocketAcceptor::onNewConnection);
    connect(m_server, &QWebSocketServer::originAuthenticationRequired, this,
        &QtWebSocketAcceptor::onOriginCheck);
}

QtWebSocketAcceptor::~QtWebSocketAcceptor() = default;

bool QtWebSocketAcceptor::listen(const QHostAddress &address, quint16 port, QString *error)
{
    if (m_cap.total > 0 || m_cap.perAddress > 0) {
        if (error)
            *error = u"the connection caps need the gateway's own transport"_s;
        return false;
    }
    if (m_tls) {
        if (error)
            *error = u"TLS needs the gateway's own transport"_s;
        return false;
    }
    if (m_listener->listen(address, port))
        return true;
    if (error)
        *error = u"cannot listen on %1:%2: %3"_s.arg(address.toString())
                     .arg(port)
                     .arg(m_listener->errorString());
    return false;
}

void QtWebSocketAcceptor::close()
{
    m_closed = true;
    m_listener->close();
}

QHostAddress QtWebSocketAcceptor::address() const
{
    return m_listener->serverAddress();
}

quint16 QtWebSocketAcceptor::port() const
{
    return m_listener->serverPort();
}

void QtWebSocketAcceptor::onOriginCheck(QWebSocketCorsAuthenticator *authenticator)
{
    // Browsers always send Origin; native clients usually do not. Only listed web origins may
    // connect, so a page the user happens to visit cannot talk to a gateway on their machine.
    const QString origin = authenticator->origin();
    const bool allowed = origin.isEmpty() || m_allowedOrigins.contains(origin);
    if (!allowed) {
        qCInfo(lcTransport) << "refused a handshake from origin" << origin;
        Q_EMIT refused(ConnectionRefusal::Origin);
    }
    authenticator->setAllowed(allowed);
}

void QtWebSocketAcceptor::onNewTcpConnection()
{
    while (QTcpSocket *socket = m_listener->nextPendingConnection()) {
        // Qt writes a frame's header and payload separately; with Nagle on, a large frame
        // waits for the peer's delayed ACK (about 40 ms) before its payload leaves.
        socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        if (m_admissionCheck && !m_admissionCheck()) {
            // What an overloaded gateway behind a proxy says.
            socket->write("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\n"
                          "Content-Length: 0\r\nConnection: close\r\n\r\n");
            socket->disconnectFromHost();
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            Q_EMIT refused(ConnectionRefusal::Unavailable);
            continue;
        }
        // Gone with its connection, or once the handshake fails (the socket is deleted).
        const QString peer
            = u"%1:%2"_s.arg(socket->peerAddress().toString()).arg(socket->peerPort());
        m_accepted.insert(peer, socket);
        connect(socket, &QObject::destroyed, this, [this, peer] { m_accepted.remove(peer); });
        m_server->handleConnection(socket);
    }
}

QTcpSocket *QtWebSocketAcceptor::takeAccepted(const QWebSocket *socket)
{
    const QPointer<QTcpSocket> tcp
        = m_accepted.take(u"%1:%2"_s.arg(socket->peerAddress().toString()).arg(socket->peerPort()));
    if (!tcp)
        qCWarning(lcTransport) << "no accepted TCP socket for a handshake from"
                               << socket->peerAddress() << socket->peerPort();
    return tcp;
}

void QtWebSocketAcceptor::onNewConnection()
{
    while (QWebSocket *socket = m_server->nextPendingConnection()) {
        if (m_closed) {
            socket->close(QWebSocketProtocol::CloseCodeGoingAway, u"gateway shutting down"_s);
            socket->deleteLater();
            continue;
        }
        Q_EMIT transportReady(new QtWebSocketTransport(
            socket, takeAccepted(socket), m_limits.maxMessageBytes, m_limits.maxQueuedBytes));
    }
}

} // namespace Presence::Server
