#include "server-mock/server/ClientConnection.h"

// Qt
#include <QTcpSocket>
#include <QWebSocket>

// Presence
#include "protocol/CloseCode.h"
#include "protocol/Frame.h"
#include "protocol/ServerMessages.h"
#include "server-mock/server/GatewayMetrics.h"
#include "server-mock/server/Logging.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

using namespace Protocol;

ClientConnection::ClientConnection(QWebSocket *socket, ConnectionId id, const GatewayConfig &config,
    GatewayMetrics *metrics, QObject *parent)
    : QObject(parent)
    , m_socket(socket)
    , m_id(id)
    , m_config(config)
    , m_metrics(metrics)
    , m_rateLimiter(
          config.maxFramesPerSecond, config.frameBurst, config.abuseDropLimit, config.abuseWindow)
    , m_lastHeard(std::chrono::steady_clock::now())
{
    m_socket->setParent(this);
    // Qt closes with 1009 (too much data) on its own when a peer exceeds these.
    m_socket->setMaxAllowedIncomingFrameSize(quint64(config.maxFrameBytes));
    m_socket->setMaxAllowedIncomingMessageSize(quint64(config.maxFrameBytes));

    connect(m_socket, &QWebSocket::textMessageReceived, this, &ClientConnection::onTextMessage);
    connect(m_socket, &QWebSocket::binaryMessageReceived, this, &ClientConnection::onBinaryMessage);
    connect(m_socket, &QWebSocket::pong, this, [this] { heard(); });
    connect(m_socket, &QWebSocket::disconnected, this, &ClientConnection::onSocketDisconnected);
    connect(m_socket, &QWebSocket::stateChanged, this, [this](QAbstractSocket::SocketState state) {
        m_closeHandshake = m_closeHandshake || state == QAbstractSocket::ClosingState;
    });

    m_helloTimer.setSingleShot(true);
    connect(&m_helloTimer, &QTimer::timeout, this, [this] {
        qCInfo(lcConnection) << "connection" << m_id << "sent no hello in time";
        close(CloseCode::HelloTimeout, u"no hello in time"_s);
    });
    m_helloTimer.start(config.helloTimeout);

    m_pingTimer.setInterval(config.heartbeat);
    connect(&m_pingTimer, &QTimer::timeout, this, [this] { m_socket->ping(); });
    m_silenceTimer.setSingleShot(true);
    connect(&m_silenceTimer, &QTimer::timeout, this, &ClientConnection::onSilenceCheck);

    m_closeTimer.setSingleShot(true);
    connect(&m_closeTimer, &QTimer::timeout, this, [this] { m_socket->abort(); });
    m_outboxTimer.setSingleShot(true);
    connect(&m_outboxTimer, &QTimer::timeout, this, &ClientConnection::writeDue);

    // A peer can hang up between its handshake and our taking the socket: disconnected()
    // will never come, so report it ourselves once the gateway has connected to us.
    if (m_socket->state() != QAbstractSocket::ConnectedState)
        QMetaObject::invokeMethod(
            this, &ClientConnection::onSocketDisconnected, Qt::QueuedConnection);
}

ClientConnection::~ClientConnection()
{
    // The socket dies with us and says so; nothing may act on that from a half-destroyed
    // connection (or count it in the metrics of a gateway being destroyed).
    m_socket->disconnect(this);
}

QString ClientConnection::peer() const
{
    return u"%1:%2"_s.arg(m_socket->peerAddress().toString()).arg(m_socket->peerPort());
}

void ClientConnection::authenticate(const QString &userId, ChosenStatus status)
{
    m_helloTimer.stop();
    m_state = State::Authenticated;
    m_userId = userId;
    m_status = status;
    m_pingTimer.start();
    heard();
}

void ClientConnection::send(const QJsonObject &message, const std::optional<QString> &ref)
{
    if (m_metrics)
        m_metrics->frameOut(message.value("type"_L1).toString());
    sendSerialized(QString::fromUtf8(serializeFrame(message, ref)));
}

void ClientConnection::sendSerialized(const QString &frame)
{
    if (m_state == State::Closing)
        return;
    // A peer that sends but never reads would make us buffer its replies without end.
    const qint64 backlogLimit = 4 * qint64(m_config.maxFrameBytes) + (qint64(1) << 20);
    if (m_stalled || m_outgoingDelay.count() > 0 || !m_outbox.empty()) {
        m_outbox.push_back({ std::chrono::steady_clock::now() + m_outgoingDelay, frame });
        writeDue();
        return;
    }
    if (m_socket->bytesToWrite() > backlogLimit) {
        qCInfo(lcConnection) << "connection" << m_id << "reads nothing: closing";
        close(CloseCode::SlowConsumer, u"not reading: output backlog over the limit"_s);
        m_socket->abort(); // what is queued would never be read anyway
        return;
    }
    m_socket->sendTextMessage(frame);
}

void ClientConnection::writeDue()
{
    if (m_stalled)
        return;
    const auto now = std::chrono::steady_clock::now();
    while (!m_outbox.empty() && m_outbox.front().due <= now && m_state != State::Closing) {
        const QString frame = std::move(m_outbox.front().frame);
        m_outbox.pop_front();
        m_socket->sendTextMessage(frame);
    }
    if (!m_outbox.empty() && m_state != State::Closing)
        m_outboxTimer.start(
            std::chrono::ceil<std::chrono::milliseconds>(m_outbox.front().due - now));
}

