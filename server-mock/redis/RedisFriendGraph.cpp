#include "server-mock/redis/RedisFriendGraph.h"

// C++
#include <algorithm>
#include <memory>

// Qt
#include <QPointer>
#include <QStringDecoder>

// Presence
#include "protocol/Identifiers.h"
#include "server-mock/redis/client/Logging.h"

namespace Presence::Server {

namespace {

// Text from Redis, as the backend wrote it: UTF-8, or nothing.
std::optional<QString> utf8(const QByteArray &bytes)
{
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    QString text = decoder(bytes);
    if (decoder.hasError())
        return std::nullopt;
    return text;
}

} // namespace

RedisFriendGraph::RedisFriendGraph(const RedisUrl &url, QByteArray prefix, QObject *parent)
    : FriendSource(parent)
    , m_prefix(std::move(prefix))
{
    connect(&m_subscriber, &RedisSubscriber::messageReceived, this, &RedisFriendGraph::onMessage);
    m_client.connectTo(url);
    m_subscriber.connectTo(url);
    m_subscriber.subscribe(channel());
}

void RedisFriendGraph::onMessage(const QByteArray &channel, const QByteArray &payload)
{
    if (channel != this->channel())
        return;
    const QString userId = QString::fromLatin1(payload);
    if (!Protocol::isValidId(userId)) {
        qCWarning(lcRedis) << "ignoring" << this->channel() << "message: not a user id";
        return;
    }
    Q_EMIT friendsChanged(userId);
}

void RedisFriendGraph::read(const QString &userId, QObject *context, Read done)
{
    const QPointer<QObject> alive(context);
    const QByteArray set = m_prefix + "friends:" + userId.toUtf8();
    m_client.command({ "SMEMBERS", set }, context,
        [this, userId, set, alive, done = std::move(done)](const RedisReply &members) {
            if (!members.isArray()) {
                qCWarning(lcRedis).noquote()
                    << "cannot read" << set << ":" << members.errorMessage();
                done(std::nullopt);
                return;
            }
            QStringList ids;
            for (const RedisReply &member : members.elements) {
                const QString id = QString::fromLatin1(member.bytes);
                if (member.type == RedisReply::Type::String && Protocol::isValidId(id)
                    && id != userId)
                    ids.append(id);
                else
                    qCWarning(lcRedis).noquote() << set << "holds a member that is no friend id";
            }
            // Set members come in no order: a stable one makes friends pages stable.
            std::sort(ids.begin(), ids.end());
            if (ids.size() > kMaxFriends) {
                qCWarning(lcRedis).noquote() << set << "holds" << ids.size() << "friends; the first"
                                             << kMaxFriends << "count";
                ids.resize(kMaxFriends);
            }
            if (!alive)
                return;
            // The user's own name first, then each friend's, in one round trip.
            QList<RedisClient::Command> names;
            names.reserve(ids.size() + 1);
            names.append({ "HGET", m_prefix + "user:" + userId.toUtf8(), "name" });
            for (const QString &id : std::as_const(ids))
                names.append({ "HGET", m_prefix + "user:" + id.toUtf8(), "name" });
            m_client.pipeline(std::move(names), alive.data(),
                [userId, ids, done](const QList<RedisReply> &replies) {
                    const auto nameAt = [&replies](qsizetype i, const QString &id) {
                        if (i < replies.size() && replies.at(i).type == RedisReply::Type::String) {
                            const auto text = utf8(replies.at(i).bytes);
                            if (text && !text->trimmed().isEmpty()
                                && text->size() <= kMaxNameLength)
                                return *text;
                        }
                        return id;
                    };
                    Entry entry;
                    entry.name = nameAt(0, userId);
                    entry.friends.reserve(ids.size());
                    for (qsizetype i = 0; i < ids.size(); ++i)
                        entry.friends.append({ ids.at(i), nameAt(i + 1, ids.at(i)) });
                    done(entry);
                });
        });
}

} // namespace Presence::Server
