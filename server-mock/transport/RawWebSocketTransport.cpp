#include "server-mock/transport/RawWebSocketTransport.h"

// C++
#include <algorithm>
#include <cerrno>
#include <utility>
// System
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

// Qt
#include <QHostAddress>

// Presence
#include "server-mock/transport/TlsStream.h"
#include "server-mock/transport/WriteBatch.h"
#include "server-mock/websocket/WebSocketFrameWriter.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

namespace {

constexpr quint16 kAbnormal = 1006; // ended without a close handshake (never sent)
using Opcode = WebSocketProtocol::Opcode;

} // namespace

RawWebSocketTransport::RawWebSocketTransport(qintptr descriptor, const QByteArray &early,
    const TransportLimits &limits, QByteArray *readBuffer, SocketPoller *poller, WriteBatch *batch,
    ConnectionCap::Ticket place, std::unique_ptr<TlsStream> tls)
    : m_descriptor(descriptor)
    , m_limits(limits)
    , m_readBuffer(readBuffer)
    , m_poller(poller)
    , m_batch(batch)
    , m_reader(limits.maxMessageBytes)
    , m_place(std::move(place))
    , m_tls(std::move(tls))
    , m_unread(early)
{
    // Small frames leave at once rather than waiting for the peer's delayed ACK.
    const int on = 1;
    ::setsockopt(int(descriptor), IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
    if (limits.kernelSendBufferBytes > 0) {
        ::setsockopt(int(descriptor), SOL_SOCKET, SO_SNDBUF, &limits.kernelSendBufferBytes,
            sizeof(limits.kernelSendBufferBytes));
    }
    if (!m_poller->watch(int(descriptor), this, true, false)) {
        end(kAbnormal, false); // told later, once whoever adopts us is our receiver
        return;
    }
    // Later, once whoever adopts us is our receiver. TLS may hold decrypted bytes the
    // socket will not announce.
    if (!m_unread.isEmpty() || (m_tls && m_tls->hasBuffered()))
        defer(ConsumeUnread);
}

RawWebSocketTransport::~RawWebSocketTransport()
{
    if (m_inBatch)
        m_batch->remove(this);
    if (m_descriptor >= 0) {
        m_poller->unwatch(int(m_descriptor), this);
        m_tls.reset();
        ::close(int(m_descriptor));
    }
}

ssize_t RawWebSocketTransport::receive(char *data, size_t size)
{
    return m_tls ? m_tls->read(data, size) : ::recv(int(m_descriptor), data, size, 0);
}

ssize_t RawWebSocketTransport::transmit(const char *data, size_t size)
{
    return m_tls ? m_tls->write(data, size)
                 : ::send(int(m_descriptor), data, size, MSG_NOSIGNAL | MSG_DONTWAIT);
}

QString RawWebSocketTransport::peer() const
{
    // Asked for logs and the admin API only: not worth keeping in every connection.
    sockaddr_storage address {};
    socklen_t length = sizeof(address);
    if (m_descriptor < 0
        || ::getpeername(int(m_descriptor), reinterpret_cast<sockaddr *>(&address), &length) != 0)
        return u"(gone)"_s;
    const quint16 port = address.ss_family == AF_INET6
        ? ntohs(reinterpret_cast<const sockaddr_in6 *>(&address)->sin6_port)
        : ntohs(reinterpret_cast<const sockaddr_in *>(&address)->sin_port);
    return u"%1:%2"_s.arg(QHostAddress(reinterpret_cast<const sockaddr *>(&address)).toString())
        .arg(port);
}

void RawWebSocketTransport::sendText(const QByteArray &utf8)
{
    if (m_ended || m_closeSent)
        return;
    const bool queued = queue(WebSocketFrameWriter::headerSize(utf8.size()) + utf8.size(),
        [&](QByteArray &out) { WebSocketFrameWriter::appendText(out, utf8); });
    if (!queued)
        end(kSlowConsumerCloseCode, false);
}

void RawWebSocketTransport::ping()
{
    if (m_ended || m_closeSent)
        return;
    m_pingOutstanding = true;
    if (!queue(2, [](QByteArray &out) { WebSocketFrameWriter::appendPing(out, {}); }))
        end(kSlowConsumerCloseCode, false);
}

void RawWebSocketTransport::close(quint16 code, const QString &reason)
{
    if (m_ended || m_closeSent)
        return;
    m_closeSent = true;
    if (m_closeCode == 0)
        m_closeCode = code;
    // A close frame is a control frame: its reason is cut to 123 bytes on a character boundary.
    const QByteArray utf8 = reason.toUtf8();
    const QByteArrayView cut = WebSocketFrameWriter::closeReason(utf8);
    if (!queue(4 + cut.size(),
            [&](QByteArray &out) { WebSocketFrameWriter::appendClose(out, code, cut); }))
        end(kSlowConsumerCloseCode, false);
}

void RawWebSocketTransport::abort()
{
    if (m_ended)
        return;
    // No FIN handshake: a reset, as a crash would leave it.
    const linger reset { 1, 0 };
    ::setsockopt(int(m_descriptor), SOL_SOCKET, SO_LINGER, &reset, sizeof(reset));
    end(m_closeCode != 0 ? m_closeCode : kAbnormal, false);
}

void RawWebSocketTransport::setReadingPaused(bool paused)
{
    if (paused == m_paused || m_ended)
        return;
    m_paused = paused;
    updateInterest();
    if (paused)
        return;
    tellReadingResumed();
    if (!m_unread.isEmpty())
        consumeUnread();
    if (m_tls && m_tls->hasBuffered() && !m_paused)
        socketReadable(); // no readiness will come for what TLS already decrypted
}

void RawWebSocketTransport::updateInterest()
{
    m_poller->setInterest(int(m_descriptor), this, !m_paused, !m_writable);
}

void RawWebSocketTransport::socketReadable()
{
    if (m_paused || m_ended)
        return; // a hang-up told while paused: met when reading resumes
    QByteArray &buffer = *m_readBuffer;
    // Once from the socket; with TLS, again while it holds decrypted bytes (a record larger
    // than the buffer), which the socket would not announce.
    do {
        const ssize_t got = receive(buffer.data(), size_t(buffer.size()));
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
            if (m_tls && m_tls->wantsWrite() && m_writable) {
                m_writable = false; // TLS must send before it can read on
                updateInterest();
            }
            return;
        }
        if (got <= 0) { // the peer left (0) or the connection broke
            end(m_closeCode != 0 ? m_closeCode : kAbnormal);
            return;
        }
        // Frames are read where they lie in the shared buffer; the reader keeps what an
        // unfinished one needs, and only bytes left by a pause in the middle stay with the
        // connection.
        std::span<char> bytes(buffer.data(), size_t(got));
        consume(bytes);
        if (!bytes.empty() && !m_ended)
            m_unread.append(bytes.data(), qsizetype(bytes.size()));
    } while (m_tls && !m_paused && !m_ended && m_tls->hasBuffered());
}

