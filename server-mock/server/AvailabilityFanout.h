#pragma once

// C++
#include <chrono>
#include <functional>
#include <optional>

// Qt
#include <QHash>
#include <QObject>
#include <QSet>
#include <QStringList>
#include <QTimer>

// Presence
#include "protocol/ServerMessages.h"
#include "server-mock/presence/PresenceStore.h"

namespace Presence::Server {

// Coarse presence of whole friend lists (watch_availability): for each connection that asked,
// which of its covered friends are available, then what changed, coalesced per connection and
// sent at most once per interval. Exact pushes stay with the subscriptions; this answers "who
// is online" for the rows nobody looks at. One timer serves every connection.
//
// It never touches a socket: what to send, and to whom, goes through `Deliver`.
class AvailabilityFanout : public QObject {
    Q_OBJECT
public:
    using Deliver = std::function<void(ConnectionId, const QJsonObject &message)>;

    AvailabilityFanout(
        std::chrono::milliseconds interval, Deliver deliver, QObject *parent = nullptr);

    // Starts covering `covered` (the first friends of `totalFriends`) for a connection, again
    // from scratch if it already was. It is told nothing until snapshotRead().
    void watch(ConnectionId connection, const QStringList &covered, int totalFriends);
    // What the store holds of the connection's covered friends: becomes what the connection
    // was told, returned as the `availability` to send it.
    [[nodiscard]] Protocol::Availability snapshotRead(
        ConnectionId connection, const QList<Protocol::UserPresence> &users);
    void unwatch(ConnectionId connection);
    [[nodiscard]] bool isWatching(ConnectionId connection) const
    {
        return m_watchers.contains(connection);
    }

    // A change published by the store, in the store's order for that user.
    void presencePublished(const Protocol::UserPresence &presence);
    // Every user covered here, for a store reset to read again.
    [[nodiscard]] QStringList coveredUsers() const { return m_coverers.keys(); }
    // After a store reset: `users` is the whole truth; every ready connection is sent a fresh
    // `availability` (without ref).
    void resetFrom(const QList<Protocol::UserPresence> &users);

    [[nodiscard]] int watcherCount() const { return int(m_watchers.size()); }
    // What a connection was told is available, once its answer went out; nullopt before.
    [[nodiscard]] std::optional<QHash<QString, Protocol::PresenceStatus>> toldTo(
        ConnectionId connection) const;
    // Sends what is pending now (tests; the timer does it otherwise).
    void flush();

Q_SIGNALS:
    // The first connection here covers userId / the last one stopped.
    void userCovered(const QString &userId);
    void userUncovered(const QString &userId);

private:
    struct Watcher {
        QStringList covered;
        int totalFriends = 0;
        // Covered friends the connection was told are available; the rest it believes offline.
        QHash<QString, Protocol::PresenceStatus> told;
        QSet<QString> dirty; // changed since told
        bool ready = false; // told holds a snapshot
    };

    [[nodiscard]] Protocol::PresenceStatus latestOf(const QString &userId) const;
    [[nodiscard]] Protocol::Availability tell(Watcher &watcher);
    void deliverAll(const QList<std::pair<ConnectionId, QJsonObject>> &out);

    std::chrono::milliseconds m_interval;
    Deliver m_deliver;
    QHash<ConnectionId, Watcher> m_watchers;
    QHash<QString, QSet<ConnectionId>> m_coverers;
    QHash<QString, Protocol::UserPresence> m_latest; // of covered users, by the store's order
    QSet<ConnectionId> m_dirtyConnections;
    QTimer m_flushTimer;
};

} // namespace Presence::Server
