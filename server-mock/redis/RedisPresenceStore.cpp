#include "server-mock/redis/RedisPresenceStore.h"

// C++
#include <algorithm>
#include <memory>

// Qt
#include <QRandomGenerator>

// Presence
#include "protocol/PresencePayload.h"
#include "server-mock/redis/RedisScripts.h"
#include "server-mock/redis/client/Logging.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

using Protocol::ChosenStatus;
using Protocol::PresenceStatus;
using Protocol::UserPresence;

namespace {

QByteArray number(qint64 value)
{
    return QByteArray::number(value);
}

// One HMGET reply (status, seq, last_seen) and one EXISTS of the user's live: key as
// presence; nullopt if they are not such replies.
std::optional<UserPresence> presenceFromReply(
    const QString &id, const RedisReply &reply, const RedisReply &live)
{
    const auto liveCount = live.toInteger();
    if (!reply.isArray() || reply.elements.size() != 3 || !liveCount)
        return std::nullopt;
    UserPresence presence;
    presence.id = id;
    const RedisReply &status = reply.elements.at(0);
    if (status.isNil())
        return presence; // never seen: offline, seq 0
    const auto text = status.toBytes();
    const auto parsed
        = text ? Protocol::presenceStatusFromString(QString::fromLatin1(*text)) : std::nullopt;
    const auto seq = reply.elements.at(1).toInteger();
    if (!parsed || !seq || *seq < 0)
        return std::nullopt;
    presence.status = *parsed;
    presence.seq = *seq;
    if (presence.status != PresenceStatus::Offline && *liveCount == 0) {
        // Published by a gateway that is gone, past its devices' TTL and the grace, and no
        // sweep has come to it yet: offline, as the sweep will publish it. When it was last
        // seen is not known.
        presence.status = PresenceStatus::Offline;
        return presence;
    }
    if (presence.status == PresenceStatus::Offline && !reply.elements.at(2).isNil()) {
        const auto lastSeen = reply.elements.at(2).toInteger();
        if (!lastSeen || *lastSeen < 0)
            return std::nullopt;
        presence.lastSeen = *lastSeen;
    }
    return presence;
}

} // namespace

RedisPresenceStore::RedisPresenceStore(RedisStoreOptions options, QObject *parent)
    : PresenceStore(parent)
    , m_options(std::move(options))
    , m_instance(QByteArray::number(QRandomGenerator::global()->generate64(), 36))
    , m_refresh(
          std::max(m_options.ttl / 3, std::chrono::milliseconds(10)), m_options.refreshChunk,
          [this] { return std::vector<ConnectionId>(m_devices.keyBegin(), m_devices.keyEnd()); },
          [this](std::span<const ConnectionId> connections, const std::function<void()> &done) {
              refreshDevices(connections, done);
          })
{
    connect(&m_client, &RedisClient::ready, this, &RedisPresenceStore::onClientReady);
    connect(&m_client, &RedisClient::connectionLost, this, &RedisPresenceStore::onUnavailable);
    connect(&m_subscriber, &RedisSubscriber::messageReceived, this, &RedisPresenceStore::onMessage);
    connect(
        &m_subscriber, &RedisSubscriber::resubscribed, this, &RedisPresenceStore::onResubscribed);
    connect(&m_subscriber, &RedisSubscriber::channelSubscribed, this,
        &RedisPresenceStore::onChannelSettled);

    m_sweepTimer.setSingleShot(true);
    connect(&m_sweepTimer, &QTimer::timeout, this, &RedisPresenceStore::sweep);
    m_settle.setSingleShot(true);
    connect(&m_settle, &QTimer::timeout, this, &RedisPresenceStore::runWaitingSnapshots);

    m_client.connectTo(m_options.url);
    m_subscriber.connectTo(m_options.url);
}

RedisPresenceStore::~RedisPresenceStore() = default;

