#pragma once

// Qt
#include <QByteArray>

// Presence
#include "server-mock/directory/FriendSource.h"
#include "server-mock/redis/client/RedisClient.h"
#include "server-mock/redis/client/RedisSubscriber.h"
#include "server-mock/redis/client/RedisUrl.h"

namespace Presence::Server {

// The friend graph the app's backend keeps in Redis (docs/redis.md, "Friends from your
// backend"): {prefix}friends:{id}, a set of ids, and {prefix}user:{id}, a hash whose `name`
// is shown. The backend publishes a user's id on {prefix}friends-changed after changing their
// set. What Redis holds is checked like any input: an invalid id is left out, a name that is
// too long or not text gives way to the id, and past kMaxFriends the rest is left out (logged).
class RedisFriendGraph : public FriendSource {
    Q_OBJECT
public:
    static constexpr int kMaxFriends = 100'000;
    static constexpr int kMaxNameLength = 128;

    RedisFriendGraph(const RedisUrl &url, QByteArray prefix, QObject *parent = nullptr);

    void read(const QString &userId, QObject *context, Read done) override;

    [[nodiscard]] QByteArray channel() const { return m_prefix + "friends-changed"; }
    [[nodiscard]] const RedisClient &client() const { return m_client; }
    [[nodiscard]] const RedisSubscriber &subscriber() const { return m_subscriber; }

private:
    void onMessage(const QByteArray &channel, const QByteArray &payload);

    QByteArray m_prefix;
    RedisClient m_client;
    RedisSubscriber m_subscriber;
};

} // namespace Presence::Server
