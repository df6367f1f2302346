#pragma once

// C++
#include <optional>

// Qt
#include <QObject>

// Presence
#include "protocol/ClientMessages.h"
#include "protocol/ErrorCode.h"
#include "server-mock/core/DeadlineSweep.h"
#include "server-mock/presence/PresenceStore.h"
#include "server-mock/server/GatewayConfig.h"
#include "server-mock/server/RateLimiter.h"

namespace Presence::Server {

class ClientTransport;
class GatewayMetrics;

// One client's WebSocket as the gateway sees it: the rules the protocol puts on a connection
// (hello deadline, heartbeat, frame size and rate limits, decoding, close codes), over a
// ClientTransport that carries the frames. What requests mean is the Gateway's business; this
// class only hands them over. Its deadlines (hello, ping, silence, close) are kept by the
// gateway's one DeadlineSweep, not by timers of its own.
class ClientConnection : public QObject, private DeadlineSweep::Member {
    Q_OBJECT
public:
    enum class State { AwaitingHello, Authenticated, Closing };

    // Adopts transport. config and sweep must outlive the connection's life as a peer (until
    // disconnected()); metrics, when given, must outlive the connection.
    ClientConnection(ClientTransport *transport, ConnectionId id, const GatewayConfig &config,
        DeadlineSweep *sweep, GatewayMetrics *metrics = nullptr, QObject *parent = nullptr);
    ~ClientConnection() override;

    [[nodiscard]] ConnectionId id() const { return m_id; }
    [[nodiscard]] State state() const { return m_state; }
    [[nodiscard]] const QString &userId() const { return m_userId; }
    [[nodiscard]] Protocol::ChosenStatus chosenStatus() const { return m_status; }
    [[nodiscard]] QString peer() const;
    [[nodiscard]] ClientTransport *transport() const { return m_transport; }
    // Puts `outer`, which has adopted this connection's transport, between the two from now
    // on (QA's FaultyTransport, interposed only on connections a fault reaches).
    void interposeTransport(ClientTransport *outer);

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

Q_SIGNALS:
    void helloReceived(const Presence::Protocol::Hello &hello, const std::optional<QString> &ref);
    void requestReceived(
        const Presence::Protocol::ClientMessage &request, const std::optional<QString> &ref);
    void disconnected();

private:
    void attachTransport();
    void onBinaryMessage();
    bool admitFrame();
    void heard();
    void deadlineReached(DeadlineSweep::Clock::time_point now) override;
    // Authenticated: pings when due, closes a peer silent past heartbeat + slack.
    void checkHeartbeat(DeadlineSweep::Clock::time_point now);
    void onTransportDisconnected(quint16 closeCode);
    void handleText(const QString &text);

    ClientTransport *m_transport;
    ConnectionId m_id;
    const GatewayConfig &m_config; // the gateway's: one copy for every connection
    GatewayMetrics *m_metrics;
    State m_state = State::AwaitingHello;
    QString m_userId;
    Protocol::ChosenStatus m_status = Protocol::ChosenStatus::Online;
    RateLimiter m_rateLimiter;
    // AwaitingHello: the hello deadline; Closing: when a peer that has not answered our close
    // frame is aborted.
    DeadlineSweep::Clock::time_point m_stateDeadline;
    DeadlineSweep::Clock::time_point m_nextPing; // Authenticated
    DeadlineSweep::Clock::time_point m_lastHeard;
};

} // namespace Presence::Server
