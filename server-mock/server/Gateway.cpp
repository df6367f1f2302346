#include "server-mock/server/Gateway.h"

// Qt
#include <QSet>
#include <QWebSocketProtocol>

// Presence
#include "protocol/ClientMessages.h"
#include "protocol/CloseCode.h"
#include "protocol/Frame.h"
#include "protocol/Overloaded.h"
#include "protocol/ServerMessages.h"
#include "server-mock/directory/FriendSource.h"
#include "server-mock/identity/JwtVerifier.h"
#include "server-mock/server/ClientConnection.h"
#include "server-mock/server/Logging.h"
#include "server-mock/transport/QtWebSocketAcceptor.h"
#include "server-mock/transport/WebSocketAcceptor.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

using namespace Protocol;

Gateway::Gateway(GatewayConfig config, UserDirectory directory, PresenceStore *store,
    ChatStore *chats, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_sweep(DeadlineSweep::tickFor(
          { m_config.helloTimeout, m_config.heartbeat, m_config.shutdownTimeout }))
    , m_directory(std::move(directory))
    , m_store(store)
    , m_presence(m_config, m_directory, m_store, m_connections, m_metrics)
    , m_chat(m_directory, chats, m_connections, m_metrics)
    , m_friendships(m_directory, m_connections, m_presence)
{
    m_store->setParent(this);
    registerGauges();

    m_departedTimer.setSingleShot(true);
    m_departedTimer.setInterval(0);
    connect(&m_departedTimer, &QTimer::timeout, this, &Gateway::deleteDeparted);
    // Each tick closes what the time passed calls for: a drain of 19,000 connections over
    // 10 s closes about 190 per tick, not one per half millisecond.
    m_drainTimer.setInterval(10);
    connect(&m_drainTimer, &QTimer::timeout, this, [this] { drainSome(); });
    m_shutdownTimer.setSingleShot(true);
    connect(&m_shutdownTimer, &QTimer::timeout, this, [this] {
        qCWarning(lcGateway) << m_connections.count()
                             << "connections did not acknowledge the shutdown in time";
        // Given up on: deleted (their sockets closed) on the loop's next turn.
        for (ClientConnection *connection : m_connections.all()) {
            connection->setOwner(nullptr);
            m_departed.emplace_back(connection);
        }
        m_connections.clear();
        m_departedTimer.start();
        m_shutdownDone = true;
        Q_EMIT shutdownFinished();
    });
}

Gateway::~Gateway()
{
    // Connections die with us; their end must not reach a half-destroyed gateway.
    const QList<ClientConnection *> connections = m_connections.all().values();
    for (ClientConnection *connection : connections)
        connection->setOwner(nullptr);
    // Before the members they use (metrics, registry, sweep) go.
    m_connections.clear();
    qDeleteAll(connections);
    deleteDeparted();
}

QList<Gateway::ConnectionView> Gateway::connectionsOf(const QString &userId) const
{
    QList<ConnectionView> result;
    for (const ClientConnection *connection : m_connections.devicesOf(userId))
        result.append({ connection->id(), connection->chosenStatus(), connection->peer() });
    std::sort(result.begin(), result.end(),
        [](const ConnectionView &a, const ConnectionView &b) { return a.id < b.id; });
    return result;
}

QStringList Gateway::watchersOf(const QString &userId) const
{
    QSet<QString> users;
    for (const ConnectionId watcher : m_presence.subscriptions().watchersOf(userId)) {
        if (const ClientConnection *connection = m_connections.find(watcher))
            users.insert(connection->userId());
    }
    QStringList sorted(users.cbegin(), users.cend());
    sorted.sort();
    return sorted;
}

void Gateway::registerGauges()
{
    MetricsRegistry &registry = m_metrics.registry();
    registry.gauge("presence_connections", "Open WebSocket connections, signed in or not.",
        [this] { return double(connectionCount()); });
    registry.gauge("presence_authenticated_connections", "Connections signed in as a user.",
        [this] { return double(authenticatedCount()); });
    registry.gauge("presence_authenticated_users", "Users with at least one signed-in connection.",
        [this] { return double(m_connections.userCount()); });
    registry.gauge("presence_subscriptions", "Subscriptions held, over every connection.", [this] {
        double total = 0;
        for (const ClientConnection *connection : m_connections.all())
            total += m_presence.subscriptions().countOf(connection->id());
        return total;
    });
    registry.gauge("presence_watched_users", "Users watched by at least one connection here.",
        [this] { return double(watchedUserCount()); });
    registry.gauge("presence_tcp_connections",
        "TCP connections held, upgraded or not: what --max-connections caps.",
        [this] { return double(heldConnectionCount()); });
}

int Gateway::heldConnectionCount() const
{
    // Qt's transport does not tell: its upgraded connections are the best count there is.
    const std::optional<int> held = m_acceptor ? m_acceptor->heldCount() : std::nullopt;
    return held.value_or(connectionCount());
}

void Gateway::countRefusal(ConnectionRefusal reason)
{
    m_metrics.connectionRefused(reason);
    // Refusals come in bursts when a cap is reached: a line per refusal would flood the log.
    qCDebug(lcGateway) << "refused a connection:" << refusalName(reason);
}

bool Gateway::listen(QString *error)
{
    TransportLimits limits;
    limits.maxMessageBytes = m_config.maxFrameBytes;
    limits.maxQueuedBytes = m_config.maxQueuedBytes();
    limits.upgradeTimeout = m_config.upgradeTimeout;
    const ConnectionCap::Limits cap { m_config.maxConnections, m_config.maxConnectionsPerAddress };
    if (m_config.transport == GatewayConfig::Transport::Own) {
        m_acceptor = new WebSocketAcceptor(limits, m_config.allowedOrigins, cap, this);
    } else {
        // Qt's transport gives the upgrade the time of the hello, as it always has.
        limits.upgradeTimeout = m_config.helloTimeout;
        m_acceptor = new QtWebSocketAcceptor(limits, m_config.allowedOrigins, cap, this);
    }
    m_acceptor->setAdmissionCheck(
        [this] { return !m_shuttingDown && (!m_admissionCheck || m_admissionCheck()); });
    m_acceptor->setTls(m_config.tls);
    connect(m_acceptor, &ClientAcceptor::transportReady, this, &Gateway::addConnection);
    connect(m_acceptor, &ClientAcceptor::refused, this, &Gateway::countRefusal);
    connect(m_acceptor, &ClientAcceptor::pausedAtDescriptorLimit, this,
        [this] { m_metrics.acceptPaused(); });
    return m_acceptor->listen(m_config.address, m_config.port, error);
}

void Gateway::setTls(std::shared_ptr<const TlsContext> tls)
{
    if (!m_config.tls || !tls)
        return; // ws:// stays ws://: clients were told that address
    m_config.tls = tls;
    if (m_acceptor)
        m_acceptor->setTls(std::move(tls));
}

QUrl Gateway::url() const
{
    QUrl url;
    url.setScheme(m_config.tls ? u"wss"_s : u"ws"_s);
    url.setHost(m_acceptor ? m_acceptor->address().toString() : QString());
    url.setPort(port());
    url.setPath(u"/"_s);
    return url;
}

quint16 Gateway::port() const
{
    return m_acceptor ? m_acceptor->port() : 0;
}

QStringList Gateway::subscriptionsOfUser(const QString &userId) const
{
    QSet<QString> ids;
    for (const ClientConnection *connection : m_connections.devicesOf(userId)) {
        const QStringList watched = m_presence.subscriptions().subscriptionsOf(connection->id());
        ids.unite(QSet<QString>(watched.cbegin(), watched.cend()));
    }
    QStringList sorted(ids.cbegin(), ids.cend());
    sorted.sort();
    return sorted;
}

void Gateway::addConnection(ClientTransport *transport)
{
    const ConnectionId id = m_connections.nextId();
    auto *connection = new ClientConnection(transport, id, m_config, &m_sweep, this, &m_metrics);
    m_connections.add(connection);
    qCDebug(lcGateway) << "connection" << id << "from" << connection->peer();
    Q_EMIT connectionCountChanged(connectionCount());
}

Gateway::SignIn Gateway::authenticate(const QString &token) const
{
    if (const auto index = m_directory.indexOfToken(token))
        return { index, std::nullopt, {} };
    if (!m_config.jwt || !JwtVerifier::looksLikeJwt(token))
        return { std::nullopt, std::nullopt, u"an unknown token"_s };
    const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::system_clock::now().time_since_epoch());
    const JwtVerifier::Result result = m_config.jwt->verify(token, now);
    if (!result.claims)
        return { std::nullopt, std::nullopt, u"a JSON Web Token: "_s + result.refusal };
    // Refused from the moment verify() would refuse it.
    const auto expiresAt = result.claims->expiresAt + m_config.jwt->leeway();
    const auto index = m_directory.indexOfId(result.claims->subject);
    if (!index && m_friendships.friendSource())
        return { std::nullopt, expiresAt, {}, result.claims->subject };
    if (!index) {
        return { std::nullopt, std::nullopt,
            u"a JSON Web Token for \"%1\", who is no user here"_s.arg(result.claims->subject) };
    }
    return { index, expiresAt, {}, {} };
}

