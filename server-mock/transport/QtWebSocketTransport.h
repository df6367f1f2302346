#pragma once

// C++
#include <memory>

// Qt
#include <QPointer>
#include <QWebSocket>

// Presence
#include "server-mock/transport/ClientTransport.h"

class QTcpSocket;

namespace Presence::Server {

// ClientTransport on Qt's QWebSocket. It also holds the TCP socket under it, taken at accept
// time, because QWebSocket does not expose it and pausing reads needs it.
class QtWebSocketTransport : public ClientTransport {
public:
    // Adopts socket; tcp is the socket the handshake came on (may be null: no pausing then).
    // Past maxQueuedBytes of unread output the peer is dropped with 4010, as our own transport
    // does.
    QtWebSocketTransport(
        QWebSocket *socket, QTcpSocket *tcp, qsizetype maxFrameBytes, qint64 maxQueuedBytes);
    ~QtWebSocketTransport() override;

    [[nodiscard]] QString peer() const override;
    [[nodiscard]] bool isOpen() const override;
    [[nodiscard]] qint64 bytesToWrite() const override;
    void sendText(const QByteArray &utf8) override;
    void ping() override;
    void close(quint16 code, const QString &reason) override;
    void abort() override;
    void setReadingPaused(bool paused) override;
    [[nodiscard]] bool isReadingPaused() const override { return m_paused; }

private:
    void onDisconnected();
    // Unblocks the TCP socket. False when the peer left meanwhile, unseen by the QWebSocket:
    // the end is then told from here.
    bool unpause();

    std::unique_ptr<QWebSocket> m_socket; // also the context of its signals' connections
    QPointer<QTcpSocket> m_tcp;
    qint64 m_maxQueuedBytes;
    qint64 m_readBufferSize = 0; // what QWebSocket had set on the TCP socket
    bool m_paused = false;
    bool m_closeHandshake = false; // a close handshake began (either side)
    bool m_reported = false;
};

} // namespace Presence::Server
