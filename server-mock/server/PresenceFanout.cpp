#include "server-mock/server/PresenceFanout.h"

// C++
#include <algorithm>

// Qt
#include <QSet>

// Presence
#include "protocol/Digest.h"
#include "protocol/Frame.h"
#include "protocol/ServerMessages.h"
#include "server-mock/directory/UserDirectory.h"
#include "server-mock/server/ClientConnection.h"
#include "server-mock/server/ConnectionRegistry.h"
#include "server-mock/server/GatewayMetrics.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

using namespace Protocol;
using namespace std::chrono_literals;

namespace {

// Connections in one digest slice: one store read and a few milliseconds of work at most.
constexpr int kDigestSlice = 256;

} // namespace

PresenceFanout::PresenceFanout(const GatewayConfig &config, const UserDirectory &directory,
    PresenceStore *store, const ConnectionRegistry &connections, GatewayMetrics &metrics,
    QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_directory(directory)
    , m_store(store)
    , m_connections(connections)
    , m_metrics(metrics)
    , m_availability(m_directory, m_config.availabilityInterval,
          [this](ConnectionId id, const QString &type, const QByteArray &frame) {
              if (ClientConnection *connection = m_connections.find(id))
                  connection->sendFrame(type, frame);
          })
    , m_digests(
          std::max(m_config.digestInterval, 1ms), kDigestSlice,
          [this] {
              const auto &all = m_connections.all();
              return std::vector<ConnectionId>(all.keyBegin(), all.keyEnd());
          },
          [this](std::span<const ConnectionId> slice, const std::function<void()> &done) {
              sendDigests(slice, done);
          })
{
    connect(m_store, &PresenceStore::presencePublished, this, &PresenceFanout::onPresencePublished);
    connect(m_store, &PresenceStore::storeReset, this, &PresenceFanout::onStoreReset);
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

    // A lost push is corrected within about one interval.
    if (m_config.digestInterval.count() > 0)
        m_digests.start();
}

void PresenceFanout::connectionOpened(const ClientConnection *connection)
{
    m_store->connectionOpened(connection->userId(), connection->id(), connection->chosenStatus());
}

void PresenceFanout::connectionClosed(const ClientConnection *connection)
{
    m_subscriptions.removeConnection(connection->id());
    m_availability.unwatch(connection->id());
    m_store->connectionClosed(connection->userId(), connection->id());
}

void PresenceFanout::watchAvailability(
    ClientConnection *connection, const std::optional<QString> &ref)
{
    // The first friends in friends order, so a client knows which rows are covered from the
    // count alone.
    const QList<int> &friends
        = m_directory.user(*m_directory.indexOfId(connection->userId())).friends;
    const qsizetype count = std::min<qsizetype>(friends.size(), m_config.maxAvailabilityFriends);
    std::vector<AvailabilityFanout::UserIndex> covered;
    QStringList coveredIds;
    covered.reserve(std::size_t(count));
    coveredIds.reserve(count);
    for (qsizetype i = 0; i < count; ++i) {
        covered.push_back(AvailabilityFanout::UserIndex(friends.at(i)));
        coveredIds.append(m_directory.user(friends.at(i)).id);
    }
    const ConnectionId id = connection->id();
    m_availability.watch(id, std::move(covered), int(friends.size()), connection->presenceBatch());
    m_store->snapshot(coveredIds, this, [this, id, ref](const QList<UserPresence> &users) {
        ClientConnection *watcher = m_connections.find(id);
        if (watcher && m_availability.isWatching(id))
            watcher->send(toJson(m_availability.snapshotRead(id, users)), ref);
    });
}

void PresenceFanout::friendsChanged(const ClientConnection *connection, const QStringList &removed)
{
    for (const QString &id : removed)
        m_subscriptions.remove(connection->id(), id);
    m_availability.unwatch(connection->id());
}

void PresenceFanout::unwatchAvailability(
    ClientConnection *connection, const std::optional<QString> &ref)
{
    m_availability.unwatch(connection->id());
    connection->send(toJson(Ok {}), ref);
}

bool PresenceFanout::withinIdLimit(
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

void PresenceFanout::subscribe(ClientConnection *connection, const SubscribeRequest &request,
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
    m_store->snapshot(allowed, this,
        [this, id = connection->id(), denied, ref](const QList<UserPresence> &users) {
            if (ClientConnection *watcher = m_connections.find(id)) // not gone meanwhile
                watcher->sendFrame(u"snapshot"_s, serializeFrame(Snapshot { users, denied }, ref));
        });
}

void PresenceFanout::unsubscribe(ClientConnection *connection, const UnsubscribeRequest &request,
    const std::optional<QString> &ref)
{
    if (!withinIdLimit(connection, request.ids, ref))
        return;
    for (const QString &id : request.ids)
        m_subscriptions.remove(connection->id(), id);
    connection->send(toJson(Ok {}), ref);
}

void PresenceFanout::setStatus(ClientConnection *connection, const SetStatusRequest &request,
    const std::optional<QString> &ref)
{
    connection->setChosenStatus(request.status);
    m_store->connectionStatusChanged(connection->userId(), connection->id(), request.status);
    connection->send(toJson(Ok {}), ref);
}

void PresenceFanout::onStoreReset()
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
    const auto &all = m_connections.all();
    readWatchedThen({ all.keyBegin(), all.keyEnd() },
        [](ClientConnection *connection, const QList<UserPresence> &watched) {
            if (!watched.isEmpty())
                connection->sendFrame(u"snapshot"_s, serializeFrame(Snapshot { watched, {} }));
        });
}

void PresenceFanout::sendDigests(
    std::span<const ConnectionId> slice, const std::function<void()> &done)
{
    // The store's word, read once for the slice: a push lost on its way (between gateways, or
    // here) shows as a difference.
    readWatchedThen(
        { slice.begin(), slice.end() },
        [this](ClientConnection *connection, const QList<UserPresence> &watched) {
            if (connection->state() != ClientConnection::State::Authenticated)
                return;
            Digest digest { watchedDigest(watched), std::nullopt };
            if (const auto told = m_availability.toldTo(connection->id()))
                digest.availability = availabilityDigest(*told);
            connection->send(toJson(digest)); // counted in frames_out by the connection
        },
        done);
}

void PresenceFanout::readWatchedThen(std::vector<ConnectionId> connections, const WatchedRead &each,
    const std::function<void()> &finished)
{
    QSet<QString> watched;
    for (const ConnectionId id : connections) {
        for (const QString &user : m_subscriptions.subscriptionsOf(id))
            watched.insert(user);
    }
    m_store->snapshot(watched.values(), this,
        [this, connections = std::move(connections), each, finished](
            const QList<UserPresence> &users) {
            QHash<QString, UserPresence> byId;
            byId.reserve(users.size());
            for (const UserPresence &user : users)
                byId.insert(user.id, user);
            // Sending may close a connection (a peer that reads nothing): look each one up.
            for (const ConnectionId id : connections) {
                ClientConnection *connection = m_connections.find(id);
                if (!connection)
                    continue;
                QList<UserPresence> mine;
                for (const QString &user : m_subscriptions.subscriptionsOf(id)) {
                    if (const auto it = byId.constFind(user); it != byId.constEnd())
                        mine.append(*it);
                }
                each(connection, mine);
            }
            if (finished)
                finished();
        });
}

void PresenceFanout::onPresencePublished(const UserPresence &presence)
{
    m_metrics.presencePublished();
    m_availability.presencePublished(presence);
    if (m_pushHook)
        m_pushHook(presence, [this](const UserPresence &change) { push(change); });
    else
        push(presence);
}

void PresenceFanout::push(const UserPresence &presence)
{
    const auto learnt = std::chrono::steady_clock::now();
    const QList<ConnectionId> watchers = m_subscriptions.watchersOf(presence.id);
    if (watchers.isEmpty())
        return;
    // Serialised once, whatever the number of watchers.
    const QByteArray frame = serializeFrame(toJson(PresenceEvent { presence }));
    quint64 written = 0;
    for (const ConnectionId watcher : watchers) {
        if (ClientConnection *connection = m_connections.find(watcher)) {
            connection->sendSerialized(frame);
            m_metrics.pushWritten(std::chrono::steady_clock::now() - learnt);
            ++written;
        }
    }
    // Counted once per change, not per watcher: the label lookup is not free.
    m_metrics.frameOut(u"presence"_s, written);
}

} // namespace Presence::Server
