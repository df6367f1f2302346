#include "server-mock/presence/SubscriptionRegistry.h"

namespace Presence::Server {

bool SubscriptionRegistry::add(ConnectionId connection, const QString &userId)
{
    QSet<QString> &subscriptions = m_subscriptions[connection];
    if (subscriptions.contains(userId))
        return false;
    subscriptions.insert(userId);
    QSet<ConnectionId> &watchers = m_watchers[userId];
    watchers.insert(connection);
    if (watchers.size() == 1)
        Q_EMIT userWatched(userId);
    return true;
}

void SubscriptionRegistry::remove(ConnectionId connection, const QString &userId)
{
    const auto subscriptions = m_subscriptions.find(connection);
    if (subscriptions == m_subscriptions.end() || !subscriptions->remove(userId))
        return;
    if (subscriptions->isEmpty())
        m_subscriptions.erase(subscriptions);
    const auto watchers = m_watchers.find(userId);
    if (watchers == m_watchers.end())
        return;
    watchers->remove(connection);
    if (watchers->isEmpty()) {
        m_watchers.erase(watchers);
        Q_EMIT userUnwatched(userId);
    }
}

void SubscriptionRegistry::removeConnection(ConnectionId connection)
{
    const QSet<QString> subscriptions = m_subscriptions.value(connection);
    for (const QString &userId : subscriptions)
        remove(connection, userId);
}

bool SubscriptionRegistry::contains(ConnectionId connection, const QString &userId) const
{
    const auto it = m_subscriptions.constFind(connection);
    return it != m_subscriptions.constEnd() && it->contains(userId);
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
    QStringList ids(it->cbegin(), it->cend());
    ids.sort();
    return ids;
}

QList<ConnectionId> SubscriptionRegistry::watchersOf(const QString &userId) const
{
    const auto it = m_watchers.constFind(userId);
    if (it == m_watchers.constEnd())
        return {};
    return QList<ConnectionId>(it->cbegin(), it->cend());
}

} // namespace Presence::Server
