#include "server-mock/server/ConnectionRegistry.h"

// Presence
#include "server-mock/server/ClientConnection.h"

namespace Presence::Server {

void ConnectionRegistry::add(ClientConnection *connection)
{
    m_connections.insert(connection->id(), connection);
}

void ConnectionRegistry::signedIn(ClientConnection *connection)
{
    m_byUser.insert(connection->userId(), connection);
    if (m_byUser.count(connection->userId()) == 1)
        Q_EMIT userArrived(connection->userId());
}

void ConnectionRegistry::remove(ClientConnection *connection)
{
    m_connections.remove(connection->id());
    const QString &userId = connection->userId();
    if (userId.isEmpty() || !m_byUser.remove(userId, connection))
        return;
    if (!m_byUser.contains(userId))
        Q_EMIT userLeft(userId);
}

int ConnectionRegistry::authenticatedCount() const
{
    int count = 0;
    for (const ClientConnection *connection : m_connections)
        count += connection->state() == ClientConnection::State::Authenticated ? 1 : 0;
    return count;
}

void ConnectionRegistry::clear()
{
    m_connections.clear();
    m_byUser.clear();
}

QList<ConnectionId> ConnectionRegistry::ids(const QString &userId) const
{
    if (userId.isEmpty())
        return m_connections.keys();
    QList<ConnectionId> result;
    for (const ClientConnection *connection : m_byUser.values(userId))
        result.append(connection->id());
    return result;
}

} // namespace Presence::Server
