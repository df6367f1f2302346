#include "server-mock/http/GatedTcpServer.h"

// Qt
#include <QSslSocket>
#include <QTcpSocket>

// Presence
#include "server-mock/http/HttpReply.h"
#include "server-mock/http/HttpRequestGate.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

GatedTcpServer::GatedTcpServer(const HttpLimits &limits, QObject *parent)
    : QTcpServer(parent)
    , m_limits(limits)
{
}

void GatedTcpServer::incomingConnection(qintptr socketDescriptor)
{
    QTcpSocket *socket = m_tls ? new QSslSocket(this) : new QTcpSocket(this);
    if (!socket->setSocketDescriptor(socketDescriptor)) {
        delete socket;
        return;
    }
    if (m_tls) {
        auto *secure = static_cast<QSslSocket *>(socket);
        secure->setSslConfiguration(*m_tls);
        secure->startServerEncryption(); // the gate reads what it decrypts
    }
    ++m_open;
    connect(socket, &QObject::destroyed, this, [this] { --m_open; });
    auto *gate = new HttpRequestGate(socket, m_limits);
    if (m_open > m_limits.maxConnections) {
        gate->refuse(HttpReply::error(HttpStatus::ServiceUnavailable, "unavailable"_L1,
            u"too many connections at once; try again later"_s));
        return;
    }
    connect(gate, &HttpRequestGate::requestArrived, this, &GatedTcpServer::handOver);
}

void GatedTcpServer::handOver(QTcpSocket *socket)
{
    // QAbstractHttpServer takes the socket on pendingConnectionAvailable, emitted from here.
    addPendingConnection(socket);
    // It parses on readyRead only, and the whole request is buffered already: nothing more
    // will arrive to wake it, so wake it now. It answers before this returns (or, for an
    // answer that comes later, has read the request by then), as HttpRequestGate requires.
    Q_EMIT socket->readyRead();
}

} // namespace Presence::Server
