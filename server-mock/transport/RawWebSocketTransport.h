#pragma once

// C++
#include <deque>
#include <memory>
#include <span>

// Qt
#include <QByteArray>
#include <QHostAddress>

// Presence
#include "server-mock/transport/ClientTransport.h"
#include "server-mock/transport/TransportLimits.h"

class QSocketNotifier;

namespace Presence::Server {

class WebSocketFrameReader;

// ClientTransport on a connected, upgraded socket descriptor of our own: RFC 6455 framing by
// server-mock/websocket, reads into one buffer shared by every connection of the loop, writes
// straight to the kernel with send() and queues only what it did not take. The queue is
// bounded in bytes and frames, pongs included; past the bound the connection is dropped with
// 4010 (slow consumer). A pong counts only when it answers our ping.
class RawWebSocketTransport : public ClientTransport {
    Q_OBJECT
public:
    // Takes the descriptor. `early` holds bytes read after the upgrade request (a client may
    // send its first frame at once). readBuffer is the loop's shared scratch; it must outlive
    // the transport.
    RawWebSocketTransport(qintptr descriptor, const QByteArray &early,
        const TransportLimits &limits, QByteArray *readBuffer, QObject *parent = nullptr);
    ~RawWebSocketTransport() override;

    [[nodiscard]] QString peer() const override;
    [[nodiscard]] bool isOpen() const override { return m_descriptor >= 0 && !m_ended; }
    [[nodiscard]] qint64 bytesToWrite() const override { return m_queuedBytes; }
    void sendText(const QString &text) override;
    void ping() override;
    void close(quint16 code, const QString &reason) override;
    void abort() override;
    void setReadingPaused(bool paused) override;
    [[nodiscard]] bool isReadingPaused() const override { return m_paused; }

private:
    void onReadable();
    void onWritable();
    // Hands bytes to the frame reader and acts on what comes out; stops when paused or ended,
    // leaving the rest in `bytes`.
    void consume(std::span<char> &bytes);
    void consumeUnread();
    // Sends what it can now and queues the rest; false when the queue would pass its bound.
    bool write(QByteArray frame);
    void flush();
    // The connection is over: descriptor closed, disconnected(code) said once (queued).
    void end(quint16 code);

    qintptr m_descriptor;
    TransportLimits m_limits;
    QByteArray *m_readBuffer;
    QSocketNotifier *m_readNotifier;
    QSocketNotifier *m_writeNotifier;
    std::unique_ptr<WebSocketFrameReader> m_reader;
    QByteArray m_unread; // read but not yet consumed (reading paused in between)
    std::deque<QByteArray> m_queue; // what the kernel did not take yet, in order
    qsizetype m_frontSent = 0; // bytes of m_queue.front() already sent
    qint64 m_queuedBytes = 0;
    QHostAddress m_peerAddress;
    quint16 m_peerPort = 0;
    bool m_paused = false;
    bool m_pingOutstanding = false;
    bool m_closeSent = false;
    bool m_closeReceived = false;
    quint16 m_closeCode = 0; // the code of the handshake, once one began
    bool m_ended = false;
};

} // namespace Presence::Server
