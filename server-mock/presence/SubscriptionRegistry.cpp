#include "server-mock/presence/SubscriptionRegistry.h"

// C++
#include <algorithm>

// Presence
#include "server-mock/core/SortedVector.h"

namespace Presence::Server {

std::optional<SubscriptionRegistry::UserIndex> SubscriptionRegistry::indexOf(
    const QString &userId) const
{
    const auto it = m_indexes.constFind(userId);
    if (it == m_indexes.constEnd())
        return std::nullopt;
    return *it;
}

bool SubscriptionRegistry::add(ConnectionId connection, const QString &userId)
{
    UserIndex user;
    if (const auto known = indexOf(userId)) {
        user = *known;
    } else {
        user = UserIndex(m_ids.size());
        m_indexes.insert(userId, user);
        m_ids.append(userId);
        m_watchers.emplace_back();
    }
    if (!insertSorted(m_subscriptions[connection], user))
        return false;
    std::vector<ConnectionId> &watchers = m_watchers[user];
    insertSorted(watchers, connection);
    if (watchers.size() == 1) {
        ++m_watchedUsers;
        Q_EMIT userWatched(userId);
    }
    return true;
}

void SubscriptionRegistry::remove(ConnectionId connection, const QString &userId)
{
    if (const auto user = indexOf(userId))
        remove(connection, *user);
}

void SubscriptionRegistry::remove(ConnectionId connection, UserIndex user)
{
    const auto subscriptions = m_subscriptions.find(connection);
    if (subscriptions == m_subscriptions.end() || !eraseSorted(*subscriptions, user))
        return;
    if (subscriptions->empty())
        m_subscriptions.erase(subscriptions);
    dropWatcher(user, connection);
}

void SubscriptionRegistry::dropWatcher(UserIndex user, ConnectionId connection)
{
    std::vector<ConnectionId> &watchers = m_watchers[user];
    eraseSorted(watchers, connection);
    if (watchers.empty()) {
        watchers.shrink_to_fit(); // a user nobody watches holds nothing
        --m_watchedUsers;
        Q_EMIT userUnwatched(m_ids.at(user));
    }
}

void SubscriptionRegistry::removeConnection(ConnectionId connection)
{
    for (const UserIndex user : m_subscriptions.take(connection))
        dropWatcher(user, connection);
}

bool SubscriptionRegistry::contains(ConnectionId connection, const QString &userId) const
{
    const auto user = indexOf(userId);
    const auto it = m_subscriptions.constFind(connection);
    return user && it != m_subscriptions.constEnd()
        && std::binary_search(it->cbegin(), it->cend(), *user);
}

int SubscriptionRegistry::countOf(ConnectionId connection) const
{
    const auto it = m_subscriptions.constFind(connection);
    return it == m_subscriptions.constEnd() ? 0 : int(it->size());
}

QStringList SubscriptionRegistry::subscriptionsOf(ConnectionId connection) const
{
    const auto it = m_subscriptions.constFind(connection);
    if (it == m_subscriptions.constEnd())
        return {};
    QStringList ids;
    ids.reserve(qsizetype(it->size()));
    for (const UserIndex user : *it)
        ids.append(m_ids.at(user));
    ids.sort();
    return ids;
}

QList<ConnectionId> SubscriptionRegistry::watchersOf(const QString &userId) const
{
    const auto user = indexOf(userId);
    if (!user)
        return {};
    const std::vector<ConnectionId> &watchers = m_watchers[*user];
    return QList<ConnectionId>(watchers.cbegin(), watchers.cend());
}

} // namespace Presence::Server
