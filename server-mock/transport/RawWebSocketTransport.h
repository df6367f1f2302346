#pragma once

// C++
#include <memory>
#include <span>

// Qt
#include <QByteArray>

// Presence
#include "server-mock/transport/ClientTransport.h"
#include "server-mock/transport/ConnectionCap.h"
#include "server-mock/transport/SocketPoller.h"
#include "server-mock/transport/TlsStream.h"
#include "server-mock/transport/TransportLimits.h"
#include "server-mock/websocket/WebSocketFrameReader.h"

namespace Presence::Server {

class WriteBatch;

// ClientTransport on a connected, upgraded socket descriptor of our own: RFC 6455 framing by
// server-mock/websocket, reads into one buffer shared by every connection of the loop. Frames
// sent during an iteration gather in one output buffer and leave in one send() at its end
// (WriteBatch); only what the kernel does not take waits, for the socket to drain. Output is
// bounded in bytes and frames, pongs included; past the bound the connection is dropped with
// 4010 (slow consumer). A pong counts only when it answers our ping. An idle connection holds
// no buffer of its own.
class RawWebSocketTransport : public ClientTransport, private SocketPoller::Watcher {
public:
    // Takes the descriptor. `early` holds bytes read after the upgrade request (a client may
    // send its first frame at once). limits, readBuffer (the loop's shared scratch), poller and
    // batch must outlive the transport. place: the connection's place under the acceptor's
    // cap, given back when the descriptor is closed.
    // tls: the connection's TLS, its handshake done (wss://); none for ws://.
    RawWebSocketTransport(qintptr descriptor, const QByteArray &early,
        const TransportLimits &limits, QByteArray *readBuffer, SocketPoller *poller,
        WriteBatch *batch, ConnectionCap::Ticket place = {}, std::unique_ptr<TlsStream> tls = {});
    ~RawWebSocketTransport() override;

    [[nodiscard]] QString peer() const override;
    [[nodiscard]] bool isOpen() const override { return m_descriptor >= 0 && !m_ended; }
    [[nodiscard]] qint64 bytesToWrite() const override { return pendingBytes(); }
    void sendText(const QByteArray &utf8) override;
    void ping() override;
    void close(quint16 code, const QString &reason) override;
    void abort() override;
    void setReadingPaused(bool paused) override;
    [[nodiscard]] bool isReadingPaused() const override { return m_paused; }

private:
    friend class WriteBatch;
    // WriteBatch: the iteration is over. Does what was deferred to then: reads what came with
    // the upgrade, flushes the output, tells the end.
    void flushBatch();
    void leftBatch() { m_inBatch = false; } // WriteBatch: gone before flushing
    // Work for the end of the iteration, not for inside the call that caused it: the receiver
    // is set only once the transport is adopted, and a receiver may be on the stack when the
    // connection ends.
    enum Deferred : quint8 { ConsumeUnread = 1, TellClosed = 2 };
    void defer(Deferred work);

    void socketReadable() override;
    void socketWritable() override;
    // What the poller watches for: reads unless paused, writability while output waits.
    void updateInterest();
    // Hands bytes to the frame reader and acts on what comes out; stops when paused or ended,
    // leaving the rest in `bytes`.
    void consume(std::span<char> &bytes);
    void consumeUnread();
    // Adds a frame to the output, to leave at the end of the iteration; false when the output
    // would pass its bound.
    template <typename Encode> bool queue(qsizetype frameSize, Encode encode);
    // Sends what it can of the output; the rest waits for the socket to drain.
    void flush();
    [[nodiscard]] qsizetype pendingBytes() const { return m_out.size() - m_outSent; }
    // recv() and send() on the socket, through TLS when there is one.
    ssize_t receive(char *data, size_t size);
    ssize_t transmit(const char *data, size_t size);
    // The connection is over: descriptor closed, disconnected(code) said once (queued).
    // flushFirst: the output (a close frame, say) is given one last chance to leave.
    void end(quint16 code, bool flushFirst = true);

    qintptr m_descriptor;
    const TransportLimits &m_limits;
    QByteArray *m_readBuffer;
    SocketPoller *m_poller;
    WriteBatch *m_batch;
    WebSocketFrameReader m_reader;
    ConnectionCap::Ticket m_place;
    std::unique_ptr<TlsStream> m_tls;
    QByteArray m_unread; // read but not yet consumed (reading paused in between)
    QByteArray m_out; // frames not yet taken by the kernel, from m_outSent on
    qsizetype m_outSent = 0;
    qsizetype m_outFrames = 0; // frames added since the output was last empty
    bool m_inBatch = false;
    quint8 m_deferred = 0; // Deferred bits
    quint16 m_endCode = 0; // told at TellClosed
    bool m_writable = true; // false while waiting for the kernel to take more
    bool m_paused = false;
    bool m_pingOutstanding = false;
    bool m_closeSent = false;
    bool m_closeReceived = false;
    quint16 m_closeCode = 0; // the code of the handshake, once one began
    bool m_ended = false;
};

} // namespace Presence::Server
