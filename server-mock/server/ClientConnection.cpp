#include "server-mock/server/ClientConnection.h"

// C++
#include <algorithm>

// Presence
#include "protocol/CloseCode.h"
#include "protocol/Frame.h"
#include "protocol/ServerMessages.h"
#include "server-mock/server/GatewayMetrics.h"
#include "server-mock/server/Logging.h"
#include "server-mock/transport/ClientTransport.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

using namespace Protocol;

ClientConnection::ClientConnection(ClientTransport *transport, ConnectionId id,
    const GatewayConfig &config, DeadlineSweep *sweep, Owner *owner, GatewayMetrics *metrics)
    : m_transport(transport)
    , m_id(id)
    , m_config(config)
    , m_owner(owner)
    , m_metrics(metrics)
    , m_rateLimiter(
          config.maxFramesPerSecond, config.frameBurst, config.abuseDropLimit, config.abuseWindow)
    , m_stateDeadline(DeadlineSweep::Clock::now() + config.helloTimeout)
    , m_lastHeard(DeadlineSweep::Clock::now())
{
    m_transport->setReceiver(this);
    setDue(m_stateDeadline);
    sweep->add(this);
}

void ClientConnection::interposeTransport(ClientTransport *outer)
{
    // May run while the old transport is handing us a frame: the rest of its frames then
    // reach us through `outer`, in order. `outer` took the old transport's receiver over.
    [[maybe_unused]] ClientTransport *adopted = m_transport.release(); // outer's now
    m_transport.reset(outer);
    m_transport->setReceiver(this);
}

ClientConnection::~ClientConnection()
{
    // The transport dies with us and says so; nothing may act on that from a half-destroyed
    // connection (or count it in the metrics of a gateway being destroyed).
    m_transport->setReceiver(nullptr);
}

QString ClientConnection::peer() const
{
    return m_transport->peer();
}

void ClientConnection::authenticate(const QString &userId, ChosenStatus status)
{
    m_state = State::Authenticated;
    m_userId = userId;
    m_status = status;
    m_nextPing = DeadlineSweep::Clock::now() + m_config.heartbeat;
    heard();
    setDue(m_nextPing); // silence comes later than the next ping
}

void ClientConnection::setTokenExpiry(std::optional<std::chrono::milliseconds> expiresAt)
{
    using namespace std::chrono;
    constexpr auto never = DeadlineSweep::Clock::time_point::max();
    // The end it has already (the token in force sent back as a refresh): nothing changes, so
    // a warning given is not given again, which would only bring the same refresh back.
    const milliseconds end = expiresAt.value_or(kNeverExpires);
    if (end == m_tokenExpiresAt)
        return;
    m_tokenExpiresAt = end;
    if (!expiresAt) {
        m_tokenEnds = m_tokenWarning = never;
        return;
    }
    // Wall-clock time read once, kept on the steady clock that the sweep runs on.
    const auto left
        = *expiresAt - duration_cast<milliseconds>(system_clock::now().time_since_epoch());
    const auto now = DeadlineSweep::Clock::now();
    m_tokenEnds = now + std::max(left, milliseconds(0));
    m_tokenWarning = std::max(now, m_tokenEnds - m_config.tokenWarning);
    setDue(std::min(due(), m_tokenWarning));
}

void ClientConnection::send(const QJsonObject &message, const std::optional<QString> &ref)
{
    if (m_metrics)
        m_metrics->frameOut(message.value("type"_L1).toString());
    sendSerialized(serializeFrame(message, ref));
}

void ClientConnection::sendFrame(const QString &type, const QByteArray &frame)
{
    if (m_metrics)
        m_metrics->frameOut(type);
    sendSerialized(frame);
}

void ClientConnection::sendSerialized(const QByteArray &frame)
{
    // A peer that never reads is dropped by the transport, at GatewayConfig::maxQueuedBytes().
    if (m_state == State::Closing)
        return;
    m_transport->sendText(frame);
}

void ClientConnection::abortAbruptly()
{
    m_transport->abort();
}

void ClientConnection::sendError(const ProtocolError &error)
{
    qCDebug(lcConnection) << "connection" << m_id << "error" << toString(error.code)
                          << error.message;
    if (m_metrics)
        m_metrics->errorSent(error.code);
    send(errorJson(error), error.ref);
}

void ClientConnection::closeWithError(const ProtocolError &error, quint16 closeCode)
{
    sendError(error);
    close(closeCode, error.message.left(120)); // a close reason must fit in 123 bytes
}

void ClientConnection::close(quint16 closeCode, const QString &reason)
{
    if (m_state == State::Closing)
        return;
    m_state = State::Closing;
    // A peer that never answers our close frame is aborted then.
    m_stateDeadline = DeadlineSweep::Clock::now() + m_config.shutdownTimeout;
    setDue(m_stateDeadline);
    m_transport->close(closeCode, reason);
}

bool ClientConnection::admitFrame(bool tellDrops)
{
    heard();
    switch (m_rateLimiter.admit(std::chrono::steady_clock::now())) {
    case RateLimiter::Verdict::Accept:
        return true;
    case RateLimiter::Verdict::Drop:
        if (tellDrops) {
            sendError({ ErrorCode::RateLimited,
                u"more than %1 frames per second: frame dropped"_s.arg(
                    m_config.maxFramesPerSecond) });
        }
        return false;
    case RateLimiter::Verdict::Abuse:
        qCInfo(lcConnection) << "connection" << m_id << "closed for flooding";
        close(CloseCode::RateLimited, u"rate limit exceeded persistently"_s);
        return false;
    }
    return false;
}

