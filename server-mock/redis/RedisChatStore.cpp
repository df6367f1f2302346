#include "server-mock/redis/RedisChatStore.h"

// C++
#include <algorithm>

// Qt
#include <QRandomGenerator>

// Presence
#include "protocol/Identifiers.h"
#include "server-mock/redis/RedisScripts.h"
#include "server-mock/redis/client/Logging.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

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
    connect(&m_client, &RedisClient::ready, this, [this] {
        m_client.loadScripts({ &RedisScripts::chatAppend(), &RedisScripts::chatRead(),
            &RedisScripts::chatSummaries() });
    });
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

QByteArray RedisChatStore::conversationsKey(const QString &userId) const
{
    return m_options.prefix + "convs:" + userId.toUtf8();
}

QByteArray RedisChatStore::markersKey(const QString &userId) const
{
    return m_options.prefix + "read:" + userId.toUtf8();
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

void RedisChatStore::readSummaries(
    const QString &user, int limit, const Filter &filter, QObject *context, SummariesCallback done)
{
    // Round trip 1: who, newest activity first. The list is one member per conversation the
    // user ever had (bounded by their friends), so it is read whole and filtered here.
    m_client.command({ "ZREVRANGE", conversationsKey(user), "0", "-1" }, context,
        [this, user, limit = std::max(1, limit), filter, context, done = std::move(done)](
            const RedisReply &reply) {
            if (!reply.isArray()) {
                if (!reply.isConnectionError())
                    qCWarning(lcRedis) << "reading a conversation list:" << reply.errorMessage();
                done(Failure::Unavailable);
                return;
            }
            QStringList others;
            bool moreBeyond = false;
            for (const RedisReply &member : reply.elements) {
                const QString other = QString::fromUtf8(member.toBytes().value_or(QByteArray()));
                if (!Protocol::isValidId(other) || other == user || (filter && !filter(other)))
                    continue;
                // One more than asked, to tell `more`, should one of them be gone.
                if (others.size() > limit) {
                    moreBeyond = true;
                    break;
                }
                others.append(other);
            }
            if (others.isEmpty()) {
                done(Summaries {});
                return;
            }
            readSummariesOf(user, others, limit, moreBeyond, context, done);
        });
}

void RedisChatStore::readSummariesOf(const QString &user, const QStringList &others, int limit,
    bool moreBeyond, QObject *context, SummariesCallback done)
{
    // Round trip 2: one script reads each conversation's newest message, the marker and the
    // unread count.
    QList<QByteArray> args { m_options.prefix, user.toUtf8() };
    for (const QString &other : others)
        args << other.toUtf8() << conversationKey(user, other);
    m_client.evalScript(RedisScripts::chatSummaries(), std::move(args), context,
        [user, others, limit, moreBeyond, done = std::move(done)](const RedisReply &reply) {
            if (!reply.isArray() || reply.elements.size() != others.size() * 3) {
                if (!reply.isConnectionError())
                    qCWarning(lcRedis)
                        << "the conversations script answered" << reply.errorMessage();
                done(Failure::Unavailable);
                return;
            }
            Summaries summaries;
            qsizetype listed = 0;
            for (qsizetype i = 0; i < others.size(); ++i) {
                const auto frame = reply.elements.at(i * 3).toBytes();
                const auto last = frame ? decodeStored(*frame) : std::nullopt;
                if (!last)
                    continue; // the conversation is gone (Redis lost it): nothing to list
                if (++listed > limit) {
                    summaries.more = true;
                    break;
                }
                Summary summary { others.at(i), *last, std::nullopt,
                    int(reply.elements.at(i * 3 + 2).toInteger().value_or(0)) };
                const QString read = QString::fromUtf8(
                    reply.elements.at(i * 3 + 1).toBytes().value_or(QByteArray()));
                if (Protocol::isValidId(read))
                    summary.read = read;
                summaries.items.append(summary);
            }
            summaries.more = summaries.more || moreBeyond;
            done(summaries);
        });
}

void RedisChatStore::markRead(const QString &user, const QString &with, const QString &upTo,
    QObject *context, MarkCallback done)
{
    const auto &[first, second] = user < with ? std::pair(user, with) : std::pair(with, user);
    m_client.evalScript(RedisScripts::chatRead(),
        { m_options.prefix, user.toUtf8(), with.toUtf8(), upTo.toUtf8(), first.toUtf8(),
            second.toUtf8() },
        context, [done = std::move(done)](const RedisReply &reply) {
            const auto outcome = reply.type == RedisReply::Type::Integer
                ? std::optional<qint64>(reply.integer)
                : std::nullopt;
            if (!outcome) {
                if (!reply.isConnectionError())
                    qCWarning(lcRedis) << "the read script answered" << reply.errorMessage();
                done(Failure::Unavailable);
                return;
            }
            // The push comes from the channel, to every gateway alike.
            done(*outcome == 0 ? std::optional(Failure::NotHeld) : std::nullopt);
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
    const QByteArray frame = payload.sliced(newline + 1);
    if (payload.first(newline).isEmpty()) {
        // Read markers, for every gateway, the one that moved it included.
        const auto decoded = Protocol::decodeServerFrame(frame);
        const auto *marker
            = decoded.ok() ? std::get_if<Protocol::ReadMarkerEvent>(&decoded.value()) : nullptr;
        const QByteArray ours = m_options.prefix + "msg:";
        const QString user
            = QString::fromUtf8(channel.sliced(std::min(ours.size(), channel.size())));
        if (!marker || !channel.startsWith(ours) || !Protocol::isValidId(user)) {
            qCWarning(lcRedis) << "ignoring a malformed read marker on" << channel;
            return;
        }
        Q_EMIT readMarkerMoved(user, *marker);
        return;
    }
    const auto message = decodeStored(frame);
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

} // namespace Presence::Server
