#include "server-mock/transport/WebSocketAcceptor.h"

// System
#include <sys/socket.h>
#include <unistd.h>

// Presence
#include "server-mock/transport/RawWebSocketTransport.h"
#include "server-mock/websocket/WebSocketHandshake.h"

namespace Presence::Server {

WebSocketAcceptor::WebSocketAcceptor(
    TransportLimits limits, QStringList allowedOrigins, ConnectionCap::Limits cap, QObject *parent)
    : ClientAcceptor(parent)
    , m_limits(limits)
    , m_allowedOrigins(std::move(allowedOrigins))
    , m_cap(cap)
    , m_readBuffer(64 * 1024, Qt::Uninitialized)
{
    m_clock.start();
    connect(&m_listener, &ListeningSocket::accepted, this, &WebSocketAcceptor::onAccepted);
    connect(&m_listener, &ListeningSocket::refusedAtDescriptorLimit, this,
        [this] { Q_EMIT refused(ConnectionRefusal::DescriptorLimit); });
    connect(&m_listener, &ListeningSocket::pausedAtDescriptorLimit, this,
        &ClientAcceptor::pausedAtDescriptorLimit);
    // Deadlines are whole-second promises: a sweep every quarter second keeps them within it.
    m_sweep.setInterval(std::chrono::milliseconds(250));
    connect(&m_sweep, &QTimer::timeout, this, &WebSocketAcceptor::sweep);
}

WebSocketAcceptor::~WebSocketAcceptor()
{
    close();
}

bool WebSocketAcceptor::listen(const QHostAddress &address, quint16 port, QString *error)
{
    return m_listener.listen(address, port, error);
}

void WebSocketAcceptor::close()
{
    m_listener.close();
    m_sweep.stop();
    for (auto &[descriptor, pending] : m_pending) {
        m_poller.unwatch(int(descriptor), &pending);
        ::close(int(descriptor));
    }
    m_pending.clear();
}

void WebSocketAcceptor::onAccepted(qintptr descriptor)
{
    // What an overloaded gateway behind a proxy says, with a hint to come back.
    static const QByteArray retry = QByteArrayLiteral("Retry-After: 1\r\n");
    if (m_admissionCheck && !m_admissionCheck()) {
        refuse(descriptor, WebSocketHandshake::refusal(503, "gateway unavailable\n", retry),
            ConnectionRefusal::Unavailable);
        return;
    }
    QHostAddress peer;
    if (m_cap.capsAddresses()) { // one more system call, only when the address matters
        sockaddr_storage address {};
        socklen_t length = sizeof(address);
        if (::getpeername(int(descriptor), reinterpret_cast<sockaddr *>(&address), &length) == 0)
            peer.setAddress(reinterpret_cast<const sockaddr *>(&address));
    }
    ConnectionCap::Admission admission = m_cap.admit(peer);
    switch (admission.verdict) {
    case ConnectionCap::Verdict::Admitted:
        break;
    case ConnectionCap::Verdict::Full:
        refuse(descriptor, WebSocketHandshake::refusal(503, "gateway full\n", retry),
            ConnectionRefusal::Full);
        return;
    case ConnectionCap::Verdict::AddressFull:
        refuse(descriptor,
            WebSocketHandshake::refusal(503, "too many connections from your address\n", retry),
            ConnectionRefusal::AddressFull);
        return;
    }
    if (int(m_pending.size()) >= kMaxPending) {
        refuse(descriptor, WebSocketHandshake::refusal(503, "too many upgrades pending\n", retry),
            ConnectionRefusal::UpgradesPending);
        return;
    }
    Pending &pending = m_pending[descriptor];
    pending.acceptor = this;
    pending.descriptor = descriptor;
    pending.deadline = m_clock.elapsed() + m_limits.upgradeTimeout.count();
    pending.place = std::move(admission.ticket);
    if (m_tls) {
        pending.tls = std::make_unique<TlsStream>(m_tls, int(descriptor));
        pending.handshaking = true;
    }
    if (!m_poller.watch(int(descriptor), &pending, true, false)) {
        m_pending.erase(descriptor);
        ::close(int(descriptor));
        return;
    }
    if (!m_sweep.isActive())
        m_sweep.start();
}

void WebSocketAcceptor::onReadable(qintptr descriptor)
{
    const auto it = m_pending.find(descriptor);
    if (it == m_pending.end())
        return;
    Pending &pending = it->second;
    if (pending.handshaking && !handshakeDone(pending))
        return;
    const ssize_t got = pending.tls
        ? pending.tls->read(m_readBuffer.data(), size_t(m_readBuffer.size()))
        : ::recv(int(descriptor), m_readBuffer.data(), size_t(m_readBuffer.size()), 0);
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return;
    if (got <= 0) { // gone before upgrading
        forget(descriptor);
        ::close(int(descriptor));
        return;
    }
    pending.buffer.append(m_readBuffer.constData(), got);
    const auto handshake = WebSocketHandshake::read(pending.buffer, m_limits.maxUpgradeBytes);
    switch (handshake.verdict) {
    case WebSocketHandshake::Verdict::Incomplete:
        return;
    case WebSocketHandshake::Verdict::Refused:
        refuse(descriptor, handshake.response, ConnectionRefusal::BadUpgrade);
        return;
    case WebSocketHandshake::Verdict::Accepted:
        break;
    }
    // Browsers always send Origin; native clients usually do not. Only listed web origins may
    // connect, so a page the user happens to visit cannot talk to a gateway on their machine.
    if (!handshake.origin.isEmpty() && !m_allowedOrigins.contains(handshake.origin)) {
        refuse(descriptor, WebSocketHandshake::refusal(403, "origin not allowed\n"),
            ConnectionRefusal::Origin);
        return;
    }
    const QByteArray early = pending.buffer.mid(handshake.headSize);
    ConnectionCap::Ticket place = std::move(pending.place);
    std::unique_ptr<TlsStream> tls = std::move(pending.tls);
    forget(descriptor);
    // 101 is small: it fits the empty send buffer of a new connection.
    const auto size = size_t(handshake.response.size());
    const ssize_t sent = tls ? tls->write(handshake.response.constData(), size)
                             : ::send(int(descriptor), handshake.response.constData(), size,
                                 MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent != ssize_t(size)) {
        tls.reset();
        ::close(int(descriptor));
        return;
    }
    Q_EMIT transportReady(new RawWebSocketTransport(descriptor, early, m_limits, &m_readBuffer,
        &m_poller, &m_writeBatch, std::move(place), std::move(tls)));
}

bool WebSocketAcceptor::handshakeDone(Pending &pending)
{
    const int descriptor = int(pending.descriptor);
    switch (pending.tls->handshake()) {
    case TlsStream::Step::Done:
        pending.handshaking = false;
        m_poller.setInterest(descriptor, &pending, true, false);
        return true;
    case TlsStream::Step::WantRead:
        m_poller.setInterest(descriptor, &pending, true, false);
        return false;
    case TlsStream::Step::WantWrite:
        m_poller.setInterest(descriptor, &pending, false, true);
        return false;
    case TlsStream::Step::Failed:
        break;
    }
    // Not TLS (plain HTTP on a wss:// port, say), or a client that does not trust us.
    forget(descriptor);
    ::close(descriptor);
    Q_EMIT refused(ConnectionRefusal::TlsHandshake);
    return false;
}

void WebSocketAcceptor::sweep()
{
    const qint64 now = m_clock.elapsed();
    std::vector<qintptr> late;
    for (const auto &[descriptor, pending] : m_pending) {
        if (pending.deadline <= now)
            late.push_back(descriptor);
    }
    for (const qintptr descriptor : late)
        refuse(descriptor, WebSocketHandshake::refusal(408, "no upgrade request in time\n"),
            ConnectionRefusal::UpgradeTimeout);
    if (m_pending.empty())
        m_sweep.stop();
}

void WebSocketAcceptor::refuse(
    qintptr descriptor, const QByteArray &reply, ConnectionRefusal reason)
{
    // Not yet pending (refused at accept), a listener with TLS cannot speak: no handshake yet.
    bool canSpeak = !m_tls;
    std::unique_ptr<TlsStream> tls;
    if (const auto it = m_pending.find(descriptor); it != m_pending.end()) {
        canSpeak = !it->second.handshaking;
        tls = std::move(it->second.tls);
    }
    forget(descriptor);
    if (canSpeak && tls) {
        (void)tls->write(reply.constData(), size_t(reply.size()));
        tls->shutdown();
    } else if (canSpeak) {
        ::send(
            int(descriptor), reply.constData(), size_t(reply.size()), MSG_NOSIGNAL | MSG_DONTWAIT);
    }
    tls.reset();
    ::shutdown(int(descriptor), SHUT_WR);
    ::close(int(descriptor));
    Q_EMIT refused(reason);
}

void WebSocketAcceptor::forget(qintptr descriptor)
{
    const auto it = m_pending.find(descriptor);
    if (it == m_pending.end())
        return;
    // Safe while the poller hands this one's event out: it hears nothing more.
    m_poller.unwatch(int(descriptor), &it->second);
    m_pending.erase(it);
}

} // namespace Presence::Server
