#include "server-mock/RedisChatStore.h"

#include "server-mock/Logging.h"
#include "server-mock/RedisScripts.h"

#include <QRandomGenerator>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Presence::Gateway {

using Protocol::ChatMessage;

namespace {

QByteArray randomBase36(int digits)
{
    const quint64 bits = QRandomGenerator::system()->generate64();
    return QByteArray::number(bits, 36).right(digits).rightJustified(digits, '0');
}

// The n of "m<epoch>.<n>", the message's score in its conversation; nullopt if it has none.
std::optional<qint64> scoreOfId(const QString &id)
{
    const qsizetype dot = id.lastIndexOf(u'.');
    if (!id.startsWith(u'm') || dot < 2)
        return std::nullopt;
    bool ok = false;
    const qint64 n = QStringView(id).mid(dot + 1).toLongLong(&ok);
    if (!ok || n <= 0)
        return std::nullopt;
    return n;
}

} // namespace

RedisChatStore::RedisChatStore(RedisChatOptions options, QObject *parent)
    : ChatStore(parent)
    , m_options(std::move(options))
    , m_instance(randomBase36(12))
{
    m_options.capacity = std::max<qsizetype>(1, m_options.capacity);
    connect(&m_client, &RedisClient::ready, this,
        [this] { m_client.loadScripts({ &RedisScripts::chatAppend() }); });
    connect(&m_subscriber, &RedisSubscriber::messageReceived, this, &RedisChatStore::onMessage);
    m_client.connectTo(m_options.url);
    m_subscriber.connectTo(m_options.url);
}

RedisChatStore::~RedisChatStore() = default;

QByteArray RedisChatStore::conversationKey(const QString &a, const QString &b) const
{
    const auto &[first, second] = a < b ? std::pair(a, b) : std::pair(b, a);
    return m_options.prefix + "chat:" + first.toUtf8() + '|' + second.toUtf8();
}

QByteArray RedisChatStore::channelOf(const QString &userId) const
{
    return m_options.prefix + "msg:" + userId.toUtf8();
}

std::optional<ChatMessage> RedisChatStore::decodeStored(const QByteArray &frame)
{
    const auto decoded = Protocol::decodeServerFrame(frame);
    const auto *event
        = decoded.ok() ? std::get_if<Protocol::MessageEvent>(&decoded.value()) : nullptr;
    if (!event) {
        qCWarning(lcRedis).noquote()
            << "ignoring a stored chat message that is not one:"
            << (decoded.ok() ? u"not a message frame"_s : decoded.error().message);
        return std::nullopt;
    }
    return event->message;
}

void RedisChatStore::storeMessage(const QString &from, const QString &to, const QString &text,
    QObject *context, StoredCallback done)
{
    const auto &[first, second] = from < to ? std::pair(from, to) : std::pair(to, from);
    m_client.evalScript(RedisScripts::chatAppend(),
        { m_options.prefix, from.toUtf8(), to.toUtf8(), text.toUtf8(),
            QByteArray::number(m_options.capacity),
            randomBase36(8), // a new epoch, should Redis have lost the last one
            m_instance, first.toUtf8(), second.toUtf8() },
        context, [done = std::move(done)](const RedisReply &reply) {
            const auto frame = reply.toBytes();
            if (!frame) {
                if (!reply.isConnectionError())
                    qCWarning(lcRedis) << "the chat script answered" << reply.errorMessage();
                done(std::nullopt);
                return;
            }
            done(decodeStored(*frame));
        });
}

void RedisChatStore::readPage(const QString &a, const QString &b,
    const std::optional<QString> &before, int limit, QObject *context, PageCallback done)
{
    const QByteArray key = conversationKey(a, b);
    const QByteArray wanted = QByteArray::number(std::max(1, limit) + 1); // one more: `more`
    QList<RedisClient::Command> commands;
    if (before) {
        const auto score = scoreOfId(*before);
        if (!score) {
            if (context)
                done(Failure::NotHeld);
            return;
        }
        const QByteArray n = QByteArray::number(*score);
        commands.append({ "ZRANGEBYSCORE", key, n, n });
        commands.append({ "ZREVRANGEBYSCORE", key, '(' + n, "-inf", "LIMIT", "0", wanted });
    } else {
        commands.append({ "ZREVRANGE", key, "0", QByteArray::number(std::max(1, limit)) });
    }
    m_client.pipeline(std::move(commands), context,
        [before, limit = std::max(1, limit), done = std::move(done)](
            const QList<RedisReply> &replies) {
            for (const RedisReply &reply : replies) {
                if (!reply.isArray()) {
                    if (!reply.isConnectionError())
                        qCWarning(lcRedis) << "reading a conversation:" << reply.errorMessage();
                    done(Failure::Unavailable);
                    return;
                }
            }
            if (before) {
                const auto &marker = replies.constFirst().elements;
                const auto found
                    = marker.size() == 1 ? marker.constFirst().toBytes() : std::nullopt;
                const auto message = found ? decodeStored(*found) : std::nullopt;
                if (!message || message->id != *before) {
                    done(Failure::NotHeld);
                    return;
                }
            }
            const QList<RedisReply> &newestFirst = replies.constLast().elements;
            Page page;
            page.more = newestFirst.size() > limit;
            for (qsizetype i = std::min<qsizetype>(limit, newestFirst.size()) - 1; i >= 0; --i) {
                const auto frame = newestFirst.at(i).toBytes();
                if (const auto message = frame ? decodeStored(*frame) : std::nullopt)
                    page.messages.append(*message);
            }
            done(page);
        });
}

void RedisChatStore::userArrived(const QString &userId)
{
    m_subscriber.subscribe(channelOf(userId));
}

void RedisChatStore::userLeft(const QString &userId)
{
    m_subscriber.unsubscribe(channelOf(userId));
}

void RedisChatStore::onMessage(const QByteArray &channel, const QByteArray &payload)
{
    const qsizetype newline = payload.indexOf('\n');
    if (newline < 0) {
        qCWarning(lcRedis) << "ignoring a malformed chat message on" << channel;
        return;
    }
    if (payload.first(newline) == m_instance)
        return; // this gateway took it and has delivered it already
    const auto message = decodeStored(payload.sliced(newline + 1));
    if (!message)
        return;
    // Whoever can publish on our channels can send anything: the channel must be one of theirs.
    for (const QString &user : { message->to, message->from }) {
        if (channel == channelOf(user)) {
            Q_EMIT messageArrived(user, *message);
            return;
        }
    }
    qCWarning(lcRedis) << "ignoring a chat message on" << channel << "for other users";
}

} // namespace Presence::Gateway