void RawWebSocketTransport::consumeUnread()
{
    QByteArray unread = std::exchange(m_unread, {});
    std::span<char> bytes(unread.data(), size_t(unread.size()));
    consume(bytes);
    if (!bytes.empty() && !m_ended)
        m_unread.prepend(QByteArrayView(bytes.data(), qsizetype(bytes.size())));
}

void RawWebSocketTransport::consume(std::span<char> &bytes)
{
    using Event = WebSocketFrameReader::Event;
    while (!bytes.empty() && !m_paused && !m_ended) {
        const std::optional<Event> next = m_reader.next(bytes);
        if (!next)
            break; // all read, no event complete yet
        const Event &event = *next;
        switch (event.kind) {
        case Event::Text:
            if (!m_closeReceived)
                tellText(QString::fromUtf8(event.payload));
            break;
        case Event::Binary:
            if (!m_closeReceived)
                tellBinary();
            break;
        case Event::Ping:
            // Asked first: the connection may drop the ping, or close for flooding.
            if (tellPing() && !m_closeSent
                && !queue(
                    WebSocketFrameWriter::headerSize(event.payload.size()) + event.payload.size(),
                    [&](QByteArray &out) { WebSocketFrameWriter::appendPong(out, event.payload); }))
                end(kSlowConsumerCloseCode, false);
            break;
        case Event::Pong:
            // Only an answer to our ping shows the peer alive: unsolicited pongs cost a silent
            // peer nothing and would keep it open for ever.
            if (std::exchange(m_pingOutstanding, false))
                tellPong();
            break;
        case Event::Close:
            m_closeReceived = true;
            if (m_closeCode == 0)
                m_closeCode = event.code == 0 ? WebSocketProtocol::NoStatusReceived : event.code;
            // Echo it unless it answers ours; then the server closes TCP first (RFC 6455 §7.1.1),
            // once the echo has left.
            close(event.code == 0 ? WebSocketProtocol::NormalClosure : event.code, {});
            end(m_closeCode); // the echo leaves first
            break;
        case Event::Failure:
            // A protocol error: say why, and end; nothing more is read from this peer.
            close(event.code, QString::fromLatin1(event.reason));
            end(event.code);
            break;
        }
    }
}