void Gateway::onHello(
    ClientConnection *connection, const Hello &hello, const std::optional<QString> &ref)
{
    if (m_readingSource.contains(connection->id()))
        return; // a second hello while the first is read: the first one answers
    const SignIn signIn = authenticate(hello.token);
    if (!signIn.userIndex && signIn.newUser.isEmpty()) {
        qCInfo(lcGateway) << "connection" << connection->id() << "from" << connection->peer()
                          << "refused:" << qUtf8Printable(signIn.refusal);
        connection->closeWithError(
            { ErrorCode::Unauthorized, u"unknown token"_s, ref }, CloseCode::Unauthorized);
        return;
    }
    const QString sourced = signIn.userIndex
        ? (m_friendships.isFromSource(*signIn.userIndex) ? m_directory.user(*signIn.userIndex).id
                                                         : QString())
        : signIn.newUser;
    if (sourced.isEmpty()) {
        finishSignIn(connection, *signIn.userIndex, signIn.expiresAt, hello, ref);
        return;
    }
    // Who they are and who their friends are now, before welcome: a friends request right
    // after it must see them.
    const ConnectionId id = connection->id();
    m_readingSource.insert(id);
    m_friendships.friendSource()->read(sourced, this,
        [this, id, sourced, expiresAt = signIn.expiresAt, hello, ref](
            const std::optional<FriendSource::Entry> &entry) {
            m_readingSource.remove(id);
            ClientConnection *waiting = m_connections.find(id);
            if (!waiting || waiting->state() != ClientConnection::State::AwaitingHello)
                return; // gone meanwhile
            if (entry)
                (void)m_friendships.syncFromSource(sourced, *entry);
            const auto index = m_directory.indexOfId(sourced);
            if (!index) { // never read, and the source is away: nobody to sign in as yet
                qCWarning(lcGateway) << "connection" << id << "refused:" << sourced
                                     << "cannot be read from the friend source";
                waiting->closeWithError(
                    { ErrorCode::Unavailable, u"the gateway cannot read who you are; try again"_s,
                        ref },
                    CloseCode::TryAgainLater);
                return;
            }
            if (!entry)
                qCWarning(lcGateway) << sourced << "signs in with the friends known before:"
                                     << "the friend source is away";
            finishSignIn(waiting, *index, expiresAt, hello, ref);
        });
}

