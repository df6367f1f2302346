#pragma once

// Qt
#include <QString>

namespace Presence::Server {

// What a ClientConnection needs of its WebSocket, and nothing more: text frames both ways,
// ping and pong, close with a code, abort, and pausing reads. The protocol's rules (hello,
// heartbeat, limits) stay in ClientConnection; framing and sockets stay behind this seam, so a
// transport can be swapped (Qt's QWebSocket, kept for comparison) or decorated
// (qa/FaultyTransport). A plain object, not a QObject: one lives for every connection, and it
// has nothing to signal that Receiver does not carry. Whoever adopts it deletes it.
class ClientTransport {
public:
    // Hears what the peer does: the one that adopted the transport. A plain interface, not
    // signals: five signal connections cost each connection about 700 bytes (heaptrack).
    class Receiver {
    public:
        virtual void transportText(const QString &text) = 0;
        virtual void transportBinary() = 0;
        // A ping from the peer: true to answer it with a pong. It counts against the
        // connection's frame budget like any frame, so that a flood of pings ends as a flood of
        // messages does.
        virtual bool transportPing() = 0;
        // Only a pong that answers our ping.
        virtual void transportPong() = 0;
        virtual void transportReadingResumed() = 0;
        // The connection ended: the close code the peer sent or answered with, 1006 when it
        // ended without a close handshake. Told once.
        virtual void transportClosed(quint16 closeCode) = 0;

    protected:
        virtual ~Receiver() = default;
    };

    ClientTransport() = default;
    virtual ~ClientTransport() = default;
    ClientTransport(const ClientTransport &) = delete;
    ClientTransport &operator=(const ClientTransport &) = delete;

    // Nobody (nullptr) hears nothing; a receiver must set nullptr before it goes.
    void setReceiver(Receiver *receiver) { m_receiver = receiver; }

    // address:port of the peer, for logs and the admin API.
    [[nodiscard]] virtual QString peer() const = 0;
    // False once the peer is gone (or was gone before we took the socket).
    [[nodiscard]] virtual bool isOpen() const = 0;
    // Bytes accepted by sendText() that the kernel has not taken yet.
    [[nodiscard]] virtual qint64 bytesToWrite() const = 0;

    // A text message, as UTF-8: what the gateway serialises, sent to every watcher as it is
    // (no conversion per watcher).
    virtual void sendText(const QByteArray &utf8) = 0;
    virtual void ping() = 0;
    // Starts the close handshake; Receiver::transportClosed() follows.
    virtual void close(quint16 code, const QString &reason) = 0;
    // Drops the TCP connection at once, without a close frame.
    virtual void abort() = 0;
    // While paused nothing is read (pings included, which then go unanswered): what the peer
    // sends waits in the kernel. Resuming reads it, then says readingResumed().
    virtual void setReadingPaused(bool paused) = 0;
    [[nodiscard]] virtual bool isReadingPaused() const = 0;

protected:
    void tellText(const QString &text)
    {
        if (m_receiver)
            m_receiver->transportText(text);
    }
    void tellBinary()
    {
        if (m_receiver)
            m_receiver->transportBinary();
    }
    // True when the ping is to be answered (nobody to ask: yes).
    [[nodiscard]] bool tellPing() { return !m_receiver || m_receiver->transportPing(); }
    void tellPong()
    {
        if (m_receiver)
            m_receiver->transportPong();
    }
    void tellReadingResumed()
    {
        if (m_receiver)
            m_receiver->transportReadingResumed();
    }
    void tellClosed(quint16 closeCode)
    {
        if (m_receiver)
            m_receiver->transportClosed(closeCode);
    }

private:
    Receiver *m_receiver = nullptr;
};

} // namespace Presence::Server
