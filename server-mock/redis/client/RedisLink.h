#pragma once

// C++
#include <chrono>

// Qt
#include <QObject>
#include <QString>

// Presence
#include "server-mock/redis/client/RedisAsyncConnection.h"

namespace Presence::Server {

// What RedisClient and RedisSubscriber tell alike of the RedisAsyncConnection each owns: its
// state and how it fails and recovers, declared and relayed once, here.
class RedisLink : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

Q_SIGNALS:
    void stateChanged(Presence::Server::RedisAsyncConnection::State state);
    // Commands (or subscriptions) may flow.
    void ready();
    // A Ready connection broke; a retry is scheduled.
    void connectionLost(const QString &reason);
    // An attempt failed before Ready; a retry is scheduled.
    void connectFailed(const QString &reason);
    void retryScheduled(int attempt, std::chrono::milliseconds delay);

protected:
    // Whether ready() is the connection's, or the owner's to say later (a subscriber says it
    // once it has subscribed again).
    enum class Ready { Relayed, OwnersToSay };
    // Says the connection's signals again as this link's. Connected after the owner's own
    // handlers, so that those run first.
    void relay(const RedisAsyncConnection *connection, Ready ready);
};

} // namespace Presence::Server
