#pragma once

// Presence
#include "server-mock/chat/ChatStore.h"
#include "server-mock/redis/client/RedisClient.h"
#include "server-mock/redis/client/RedisSubscriber.h"
#include "server-mock/redis/client/RedisUrl.h"

namespace Presence::Server {

struct RedisChatOptions {
    RedisUrl url;
    QByteArray prefix = QByteArrayLiteral("presence:");
    // Messages kept per conversation; older ones are dropped.
    qsizetype capacity = 1000;
};

// Conversations shared by several gateways through one Redis (docs/redis.md): a sorted set
// per pair of users holds the last `capacity` messages, and a Lua script gives each message
// its id and time (Redis's clock) atomically, so two gateways writing one conversation cannot
// interleave. The script publishes each message on the two users' message channels; a gateway
// subscribes to a user's channel only while it holds a connection of that user.
//
// Each user's conversations by last activity (a sorted set the append script keeps) and read
// markers (a hash) live there too, so they survive a gateway's restart. A moved marker is
// published on the user's message channel, and every gateway holding a connection of the user
// (the one that moved it included) delivers it from there: one order with the messages.
//
// While Redis is away, every request fails at once (Failure::Unavailable): a
// message is either stored and relayed or refused, never half done.
class RedisChatStore : public ChatStore {
    Q_OBJECT
public:
    explicit RedisChatStore(RedisChatOptions options, QObject *parent = nullptr);
    ~RedisChatStore() override;

    void storeMessage(const QString &from, const QString &to, const QString &text, QObject *context,
        StoredCallback done) override;
    void readPage(const QString &a, const QString &b, const std::optional<QString> &before,
        int limit, QObject *context, PageCallback done) override;
    void readSummaries(const QString &user, int limit, const Filter &filter, QObject *context,
        SummariesCallback done) override;
    void markRead(const QString &user, const QString &with, const QString &upTo, QObject *context,
        MarkCallback done) override;
    void userArrived(const QString &userId) override;
    void userLeft(const QString &userId) override;

    [[nodiscard]] const RedisChatOptions &options() const { return m_options; }
    [[nodiscard]] const RedisClient &client() const { return m_client; }
    [[nodiscard]] const RedisSubscriber &subscriber() const { return m_subscriber; }
    [[nodiscard]] QByteArray conversationKey(const QString &a, const QString &b) const;
    [[nodiscard]] QByteArray channelOf(const QString &userId) const;
    [[nodiscard]] QByteArray conversationsKey(const QString &userId) const;
    [[nodiscard]] QByteArray markersKey(const QString &userId) const;

private:
    // The second round trip of readSummaries(): the conversations with `others`.
    void readSummariesOf(const QString &user, const QStringList &others, int limit, bool moreBeyond,
        QObject *context, SummariesCallback done);
    void onMessage(const QByteArray &channel, const QByteArray &payload);
    // A stored `message` frame as a message; nullopt (and a warning) when it is not one.
    [[nodiscard]] static std::optional<Protocol::ChatMessage> decodeStored(const QByteArray &frame);

    RedisChatOptions m_options;
    QByteArray m_instance; // tells this gateway's own messages apart on the channels
    RedisClient m_client;
    RedisSubscriber m_subscriber;
};

} // namespace Presence::Server