void Gateway::finishSignIn(ClientConnection *connection, int userIndex,
    std::optional<std::chrono::milliseconds> expiresAt, const Hello &hello,
    const std::optional<QString> &ref)
{
    const SignIn signIn { userIndex, expiresAt, {}, {} };
    const UserDirectory::User &user = m_directory.user(*signIn.userIndex);
    const ChosenStatus status = hello.status.value_or(ChosenStatus::Online);
    connection->authenticate(user.id, status);
    connection->setTokenExpiry(signIn.expiresAt);
    if (hello.presenceBatchMs)
        connection->setPresenceBatch(std::chrono::milliseconds(*hello.presenceBatchMs));
    m_connections.signedIn(connection);
    Q_EMIT connectionSignedIn(connection);
    qCInfo(lcGateway) << "connection" << connection->id() << "signed in as" << user.id << "with"
                      << hello.client;

    Welcome welcome;
    welcome.user = { user.id, user.name };
    welcome.heartbeatMs = int(m_config.heartbeat.count());
    welcome.limits = { m_config.maxFrameBytes, m_config.maxSubscriptions, m_config.maxIdsPerRequest,
        m_config.maxFramesPerSecond, m_config.frameBurst, m_config.maxAvailabilityFriends,
        int(m_config.availabilityInterval.count()) };
    // Granted as asked: the decoder kept it within the documented range.
    welcome.presenceBatchMs = hello.presenceBatchMs;
    connection->send(toJson(welcome), ref);
    m_presence.connectionOpened(connection);
}