QByteArray RedisPresenceStore::memberOf(ConnectionId connection) const
{
    return m_instance + '/' + number(qint64(connection));
}

QByteArray RedisPresenceStore::channelOf(const QString &userId) const
{
    return key("ch:", userId);
}

QByteArray RedisPresenceStore::key(const char *kind, const QString &userId) const
{
    return m_options.prefix + kind + userId.toUtf8();
}

void RedisPresenceStore::connectionOpened(
    const QString &userId, ConnectionId connection, ChosenStatus status)
{
    m_devices.insert(connection, { userId, status });
    m_closedWhileAway.remove(memberOf(connection));
    writeDevice(userId, connection, status, ChangeCause::DeviceJoined);
}

void RedisPresenceStore::connectionStatusChanged(
    const QString &userId, ConnectionId connection, ChosenStatus status)
{
    const auto it = m_devices.find(connection);
    if (it == m_devices.end())
        return;
    it->status = status;
    writeDevice(userId, connection, status, causeOfStatusChange(status));
}

void RedisPresenceStore::connectionClosed(const QString &userId, ConnectionId connection)
{
    if (!m_devices.remove(connection))
        return;
    if (!m_available) {
        m_closedWhileAway.insert(memberOf(connection), userId);
        return;
    }
    writeDevice(userId, connection, std::nullopt, ChangeCause::DeviceLeft);
}

void RedisPresenceStore::writeDevice(const QString &userId, ConnectionId connection,
    std::optional<ChosenStatus> status, ChangeCause cause)
{
    if (m_available)
        writeDeviceMember(userId, memberOf(connection), status, cause);
}

void RedisPresenceStore::writeDeviceMember(const QString &userId, const QByteArray &member,
    std::optional<ChosenStatus> status, ChangeCause cause)
{
    evalScript(RedisScripts::device(),
        { m_options.prefix, userId.toUtf8(), member,
            status ? Protocol::toString(*status).toLatin1() : QByteArray(),
            RedisScripts::deviceCause(cause), number(m_options.ttl.count()),
            number(m_options.grace.count()) },
        [this](const RedisReply &reply) {
            if (reply.isConnectionError())
                return; // written again when Redis is back
            const auto wait = reply.toInteger();
            if (!wait) {
                onGarbage(u"the device script answered %1"_s.arg(reply.errorMessage()));
                return;
            }
            if (*wait >= 0)
                scheduleSweep(std::chrono::milliseconds(*wait));
        });
}

void RedisPresenceStore::evalScript(
    const RedisScript &script, QList<QByteArray> args, std::function<void(const RedisReply &)> done)
{
    m_client.evalScript(script, std::move(args), this, std::move(done));
}

void RedisPresenceStore::onClientReady()
{
    qCInfo(lcRedis) << "Redis ready at" << m_options.url.toString() << "- writing"
                    << m_devices.size() << "connections";
    m_available = true;
    // Load the scripts before the first EVALSHA. A Redis that restarted has none, and the
    // NOSCRIPT fallback resends a script only after that reply: by then a snapshot sent below
    // would have overtaken the device writes it must see. Commands on one connection run in
    // order, so everything after this finds the scripts.
    m_client.loadScripts(
        { &RedisScripts::device(), &RedisScripts::refresh(), &RedisScripts::sweep() });
    for (auto it = m_closedWhileAway.cbegin(); it != m_closedWhileAway.cend(); ++it)
        writeDeviceMember(*it, it.key(), std::nullopt, ChangeCause::DeviceLeft);
    m_closedWhileAway.clear();
    for (auto it = m_devices.cbegin(); it != m_devices.cend(); ++it)
        writeDeviceMember(it->userId, memberOf(it.key()), it->status, ChangeCause::DeviceJoined);
    if (std::exchange(m_wasReady, true))
        settle();
    else
        runWaitingSnapshots();
    m_refresh.start();
    scheduleSweep(m_options.sweepInterval);
}

