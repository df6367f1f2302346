#pragma once

// C++
#include <chrono>
#include <memory>
#include <optional>

// Presence
#include "protocol/ClientMessages.h"
#include "protocol/ErrorCode.h"
#include "server-mock/core/DeadlineSweep.h"
#include "server-mock/presence/PresenceStore.h"
#include "server-mock/server/GatewayConfig.h"
#include "server-mock/server/RateLimiter.h"
#include "server-mock/transport/ClientTransport.h"

namespace Presence::Server {

class GatewayMetrics;

// One client's WebSocket as the gateway sees it: the rules the protocol puts on a connection
// (hello deadline, heartbeat, frame size and rate limits, decoding, close codes), over a
// ClientTransport that carries the frames. What requests mean is the Gateway's business; this
// class only hands them over. Its deadlines (hello, ping, silence, close) are kept by the
// gateway's one DeadlineSweep, not by timers of its own. A plain object, not a QObject: it has
// no signals, and every byte of it is paid once per connection.
class ClientConnection : private DeadlineSweep::Member, private ClientTransport::Receiver {
public:
    enum class State { AwaitingHello, Authenticated, Closing };

    // Hears what the peer asks, and that it is gone: the Gateway. A plain interface rather
    // than signals, for the memory of a connection (see ClientTransport::Receiver).
    class Owner {
    public:
        virtual void onHello(ClientConnection *connection, const Protocol::Hello &hello,
            const std::optional<QString> &ref)
            = 0;
        virtual void onRequest(ClientConnection *connection, const Protocol::ClientMessage &request,
            const std::optional<QString> &ref)
            = 0;
        // Told once; the owner deletes the connection, later (not from inside the call: the
        // transport that told it may still be on the stack).
        virtual void onDisconnected(ClientConnection *connection) = 0;

    protected:
        virtual ~Owner() = default;
    };

    // Adopts transport. config and sweep must outlive the connection's life as a peer (until
    // the owner hears onDisconnected()); metrics, when given, must outlive the connection.
    ClientConnection(ClientTransport *transport, ConnectionId id, const GatewayConfig &config,
        DeadlineSweep *sweep, Owner *owner, GatewayMetrics *metrics = nullptr);
    ~ClientConnection() override;
    ClientConnection(const ClientConnection &) = delete;
    ClientConnection &operator=(const ClientConnection &) = delete;

    [[nodiscard]] ConnectionId id() const { return m_id; }
    [[nodiscard]] State state() const { return m_state; }
    [[nodiscard]] const QString &userId() const { return m_userId; }
    [[nodiscard]] Protocol::ChosenStatus chosenStatus() const { return m_status; }
    [[nodiscard]] QString peer() const;
    [[nodiscard]] ClientTransport *transport() const { return m_transport.get(); }
    // Puts `outer`, which has adopted (and will delete) this connection's transport, between
    // the two from now on (QA's FaultyTransport, interposed only on connections a fault
    // reaches).
    void interposeTransport(ClientTransport *outer);

    // Hello accepted: remembers who this is and starts the heartbeat. The caller sends welcome.
    void authenticate(const QString &userId, Protocol::ChosenStatus status);
    void setChosenStatus(Protocol::ChosenStatus status) { m_status = status; }
    // The token it signed in with, or was refreshed to, is refused from expiresAt on (the
    // system clock's, since the epoch); nullopt when it never is (a users-file token). The
    // peer is told config.tokenWarning ahead (token_expiring), once per end: an expiresAt it
    // has already changes nothing. It is closed with 4004 then.
    void setTokenExpiry(std::optional<std::chrono::milliseconds> expiresAt);
    // Signed in with a token that expires (a JSON Web Token), not a users-file token.
    [[nodiscard]] bool tokenExpires() const
    {
        return m_tokenEnds != DeadlineSweep::Clock::time_point::max();
    }
    // The batch window granted in welcome (hello's presence_batch_ms); 0: none asked for.
    [[nodiscard]] std::chrono::milliseconds presenceBatch() const { return m_presenceBatch; }
    void setPresenceBatch(std::chrono::milliseconds window) { m_presenceBatch = window; }

    void send(const QJsonObject &message, const std::optional<QString> &ref = {});
    // A frame serialised once (UTF-8), for one connection or many.
    void sendSerialized(const QByteArray &frame);
    // A frame already serialised, counted in the metrics as `type` (what send() counts).
    void sendFrame(const QString &type, const QByteArray &frame);
    void sendError(const Protocol::ProtocolError &error);
    // Sends the error, then closes with closeCode.
    void closeWithError(const Protocol::ProtocolError &error, quint16 closeCode);
    void close(quint16 closeCode, const QString &reason);
    // Drops the TCP connection at once: no close frame, as a crash or a lost network would.
    void abortAbruptly();

    // Nobody (nullptr) hears nothing more: an owner that goes first says so.
    void setOwner(Owner *owner) { m_owner = owner; }

private:
    static constexpr std::chrono::milliseconds kNeverExpires = std::chrono::milliseconds::max();

    // ClientTransport::Receiver
    void transportText(const QString &text) override { handleText(text); }
    void transportBinary() override { onBinaryMessage(); }
    bool transportPing() override;
    void transportPong() override { heard(); }
    // Nothing was read while reading was paused: the peer's silence was ours.
    void transportReadingResumed() override { heard(); }
    void transportClosed(quint16 closeCode) override { onTransportDisconnected(closeCode); }
    void onBinaryMessage();
    // Takes the frame from the rate budget. Over it, a request is answered rate_limited, a ping
    // (tellDrops false) only goes unanswered; persistent abuse closes with 4029.
    bool admitFrame(bool tellDrops = true);
    void heard();
    void deadlineReached(DeadlineSweep::Clock::time_point now) override;
    // Authenticated: warns of the token's end, and closes at it; false once closing.
    bool checkToken(DeadlineSweep::Clock::time_point now);
    // Authenticated: pings when due, closes a peer silent past heartbeat + slack.
    void checkHeartbeat(DeadlineSweep::Clock::time_point now);
    void onTransportDisconnected(quint16 closeCode);
    void handleText(const QString &text);

    std::unique_ptr<ClientTransport> m_transport; // the outermost, which owns any inner one
    ConnectionId m_id;
    const GatewayConfig &m_config; // the gateway's: one copy for every connection
    Owner *m_owner;
    GatewayMetrics *m_metrics;
    State m_state = State::AwaitingHello;
    QString m_userId;
    Protocol::ChosenStatus m_status = Protocol::ChosenStatus::Online;
    std::chrono::milliseconds m_presenceBatch { 0 };
    RateLimiter m_rateLimiter;
    // AwaitingHello: the hello deadline; Closing: when a peer that has not answered our close
    // frame is aborted.
    DeadlineSweep::Clock::time_point m_stateDeadline;
    DeadlineSweep::Clock::time_point m_nextPing; // Authenticated
    DeadlineSweep::Clock::time_point m_lastHeard;
    // Authenticated with a token that expires: when it is refused, and when to warn (max once
    // warned, or for a token that never expires).
    DeadlineSweep::Clock::time_point m_tokenEnds = DeadlineSweep::Clock::time_point::max();
    DeadlineSweep::Clock::time_point m_tokenWarning = DeadlineSweep::Clock::time_point::max();
    // The end setTokenExpiry() was last given (since the epoch), to tell a refresh that
    // changes nothing.
    std::chrono::milliseconds m_tokenExpiresAt = kNeverExpires;
};

} // namespace Presence::Server
