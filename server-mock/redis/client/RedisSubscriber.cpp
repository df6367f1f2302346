#include "server-mock/redis/client/RedisSubscriber.h"

// Qt
#include <QPointer>

// Presence
#include "server-mock/redis/client/Logging.h"
#include "server-mock/redis/client/RedisReply.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

namespace {

// Channels per SUBSCRIBE when resubscribing, so that thousands of them make a few commands
// of reasonable size rather than thousands of commands or one huge one.
constexpr qsizetype kChannelsPerCommand = 1000;

} // namespace

RedisSubscriber::RedisSubscriber(QObject *parent)
    : RedisSubscriber(Options {}, parent)
{
}

RedisSubscriber::RedisSubscriber(const Options &options, QObject *parent)
    : RedisLink(parent)
    , m_connection(new RedisAsyncConnection(u"subscriber"_s, options, this))
{
    m_connection->setPushHandler([this](const RedisReply &reply) { onPush(reply); });
    // onReady() emits ready() itself, after resubscribing, so that a subscribe() made in a
    // slot of ready() is not sent twice.
    connect(m_connection, &RedisAsyncConnection::ready, this, &RedisSubscriber::onReady);
    connect(m_connection, &RedisAsyncConnection::connectionLost, this,
        &RedisSubscriber::onConnectionLost);
    relay(m_connection, Ready::OwnersToSay);
}

RedisSubscriber::~RedisSubscriber() = default;

void RedisSubscriber::connectTo(const RedisUrl &url)
{
    forgetConnection();
    m_connection->connectTo(url);
}

void RedisSubscriber::close()
{
    forgetConnection();
    m_connection->close();
}

RedisSubscriber::State RedisSubscriber::state() const
{
    return m_connection->state();
}

void RedisSubscriber::subscribe(const QByteArray &channel)
{
    if (m_channels.contains(channel))
        return;
    m_channels.insert(channel);
    qCDebug(lcRedis) << "subscribing to" << channel;
    if (m_connection->state() == State::Ready) {
        ++m_unanswered[channel];
        m_connection->sendSubscription({ QByteArrayLiteral("SUBSCRIBE"), channel });
    }
}

void RedisSubscriber::unsubscribe(const QByteArray &channel)
{
    if (!m_channels.remove(channel))
        return;
    m_confirmed.remove(channel);
    qCDebug(lcRedis) << "unsubscribing from" << channel;
    // Only a channel wanted while Ready was sent, so the server knows it: hiredis refuses an
    // UNSUBSCRIBE on a connection not in subscribe mode.
    if (m_connection->state() == State::Ready)
        m_connection->sendSubscription({ QByteArrayLiteral("UNSUBSCRIBE"), channel });
}

void RedisSubscriber::onReady()
{
    m_awaited = m_channels;
    m_resubscribing = !m_awaited.isEmpty();
    if (!m_channels.isEmpty())
        qCInfo(lcRedis).noquote() << u"subscriber: subscribing again to %1 channel(s)"_s.arg(
            m_channels.size());
    RedisAsyncConnection::Command command { QByteArrayLiteral("SUBSCRIBE") };
    for (const QByteArray &channel : std::as_const(m_channels)) {
        ++m_unanswered[channel];
        command.append(channel);
        if (command.size() > kChannelsPerCommand) {
            m_connection->sendSubscription(command);
            command.resize(1);
        }
    }
    if (command.size() > 1)
        m_connection->sendSubscription(command);

    QPointer<RedisSubscriber> guard(this);
    Q_EMIT ready();
    if (guard && !m_resubscribing)
        Q_EMIT resubscribed();
}

void RedisSubscriber::onConnectionLost()
{
    forgetConnection();
}

void RedisSubscriber::forgetConnection()
{
    m_resubscribing = false;
    m_awaited.clear();
    m_confirmed.clear();
    m_unanswered.clear();
}

void RedisSubscriber::onPush(const RedisReply &reply)
{
    // hiredis hands over only ["subscribe" | "unsubscribe" | "message", channel, ...] arrays;
    // check anyway, since a wrong guess here must not become a crash.
    if (!reply.isArray() || reply.elements.size() < 3)
        return;
    const QByteArray &kind = reply.elements.at(0).bytes;
    const QByteArray &channel = reply.elements.at(1).bytes;

    if (kind == "message") {
        // Messages still in flight when unsubscribe() was called are not wanted any more.
        if (m_channels.contains(channel))
            Q_EMIT messageReceived(channel, reply.elements.at(2).bytes);
        return;
    }
    if (kind != "subscribe")
        return;
    if (const auto it = m_unanswered.find(channel); it != m_unanswered.end() && --*it <= 0)
        m_unanswered.erase(it);
    const bool wanted = m_channels.contains(channel) && !m_unanswered.contains(channel);
    if (wanted)
        m_confirmed.insert(channel);
    const bool roundDone = m_resubscribing && m_awaited.remove(channel) && m_awaited.isEmpty();
    if (roundDone)
        m_resubscribing = false;
    QPointer<RedisSubscriber> guard(this);
    if (wanted)
        Q_EMIT channelSubscribed(channel);
    if (guard && roundDone)
        Q_EMIT resubscribed();
}

} // namespace Presence::Server