void RedisPresenceStore::onResubscribed()
{
    // Whatever was published while the subscriber was away is lost, and a Redis that
    // restarted empty counts seq from zero again: watchers need snapshots, not pushes.
    Q_EMIT storeReset();
}

void RedisPresenceStore::onUnavailable(const QString &reason)
{
    if (m_available) {
        qCWarning(lcRedis) << "Redis unavailable:" << reason
                           << "- clients stay connected; retrying";
    }
    m_available = false;
    m_epoch.clear(); // Redis may come back empty; the reset after resubscribing covers that
    m_refresh.stop();
    m_sweepTimer.stop();
    m_sweepRunning = false;
}

void RedisPresenceStore::onGarbage(const QString &what)
{
    qCWarning(lcRedis) << "unexpected answer from Redis:" << what
                       << "- reconnecting as after an outage";
    onUnavailable(what);
    m_client.close();
    // A Redis that keeps failing (out of memory, say) must not be hammered: wait longer each
    // time, until a sweep succeeds again.
    QTimer::singleShot(
        m_garbageBackoff.next(), this, [this] { m_client.connectTo(m_options.url); });
}

void RedisPresenceStore::refreshDevices(
    std::span<const ConnectionId> connections, const std::function<void()> &done)
{
    QList<QByteArray> args { m_options.prefix, number(m_options.ttl.count()),
        number(m_options.grace.count()) };
    const qsizetype head = args.size();
    for (const ConnectionId connection : connections) {
        if (const auto device = m_devices.constFind(connection); device != m_devices.constEnd())
            args << device->userId.toUtf8() << memberOf(connection);
    }
    if (!m_available || args.size() <= head) {
        done();
        return;
    }
    evalScript(RedisScripts::refresh(), std::move(args), [this, done](const RedisReply &reply) {
        done();
        if (reply.isConnectionError())
            return;
        if (!reply.isArray() || reply.elements.size() % 2 != 0) {
            onGarbage(u"the refresh script answered %1"_s.arg(reply.errorMessage()));
            return;
        }
        // Devices Redis lost (a restart, or a sweep while this gateway stalled).
        for (qsizetype i = 0; i + 1 < reply.elements.size(); i += 2) {
            const auto member = reply.elements.at(i + 1).toBytes();
            const qint64 connection
                = member ? member->mid(member->indexOf('/') + 1).toLongLong() : -1;
            const auto device = m_devices.constFind(ConnectionId(connection));
            if (device != m_devices.constEnd())
                writeDeviceMember(
                    device->userId, *member, device->status, ChangeCause::DeviceJoined);
        }
    });
}

void RedisPresenceStore::onEpoch(const QByteArray &epoch)
{
    const QByteArray before = std::exchange(m_epoch, epoch);
    if (before.isEmpty() || before == epoch)
        return; // the first sweep since Redis came (back): onResubscribed() covers that
    // Redis lost its data while this gateway was connected (FLUSHALL, say): its connections
    // are gone from Redis and seq counts from 0 again, which a watcher would take as stale.
    qCWarning(lcRedis).noquote()
        << u"Redis lost the presence data (epoch %1 is now %2) - writing %3 connections again "
           "and sending every watcher a fresh snapshot"_s.arg(QString::fromLatin1(before),
               QString::fromLatin1(epoch), QString::number(m_devices.size()));
    for (auto it = m_devices.cbegin(); it != m_devices.cend(); ++it)
        writeDeviceMember(it->userId, memberOf(it.key()), it->status, ChangeCause::DeviceJoined);
    settle(); // the other gateways find out at their next sweep
    Q_EMIT storeReset();
}

void RedisPresenceStore::scheduleSweep(std::chrono::milliseconds in)
{
    if (!m_available)
        return;
    in = std::clamp(in, std::chrono::milliseconds(0), m_options.sweepInterval);
    if (m_sweepTimer.isActive() && m_sweepTimer.remainingTimeAsDuration() <= in)
        return;
    m_sweepTimer.start(in);
}