template <typename Encode> bool RawWebSocketTransport::queue(qsizetype frameSize, Encode encode)
{
    if (pendingBytes() + frameSize > m_limits.maxQueuedBytes
        || m_outFrames >= m_limits.maxQueuedFrames)
        return false;
    encode(m_out);
    ++m_outFrames;
    // Waiting for the kernel, writability flushes; otherwise the iteration's end does.
    if (m_writable && !std::exchange(m_inBatch, true))
        m_batch->add(this);
    return true;
}

void RawWebSocketTransport::defer(Deferred work)
{
    m_deferred |= work;
    if (!std::exchange(m_inBatch, true))
        m_batch->add(this);
}

void RawWebSocketTransport::flushBatch()
{
    m_inBatch = false;
    const quint8 deferred = std::exchange(m_deferred, 0);
    if ((deferred & ConsumeUnread) != 0 && !m_ended) {
        consumeUnread();
        if (m_tls && m_tls->hasBuffered() && !m_paused && !m_ended)
            socketReadable(); // decrypted with the upgrade request
    }
    if (!m_ended && m_writable)
        flush();
    if ((deferred & TellClosed) != 0)
        tellClosed(m_endCode); // last: the receiver may delete us (later) on hearing it
}

void RawWebSocketTransport::socketWritable()
{
    if (m_writable || m_ended)
        return; // not waiting for it (a hang-up is told as both)
    m_writable = true;
    updateInterest();
    flush();
}

void RawWebSocketTransport::flush()
{
    if (pendingBytes() > 0) {
        const ssize_t sent = transmit(m_out.constData() + m_outSent, size_t(pendingBytes()));
        if (sent < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            // Broken. The read side reports the end, unless it is paused and would not.
            if (m_paused)
                end(kAbnormal, false);
            return;
        }
        m_outSent += std::max<ssize_t>(sent, 0);
    }
    if (pendingBytes() > 0) {
        // The kernel's buffer is full: what is left waits for it to drain.
        m_writable = false;
        updateInterest();
        return;
    }
    // Given back: an idle connection holds no output buffer (a malloc per flush costs far less
    // than the send() it comes with).
    m_out = QByteArray();
    m_outSent = 0;
    m_outFrames = 0;
    if (m_closeSent && m_closeReceived)
        end(m_closeCode); // the close handshake is done and its last frame has left
}

void RawWebSocketTransport::end(quint16 code, bool flushFirst)
{
    if (m_ended)
        return;
    if (flushFirst && m_writable && pendingBytes() > 0) {
        // A close frame, say: one try, without waiting for a slow peer.
        (void)transmit(m_out.constData() + m_outSent, size_t(pendingBytes()));
    }
    if (m_tls) {
        m_tls->shutdown(); // close_notify: the peer can tell an end from a cut
        m_tls.reset();
    }
    m_ended = true;
    m_out = QByteArray();
    m_outSent = 0;
    // Unwatched before the descriptor closes: its number may come back at once.
    m_poller->unwatch(int(m_descriptor), this);
    ::close(int(m_descriptor));
    m_descriptor = -1;
    m_place.release();
    // Later: the caller may be the connection that is about to hear of it.
    m_endCode = code;
    defer(TellClosed);
}

} // namespace Presence::Server
