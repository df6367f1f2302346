#pragma once

// C++
#include <chrono>

// Qt
#include <QObject>
#include <QString>

namespace Presence::Server {

// A link to Redis as everything that holds one tells it: its state and how it fails and
// recovers, declared once, here. RedisAsyncConnection is one; RedisClient and RedisSubscriber
// each own one and say its signals again as their own (relay()).
class RedisLink : public QObject {
    Q_OBJECT
public:
    enum class State {
        Disconnected, // not started, or closed
        Connecting, // resolving, connecting, or waiting for the SELECT that makes it Ready
        Ready,
        Backoff, // waiting before the next attempt
    };
    Q_ENUM(State)

    using QObject::QObject;

Q_SIGNALS:
    void stateChanged(Presence::Server::RedisLink::State state);
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
    // Says the signals of the link this one owns again as this link's. Connected after the
    // owner's own handlers, so that those run first.
    void relay(const RedisLink *owned, Ready ready);
};

} // namespace Presence::Server
