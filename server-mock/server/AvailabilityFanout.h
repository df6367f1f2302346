#pragma once

// C++
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

// Qt
#include <QHash>
#include <QObject>
#include <QStringList>
#include <QTimer>

// Presence
#include "protocol/ServerMessages.h"
#include "server-mock/presence/PresenceStore.h"

namespace Presence::Server {

class UserDirectory;

// Coarse presence of whole friend lists (watch_availability): for each connection that asked,
// which of its covered friends are available, then what changed, coalesced per connection and
// sent at most once per interval. Exact pushes stay with the subscriptions; this answers "who
// is online" for the rows nobody looks at. One timer serves every connection.
//
// A connection that asked for batches (hello's presence_batch_ms) hears instead each changed
// friend's latest presence in a presence_batch, at most once per its own window. Connections
// with the same window are split into phases, each flushed on its own turn of the window, so
// that the window's batches leave a phase at a time rather than all in one loop iteration
// (at 1,000 changes/s, 2,500 connections' batches every 50 ms). A gateway that falls behind
// sees its turns come late; it then spaces them out by as much, so batches grow instead of
// the backlog.
//
// Compact, for 10,000 connections covering 50 to 2,000 friends each: users are the
// directory's dense indexes, and a connection holds its covered friends as a sorted vector of
// them with one byte of state each (what it was told, and whether that changed since). Ids
// are strings only where a frame is written.
//
// It never touches a socket: what to send, and to whom, goes through `Deliver`.
class AvailabilityFanout : public QObject {
    Q_OBJECT
public:
    // A user of the directory, by its index there.
    using UserIndex = quint32;
    // A frame for one connection, serialised, with its type for the metrics.
    using Deliver = std::function<void(ConnectionId, const QString &type, const QByteArray &frame)>;

    // The directory must outlive the fan-out.
    AvailabilityFanout(const UserDirectory &directory, std::chrono::milliseconds interval,
        Deliver deliver, QObject *parent = nullptr);

    // Starts covering `covered` (directory indexes, the first friends of `totalFriends`) for a
    // connection, again from scratch if it already was. It is told nothing until
    // snapshotRead(). A batch window above zero: its changes go out as presence_batch, at most
    // once per window.
    void watch(ConnectionId connection, std::vector<UserIndex> covered, int totalFriends,
        std::chrono::milliseconds batchWindow = std::chrono::milliseconds(0));
    // What the store holds of the connection's covered friends: becomes what the connection
    // was told, returned as the `availability` to send it.
    [[nodiscard]] Protocol::Availability snapshotRead(
        ConnectionId connection, const QList<Protocol::UserPresence> &users);
    void unwatch(ConnectionId connection);
    [[nodiscard]] bool isWatching(ConnectionId connection) const
    {
        return m_watchers.contains(connection);
    }

    // A change published by the store, in the store's order for that user.
    void presencePublished(const Protocol::UserPresence &presence);
    // Every user covered here, for a store reset to read again.
    [[nodiscard]] QStringList coveredUsers() const;
    // After a store reset: `users` is the whole truth; every ready connection is sent a fresh
    // `availability` (without ref).
    void resetFrom(const QList<Protocol::UserPresence> &users);

    [[nodiscard]] int watcherCount() const { return int(m_watchers.size()); }
    // Connections covering a user here.
    [[nodiscard]] int covererCount(const QString &userId) const;
    // What a connection was told is available, once its answer went out; nullopt before.
    [[nodiscard]] std::optional<QHash<QString, Protocol::PresenceStatus>> toldTo(
        ConnectionId connection) const;
    // Sends what is pending now, batches included (tests; the timers do it otherwise).
    void flush();

    // The batch schedule, on the steady clock in ms. A phase's next turn after `now`: the next
    // of its fixed points (window apart, `phase` sixteenths in), never sooner than a window
    // after its last flush; with a stretch (the loop is behind), never sooner than a window
    // plus the stretch, and on one of its points again.
    [[nodiscard]] static qint64 nextTurnMs(
        qint64 now, qint64 window, int phase, qint64 lastFlush, qint64 stretch);
    // The stretch once a turn came `late` ms after it was due: grown by each turn more than a
    // quarter window late (up to 20 windows), back to 0 at a turn that was not.
    [[nodiscard]] static qint64 stretchAfterTurnMs(qint64 stretch, qint64 late, qint64 window);

Q_SIGNALS:
    // The first connection here covers userId / the last one stopped.
    void userCovered(const QString &userId);
    void userUncovered(const QString &userId);

private:
    struct Watcher {
        std::vector<UserIndex> covered; // ascending
        // By position in covered: what the connection was told (a PresenceStatus; Offline
        // until told otherwise) and whether it changed since, in one byte.
        std::vector<quint8> state;
        std::vector<quint32> dirty; // positions in covered changed since told, each once
        int totalFriends = 0;
        std::chrono::milliseconds batchWindow { 0 }; // 0: availability_changed
        bool ready = false; // told holds a snapshot
        bool pending = false; // in its Pending's list
    };

    // A user some connection here covers: who, and what the store published last, with its
    // place in publication order.
    struct Covered {
        std::vector<ConnectionId> coverers; // ascending
        std::optional<Protocol::UserPresence> latest;
        quint64 order = 0;
    };
    // Connections with changes to hear, and the timer that tells them.
    struct Pending {
        std::chrono::milliseconds window { 0 }; // 0: the unbatched interval
        int phase = 0; // batches: leaves at window × phase / kBatchPhases into each window
        qint64 lastFlushMs = 0; // batches: on the steady clock
        qint64 dueMs = 0; // batches: when the timer is due; 0 when not started
        qint64 stretchMs = 0; // batches: how much longer its turns wait, the loop being behind
        std::vector<ConnectionId> connections;
        QTimer timer;
    };
    struct Outgoing {
        ConnectionId connection;
        QString type;
        QByteArray frame;
    };

    [[nodiscard]] Protocol::PresenceStatus latestOf(UserIndex user) const;
    [[nodiscard]] Protocol::Availability tell(Watcher &watcher);
    void setLatest(Covered &covered, const Protocol::UserPresence &presence);
    [[nodiscard]] Pending &pendingFor(
        ConnectionId connection, std::chrono::milliseconds batchWindow);
    // Starts a batch phase's timer for its next turn.
    static void armForNextTurn(Pending &pending);
    static void forgetPending(Watcher &watcher);
    [[nodiscard]] static std::chrono::milliseconds windowOf(const Watcher &watcher);
    [[nodiscard]] std::optional<Outgoing> changesFor(ConnectionId connection, Watcher &watcher);
    void flushPending(Pending &pending);
    void deliverAll(const QList<Outgoing> &out);
    [[nodiscard]] const QString &idOf(UserIndex user) const;

    const UserDirectory &m_directory;
    std::chrono::milliseconds m_interval;
    Deliver m_deliver;
    QHash<ConnectionId, Watcher> m_watchers;
    QHash<UserIndex, Covered> m_covered;
    quint64 m_published = 0; // publications counted, for Covered::order
    Pending m_unbatched; // every interval
    // By batch window and phase; few windows, as clients pick round numbers, and never more
    // than the range.
    std::map<std::pair<std::chrono::milliseconds, int>, std::unique_ptr<Pending>> m_batched;
};

} // namespace Presence::Server
