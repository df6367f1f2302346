#pragma once

// C++
#include <optional>
#include <vector>

// Qt
#include <QHash>
#include <QObject>
#include <QStringList>

// Presence
#include "server-mock/presence/PresenceStore.h"

namespace Presence::Server {

// Who watches whom on this gateway: connection -> watched users, and back.
// Announces the first watcher of a user and the departure of the last, so a shared
// store listens only for users someone here is looking at.
//
// Compact, for 10,000 connections of 50 subscriptions each: a user id is kept once, as a dense
// index given on its first watch (never given back: ids are friends from the directory, so
// there are at most as many as users), and both directions are sorted vectors of numbers. A
// QHash<ConnectionId, QSet<QString>> and its reverse cost about 5.7 KiB a connection here.
class SubscriptionRegistry : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    // Returns true when the connection was not already watching userId.
    bool add(ConnectionId connection, const QString &userId);
    void remove(ConnectionId connection, const QString &userId);
    void removeConnection(ConnectionId connection);

    [[nodiscard]] bool contains(ConnectionId connection, const QString &userId) const;
    [[nodiscard]] int countOf(ConnectionId connection) const;
    // Sorted.
    [[nodiscard]] QStringList subscriptionsOf(ConnectionId connection) const;
    // In connection order.
    [[nodiscard]] QList<ConnectionId> watchersOf(const QString &userId) const;
    [[nodiscard]] int watchedUserCount() const { return m_watchedUsers; }

Q_SIGNALS:
    void userWatched(const QString &userId);
    void userUnwatched(const QString &userId);

private:
    using UserIndex = quint32;
    [[nodiscard]] std::optional<UserIndex> indexOf(const QString &userId) const;
    void remove(ConnectionId connection, UserIndex user);
    // The watcher side of a subscription that is gone; announces a user left unwatched.
    void dropWatcher(UserIndex user, ConnectionId connection);

    QHash<QString, UserIndex> m_indexes;
    QList<QString> m_ids; // by index
    std::vector<std::vector<ConnectionId>> m_watchers; // by index, sorted
    QHash<ConnectionId, std::vector<UserIndex>> m_subscriptions; // sorted
    int m_watchedUsers = 0;
};

} // namespace Presence::Server
