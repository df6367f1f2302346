#pragma once

// C++
#include <chrono>
#include <deque>
#include <list>
#include <span>

// Qt
#include <QHash>
#include <QPointer>
#include <QSet>
#include <QTimer>

// Presence
#include "protocol/Backoff.h"
#include "server-mock/core/SlicedRounds.h"
#include "server-mock/presence/PresenceRules.h"
#include "server-mock/presence/PresenceStore.h"
#include "server-mock/redis/RedisScripts.h"
#include "server-mock/redis/RedisStoreOptions.h"
#include "server-mock/redis/client/RedisClient.h"
#include "server-mock/redis/client/RedisSubscriber.h"
#include "server-mock/redis/client/RedisUrl.h"

namespace Presence::Server {

using namespace std::chrono_literals;

// Presence shared by several gateways through one Redis (docs/redis.md): each connection is a
// device with an expiry in Redis, refreshed while it lives; Lua scripts apply PresenceRules
// atomically with Redis's clock; a published change goes out on the user's channel, which a
// gateway subscribes to only while one of its connections watches that user. Every gateway
// sweeps for devices whose gateway died (expired) and for graces that ended, so a watcher
// learns of a dead gateway's users within TTL + grace + the sweep interval.
//
// Nothing here blocks: hiredis's asynchronous API on the event loop. While Redis is away the
// gateway keeps running: connections are remembered here and written again when Redis is
// back, snapshots wait for it, and once the channels are subscribed again storeReset()
// asks the gateway to send every watcher a fresh snapshot.
//
// Back after an outage (or finding that Redis lost its data), the store reads no snapshot for
// settleWindow(): Redis may have come back empty, and the other gateways may not have written
// their connections again yet, so a snapshot read at once would show their users offline, if
// only until the next push. Every live gateway writes its connections again as soon as it is
// back, within its reconnect backoff's cap; one not back within the TTL has lost its devices
// by the TTL's own rule.
class RedisPresenceStore : public PresenceStore {
    Q_OBJECT
public:
    explicit RedisPresenceStore(RedisStoreOptions options, QObject *parent = nullptr);
    ~RedisPresenceStore() override;

    void connectionOpened(
        const QString &userId, ConnectionId connection, Protocol::ChosenStatus status) override;
    void connectionStatusChanged(
        const QString &userId, ConnectionId connection, Protocol::ChosenStatus status) override;
    void connectionClosed(const QString &userId, ConnectionId connection) override;
    void snapshot(const QStringList &ids, QObject *context, SnapshotCallback callback) override;
    void watch(const QString &userId) override;
    void unwatch(const QString &userId) override;
    [[nodiscard]] QLatin1StringView kind() const override { return QLatin1StringView("redis"); }
    [[nodiscard]] bool isAvailable() const override { return m_available; }

    [[nodiscard]] const RedisStoreOptions &options() const { return m_options; }
    [[nodiscard]] const RedisClient &client() const { return m_client; }
    [[nodiscard]] const RedisSubscriber &subscriber() const { return m_subscriber; }
    // min(TTL, the reconnect backoff's cap + the sweep interval).
    [[nodiscard]] std::chrono::milliseconds settleWindow() const;
    // This process's name in device members ("<instance>/<connection>").
    [[nodiscard]] const QByteArray &instanceId() const { return m_instance; }

private:
    struct Device {
        QString userId;
        Protocol::ChosenStatus status = Protocol::ChosenStatus::Online;
    };
    struct PendingSnapshot {
        QStringList ids;
        QPointer<QObject> context;
        SnapshotCallback callback;
    };
    struct AwaitingChannels {
        QSet<QByteArray> unconfirmed;
        PendingSnapshot request;
    };

    void onClientReady();
    void onResubscribed();
    void onUnavailable(const QString &reason);
    void onMessage(const QByteArray &channel, const QByteArray &payload);
    // `channel` is confirmed, or no longer wanted: snapshots waiting only for it are read.
    void onChannelSettled(const QByteArray &channel);
    void startSnapshot(PendingSnapshot request);
    void writeDevice(const QString &userId, ConnectionId connection,
        std::optional<Protocol::ChosenStatus> status, ChangeCause cause);
    void writeDeviceMember(const QString &userId, const QByteArray &member,
        std::optional<Protocol::ChosenStatus> status, ChangeCause cause);
    void evalScript(const RedisScript &script, QList<QByteArray> args,
        std::function<void(const RedisReply &)> done);
    // Renews the TTL of these connections' devices (the TTL refresh is a SlicedRounds, so it
    // goes a slice at a time over its interval, not every device in one burst).
    void refreshDevices(
        std::span<const ConnectionId> connections, const std::function<void()> &done);
    void sweep();
    void scheduleSweep(std::chrono::milliseconds in);
    // A sweep read the store's epoch: a new one means Redis lost its data.
    void onEpoch(const QByteArray &epoch);
    void runSnapshot(PendingSnapshot request);
    // Snapshots wait for settleWindow() from now; then the waiting ones are read.
    void settle();
    void runWaitingSnapshots();
    // A snapshot of these ids was delivered (or lost): pushes held for it go out now.
    void finishReading(const QStringList &ids);
    // Redis answered something no script or command can answer: treat it as an outage.
    void onGarbage(const QString &what);
    [[nodiscard]] QByteArray memberOf(ConnectionId connection) const;
    [[nodiscard]] QByteArray channelOf(const QString &userId) const;
    [[nodiscard]] QByteArray key(const char *kind, const QString &userId) const;

    RedisStoreOptions m_options;
    QByteArray m_instance;
    RedisClient m_client;
    RedisSubscriber m_subscriber;
    QHash<ConnectionId, Device> m_devices; // this gateway's connections, as Redis should hold them
    QHash<QByteArray, QString> m_closedWhileAway; // member -> user, to remove once Redis is back
    std::deque<PendingSnapshot> m_waitingSnapshots; // asked while Redis was away
    // A snapshot is read only once the subscriber listens on the channels of its ids: a
    // change published between the read and the SUBSCRIBE would otherwise reach nobody.
    std::list<AwaitingChannels> m_awaitingChannels;
    // Snapshots and pushes travel on two connections, so a push published after Redis read a
    // snapshot can reach the gateway before that snapshot's reply. A watcher taking the stale
    // snapshot after the push would be wrong until the next change (for good after a reset,
    // where seq cannot tell). So a push for a user whose snapshot is being read waits here
    // until that snapshot is delivered.
    QHash<QString, int> m_reading; // id -> snapshots being read that include it
    QList<Protocol::UserPresence> m_heldPushes;
    SlicedRounds m_refresh; // every device's TTL, renewed every third of the TTL
    QTimer m_sweepTimer;
    QTimer m_settle; // running while snapshots wait for other gateways to write again
    bool m_wasReady = false; // Redis was ready before: a ready now is a comeback
    QByteArray m_epoch; // the store's, as the last sweep read it; empty until one has
    bool m_available = false; // the command connection is ready and the devices are written
    bool m_sweepRunning = false;
    // Before reconnecting after garbage: 100 ms to 5 s, growing while failures go on.
    Protocol::Backoff m_garbageBackoff { Protocol::BackoffPolicy { 100ms, 2.0, 5s, 100ms } };
};

} // namespace Presence::Server