void Gateway::onRequest(
    ClientConnection *connection, const ClientMessage &request, const std::optional<QString> &ref)
{
    // Presence only (--no-chat): chat frames are answered as by a gateway that never had chat.
    if (!m_config.chat && isChatRequest(request)) {
        connection->sendError(unknownTypeError(toJson(request).value("type"_L1).toString(), ref));
        return;
    }
    std::visit(Overloaded {
                   [&](const FriendsRequest &m) { handleFriends(connection, m, ref); },
                   [&](const SubscribeRequest &m) { m_presence.subscribe(connection, m, ref); },
                   [&](const UnsubscribeRequest &m) { m_presence.unsubscribe(connection, m, ref); },
                   [&](const SetStatusRequest &m) { m_presence.setStatus(connection, m, ref); },
                   [&](const SendMessageRequest &m) { m_chat.sendMessage(connection, m, ref); },
                   [&](const HistoryRequest &m) { m_chat.history(connection, m, ref); },
                   [&](const ConversationsRequest &m) { m_chat.conversations(connection, m, ref); },
                   [&](const ReadRequest &m) { m_chat.read(connection, m, ref); },
                   [&](const WatchAvailabilityRequest &) {
                       m_presence.watchAvailability(connection, ref);
                   },
                   [&](const UnwatchAvailabilityRequest &) {
                       m_presence.unwatchAvailability(connection, ref);
                   },
                   [&](const RefreshRequest &m) { handleRefresh(connection, m, ref); },
                   // Answered by the connection itself, before they reach here.
                   [](const Hello &) {},
                   [](const PingRequest &) {},
               },
        request);
}

void Gateway::handleFriends(
    ClientConnection *connection, const FriendsRequest &request, const std::optional<QString> &ref)
{
    const auto me = m_directory.indexOfId(connection->userId());
    const QList<int> &friends = m_directory.user(*me).friends;
    FriendsPage page;
    page.offset = request.offset;
    page.total = int(friends.size());
    const qsizetype end
        = std::min<qsizetype>(friends.size(), qsizetype(request.offset) + request.limit);
    for (qsizetype i = request.offset; i < end; ++i) {
        const UserDirectory::User &user = m_directory.user(friends.at(i));
        page.items.append({ user.id, user.name });
    }
    connection->sendFrame(u"friends"_s, serializeFrame(page, ref));
}

