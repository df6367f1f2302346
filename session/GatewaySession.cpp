#include "session/GatewaySession.h"

// C++
#include <algorithm>

// Qt
#include <QSslError>
#include <QSslSocket>
#include <QWebSocket>

// Presence
#include "protocol/ClientMessages.h"
#include "protocol/CloseCode.h"
#include "protocol/Digest.h"
#include "protocol/Frame.h"
#include "protocol/Overloaded.h"
#include "session/CertificatePin.h"
#include "session/FailureWords.h"
#include "session/Logging.h"
#include "session/TokenExpiry.h"

using namespace Qt::StringLiterals;

namespace Presence::Session {

using namespace Protocol;

namespace {
// Long enough for a server across the world to answer a hello; the attempt waits for it.
constexpr std::chrono::milliseconds kSchemeProbeTimeout = 3s;
} // namespace

GatewaySession::GatewaySession(QObject *parent)
    : GatewaySession(Options {}, parent)
{
}

GatewaySession::GatewaySession(Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_backoff(m_options.backoff)
    , m_heartbeat([this] { m_socket->ping(); })
    , m_pacer([this](const QString &frame) { m_socket->sendTextMessage(frame); })
    , m_friendList(&m_pacer, m_options.friendsPageSize)
    , m_subscriptions(&m_pacer, [this] { return nextRef(u's'); })
    , m_availability(&m_pacer, [this] { return nextRef(u'a'); })
{
    replaceSocket();
    m_retryTimer.setSingleShot(true);
    connect(&m_retryTimer, &QTimer::timeout, this, &GatewaySession::connectSocket);
    m_connectTimer.setSingleShot(true);
    connect(&m_connectTimer, &QTimer::timeout, this, [this] {
        qCInfo(lcSession) << "connecting took longer than" << m_options.connectTimeout.count()
                          << "ms";
        scheduleReconnect(tr("The gateway did not answer in time."));
        m_socket->abort();
    });
    connect(&m_heartbeat, &Heartbeat::pongMissed, this, &GatewaySession::onPongMissed);
    connect(&m_friendList, &FriendListSync::loaded, this, &GatewaySession::onFriendsLoaded);
    connect(&m_subscriptions, &SubscriptionSync::presenceReceived, this,
        &GatewaySession::presenceReceived);
    connect(
        &m_subscriptions, &SubscriptionSync::presenceStale, this, &GatewaySession::presenceStale);
    connect(&m_subscriptions, &SubscriptionSync::subscriptionsChanged, this,
        &GatewaySession::subscriptionsChanged);
    connect(&m_availability, &AvailabilitySync::availabilityReceived, this,
        &GatewaySession::availabilityReceived);
    connect(&m_schemeProbe, &SchemeProbe::finished, this, &GatewaySession::onSchemeProbed);
    m_stableTimer.setSingleShot(true);
    connect(&m_stableTimer, &QTimer::timeout, this, [this] { m_backoff.reset(); });
}

GatewaySession::~GatewaySession()
{
    m_state = State::Disconnected; // the socket's last state change must not reschedule
    m_socket->disconnect(this);
}

void GatewaySession::open(const QUrl &url, const QString &token)
{
    m_url = url;
    m_tokens.setToken(token);
    m_backoff.reset();
    // Whatever an earlier open() left running belongs to another connection.
    const bool wasOnline = m_state == State::Online;
    setState(State::Disconnected);
    stopTimers();
    if (m_socket->state() != QAbstractSocket::UnconnectedState)
        m_socket->abort();
    if (wasOnline)
        loseConnectionState();
    connectSocket();
}

void GatewaySession::close()
{
    const bool wasOnline = m_state == State::Online;
    setState(State::Disconnected);
    stopTimers();
    m_socket->close();
    if (wasOnline)
        loseConnectionState();
}

void GatewaySession::retryNow()
{
    if (m_state != State::Reconnecting && m_state != State::Failed)
        return;
    m_retryTimer.stop();
    connectSocket();
}

void GatewaySession::setPinnedCertificates(const QHash<QString, QByteArray> &pins)
{
    m_options.pinnedCertificates = pins;
}

QByteArray GatewaySession::presentedDigest() const
{
    return CertificatePin::digestOf(m_presented);
}

QByteArray GatewaySession::pinnedDigest() const
{
    return m_options.pinnedCertificates.value(CertificatePin::serverOf(m_url));
}

void GatewaySession::setWanted(const QSet<QString> &ids)
{
    m_subscriptions.setWanted(ids);
}

void GatewaySession::setChosenStatus(ChosenStatus status)
{
    if (status == m_chosenStatus)
        return;
    m_chosenStatus = status;
    if (m_state == State::Online)
        m_pacer.send(toJson(SetStatusRequest { status }));
    Q_EMIT chosenStatusChanged(status);
}

QString GatewaySession::request(const QJsonObject &message, QChar kind)
{
    if (m_state != State::Online)
        return {};
    QString ref = nextRef(kind);
    if (FramePacer::serialize(message, ref).toUtf8().size() > m_limits.maxFrameBytes) {
        // Sending it would get the connection closed (1009): refuse it here, asynchronously
        // like any answer.
        QMetaObject::invokeMethod(
            this,
            [this, ref] {
                Q_EMIT requestRefused(ref, toString(ErrorCode::BadRequest),
                    tr("This is larger than the gateway accepts: at most %1 bytes.")
                        .arg(m_limits.maxFrameBytes));
            },
            Qt::QueuedConnection);
        return ref;
    }
    m_requests.insert(ref);
    m_pacer.send(message, ref);
    return ref;
}

void GatewaySession::onConversations(const ConversationsPage &page, const QString &ref)
{
    if (m_requests.remove(ref))
        Q_EMIT conversationsReceived(ref, page.items);
}

void GatewaySession::onOk(const Ok &ok, const QString &ref)
{
    if (m_tokens.answered(ref, true))
        return;
    if (m_requests.remove(ref))
        Q_EMIT okReceived(ref, ok);
}

void GatewaySession::onHistory(const HistoryPage &page, const QString &ref)
{
    if (m_requests.remove(ref))
        Q_EMIT historyReceived(ref, page);
}

void GatewaySession::stopTimers()
{
    m_retryTimer.stop();
    m_connectTimer.stop();
    m_heartbeat.stop();
    m_stableTimer.stop();
    m_schemeProbe.cancel();
    m_tokens.cancel();
}

void GatewaySession::replaceSocket()
{
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
        m_socket->deleteLater(); // this may run inside one of its signals
    }
    m_socket = new QWebSocket(QString(), QWebSocketProtocol::VersionLatest, this);
    connect(m_socket, &QWebSocket::connected, this, &GatewaySession::onConnected);
    // stateChanged covers every way an attempt ends: refused, closed, aborted, timed out.
    connect(m_socket, &QWebSocket::stateChanged, this, [this](QAbstractSocket::SocketState s) {
        if (s == QAbstractSocket::UnconnectedState)
            onDisconnected();
    });
    connect(m_socket, &QWebSocket::textMessageReceived, this, &GatewaySession::onTextMessage);
    connect(m_socket, &QWebSocket::pong, &m_heartbeat, &Heartbeat::onPong);
    connect(m_socket, &QWebSocket::sslErrors, this, &GatewaySession::onSslErrors);
}

void GatewaySession::onSslErrors(const QList<QSslError> &errors)
{
    // The leaf the gateway presented. QWebSocket passes on only the errors, each about one
    // certificate of the chain (not always the leaf); its TLS socket, a child, knows the peer's.
    const auto *tls = m_socket->findChild<QSslSocket *>();
    QSslCertificate presented = tls ? tls->peerCertificate() : QSslCertificate();
    for (auto error = errors.cbegin(); presented.isNull() && error != errors.cend(); ++error)
        presented = error->certificate();
    const QByteArray pinned = pinnedDigest();
    if (!pinned.isEmpty() && CertificatePin::digestOf(presented) == pinned) {
        // Exactly the certificate the user trusted, for exactly this server.
        qCInfo(lcSession) << "the certificate of" << CertificatePin::serverOf(m_url)
                          << "is the one trusted for it";
        m_socket->ignoreSslErrors();
        return;
    }
    // Qt refuses the handshake itself; this keeps why, for the disconnect that follows.
    m_presented = presented;
    if (!errors.isEmpty() && m_sslError.isEmpty())
        m_sslError = errors.constFirst().errorString();
}

void GatewaySession::connectSocket()
{
    // A fresh socket: QWebSocket keeps an earlier attempt's handshake error and close code,
    // and what went wrong belongs to one attempt ("a web server" must not outlive it).
    replaceSocket();
    m_sslError.clear();
    m_presented = QSslCertificate();
    m_errorString.clear();
    m_failure = Failure::None;
    m_pacer.removeBudget();
    setState(State::Connecting);
    m_connectTimer.start(m_options.connectTimeout);
    m_tokens.beforeConnecting([this] {
        if (m_tokens.hasEnded()) {
            // The gateway closed for this very token's end, and the source has no other:
            // signing in with it would only be refused.
            fail(Failure::SignInExpired, FailureWords::signInExpired());
            return;
        }
        qCDebug(lcSession) << "connecting to" << m_url.toString();
        m_socket->open(m_url);
    });
}

void GatewaySession::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

void GatewaySession::scheduleReconnect(const QString &reason)
{
    if (m_state == State::Reconnecting || m_state == State::Failed
        || m_state == State::Disconnected)
        return;
    const bool wasOnline = m_state == State::Online;
    stopTimers();
    m_errorString = reason;
    m_retryDelay = m_backoff.next();
    setState(State::Reconnecting);
    qCInfo(lcSession) << "connection lost:" << reason << "- retry" << m_backoff.attempts() << "in"
                      << m_retryDelay.count() << "ms";
    Q_EMIT retryScheduled(m_backoff.attempts(), m_retryDelay);
    m_retryTimer.start(m_retryDelay);
    if (wasOnline)
        loseConnectionState();
}

void GatewaySession::fail(Failure failure, const QString &reason)
{
    const bool wasOnline = m_state == State::Online;
    m_errorString = reason;
    m_failure = failure;
    stopTimers();
    setState(State::Failed);
    qCWarning(lcSession) << "giving up:" << reason;
    if (m_socket->state() != QAbstractSocket::UnconnectedState)
        m_socket->abort();
    if (wasOnline)
        loseConnectionState();
}

void GatewaySession::failTokenRefused()
{
    // The gateway refuses an expired token as it refuses an unknown one (on purpose: its
    // answer says nothing of why); the token's own exp tells the user which it was.
    if (TokenExpiry::hasPassed(m_tokens.token()))
        fail(Failure::SignInExpired, FailureWords::signInExpired());
    else
        fail(Failure::TokenRefused, FailureWords::tokenRefused());
}

bool GatewaySession::failIfNotAGateway()
{
    const auto reason = FailureWords::notAGateway(m_url, m_socket->errorString());
    if (reason)
        fail(Failure::NotAGateway, *reason);
    return reason.has_value();
}

bool GatewaySession::probeScheme()
{
    const bool secure = m_url.scheme() == u"wss"_s;
    if (!SchemeProbe::mayExplain(secure, m_socket->error()))
        return false;
    if (FailureWords::hasHttpStatus(m_socket->errorString()))
        return false; // it answered the upgrade in HTTP (a 503 of a gateway restarting, say)
    m_probedReason = m_socket->errorString();
    qCInfo(lcSession) << "the attempt failed before any handshake (" << m_probedReason
                      << "): asking" << m_url.host() << "what it speaks";
    m_schemeProbe.start(m_url.host(), quint16(m_url.port(secure ? 443 : 80)), kSchemeProbeTimeout);
    return true;
}

void GatewaySession::onSchemeProbed(SchemeProbe::Answer answer)
{
    if (m_state != State::Connecting)
        return;
    const bool secure = m_url.scheme() == u"wss"_s;
    if (answer != (secure ? SchemeProbe::Answer::Http : SchemeProbe::Answer::Tls)) {
        scheduleReconnect(m_probedReason);
        return;
    }
    fail(Failure::WrongScheme, FailureWords::wrongScheme(m_url));
}

void GatewaySession::failCertificate()
{
    const QByteArray pinned = pinnedDigest();
    // Never trusted silently: only the user, told, may trust the new one.
    if (!pinned.isEmpty())
        fail(Failure::CertificateChanged,
            FailureWords::certificateChanged(m_url, pinned, presentedDigest()));
    else
        fail(Failure::UntrustedCertificate,
            FailureWords::certificateUntrusted(m_url, m_sslError, presentedDigest()));
}

void GatewaySession::loseConnectionState()
{
    // Whatever the gateway held for that connection is gone with it.
    m_pacer.clear();
    m_subscriptions.stop();
    m_availability.stop();
    m_friendList.stop();
    m_requests.clear();
    Q_EMIT subscriptionsChanged(0);
    Q_EMIT presenceLost();
}

void GatewaySession::onConnected()
{
    setState(State::Authenticating);
    Hello hello;
    hello.token = m_tokens.token();
    hello.client = m_options.clientName;
    hello.status = m_chosenStatus; // a reconnect while invisible must never show us online
    if (m_options.availabilityBatch.count() > 0)
        hello.presenceBatchMs = int(m_options.availabilityBatch.count());
    m_statusInHello = m_chosenStatus;
    m_pacer.send(toJson(hello));
}

void GatewaySession::onDisconnected()
{
    // Only a close during sign-in can mean the token or the protocol was refused.
    // QWebSocketProtocol::CloseCode names only RFC 6455's codes; the gateway's own (4000-4999)
    // lie outside its range, where comparing the enum may be folded to false: compare numbers.
    const int code = int(m_socket->closeCode());
    if (m_state == State::Authenticating && code == CloseCode::Unauthorized) {
        failTokenRefused();
        return;
    }
    if (m_state == State::Authenticating && code == CloseCode::UnsupportedProtocol) {
        fail(Failure::UnsupportedProtocol, FailureWords::unsupportedProtocol());
        return;
    }
    if (m_state == State::Connecting && failIfNotAGateway())
        return;
    if (m_state == State::Connecting && !m_sslError.isEmpty()) {
        failCertificate();
        return;
    }
    if (m_state == State::Connecting && probeScheme())
        return;
    if (m_state == State::Online && code == CloseCode::TokenExpired) {
        // Signing in again with the same token would only be refused. With a token source, the
        // reconnect fetches a new one first, and fails if it is still this one.
        m_tokens.markEnded();
        if (!m_tokens.hasSource()) {
            fail(Failure::SignInExpired, FailureWords::signInExpired());
            return;
        }
    }
    if (m_state == State::Online && !m_tokens.hasSource() && code == CloseCode::TokenRevoked) {
        fail(Failure::TokenRefused, FailureWords::signedOut());
        return;
    }
    if (m_state == State::Online && code == CloseCode::RateLimited) {
        // The gateway asked us to slow down: come back late, not in 100 ms.
        m_backoff.skipToCap();
    }
    QString reason = m_socket->closeReason();
    if (reason.isEmpty())
        reason = m_socket->errorString();
    scheduleReconnect(reason);
}

void GatewaySession::onTextMessage(const QString &text)
{
    const auto envelope = parseFrame(text);
    if (!envelope.ok()) {
        qCWarning(lcSession) << "ignoring a malformed frame:" << envelope.error().message;
        return;
    }
    const auto decoded = decodeServerMessage(envelope.value());
    if (!decoded.ok()) {
        if (decoded.error().code == ErrorCode::UnknownType)
            qCDebug(lcSession) << "ignoring a frame of unknown type" << envelope.value().type;
        else
            qCWarning(lcSession) << "ignoring a malformed frame:" << decoded.error().message;
        return;
    }
    const QString ref = envelope.value().ref.value_or(QString());
    std::visit(
        Overloaded {
            [&](const Welcome &m) { onWelcome(m); },
            [&](const FriendsPage &m) { m_friendList.onPage(m); },
            [&](const Snapshot &m) { m_subscriptions.onSnapshot(m, ref); },
            [&](const PresenceEvent &m) { m_subscriptions.onPresence(m.presence); },
            [&](const ErrorMessage &m) { onError(m, ref); },
            [&](const Ok &m) { onOk(m, ref); },
            [](const Pong &) {}, // answers a JSON ping, which QWebSocket's own pings replace
            [&](const HistoryPage &m) { onHistory(m, ref); },
            [&](const MessageEvent &m) { Q_EMIT chatMessageReceived(m.message); },
            [&](const Availability &m) { m_availability.onAvailability(m, ref); },
            [&](const AvailabilityChanged &m) { m_availability.onAvailabilityChanged(m); },
            [&](const PresenceBatch &m) { m_availability.onPresenceBatch(m); },
            [&](const Digest &m) { onDigest(m); },
            [&](const ConversationsPage &m) { onConversations(m, ref); },
            [&](const ReadMarkerEvent &m) { Q_EMIT readMarkerReceived(m.with, m.upTo, m.unread); },
            [&](const TokenExpiring &m) { onTokenExpiring(m); },
            [&](const FriendsChanged &m) { onFriendsChanged(m); },
        },
        decoded.value());
}

void GatewaySession::onTokenExpiring(const TokenExpiring &expiring)
{
    if (m_state != State::Online)
        return;
    qCInfo(lcSession) << "the token expires in" << expiring.inMs << "ms";
    Q_EMIT tokenExpiring(std::chrono::milliseconds(expiring.inMs));
    m_tokens.renew(std::chrono::milliseconds(expiring.inMs), [this](const QString &token) {
        QString ref = nextRef(u'r');
        m_pacer.send(toJson(RefreshRequest { token }), ref);
        return ref;
    });
}

void GatewaySession::onWelcome(const Welcome &welcome)
{
    if (m_state != State::Authenticating)
        return;
    m_connectTimer.stop();
    m_self = welcome.user;
    m_limits = welcome.limits;
    // What the gateway holds for us starts empty on every connection.
    m_subscriptions.start(m_limits);
    m_availability.start(m_limits);
    m_requests.clear();
    m_pacer.clear();
    // 80 % of the gateway's rate and burst: its clock and ours never agree exactly.
    m_pacer.setBudget(0.8 * m_limits.maxFramesPerSecond, std::max(1.0, 0.8 * m_limits.frameBurst));
    setState(State::Online);

    const auto heartbeat = m_options.heartbeatOverride.count() > 0
        ? m_options.heartbeatOverride
        : std::chrono::milliseconds(welcome.heartbeatMs);
    m_heartbeat.start(heartbeat, m_options.pongTimeout);
    m_stableTimer.start(m_options.stableAfter);
    qCInfo(lcSession) << "signed in as" << m_self.id;
    Q_EMIT signedIn(m_self);
    // A status chosen while hello was on its way is not lost.
    if (m_chosenStatus != m_statusInHello)
        m_pacer.send(toJson(SetStatusRequest { m_chosenStatus }));
    m_friendList.read();
    m_subscriptions.sync();
}

void GatewaySession::onFriendsLoaded(const QList<UserInfo> &friends)
{
    QStringList ids;
    ids.reserve(friends.size());
    for (const UserInfo &user : friends)
        ids.append(user.id);
    Q_EMIT friendsLoaded(friends);
    // Who is online among all friends, not only the rows on screen: sorting and counting
    // need it.
    m_availability.watch(ids);
}

void GatewaySession::onFriendsChanged(const FriendsChanged &changed)
{
    if (m_state != State::Online)
        return;
    qCInfo(lcSession) << changed.added.size() << "friends added and" << changed.removed.size()
                      << "removed; reading the list again";
    QStringList added;
    added.reserve(changed.added.size());
    for (const UserInfo &user : changed.added)
        added.append(user.id);
    m_subscriptions.onFriendsChanged(added, changed.removed);
    // The gateway ended the availability watch: what it covers moved with the list.
    m_availability.unwatch();
    // Pages of the old list still on their way do not start at offset 0 of this one.
    m_friendList.read();
}

void GatewaySession::onError(const ErrorMessage &error, const QString &ref)
{
    qCWarning(lcSession) << "gateway error" << error.codeText << error.message;
    Q_EMIT errorReceived(error.codeText, error.message);
    if (m_state == State::Authenticating
        && (error.code == ErrorCode::Unauthorized
            || error.code == ErrorCode::UnsupportedProtocol)) {
        if (error.code == ErrorCode::Unauthorized)
            failTokenRefused();
        else
            fail(Failure::UnsupportedProtocol, FailureWords::unsupportedProtocol());
        return;
    }
    if (m_tokens.answered(ref, false))
        return;
    if (error.code == ErrorCode::RateLimited) {
        // Pacing should make this impossible; if a request was dropped anyway, what the
        // gateway holds is unknown, and a fresh connection is the one exact way back.
        scheduleReconnect(tr("The gateway dropped a request (rate limited)."));
        m_socket->abort();
        return;
    }
    if (m_requests.remove(ref)) {
        Q_EMIT requestRefused(ref, error.codeText, error.message);
        return;
    }
    // A refused subscribe: those ids are not asked for again on this connection.
    (void)m_subscriptions.onRefused(ref);
}

void GatewaySession::onDigest(const Digest &digest)
{
    // With answers in flight what we hold is not comparable yet: the next digest will be.
    if (m_state != State::Online || m_subscriptions.awaitsSnapshots()
        || m_availability.awaitsAnswer())
        return;
    if (watchedDigest(m_subscriptions.held()) != digest.watched) {
        ++m_digestMismatches;
        qCInfo(lcSession) << "the gateway's digest differs from what we hold: subscribing again";
        m_subscriptions.resubscribeAll();
    }
    if (digest.availability && m_availability.checkDigest(*digest.availability))
        ++m_digestMismatches;
}

void GatewaySession::onPongMissed()
{
    // Half-open TCP looks exactly like this: no error, just silence.
    qCInfo(lcSession) << "no pong within" << m_options.pongTimeout.count()
                      << "ms: the connection is dead";
    scheduleReconnect(tr("The gateway stopped answering."));
    m_socket->abort();
}

QString GatewaySession::nextRef(QChar kind)
{
    return kind + QString::number(++m_refCounter);
}

} // namespace Presence::Session
