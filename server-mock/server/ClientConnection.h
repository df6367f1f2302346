#pragma once

// C++
#include <deque>
#include <optional>

// Qt
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>

// Presence
#include "protocol/ClientMessages.h"
#include "protocol/ErrorCode.h"
#include "server-mock/presence/PresenceStore.h"
#include "server-mock/server/GatewayConfig.h"
#include "server-mock/server/RateLimiter.h"

class QTcpSocket;
class QWebSocket;

namespace Presence::Server {

class GatewayMetrics;

// One client's WebSocket as the gateway sees it: the transport rules of the protocol
// (hello deadline, heartbeat, frame size and rate limits, decoding, close codes).
// What requests mean is the Gateway's business; this class only hands them over.
class ClientConnection : public QObject {
    Q_OBJECT
public:
    enum class State { AwaitingHello, Authenticated, Closing };

    // metrics, when given, must outlive the connection.
    ClientConnection(QWebSocket *socket, ConnectionId id, const GatewayConfig &config,
        GatewayMetrics *metrics = nullptr, QObject *parent = nullptr);
    ~ClientConnection() override;

    [[nodiscard]] ConnectionId id() const { return m_id; }
    [[nodiscard]] State state() const { return m_state; }
    [[nodiscard]] const QString &userId() const { return m_userId; }
    [[nodiscard]] Protocol::ChosenStatus chosenStatus() const { return m_status; }
    [[nodiscard]] QString peer() const;

    // Hello accepted: remembers who this is and starts the heartbeat. The caller sends welcome.
    void authenticate(const QString &userId, Protocol::ChosenStatus status);
    void setChosenStatus(Protocol::ChosenStatus status) { m_status = status; }

    void send(const QJsonObject &message, const std::optional<QString> &ref = {});
    void sendSerialized(const QString &frame);
    void sendError(const Protocol::ProtocolError &error);
    // Sends the error, then closes with closeCode.
    void closeWithError(const Protocol::ProtocolError &error, quint16 closeCode);
    void close(quint16 closeCode, const QString &reason);
    // Drops the TCP connection at once: no close frame, as a crash or a lost network would.
    void abortAbruptly();

    // Fault injection (FaultInjector). Each outgoing frame waits `delay` before it is written,
    // in order. A stalled connection neither handles what it receives nor writes anything
    // (heartbeat included, and the pongs QWebSocket would send by itself) until it is released;
    // then it catches up in order. When stalling, `transport` is the TCP socket under the
    // WebSocket (QWebSocket does not expose it): what the peer sends meanwhile waits there.
    void setOutgoingDelay(std::chrono::milliseconds delay);
    void setStalled(bool stalled, QTcpSocket *transport = nullptr);
    [[nodiscard]] bool isStalled() const { return m_stalled; }

Q_SIGNALS:
    void helloReceived(const Presence::Protocol::Hello &hello, const std::optional<QString> &ref);
    void requestReceived(
        const Presence::Protocol::ClientMessage &request, const std::optional<QString> &ref);
    void disconnected();

private:
    void onTextMessage(const QString &text);
    void onBinaryMessage(const QByteArray &data);
    bool admitFrame();
    void heard();
    void onSilenceCheck();
    void onSocketDisconnected();
    void writeDue();
    void handleText(const QString &text);
    // Lets a stalled TCP socket reach the QWebSocket again. False when the peer left meanwhile,
    // unseen by the QWebSocket: this connection then reports its end itself.
    bool releaseTransport();

    QWebSocket *m_socket;
    ConnectionId m_id;
    GatewayConfig m_config;
    GatewayMetrics *m_metrics;
    bool m_reportedClosed = false;
    // A close handshake began (either side): without one, the connection ended abnormally.
    bool m_closeHandshake = false;
    State m_state = State::AwaitingHello;
    QString m_userId;
    Protocol::ChosenStatus m_status = Protocol::ChosenStatus::Online;
    RateLimiter m_rateLimiter;
    std::chrono::steady_clock::time_point m_lastHeard;
    QTimer m_helloTimer;
    QTimer m_pingTimer;
    QTimer m_silenceTimer;
    QTimer m_closeTimer; // aborts a peer that never answers our close frame

    struct Queued {
        std::chrono::steady_clock::time_point due;
        QString frame;
    };
    std::chrono::milliseconds m_outgoingDelay { 0 };
    bool m_stalled = false;
    std::deque<Queued> m_outbox; // frames held by a delay or a stall, in order
    QStringList m_inbox; // frames received while stalled
    QPointer<QTcpSocket> m_transport; // while stalled: its signals are blocked
    QTimer m_outboxTimer;
};

} // namespace Presence::Server