void Gateway::handleRefresh(
    ClientConnection *connection, const RefreshRequest &request, const std::optional<QString> &ref)
{
    // A refused token changes nothing: the one in force still is, until it expires.
    const SignIn signIn = authenticate(request.token);
    if (!signIn.userIndex) {
        qCInfo(lcGateway) << "connection" << connection->id() << "of" << connection->userId()
                          << "refresh refused:" << qUtf8Printable(signIn.refusal);
        connection->sendError({ ErrorCode::Unauthorized, u"unknown token"_s, ref });
        return;
    }
    if (m_directory.user(*signIn.userIndex).id != connection->userId()) {
        qCInfo(lcGateway) << "connection" << connection->id() << "of" << connection->userId()
                          << "refresh refused: the token is another user's";
        connection->sendError(
            { ErrorCode::Forbidden, u"the token is another user's: sign in again instead"_s, ref });
        return;
    }
    connection->setTokenExpiry(signIn.expiresAt);
    connection->send(toJson(Ok {}), ref);
}

void Gateway::onDisconnected(ClientConnection *connection)
{
    m_connections.remove(connection);
    if (!connection->userId().isEmpty()) {
        m_presence.connectionClosed(connection);
        qCDebug(lcGateway) << "connection" << connection->id() << "of" << connection->userId()
                           << "closed";
    }
    m_departed.emplace_back(connection);
    m_departedTimer.start();
    Q_EMIT connectionCountChanged(connectionCount());
    finishShutdownIfDone();
}

void Gateway::shutdown()
{
    if (m_shuttingDown) {
        if (m_drainTimer.isActive()) {
            qCInfo(lcGateway) << "asked again: closing the" << m_draining.size() - m_drained
                              << "connections left at once";
            drainSome(true);
        }
        return;
    }
    m_shuttingDown = true;
    if (m_acceptor)
        m_acceptor->close();
    // A close can report the disconnect at once, which removes the connection from the
    // registry: iterate over a copy of the ids, or a rehash skips some (seen: 1 run in 20).
    for (const ConnectionId id : m_connections.ids()) {
        ClientConnection *connection = m_connections.find(id);
        if (connection && connection->state() == ClientConnection::State::Authenticated)
            m_draining.push_back(id);
        else
            closeForShutdown(id); // nobody's presence: nothing to spread
    }
    qCInfo(lcGateway) << "shutting down: closing" << m_draining.size()
                      << "signed-in connections over" << m_config.drain.count() << "ms";
    m_drainClock.start();
    if (m_config.drain.count() > 0 && !m_draining.empty())
        m_drainTimer.start();
    drainSome();
}

void Gateway::closeForShutdown(ConnectionId id)
{
    if (ClientConnection *connection = m_connections.find(id))
        connection->close(QWebSocketProtocol::CloseCodeGoingAway, u"going away, reconnect"_s);
}

void Gateway::drainSome(bool all)
{
    const qint64 drainMs = m_config.drain.count();
    const bool over
        = all || drainMs <= 0 || m_draining.empty() || m_drainClock.elapsed() >= drainMs;
    // The first at once, then evenly: connection k of n closes at k/n of the period.
    const std::size_t due = over
        ? m_draining.size()
        : std::min(m_draining.size(),
            std::size_t(1
                + m_draining.size() * std::size_t(m_drainClock.elapsed()) / std::size_t(drainMs)));
    while (m_drained < due)
        closeForShutdown(m_draining[m_drained++]);
    if (!over || m_shutdownDone)
        return;
    m_drainTimer.stop();
    m_shutdownTimer.start(m_config.shutdownTimeout);
    finishShutdownIfDone();
}

void Gateway::finishShutdownIfDone()
{
    if (!m_shuttingDown || m_shutdownDone || !m_connections.isEmpty()
        || (!m_shutdownTimer.isActive() && !m_drainTimer.isActive()))
        return;
    m_drainTimer.stop();
    m_shutdownTimer.stop();
    m_shutdownDone = true;
    Q_EMIT shutdownFinished();
}

} // namespace Presence::Server