void RedisPresenceStore::sweep()
{
    if (!m_available || m_sweepRunning)
        return;
    m_sweepRunning = true;
    evalScript(RedisScripts::sweep(),
        { m_options.prefix, number(m_options.grace.count()), number(m_options.sweepLimit) },
        [this](const RedisReply &reply) {
            m_sweepRunning = false;
            if (reply.isConnectionError())
                return;
            const bool wellFormed = reply.isArray() && reply.elements.size() == 3
                && reply.elements.at(0).toInteger() && reply.elements.at(1).toInteger()
                && reply.elements.at(2).toBytes();
            if (!wellFormed) {
                onGarbage(u"the sweep script answered %1"_s.arg(reply.errorMessage()));
                return;
            }
            m_garbageBackoff.reset(); // Redis answers sensibly again
            onEpoch(*reply.elements.at(2).toBytes());
            const qint64 settled = *reply.elements.at(0).toInteger();
            const qint64 wait = *reply.elements.at(1).toInteger();
            if (settled >= m_options.sweepLimit)
                scheduleSweep(std::chrono::milliseconds(0)); // more are due
            else
                scheduleSweep(
                    wait >= 0 ? std::chrono::milliseconds(wait) : m_options.sweepInterval);
        });
}

void RedisPresenceStore::snapshot(
    const QStringList &ids, QObject *context, SnapshotCallback callback)
{
    AwaitingChannels awaiting { {}, { ids, context, std::move(callback) } };
    for (const QString &id : ids) {
        const QByteArray channel = channelOf(id);
        if (m_subscriber.channels().contains(channel) && !m_subscriber.isConfirmed(channel))
            awaiting.unconfirmed.insert(channel);
    }
    if (!awaiting.unconfirmed.isEmpty()) {
        m_awaitingChannels.push_back(std::move(awaiting));
        return;
    }
    startSnapshot(std::move(awaiting.request));
}

void RedisPresenceStore::onChannelSettled(const QByteArray &channel)
{
    for (auto it = m_awaitingChannels.begin(); it != m_awaitingChannels.end();) {
        if (!it->unconfirmed.remove(channel) || !it->unconfirmed.isEmpty()) {
            ++it;
            continue;
        }
        PendingSnapshot request = std::move(it->request);
        it = m_awaitingChannels.erase(it);
        startSnapshot(std::move(request));
    }
}

std::chrono::milliseconds RedisPresenceStore::settleWindow() const
{
    return std::min(m_options.ttl, RedisClient::Options {}.retryMax + m_options.sweepInterval);
}

void RedisPresenceStore::settle()
{
    qCInfo(lcRedis) << "reading no presence for" << settleWindow().count()
                    << "ms, until every gateway has written its connections again";
    m_settle.start(settleWindow());
}

void RedisPresenceStore::runWaitingSnapshots()
{
    if (!m_available || m_settle.isActive())
        return; // read when Redis is back, or once it has settled
    auto waiting = std::exchange(m_waitingSnapshots, {});
    for (PendingSnapshot &request : waiting)
        runSnapshot(std::move(request));
}

void RedisPresenceStore::startSnapshot(PendingSnapshot request)
{
    if (!m_available || m_settle.isActive()) {
        m_waitingSnapshots.push_back(std::move(request));
        return;
    }
    runSnapshot(std::move(request));
}

