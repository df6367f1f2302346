#pragma once

// C++
#include <memory>
#include <unordered_map>

// Qt
#include <QByteArray>
#include <QElapsedTimer>
#include <QStringList>
#include <QTimer>

// Presence
#include "server-mock/transport/ClientAcceptor.h"
#include "server-mock/transport/ConnectionCap.h"
#include "server-mock/transport/ListeningSocket.h"
#include "server-mock/transport/SocketPoller.h"
#include "server-mock/transport/TlsContext.h"
#include "server-mock/transport/TlsStream.h"
#include "server-mock/transport/TransportLimits.h"
#include "server-mock/transport/WriteBatch.h"

namespace Presence::Server {

// Our own WebSocket server side up to the upgrade: accepts TCP connections (ListeningSocket),
// reads each one's HTTP upgrade request under the upgrade timeout (slowloris included), checks
// the Origin, answers 101 and hands over a RawWebSocketTransport, or answers an HTTP error and
// closes: 400 for a malformed request, 426 for plain HTTP, 403 for an origin not allowed, 503
// when the admission check refuses, the connection cap is reached (in total or for the peer's
// address; upgraded and pending connections both count) or too many upgrades are pending.
// Every refusal is told, with its reason. One sweep timer serves every pending upgrade's
// deadline; no timer per connection. With TLS (wss://) the handshake comes first, under the
// same deadline; a connection refused before it is over is closed without a word.
class WebSocketAcceptor : public ClientAcceptor {
    Q_OBJECT
public:
    WebSocketAcceptor(TransportLimits limits, QStringList allowedOrigins,
        ConnectionCap::Limits cap = {}, QObject *parent = nullptr);
    ~WebSocketAcceptor() override;

    [[nodiscard]] bool listen(const QHostAddress &address, quint16 port, QString *error) override;
    void close() override;
    [[nodiscard]] QHostAddress address() const override { return m_listener.address(); }
    [[nodiscard]] quint16 port() const override { return m_listener.port(); }
    void setAdmissionCheck(AdmissionCheck check) override { m_admissionCheck = std::move(check); }
    // A reload swaps it; connections open keep theirs.
    void setTls(std::shared_ptr<const TlsContext> tls) override { m_tls = std::move(tls); }
    [[nodiscard]] bool isSecure() const { return m_tls != nullptr; }
    [[nodiscard]] int pendingCount() const { return int(m_pending.size()); }
    // Connections held, pending and upgraded, and how they count against the cap.
    [[nodiscard]] const ConnectionCap &cap() const { return m_cap; }
    [[nodiscard]] std::optional<int> heldCount() const override { return m_cap.count(); }
    // Upgrades pending at once, beyond which new connections get 503.
    static constexpr int kMaxPending = 4096;

private:
    // An accepted socket until its upgrade is read, watched by the poller upgraded ones use.
    struct Pending final : SocketPoller::Watcher {
        WebSocketAcceptor *acceptor = nullptr;
        qintptr descriptor = -1;
        QByteArray buffer;
        qint64 deadline = 0; // ms on m_clock
        ConnectionCap::Ticket place;
        std::unique_ptr<TlsStream> tls; // wss://
        bool handshaking = false; // TLS's, before the upgrade request

        void socketReadable() override { acceptor->onReadable(descriptor); }
        // Only ever watched for while the TLS handshake waits to send.
        void socketWritable() override { acceptor->onReadable(descriptor); }
    };
    void onAccepted(qintptr descriptor);
    void onReadable(qintptr descriptor);
    void sweep();
    // Writes an HTTP reply (best effort: it is small) and closes the connection. Over TLS
    // before its handshake is done there is no way to say anything: it is closed.
    void refuse(qintptr descriptor, const QByteArray &reply, ConnectionRefusal reason);
    // The TLS handshake of a pending connection moved on; false when it is not over yet
    // (or failed, and the connection is gone).
    bool handshakeDone(Pending &pending);
    void forget(qintptr descriptor); // stops watching, keeps the descriptor open

    TransportLimits m_limits;
    QStringList m_allowedOrigins;
    ListeningSocket m_listener;
    AdmissionCheck m_admissionCheck;
    std::shared_ptr<const TlsContext> m_tls;
    ConnectionCap m_cap; // before the pending connections and transports holding its tickets
    std::unordered_map<qintptr, Pending> m_pending;
    QElapsedTimer m_clock;
    QTimer m_sweep;
    SocketPoller m_poller; // every upgraded connection's socket
    QByteArray m_readBuffer; // one for every connection of this loop
    WriteBatch m_writeBatch; // one flush per iteration for every connection
};

} // namespace Presence::Server
