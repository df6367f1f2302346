#pragma once

// Qt
#include <QList>
#include <QObject>
#include <QTcpServer>
#include <QUrl>

class QTcpSocket;

// A loopback TCP forwarder between a client and a gateway, for fault injection. Real networks
// fail in ways a local gateway never does: a path that silently swallows everything (half-open
// TCP, a NAT that forgot us) or a connection cut without a close frame. The proxy plays both
// parts on real sockets, so the client under test sees nothing but ordinary TCP behaviour.
class TcpProxy : public QObject {
    Q_OBJECT
public:
    // Listens on 127.0.0.1 with a free port and forwards every connection to targetPort.
    explicit TcpProxy(quint16 targetPort, QObject *parent = nullptr);
    ~TcpProxy() override;

    [[nodiscard]] bool isListening() const { return m_server.isListening(); }
    [[nodiscard]] quint16 port() const { return m_server.serverPort(); }
    // ws://127.0.0.1:PORT/ — where a WebSocket client should connect instead of the gateway.
    [[nodiscard]] QUrl url() const;

    // While stalled nothing passes in either direction, not even a close, but every socket stays
    // open: a black-holed path. New connections are accepted and stalled too. Unstalling passes
    // on what was held back, in order.
    void setStalled(bool stalled);
    [[nodiscard]] bool isStalled() const { return m_stalled; }

    // Aborts every connection on both sides at once, with no close handshake.
    void dropAll();

    // Where new connections go (a gateway restarted on another port); existing ones stay put.
    void setTarget(quint16 targetPort);
    [[nodiscard]] quint16 target() const { return m_targetPort; }

    // Connections accepted and not finished yet.
    [[nodiscard]] int connectionCount() const;

private:
    // One accepted connection and its leg to the target.
    struct Link {
        QTcpSocket *client = nullptr;
        QTcpSocket *upstream = nullptr;
        bool finished = false;
    };

    void onNewConnection();
    void pump(Link *link);
    void finish(Link *link);

    QTcpServer m_server;
    quint16 m_targetPort;
    bool m_stalled = false;
    QList<Link *> m_links;
};
