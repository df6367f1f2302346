#pragma once

// Qt
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

protected:
    void incomingConnection(qintptr socketDescriptor) override;

private:
    void handOver(QTcpSocket *socket);

    HttpLimits m_limits;
    int m_open = 0;
};

} // namespace Presence::Server
