#pragma once

// Qt
#include <QHash>
#include <QList>
#include <QMultiHash>
#include <QObject>

// Presence
#include "server-mock/presence/PresenceStore.h"

namespace Presence::Server {

class ClientConnection;

// Who is connected to this gateway: every open connection by id, and the signed-in ones by
// user. It owns nothing (the Gateway owns the connections); it tells when a user's first
// connection signs in and when their last one goes, which is what chats and admin care about.
class ConnectionRegistry : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    [[nodiscard]] ConnectionId nextId() { return m_nextId++; }
    void add(ClientConnection *connection);
    // The connection signed in as connection->userId().
    void signedIn(ClientConnection *connection);
    void remove(ClientConnection *connection);
    // Forgets every connection at once, without signals (a shutdown that timed out).
    void clear();

    [[nodiscard]] ClientConnection *find(ConnectionId id) const { return m_connections.value(id); }
    [[nodiscard]] bool contains(ConnectionId id) const { return m_connections.contains(id); }
    [[nodiscard]] bool isEmpty() const { return m_connections.isEmpty(); }
    [[nodiscard]] int count() const { return int(m_connections.size()); }
    // Connections signed in and not closing.
    [[nodiscard]] int authenticatedCount() const;
    [[nodiscard]] int userCount() const { return int(m_byUser.uniqueKeys().size()); }
    [[nodiscard]] bool hasUser(const QString &userId) const { return m_byUser.contains(userId); }
    // userId's signed-in connections, in no particular order.
    [[nodiscard]] QList<ClientConnection *> devicesOf(const QString &userId) const
    {
        return m_byUser.values(userId);
    }
    [[nodiscard]] const QHash<ConnectionId, ClientConnection *> &all() const
    {
        return m_connections;
    }
    // Every connection (userId empty) or userId's, by id: acting on one may close others, so
    // a loop over them looks each up with find() when its turn comes.
    [[nodiscard]] QList<ConnectionId> ids(const QString &userId = {}) const;

Q_SIGNALS:
    void userArrived(const QString &userId);
    void userLeft(const QString &userId);

private:
    QHash<ConnectionId, ClientConnection *> m_connections;
    QMultiHash<QString, ClientConnection *> m_byUser; // signed-in ones only
    ConnectionId m_nextId = 1;
};

} // namespace Presence::Server
