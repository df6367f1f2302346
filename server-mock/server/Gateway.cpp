#include "server-mock/server/Gateway.h"

#include "protocol/CloseCode.h"
#include "protocol/Digest.h"
#include "protocol/Frame.h"
#include "protocol/ServerMessages.h"
#include "server-mock/chat/MemoryChatStore.h"
#include "server-mock/core/Logging.h"
#include "server-mock/presence/MemoryPresenceStore.h"
#include "server-mock/server/ClientConnection.h"

#include <QPointer>
#include <QSet>
#include <QTcpServer>
#include <QTcpSocket>
#include <QWebSocket>
#include <QWebSocketCorsAuthenticator>
#include <QWebSocketServer>

#include <cstdlib>

using namespace Qt::StringLiterals;

namespace Presence::Gateway {

using namespace Protocol;

Gateway::Gateway(GatewayConfig config, UserDirectory directory, PresenceStore *store,
    ChatStore *chats, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_directory(std::move(directory))
    , m_store(store ? store : new MemoryPresenceStore(m_config.grace))
    , m_listener(new QTcpServer(this))
    , m_server(
          new QWebSocketServer(u"presence-mock-server"_s, QWebSocketServer::NonSecureMode, this))
    , m_availability(m_config.availabilityInterval,
          [this](ConnectionId id, const QJsonObject &message) {
              if (ClientConnection *connection = m_connections.value(id))
                  connection->send(message); // counted in frames_out by the connection
          })
    , m_chats(chats ? chats : new MemoryChatStore)
    , m_simulated(m_store)
{
    m_store->setParent(this);
    m_chats->setParent(this);
    connect(m_chats, &ChatStore::messageArrived, this, &Gateway::onChatMessageArrived);
    connect(m_chats, &ChatStore::readMarkerMoved, this, &Gateway::onReadMarkerMoved);
    connect(&m_faults, &FaultInjector::faultStarted, this, &Gateway::onFaultStarted);
    connect(&m_faults, &FaultInjector::faultEnded, this, &Gateway::onFaultEnded);
    // A reordered push whose successor never comes goes out late rather than never.
    m_reorderTimer.setSingleShot(true);
    m_reorderTimer.setInterval(2000);
    connect(&m_reorderTimer, &QTimer::timeout, this, &Gateway::flushReordered);
    m_server->setHandshakeTimeout(m_config.helloTimeout);
    connect(m_listener, &QTcpServer::newConnection, this, &Gateway::onNewTcpConnection);
    connect(m_server, &QWebSocketServer::newConnection, this, &Gateway::onNewConnection);
    connect(
        m_server, &QWebSocketServer::originAuthenticationRequired, this, &Gateway::onOriginCheck);
    connect(m_store, &PresenceStore::presencePublished, this, &Gateway::onPresencePublished);
    connect(m_store, &PresenceStore::storeReset, this, &Gateway::onStoreReset);
    connect(
        &m_subscriptions, &SubscriptionRegistry::userWatched, &m_interest, &StoreInterest::acquire);
    connect(&m_subscriptions, &SubscriptionRegistry::userUnwatched, &m_interest,
        &StoreInterest::release);
    connect(
        &m_availability, &AvailabilityFanout::userCovered, &m_interest, &StoreInterest::acquire);
    connect(
        &m_availability, &AvailabilityFanout::userUncovered, &m_interest, &StoreInterest::release);
    connect(&m_interest, &StoreInterest::userWatched, m_store, &PresenceStore::watch);
    connect(&m_interest, &StoreInterest::userUnwatched, m_store, &PresenceStore::unwatch);

    registerGauges();
    // One timer for every connection: a lost push is corrected within one interval.
    if (m_config.digestInterval.count() > 0) {
        m_digestTimer.setInterval(m_config.digestInterval);
        connect(&m_digestTimer, &QTimer::timeout, this, &Gateway::sendDigests);
        m_digestTimer.start();
    }

    m_shutdownTimer.setSingleShot(true);
    connect(&m_shutdownTimer, &QTimer::timeout, this, [this] {
        qCWarning(lcGateway) << m_connections.size()
                             << "connections did not acknowledge the shutdown in time";
        for (ClientConnection *connection : std::as_const(m_connections))
            connection->disconnect(this);
        m_connections.clear();
        m_connectionsOfUser.clear();
        Q_EMIT shutdownFinished();
    });
}

Gateway::~Gateway()
{
    // Connections die with us; their disconnected() must not reach a half-destroyed gateway.
    for (ClientConnection *connection : std::as_const(m_connections))
        connection->disconnect(this);
    // Before the members they use (metrics, faults) go: children outlive members.
    qDeleteAll(m_connections);
    m_connections.clear();
}

QList<Gateway::ConnectionView> Gateway::connectionsOf(const QString &userId) const
{
    QList<ConnectionView> result;
    for (const ClientConnection *connection : m_connectionsOfUser.values(userId))
        result.append({ connection->id(), connection->chosenStatus(), connection->peer() });
    std::sort(result.begin(), result.end(),
        [](const ConnectionView &a, const ConnectionView &b) { return a.id < b.id; });
    return result;
}

QStringList Gateway::watchersOf(const QString &userId) const
{
    QSet<QString> users;
    for (const ConnectionId watcher : m_subscriptions.watchersOf(userId)) {
        if (const ClientConnection *connection = m_connections.value(watcher))
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
        [this] { return double(m_connectionsOfUser.uniqueKeys().size()); });
    registry.gauge("presence_subscriptions", "Subscriptions held, over every connection.", [this] {
        double total = 0;
        for (const ClientConnection *connection : std::as_const(m_connections))
            total += m_subscriptions.countOf(connection->id());
        return total;
    });
    registry.gauge("presence_watched_users", "Users watched by at least one connection here.",
        [this] { return double(watchedUserCount()); });
    registry.gauge("presence_simulated_devices", "Simulated devices (QA, demos).",
        [this] { return double(m_simulated.deviceCount()); });
    registry.gauge("presence_faults_running", "Faults injected and still running.",
        [this] { return double(m_faults.running().size()); });
}

bool Gateway::listen(QString *error)
{
    if (m_listener->listen(m_config.address, m_config.port))
        return true;
    if (error)
        *error = u"cannot listen on %1:%2: %3"_s.arg(m_config.address.toString())
                     .arg(m_config.port)
                     .arg(m_listener->errorString());
    return false;
}

QUrl Gateway::url() const
{
    QUrl url;
    url.setScheme(u"ws"_s);
    url.setHost(m_listener->serverAddress().toString());
    url.setPort(m_listener->serverPort());
    url.setPath(u"/"_s);
    return url;
}

quint16 Gateway::port() const
{
    return m_listener->serverPort();
}

int Gateway::authenticatedCount() const
{
    int count = 0;
    for (const ClientConnection *connection : m_connections)
        count += connection->state() == ClientConnection::State::Authenticated ? 1 : 0;
    return count;
}

QStringList Gateway::subscriptionsOfUser(const QString &userId) const
{
    QSet<QString> ids;
    for (const ClientConnection *connection : m_connectionsOfUser.values(userId)) {
        const QStringList watched = m_subscriptions.subscriptionsOf(connection->id());
        ids.unite(QSet<QString>(watched.cbegin(), watched.cend()));
    }
    QStringList sorted(ids.cbegin(), ids.cend());
    sorted.sort();
    return sorted;
}

void Gateway::onOriginCheck(QWebSocketCorsAuthenticator *authenticator)
{
    // Browsers always send Origin; native clients usually do not. Only listed web origins may
    // connect, so a page the user happens to visit cannot talk to a gateway on their machine.
    const QString origin = authenticator->origin();
    const bool allowed = origin.isEmpty() || m_config.allowedOrigins.contains(origin);
    if (!allowed)
        qCInfo(lcGateway) << "refused a handshake from origin" << origin;
    authenticator->setAllowed(allowed);
}

void Gateway::onNewTcpConnection()
{
    while (QTcpSocket *socket = m_listener->nextPendingConnection()) {
        // Qt writes a frame's header and payload separately; with Nagle on, a large frame
        // waits for the peer's delayed ACK (about 40 ms) before its payload leaves.
        socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        if (m_faults.refusesConnections()) {
            // A refuse fault: what an overloaded gateway behind a proxy says.
            socket->write("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\n"
                          "Content-Length: 0\r\nConnection: close\r\n\r\n");
            socket->disconnectFromHost();
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            continue;
        }
        m_server->handleConnection(socket);
    }
}

void Gateway::onNewConnection()
{
    while (QWebSocket *socket = m_server->nextPendingConnection()) {
        if (m_shuttingDown) {
            socket->close(QWebSocketProtocol::CloseCodeGoingAway, u"gateway shutting down"_s);
            socket->deleteLater();
            continue;
        }
        const ConnectionId id = m_nextConnectionId++;
        auto *connection = new ClientConnection(socket, id, m_config, &m_metrics, this);
        m_connections.insert(id, connection);
        qCDebug(lcGateway) << "connection" << id << "from" << connection->peer();
        connect(connection, &ClientConnection::helloReceived, this,
            [this, connection](const Hello &hello, const std::optional<QString> &ref) {
                onHello(connection, hello, ref);
            });
        connect(connection, &ClientConnection::requestReceived, this,
            [this, connection](const ClientMessage &request, const std::optional<QString> &ref) {
                onRequest(connection, request, ref);
            });
        connect(connection, &ClientConnection::disconnected, this,
            [this, connection] { onDisconnected(connection); });
        Q_EMIT connectionCountChanged(connectionCount());
    }
}

void Gateway::onHello(
    ClientConnection *connection, const Hello &hello, const std::optional<QString> &ref)
{
    const auto index = m_directory.indexOfToken(hello.token);
    if (!index) {
        qCInfo(lcGateway) << "connection" << connection->id() << "from" << connection->peer()
                          << "offered an unknown token";
        connection->closeWithError(
            { ErrorCode::Unauthorized, u"unknown token"_s, ref }, CloseCode::Unauthorized);
        return;
    }
    const UserDirectory::User &user = m_directory.user(*index);
    const ChosenStatus status = hello.status.value_or(ChosenStatus::Online);
    connection->authenticate(user.id, status);
    applyFaults(connection);
    m_connectionsOfUser.insert(user.id, connection);
    if (m_connectionsOfUser.count(user.id) == 1)
        m_chats->userArrived(user.id);
    qCInfo(lcGateway) << "connection" << connection->id() << "signed in as" << user.id << "with"
                      << hello.client;

    Welcome welcome;
    welcome.user = { user.id, user.name };
    welcome.heartbeatMs = int(m_config.heartbeat.count());
    welcome.limits = { m_config.maxFrameBytes, m_config.maxSubscriptions, m_config.maxIdsPerRequest,
        m_config.maxFramesPerSecond, m_config.frameBurst, m_config.maxAvailabilityFriends,
        int(m_config.availabilityInterval.count()) };
    connection->send(toJson(welcome), ref);
    m_store->connectionOpened(user.id, connection->id(), status);
}

void Gateway::onRequest(
    ClientConnection *connection, const ClientMessage &request, const std::optional<QString> &ref)
{
    std::visit(
        [&](const auto &message) {
            using T = std::decay_t<decltype(message)>;
            if constexpr (std::is_same_v<T, FriendsRequest>)
                handleFriends(connection, message, ref);
            else if constexpr (std::is_same_v<T, SubscribeRequest>)
                handleSubscribe(connection, message, ref);
            else if constexpr (std::is_same_v<T, UnsubscribeRequest>)
                handleUnsubscribe(connection, message, ref);
            else if constexpr (std::is_same_v<T, SetStatusRequest>)
                handleSetStatus(connection, message, ref);
            else if constexpr (std::is_same_v<T, SendMessageRequest>)
                handleSendMessage(connection, message, ref);
            else if constexpr (std::is_same_v<T, HistoryRequest>)
                handleHistory(connection, message, ref);
            else if constexpr (std::is_same_v<T, ConversationsRequest>)
                handleConversations(connection, message, ref);
            else if constexpr (std::is_same_v<T, ReadRequest>)
                handleRead(connection, message, ref);
            else if constexpr (std::is_same_v<T, WatchAvailabilityRequest>)
                handleWatchAvailability(connection, ref);
            else if constexpr (std::is_same_v<T, UnwatchAvailabilityRequest>) {
                m_availability.unwatch(connection->id());
                connection->send(toJson(Ok {}), ref);
            }
            // hello and ping are answered by the connection itself
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
    connection->send(toJson(page), ref);
}

void Gateway::handleWatchAvailability(
    ClientConnection *connection, const std::optional<QString> &ref)
{
    // The first friends in friends order, so a client knows which rows are covered from the
    // count alone.
    const QList<int> &friends
        = m_directory.user(*m_directory.indexOfId(connection->userId())).friends;
    const qsizetype count = std::min<qsizetype>(friends.size(), m_config.maxAvailabilityFriends);
    QStringList covered;
    covered.reserve(count);
    for (qsizetype i = 0; i < count; ++i)
        covered.append(m_directory.user(friends.at(i)).id);
    const ConnectionId id = connection->id();
    m_availability.watch(id, covered, int(friends.size()));
    m_store->snapshot(
        covered, connection, [this, connection, id, ref](const QList<UserPresence> &users) {
            if (m_availability.isWatching(id))
                connection->send(toJson(m_availability.snapshotRead(id, users)), ref);
        });
}

bool Gateway::withinIdLimit(
    ClientConnection *connection, const QStringList &ids, const std::optional<QString> &ref)
{
    if (ids.size() <= m_config.maxIdsPerRequest)
        return true;
    connection->sendError({ ErrorCode::TooManyIds,
        u"%1 ids is more than the limit of %2 per request"_s.arg(ids.size())
            .arg(m_config.maxIdsPerRequest),
        ref });
    return false;
}

void Gateway::handleSubscribe(ClientConnection *connection, const SubscribeRequest &request,
    const std::optional<QString> &ref)
{
    if (!withinIdLimit(connection, request.ids, ref))
        return;
    const int me = *m_directory.indexOfId(connection->userId());
    QStringList allowed;
    QStringList denied;
    QSet<QString> seen;
    int added = 0;
    for (const QString &id : request.ids) {
        if (seen.contains(id))
            continue;
        seen.insert(id);
        const auto other = m_directory.indexOfId(id);
        // Unknown ids and strangers look alike: denied says nothing about who exists.
        if (!other || !m_directory.areFriends(me, *other)) {
            denied.append(id);
            continue;
        }
        allowed.append(id);
        added += m_subscriptions.contains(connection->id(), id) ? 0 : 1;
    }
    const int total = m_subscriptions.countOf(connection->id()) + added;
    if (total > m_config.maxSubscriptions) {
        connection->sendError({ ErrorCode::TooManySubscriptions,
            u"subscribe: would watch %1 users, more than the limit of %2"_s.arg(total).arg(
                m_config.maxSubscriptions),
            ref });
        return;
    }
    for (const QString &id : std::as_const(allowed))
        m_subscriptions.add(connection->id(), id);
    m_store->snapshot(
        allowed, connection, [connection, denied, ref](const QList<UserPresence> &users) {
            connection->send(toJson(Snapshot { users, denied }), ref);
        });
}

void Gateway::handleUnsubscribe(ClientConnection *connection, const UnsubscribeRequest &request,
    const std::optional<QString> &ref)
{
    if (!withinIdLimit(connection, request.ids, ref))
        return;
    for (const QString &id : request.ids)
        m_subscriptions.remove(connection->id(), id);
    connection->send(toJson(Ok {}), ref);
}

void Gateway::handleSetStatus(ClientConnection *connection, const SetStatusRequest &request,
    const std::optional<QString> &ref)
{
    connection->setChosenStatus(request.status);
    m_store->connectionStatusChanged(connection->userId(), connection->id(), request.status);
    connection->send(toJson(Ok {}), ref);
}

bool Gateway::isFriend(const ClientConnection *connection, const QString &otherId) const
{
    const auto me = m_directory.indexOfId(connection->userId());
    const auto other = m_directory.indexOfId(otherId);
    return me && other && m_directory.areFriends(*me, *other);
}

void Gateway::handleSendMessage(ClientConnection *connection, const SendMessageRequest &request,
    const std::optional<QString> &ref)
{
    // Unknown ids and strangers look alike, as in subscribe.
    if (!isFriend(connection, request.to)) {
        connection->sendError(
            { ErrorCode::Forbidden, u"message: you can only write to your friends"_s, ref });
        return;
    }
    const QString text = request.text.trimmed();
    if (text.isEmpty() || text.size() > kMaxMessageTextLength) { // the decoder refuses these too
        connection->sendError({ ErrorCode::BadRequest,
            u"message: field 'text' must be 1 to %1 characters long after trimming"_s.arg(
                kMaxMessageTextLength),
            ref });
        return;
    }
    QPointer<ClientConnection> sender(connection);
    m_chats->storeMessage(connection->userId(), request.to, text, this,
        [this, sender, ref](const std::optional<ChatMessage> &message) {
            if (!message) {
                if (sender) {
                    sender->sendError({ ErrorCode::Unavailable,
                        u"message: the gateway cannot store messages right now; it was not "
                        "sent, try again later"_s,
                        ref });
                }
                return;
            }
            if (sender)
                sender->send(toJson(Ok { message->id, message->ts }), ref);
            deliverMessage(*message, sender);
        });
}

void Gateway::deliverMessage(const ChatMessage &message, const ClientConnection *except)
{
    // Every device of both users here, whatever their status.
    const QString frame = QString::fromUtf8(serializeFrame(toJson(MessageEvent { message })));
    m_metrics.chatMessageStored();
    quint64 written = 0;
    for (const QString &user : { message.to, message.from }) {
        for (ClientConnection *device : m_connectionsOfUser.values(user)) {
            if (device != except) {
                device->sendSerialized(frame);
                ++written;
            }
        }
    }
    m_metrics.frameOut(u"message"_s, written);
}

void Gateway::onChatMessageArrived(const QString &userId, const ChatMessage &message)
{
    const QString frame = QString::fromUtf8(serializeFrame(toJson(MessageEvent { message })));
    const QList<ClientConnection *> devices = m_connectionsOfUser.values(userId);
    for (ClientConnection *device : devices)
        device->sendSerialized(frame);
    m_metrics.frameOut(u"message"_s, quint64(devices.size()));
}

void Gateway::handleHistory(
    ClientConnection *connection, const HistoryRequest &request, const std::optional<QString> &ref)
{
    if (!isFriend(connection, request.with)) {
        connection->sendError({ ErrorCode::Forbidden,
            u"history: you can only read conversations with your friends"_s, ref });
        return;
    }
    m_chats->readPage(connection->userId(), request.with, request.before, request.limit, connection,
        [connection, with = request.with, ref](const auto &result) {
            if (const auto *page = std::get_if<ChatStore::Page>(&result)) {
                connection->send(toJson(HistoryPage { with, page->messages, page->more }), ref);
            } else if (std::get<ChatStore::Failure>(result) == ChatStore::Failure::NotHeld) {
                connection->sendError({ ErrorCode::BadRequest,
                    u"history: 'before' is not a message of this conversation held by the "
                    "gateway"_s,
                    ref });
            } else {
                connection->sendError({ ErrorCode::Unavailable,
                    u"history: the gateway cannot read conversations right now; try again "
                    "later"_s,
                    ref });
            }
        });
}

void Gateway::handleConversations(ClientConnection *connection, const ConversationsRequest &request,
    const std::optional<QString> &ref)
{
    // Only conversations with friends: one kept from an earlier users file names nobody.
    const auto me = m_directory.indexOfId(connection->userId());
    const auto isFriendOfMine = [this, me](const QString &otherId) {
        const auto other = m_directory.indexOfId(otherId);
        return me && other && m_directory.areFriends(*me, *other);
    };
    m_chats->readSummaries(connection->userId(), request.limit, isFriendOfMine, connection,
        [connection, ref](const std::variant<ChatStore::Summaries, ChatStore::Failure> &result) {
            if (const auto *summaries = std::get_if<ChatStore::Summaries>(&result)) {
                connection->send(
                    toJson(ConversationsPage { summaries->items, summaries->more }), ref);
                return;
            }
            connection->sendError({ ErrorCode::Unavailable,
                u"conversations: the gateway cannot read conversations right now; try again "
                "later"_s,
                ref });
        });
}

void Gateway::handleRead(
    ClientConnection *connection, const ReadRequest &request, const std::optional<QString> &ref)
{
    // As for message and history: unknown ids, strangers and oneself look alike.
    if (!isFriend(connection, request.with)) {
        connection->sendError({ ErrorCode::Forbidden,
            u"read: you can only mark conversations with your friends as read"_s, ref });
        return;
    }
    m_chats->markRead(connection->userId(), request.with, request.upTo, connection,
        [connection, ref](const std::optional<ChatStore::Failure> &failure) {
            if (!failure) {
                connection->send(toJson(Ok {}), ref);
            } else if (*failure == ChatStore::Failure::NotHeld) {
                connection->sendError({ ErrorCode::BadRequest,
                    u"read: unknown message: 'up_to' is not a message of this conversation held "
                    "by the gateway"_s,
                    ref });
            } else {
                connection->sendError({ ErrorCode::Unavailable,
                    u"read: the gateway cannot store read markers right now; try again later"_s,
                    ref });
            }
        });
}

void Gateway::onReadMarkerMoved(const QString &userId, const ReadMarkerEvent &marker)
{
    // Every device of the user, the one that sent the read included; never the friend.
    const QString frame = QString::fromUtf8(serializeFrame(toJson(marker)));
    const QList<ClientConnection *> devices = m_connectionsOfUser.values(userId);
    for (ClientConnection *device : devices)
        device->sendSerialized(frame);
    m_metrics.frameOut(u"read_marker"_s, quint64(devices.size()));
}

void Gateway::onDisconnected(ClientConnection *connection)
{
    const ConnectionId id = connection->id();
    m_connections.remove(id);
    if (!connection->userId().isEmpty()) {
        m_connectionsOfUser.remove(connection->userId(), connection);
        if (!m_connectionsOfUser.contains(connection->userId()))
            m_chats->userLeft(connection->userId());
        m_subscriptions.removeConnection(id);
        m_availability.unwatch(id);
        m_store->connectionClosed(connection->userId(), id);
        qCDebug(lcGateway) << "connection" << id << "of" << connection->userId() << "closed";
    }
    connection->deleteLater();
    Q_EMIT connectionCountChanged(connectionCount());
    finishShutdownIfDone();
}

void Gateway::onStoreReset()
{
    // Pushes may have been lost and seq may have started again: every watcher gets a
    // snapshot of all it watches, without ref, which clients take as the whole truth. One
    // read of everything watched here serves every watcher.
    const QStringList covered = m_availability.coveredUsers();
    if (!covered.isEmpty()) {
        m_store->snapshot(covered, this,
            [this](const QList<UserPresence> &users) { m_availability.resetFrom(users); });
    }
    // Ids subscribed since the read got their own snapshot with their subscribe.
    readWatchedThen([](ClientConnection *connection, const QList<UserPresence> &watched) {
        if (!watched.isEmpty())
            connection->send(toJson(Snapshot { watched, {} }), std::nullopt);
    });
}

void Gateway::sendDigests()
{
    // A store that is away queues reads: one digest round at a time, not one per interval.
    if (m_digestReadPending)
        return;
    m_digestReadPending = true;
    // The store's word, read once for every connection: a push lost on its way (between
    // gateways, or here) shows as a difference.
    readWatchedThen(
        [this](ClientConnection *connection, const QList<UserPresence> &watched) {
            if (connection->state() != ClientConnection::State::Authenticated)
                return;
            Digest digest { watchedDigest(watched), std::nullopt };
            if (const auto told = m_availability.toldTo(connection->id()))
                digest.availability = availabilityDigest(*told);
            connection->send(toJson(digest)); // counted in frames_out by the connection
        },
        [this] { m_digestReadPending = false; });
}

void Gateway::readWatchedThen(const WatchedRead &each, const std::function<void()> &finished)
{
    QSet<QString> watched;
    for (const ClientConnection *connection : std::as_const(m_connections)) {
        const QStringList ids = m_subscriptions.subscriptionsOf(connection->id());
        watched.unite(QSet<QString>(ids.cbegin(), ids.cend()));
    }
    m_store->snapshot(
        watched.values(), this, [this, each, finished](const QList<UserPresence> &users) {
            QHash<QString, UserPresence> byId;
            for (const UserPresence &user : users)
                byId.insert(user.id, user);
            // Sending may close a connection (a peer that reads nothing): iterate over a copy.
            const QList<QPointer<ClientConnection>> connections(
                m_connections.cbegin(), m_connections.cend());
            for (const QPointer<ClientConnection> &connection : connections) {
                if (!connection || !m_connections.contains(connection->id()))
                    continue;
                QList<UserPresence> mine;
                for (const QString &id : m_subscriptions.subscriptionsOf(connection->id())) {
                    if (const auto it = byId.constFind(id); it != byId.constEnd())
                        mine.append(*it);
                }
                each(connection, mine);
            }
            if (finished)
                finished();
        });
}

void Gateway::onPresencePublished(const UserPresence &presence)
{
    m_metrics.presencePublished();
    m_availability.presencePublished(presence);
    if (m_faults.losesPresenceOf(presence.id))
        return; // as a pub/sub message dropped between gateways: only the digest tells
    if (m_faults.reordersPresenceOf(presence.id)) {
        // Hold each push until the next one of that user has gone out: older after newer.
        const auto held = m_reordered.find(presence.id);
        if (held == m_reordered.end()) {
            m_reordered.insert(presence.id, presence);
            m_reorderTimer.start();
            return;
        }
        const UserPresence older = *held;
        m_reordered.erase(held);
        sendPresence(presence);
        sendPresence(older);
        return;
    }
    sendPresence(presence);
    if (m_faults.duplicatesPresenceOf(presence.id))
        sendPresence(presence);
}

void Gateway::flushReordered()
{
    const QHash<QString, UserPresence> held = std::exchange(m_reordered, {});
    for (const UserPresence &presence : held)
        sendPresence(presence);
}

void Gateway::onFaultStarted(const QString &id, const FaultSpec &fault)
{
    Q_UNUSED(id)
    switch (fault.kind) {
    case FaultKind::Drop:
        for (const QPointer<ClientConnection> &connection : connectionsFor(fault.user)) {
            if (connection)
                connection->abortAbruptly();
        }
        break;
    case FaultKind::Close:
        for (const QPointer<ClientConnection> &connection : connectionsFor(fault.user)) {
            if (connection)
                connection->close(fault.code, fault.reason);
        }
        break;
    case FaultKind::Delay:
    case FaultKind::Stall:
        for (const QPointer<ClientConnection> &connection : connectionsFor(fault.user)) {
            if (connection)
                applyFaults(connection);
        }
        break;
    case FaultKind::Crash:
        qCCritical(lcFaults) << "crash fault: aborting without closing anything";
        std::abort();
    case FaultKind::Duplicate:
    case FaultKind::Reorder:
    case FaultKind::Lose:
    case FaultKind::Refuse:
        break; // asked for while they run
    }
}

void Gateway::onFaultEnded(const QString &id, const FaultSpec &fault)
{
    Q_UNUSED(id)
    if (fault.kind == FaultKind::Delay || fault.kind == FaultKind::Stall) {
        for (const QPointer<ClientConnection> &connection : connectionsFor(fault.user)) {
            if (connection)
                applyFaults(connection);
        }
    } else if (fault.kind == FaultKind::Reorder && !m_faults.reordersPresenceOf(fault.user)) {
        if (const auto held = m_reordered.constFind(fault.user); held != m_reordered.cend()) {
            const UserPresence presence = *held;
            m_reordered.erase(held);
            sendPresence(presence);
        }
    }
}

void Gateway::applyFaults(ClientConnection *connection)
{
    const QString &user = connection->userId();
    connection->setOutgoingDelay(m_faults.outgoingDelayFor(user));
    const bool stalled = m_faults.isStalled(user);
    // Only stalling needs the TCP socket, and finding it is a search: only then.
    connection->setStalled(
        stalled, stalled && !connection->isStalled() ? transportOf(connection) : nullptr);
}

QTcpSocket *Gateway::transportOf(const ClientConnection *connection) const
{
    // QWebSocket keeps the socket it was handed without adopting it: it stays the listener's
    // child, and its peer tells which connection it carries.
    const QString peer = connection->peer();
    const auto sockets = m_listener->findChildren<QTcpSocket *>(Qt::FindDirectChildrenOnly);
    for (QTcpSocket *socket : sockets) {
        if (u"%1:%2"_s.arg(socket->peerAddress().toString()).arg(socket->peerPort()) == peer)
            return socket;
    }
    qCWarning(lcFaults) << "connection" << connection->id() << "has no TCP socket to stall";
    return nullptr;
}

QList<QPointer<ClientConnection>> Gateway::connectionsFor(const QString &userId) const
{
    QList<QPointer<ClientConnection>> result;
    if (userId.isEmpty()) {
        for (ClientConnection *connection : m_connections)
            result.append(connection);
    } else {
        for (ClientConnection *connection : m_connectionsOfUser.values(userId))
            result.append(connection);
    }
    return result;
}

void Gateway::sendPresence(const UserPresence &presence)
{
    const auto learnt = std::chrono::steady_clock::now();
    const QList<ConnectionId> watchers = m_subscriptions.watchersOf(presence.id);
    if (watchers.isEmpty())
        return;
    // Serialised once, whatever the number of watchers.
    const QString frame = QString::fromUtf8(serializeFrame(toJson(PresenceEvent { presence })));
    quint64 written = 0;
    for (const ConnectionId watcher : watchers) {
        if (ClientConnection *connection = m_connections.value(watcher)) {
            connection->sendSerialized(frame);
            m_metrics.pushWritten(std::chrono::steady_clock::now() - learnt);
            ++written;
        }
    }
    // Counted once per change, not per watcher: the label lookup is not free.
    m_metrics.frameOut(u"presence"_s, written);
}

void Gateway::shutdown()
{
    if (m_shuttingDown)
        return;
    m_shuttingDown = true;
    m_listener->close();
    qCInfo(lcGateway) << "shutting down: closing" << m_connections.size() << "connections";
    // A close can report the disconnect at once, which removes the connection from
    // m_connections: iterate over a copy, or a rehash skips some (seen: 1 run in 20).
    const QList<QPointer<ClientConnection>> connections(
        m_connections.cbegin(), m_connections.cend());
    for (const QPointer<ClientConnection> &connection : connections) {
        if (connection)
            connection->close(QWebSocketProtocol::CloseCodeGoingAway, u"gateway shutting down"_s);
    }
    m_shutdownTimer.start(m_config.shutdownTimeout);
    finishShutdownIfDone();
}

void Gateway::finishShutdownIfDone()
{
    if (!m_shuttingDown || !m_connections.isEmpty() || !m_shutdownTimer.isActive())
        return;
    m_shutdownTimer.stop();
    Q_EMIT shutdownFinished();
}

} // namespace Presence::Gateway