void RedisPresenceStore::runSnapshot(PendingSnapshot request)
{
    if (!request.context)
        return;
    if (request.ids.isEmpty()) {
        request.callback({});
        return;
    }
    // Chunks go out together; each is one pipelined round trip.
    struct Gathering {
        PendingSnapshot request;
        QList<UserPresence> result;
        int outstanding = 0;
        bool lost = false;
    };
    auto gathering = std::make_shared<Gathering>();
    gathering->result.resize(request.ids.size());
    const qsizetype count = request.ids.size();
    const int chunk = std::max(1, m_options.snapshotChunk);
    gathering->request = std::move(request);
    for (const QString &id : std::as_const(gathering->request.ids))
        ++m_reading[id];
    for (qsizetype first = 0; first < count; first += chunk) {
        const qsizetype last = std::min(count, first + chunk);
        QList<RedisClient::Command> commands;
        commands.reserve(2 * (last - first));
        for (qsizetype i = first; i < last; ++i) {
            const QString &id = gathering->request.ids.at(i);
            commands.append(
                { QByteArrayLiteral("HMGET"), key("pub:", id), QByteArrayLiteral("status"),
                    QByteArrayLiteral("seq"), QByteArrayLiteral("last_seen") });
            commands.append({ QByteArrayLiteral("EXISTS"), key("live:", id) });
        }
        ++gathering->outstanding;
        m_client.pipeline(
            std::move(commands), this, [this, gathering, first](const QList<RedisReply> &replies) {
                const QStringList &ids = gathering->request.ids;
                for (qsizetype i = 0; i + 1 < replies.size(); i += 2) {
                    const QString &id = ids.at(first + i / 2);
                    if (replies.at(i).isConnectionError()
                        || replies.at(i + 1).isConnectionError()) {
                        gathering->lost = true;
                        break;
                    }
                    auto presence = presenceFromReply(id, replies.at(i), replies.at(i + 1));
                    if (!presence) {
                        qCWarning(lcRedis) << "garbage presence in Redis for a user; shown offline";
                        presence = UserPresence { id, PresenceStatus::Offline, 0, std::nullopt };
                    }
                    gathering->result[first + i / 2] = *presence;
                }
                if (--gathering->outstanding > 0)
                    return;
                const QStringList read = gathering->request.ids;
                if (gathering->lost) {
                    // Asked again once Redis is back.
                    m_waitingSnapshots.push_back(std::move(gathering->request));
                } else if (gathering->request.context) {
                    gathering->request.callback(gathering->result);
                }
                finishReading(read);
            });
    }
}

void RedisPresenceStore::finishReading(const QStringList &ids)
{
    for (const QString &id : ids) {
        const auto it = m_reading.find(id);
        if (it != m_reading.end() && --*it <= 0)
            m_reading.erase(it);
    }
    if (m_heldPushes.isEmpty())
        return;
    const QList<UserPresence> held = std::exchange(m_heldPushes, {});
    for (const UserPresence &presence : held) {
        if (m_reading.contains(presence.id))
            m_heldPushes.append(presence); // another snapshot of that user is still being read
        else
            Q_EMIT presencePublished(presence);
    }
}

void RedisPresenceStore::watch(const QString &userId)
{
    m_subscriber.subscribe(channelOf(userId));
}

void RedisPresenceStore::unwatch(const QString &userId)
{
    m_subscriber.unsubscribe(channelOf(userId));
    onChannelSettled(channelOf(userId)); // nobody here waits for it any more
}

void RedisPresenceStore::onMessage(const QByteArray &channel, const QByteArray &payload)
{
    // Whoever can publish on our channels can send anything: the protocol checks it all, and
    // the user it is about must be the channel's.
    auto decoded = Protocol::decodePresencePayload(payload);
    if (!decoded.ok() || channel != channelOf(decoded.value().id)) {
        qCWarning(lcRedis).noquote()
            << "ignoring a malformed presence message on" << QString::fromUtf8(channel) << "-"
            << (decoded.ok() ? u"about another user"_s : decoded.error().message);
        return;
    }
    const UserPresence presence = std::move(decoded).value();
    if (m_reading.contains(presence.id)) {
        m_heldPushes.append(presence); // after the snapshot being read (see m_heldPushes)
        return;
    }
    Q_EMIT presencePublished(presence);
}

} // namespace Presence::Server
