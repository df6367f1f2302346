#pragma once

// Qt
#include <QHash>
#include <QObject>
#include <QSet>
#include <QStringList>

// Presence
#include "server-mock/presence/PresenceStore.h"

namespace Presence::Server {

// Who watches whom on this gateway: connection -> watched users, and back.
// Announces the first watcher of a user and the departure of the last, so a shared
// store listens only for users someone here is looking at.
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
    [[nodiscard]] QStringList subscriptionsOf(ConnectionId connection) const;
    [[nodiscard]] QList<ConnectionId> watchersOf(const QString &userId) const;
    [[nodiscard]] int watchedUserCount() const { return int(m_watchers.size()); }

Q_SIGNALS:
    void userWatched(const QString &userId);
    void userUnwatched(const QString &userId);

private:
    QHash<ConnectionId, QSet<QString>> m_subscriptions;
    QHash<QString, QSet<ConnectionId>> m_watchers;
};

} // namespace Presence::Server
