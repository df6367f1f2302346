#pragma once

// Qt
#include <QObject>
#include <QString>

namespace Presence::Server {

// What a ClientConnection needs of its WebSocket, and nothing more: text frames both ways,
// ping and pong, close with a code, abort, and pausing reads. The protocol's rules (hello,
// heartbeat, limits) stay in ClientConnection; framing and sockets stay behind this seam, so a
// transport can be swapped (Qt's QWebSocket today) or decorated (qa/FaultyTransport).
class ClientTransport : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    // address:port of the peer, for logs and the admin API.
    [[nodiscard]] virtual QString peer() const = 0;
    // False once the peer is gone (or was gone before we took the socket).
    [[nodiscard]] virtual bool isOpen() const = 0;
    // Bytes accepted by sendText() that the kernel has not taken yet.
    [[nodiscard]] virtual qint64 bytesToWrite() const = 0;

    virtual void sendText(const QString &frame) = 0;
    virtual void ping() = 0;
    // Starts the close handshake; disconnected() follows.
    virtual void close(quint16 code, const QString &reason) = 0;
    // Drops the TCP connection at once, without a close frame.
    virtual void abort() = 0;
    // While paused nothing is read (pings included, which then go unanswered): what the peer
    // sends waits in the kernel. Resuming reads it, then says readingResumed().
    virtual void setReadingPaused(bool paused) = 0;
    [[nodiscard]] virtual bool isReadingPaused() const = 0;

Q_SIGNALS:
    void textReceived(const QString &text);
    void binaryReceived();
    void pongReceived();
    void readingResumed();
    // The connection ended: the close code the peer sent or answered with, 1006 when it ended
    // without a close handshake. Said once.
    void disconnected(quint16 closeCode);
};

} // namespace Presence::Server