void ClientConnection::abortAbruptly()
{
    if (releaseTransport())
        m_socket->abort();
}

void ClientConnection::setOutgoingDelay(std::chrono::milliseconds delay)
{
    m_outgoingDelay = delay;
}

void ClientConnection::setStalled(bool stalled, QTcpSocket *transport)
{
    if (stalled == m_stalled || m_state == State::Closing)
        return;
    m_stalled = stalled;
    if (stalled) {
        // Stuck: no pings out, and no closing the peer for a silence we cause.
        m_pingTimer.stop();
        m_silenceTimer.stop();
        m_outboxTimer.stop();
        // Nor reading: QWebSocket answers pings by itself, so the peer's heartbeat would never
        // notice. It reads when its socket says readyRead; with that socket's signals blocked,
        // what arrives waits there (a bounded buffer, then the kernel's), as with a hung process.
        m_transport = transport;
        if (m_transport) {
            m_transport->blockSignals(true);
            m_transport->setReadBufferSize(qint64(m_config.maxFrameBytes) + 1024);
        }
        return;
    }
    const QPointer<QTcpSocket> held = m_transport;
    if (!releaseTransport())
        return;
    if (m_state == State::Authenticated) {
        m_pingTimer.start();
        heard();
    }
    writeDue();
    const QStringList received = std::exchange(m_inbox, {});
    for (const QString &text : received)
        handleText(text);
    // Then what waited in the TCP socket: the peer sends nothing more for being answered late,
    // so nothing else would make the QWebSocket read it.
    if (held && m_state != State::Closing && held->bytesAvailable() > 0)
        Q_EMIT held->readyRead();
}

bool ClientConnection::releaseTransport()
{
    const QPointer<QTcpSocket> transport = std::exchange(m_transport, nullptr);
    if (!transport)
        return true;
    transport->blockSignals(false);
    transport->setReadBufferSize(m_socket->readBufferSize()); // what QWebSocket had set
    if (transport->state() == QAbstractSocket::ConnectedState)
        return true;
    QMetaObject::invokeMethod(this, &ClientConnection::onSocketDisconnected, Qt::QueuedConnection);
    return false;
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
    m_helloTimer.stop();
    m_pingTimer.stop();
    m_silenceTimer.stop();
    if (!releaseTransport())
        return; // the peer left while the connection was stalled
    m_socket->close(QWebSocketProtocol::CloseCode(closeCode), reason);
    m_closeTimer.start(m_config.shutdownTimeout);
}

bool ClientConnection::admitFrame()
{
    heard();
    switch (m_rateLimiter.admit(std::chrono::steady_clock::now())) {
    case RateLimiter::Verdict::Accept:
        return true;
    case RateLimiter::Verdict::Drop:
        sendError({ ErrorCode::RateLimited,
            u"more than %1 frames per second: frame dropped"_s.arg(m_config.maxFramesPerSecond) });
        return false;
    case RateLimiter::Verdict::Abuse:
        qCInfo(lcConnection) << "connection" << m_id << "closed for flooding";
        close(CloseCode::RateLimited, u"rate limit exceeded persistently"_s);
        return false;
    }
    return false;
}

void ClientConnection::onTextMessage(const QString &text)
{
    if (m_stalled) {
        constexpr qsizetype kMaxHeld = 10'000; // a peer that floods a stuck gateway goes
        if (m_inbox.size() >= kMaxHeld)
            m_socket->abort();
        else
            m_inbox.append(text);
        return;
    }
    handleText(text);
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
            Q_EMIT helloReceived(std::get<Hello>(decoded.value()), envelope.value().ref);
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
    Q_EMIT requestReceived(decoded.value(), envelope.value().ref);
}

void ClientConnection::onBinaryMessage(const QByteArray &)
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
    m_lastHeard = std::chrono::steady_clock::now();
    if (m_state == State::Authenticated && !m_silenceTimer.isActive())
        m_silenceTimer.start(m_config.heartbeat + m_config.heartbeatSlack);
}

void ClientConnection::onSilenceCheck()
{
    const auto limit = m_config.heartbeat + m_config.heartbeatSlack;
    const auto silence = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - m_lastHeard);
    if (silence < limit) {
        m_silenceTimer.start(limit - silence);
        return;
    }
    qCInfo(lcConnection) << "connection" << m_id << "answered nothing for" << silence.count()
                         << "ms: closing";
    // A half-open peer will not answer the close either: m_closeTimer aborts it soon.
    close(CloseCode::HeartbeatTimeout, u"heartbeat timeout"_s);
}

void ClientConnection::onSocketDisconnected()
{
    if (m_metrics && !m_reportedClosed) {
        // QWebSocket reports 1000 after an abrupt end too: no close frame either way is 1006.
        m_metrics->connectionClosed(m_closeHandshake
                ? int(m_socket->closeCode())
                : int(QWebSocketProtocol::CloseCodeAbnormalDisconnection));
        m_reportedClosed = true;
    }
    m_state = State::Closing;
    m_helloTimer.stop();
    m_pingTimer.stop();
    m_silenceTimer.stop();
    m_closeTimer.stop();
    Q_EMIT disconnected();
}

} // namespace Presence::Server