void ClientConnection::handleText(const QString &text)
{
    if (m_state == State::Closing || !admitFrame())
        return;
    const auto envelope = parseFrame(text);
    if (m_metrics)
        m_metrics->frameIn(envelope.ok() ? envelope.value().type : u"invalid"_s);
    if (!envelope.ok()) {
        if (m_state == State::AwaitingHello)
            closeWithError({ ErrorCode::Unauthorized, u"the first frame must be hello"_s },
                CloseCode::Unauthorized);
        else
            sendError(envelope.error());
        return;
    }
    auto decoded = decodeClientMessage(envelope.value());
    if (m_state == State::AwaitingHello) {
        if (envelope.value().type != u"hello") {
            closeWithError({ ErrorCode::Unauthorized, u"the first frame must be hello"_s,
                               envelope.value().ref },
                CloseCode::Unauthorized);
        } else if (const QJsonValue version = envelope.value().body.value("protocol"_L1);
                   version.isDouble() && version.toDouble() != kProtocolVersion) {
            // Checked before the other fields: another version may well define them differently.
            closeWithError({ ErrorCode::UnsupportedProtocol,
                               u"this gateway speaks protocol %1"_s.arg(kProtocolVersion),
                               envelope.value().ref },
                CloseCode::UnsupportedProtocol);
        } else if (!decoded.ok()) {
            // A hello we cannot read cannot authenticate anyone.
            ProtocolError error = decoded.error();
            error.code = ErrorCode::Unauthorized;
            closeWithError(error, CloseCode::Unauthorized);
        } else {
            if (m_owner)
                m_owner->onHello(this, std::get<Hello>(decoded.value()), envelope.value().ref);
        }
        return;
    }
    if (!decoded.ok()) {
        sendError(decoded.error());
        return;
    }
    if (std::holds_alternative<PingRequest>(decoded.value())) {
        send(toJson(Pong {}), envelope.value().ref);
        return;
    }
    if (std::holds_alternative<Hello>(decoded.value())) {
        sendError(
            { ErrorCode::BadRequest, u"hello: already authenticated"_s, envelope.value().ref });
        return;
    }
    if (m_owner)
        m_owner->onRequest(this, decoded.value(), envelope.value().ref);
}

bool ClientConnection::transportPing()
{
    return m_state != State::Closing && admitFrame(false);
}

void ClientConnection::onBinaryMessage()
{
    if (m_metrics)
        m_metrics->frameIn(u"binary"_s);
    if (m_state == State::Closing || !admitFrame())
        return;
    const ProtocolError error { ErrorCode::BadRequest,
        u"binary frames are not part of the protocol: send text"_s };
    if (m_state == State::AwaitingHello)
        closeWithError({ ErrorCode::Unauthorized, u"the first frame must be hello"_s },
            CloseCode::Unauthorized);
    else
        sendError(error);
}

void ClientConnection::heard()
{
    // Only remembered: the sweep compares it with the limit when the next ping is due, which is
    // always before the silence limit.
    m_lastHeard = DeadlineSweep::Clock::now();
}

void ClientConnection::deadlineReached(DeadlineSweep::Clock::time_point now)
{
    switch (m_state) {
    case State::AwaitingHello:
        if (now >= m_stateDeadline) {
            qCInfo(lcConnection) << "connection" << m_id << "sent no hello in time";
            close(CloseCode::HelloTimeout, u"no hello in time"_s);
        }
        return;
    case State::Closing:
        if (now >= m_stateDeadline) {
            setDue(DeadlineSweep::Clock::time_point::max());
            m_transport->abort();
        }
        return;
    case State::Authenticated:
        if (checkToken(now))
            checkHeartbeat(now);
        return;
    }
}

bool ClientConnection::checkToken(DeadlineSweep::Clock::time_point now)
{
    using namespace std::chrono;
    if (now >= m_tokenEnds) {
        qCInfo(lcConnection) << "connection" << m_id << "of" << m_userId
                             << "has a token that expired: closing";
        m_tokenEnds = m_tokenWarning = DeadlineSweep::Clock::time_point::max();
        close(CloseCode::TokenExpired, u"token expired"_s);
        return false;
    }
    if (now >= m_tokenWarning) {
        m_tokenWarning = DeadlineSweep::Clock::time_point::max();
        send(toJson(TokenExpiring { duration_cast<milliseconds>(m_tokenEnds - now).count() }));
    }
    return true;
}

void ClientConnection::checkHeartbeat(DeadlineSweep::Clock::time_point now)
{
    const auto limit = m_config.heartbeat + m_config.heartbeatSlack;
    if (m_transport->isReadingPaused()) {
        // Not listening is not the peer's silence (resuming counts as hearing it), and its pong
        // could not be read: no ping either.
        m_lastHeard = now;
    } else if (now - m_lastHeard >= limit) {
        const auto silence
            = std::chrono::duration_cast<std::chrono::milliseconds>(now - m_lastHeard);
        qCInfo(lcConnection) << "connection" << m_id << "answered nothing for" << silence.count()
                             << "ms: closing";
        // A half-open peer will not answer the close either: the close deadline aborts it.
        close(CloseCode::HeartbeatTimeout, u"heartbeat timeout"_s);
        return;
    } else if (now >= m_nextPing) {
        m_transport->ping();
    }
    if (now >= m_nextPing)
        m_nextPing = now + m_config.heartbeat;
    setDue(std::min({ m_nextPing, m_lastHeard + limit, m_tokenWarning, m_tokenEnds }));
}

void ClientConnection::onTransportDisconnected(quint16 closeCode)
{
    if (m_metrics)
        m_metrics->connectionClosed(int(closeCode));
    m_state = State::Closing;
    // Nothing is left to wait for; the sweep may go before we do.
    setDue(DeadlineSweep::Clock::time_point::max());
    leaveSweep();
    if (m_owner)
        m_owner->onDisconnected(this);
}

} // namespace Presence::Server
