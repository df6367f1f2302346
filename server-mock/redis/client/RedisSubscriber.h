#pragma once

// C++
#include <chrono>

// Qt
#include <QByteArray>
#include <QHash>
#include <QObject>
#include <QSet>

// Presence
#include "server-mock/redis/client/RedisAsyncConnection.h"
#include "server-mock/redis/client/RedisLink.h"

namespace Presence::Server {

// Redis pub/sub on a connection of its own: a hiredis context in subscribe mode can run no
// other command. It keeps the set of channels asked for and makes the server's set equal to
// it, including after every reconnect, which is when a store must refresh what it shows
// (messages published while disconnected are gone for good).
//
// It does not count references: subscribing twice is one subscription, and one unsubscribe
// ends it. Its connection's state and failures are told through RedisLink's signals; ready()
// only once every channel wanted is subscribed again.
class RedisSubscriber : public RedisLink {
    Q_OBJECT
public:
    using Options = RedisAsyncConnection::Options;

    explicit RedisSubscriber(QObject *parent = nullptr);
    explicit RedisSubscriber(const Options &options, QObject *parent = nullptr);
    ~RedisSubscriber() override;

    void connectTo(const RedisUrl &url);
    // Stops for good, until the next connectTo(); channels() is kept for that.
    void close();

    [[nodiscard]] State state() const;

    // Both take effect at once when Ready, else at the next connection.
    void subscribe(const QByteArray &channel);
    void unsubscribe(const QByteArray &channel);
    // The channels asked for, confirmed by the server or not yet.
    [[nodiscard]] const QSet<QByteArray> &channels() const { return m_channels; }
    // Whether the server confirmed the subscription to `channel` on the current connection
    // (and no later SUBSCRIBE of it is still unanswered): messages published now arrive.
    [[nodiscard]] bool isConfirmed(const QByteArray &channel) const
    {
        return m_confirmed.contains(channel);
    }

Q_SIGNALS:
    // The server confirmed a subscription: messages published from now on arrive.
    void channelSubscribed(const QByteArray &channel);
    // After every (re)connection, once each channel wanted at that moment is confirmed again
    // (at once when there is none): the moment to refresh snapshots, since whatever was
    // published while disconnected was lost.
    void resubscribed();
    void messageReceived(const QByteArray &channel, const QByteArray &payload);

private:
    void onReady();
    void onConnectionLost();
    // Nothing sent on the old connection counts any more.
    void forgetConnection();
    void onPush(const RedisReply &reply);

    RedisAsyncConnection *m_connection;
    QSet<QByteArray> m_channels;
    // Channels the current (re)subscription round still waits for.
    QSet<QByteArray> m_awaited;
    QSet<QByteArray> m_confirmed;
    // SUBSCRIBEs sent and not answered yet, per channel (subscribe, unsubscribe, subscribe
    // again: only the last answer means subscribed).
    QHash<QByteArray, int> m_unanswered;
    bool m_resubscribing = false;
};

} // namespace Presence::Server
