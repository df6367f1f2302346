#include "tests/harness/TcpProxy.h"

// C++
#include <algorithm>

// Qt
#include <QHostAddress>
#include <QTcpSocket>
#include <QtDebug>

using namespace Qt::StringLiterals;

TcpProxy::TcpProxy(quint16 targetPort, QObject *parent)
    : QObject(parent)
    , m_targetPort(targetPort)
{
    connect(&m_server, &QTcpServer::newConnection, this, &TcpProxy::onNewConnection);
    if (!m_server.listen(QHostAddress::LocalHost, 0))
        qWarning("TcpProxy cannot listen: %s", qPrintable(m_server.errorString()));
}

TcpProxy::~TcpProxy()
{
    // The sockets are our children and die after this body; their last state changes must not
    // reach pump() with a Link already freed.
    for (Link *link : std::as_const(m_links)) {
        link->client->disconnect(this);
        link->upstream->disconnect(this);
        link->client->abort();
        link->upstream->abort();
        delete link;
    }
}

QUrl TcpProxy::url() const
{
    return QUrl(u"ws://127.0.0.1:%1/"_s.arg(port()));
}

int TcpProxy::connectionCount() const
{
    return int(std::count_if(
        m_links.cbegin(), m_links.cend(), [](const Link *link) { return !link->finished; }));
}

void TcpProxy::setStalled(bool stalled)
{
    if (m_stalled == stalled)
        return;
    m_stalled = stalled;
    if (m_stalled)
        return;
    // Pass on whatever piled up while the path was dead, closes included.
    const QList<Link *> links = m_links;
    for (Link *link : links)
        pump(link);
}

void TcpProxy::dropAll()
{
    const QList<Link *> links = m_links;
    for (Link *link : links) {
        if (link->finished)
            continue;
        // abort() sends no close frame and no FIN handshake worth waiting for: the peers learn
        // of it only as a dead TCP connection, as after a crash or a cable pulled.
        link->client->disconnect(this);
        link->upstream->disconnect(this);
        link->client->abort();
        link->upstream->abort();
        finish(link);
    }
}

void TcpProxy::setTarget(quint16 targetPort)
{
    m_targetPort = targetPort;
}

void TcpProxy::onNewConnection()
{
    while (QTcpSocket *client = m_server.nextPendingConnection()) {
        client->setParent(this);
        auto *link = new Link;
        link->client = client;
        link->upstream = new QTcpSocket(this);
        m_links.append(link);

        connect(client, &QTcpSocket::readyRead, this, [this, link] { pump(link); });
        connect(client, &QTcpSocket::disconnected, this, [this, link] { pump(link); });
        connect(link->upstream, &QTcpSocket::connected, this, [this, link] { pump(link); });
        connect(link->upstream, &QTcpSocket::readyRead, this, [this, link] { pump(link); });
        // stateChanged rather than disconnected: a refused connect never was connected.
        connect(link->upstream, &QTcpSocket::stateChanged, this,
            [this, link](QAbstractSocket::SocketState state) {
                if (state == QAbstractSocket::UnconnectedState)
                    pump(link);
            });
        // Even while stalled the TCP leg is set up: a black hole drops bytes, the kernel on
        // either end has already accepted the connection.
        link->upstream->connectToHost(QHostAddress::LocalHost, m_targetPort);
    }
}

void TcpProxy::pump(Link *link)
{
    if (link->finished || m_stalled)
        return;
    QTcpSocket *client = link->client;
    QTcpSocket *upstream = link->upstream;
    // Bytes wait in the socket that received them until the other side can take them; a client
    // that talks before the upstream leg is connected is not lost.
    if (upstream->state() == QAbstractSocket::ConnectedState && client->bytesAvailable() > 0)
        upstream->write(client->readAll());
    if (client->state() == QAbstractSocket::ConnectedState && upstream->bytesAvailable() > 0)
        client->write(upstream->readAll());

    const bool clientGone = client->state() == QAbstractSocket::UnconnectedState;
    const bool upstreamGone = upstream->state() == QAbstractSocket::UnconnectedState;
    if (!clientGone && !upstreamGone)
        return;
    // One side has closed (or the target refused us): close the other after it has written
    // what it still holds, so an orderly close stays orderly end to end.
    if (!clientGone)
        client->disconnectFromHost();
    if (!upstreamGone)
        upstream->disconnectFromHost();
    if (client->state() == QAbstractSocket::UnconnectedState
        && upstream->state() == QAbstractSocket::UnconnectedState)
        finish(link);
}

void TcpProxy::finish(Link *link)
{
    if (link->finished)
        return;
    link->finished = true;
    link->client->disconnect(this);
    link->upstream->disconnect(this);
    link->client->deleteLater();
    link->upstream->deleteLater();
    // pump() may be further up the stack with this Link: free it from the event loop.
    QMetaObject::invokeMethod(
        this,
        [this, link] {
            m_links.removeOne(link);
            delete link;
        },
        Qt::QueuedConnection);
}
