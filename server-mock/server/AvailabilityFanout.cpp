#include "server-mock/server/AvailabilityFanout.h"

// C++
#include <algorithm>
#include <vector>

using namespace Qt::StringLiterals;

namespace Presence::Server {

using Protocol::Availability;
using Protocol::AvailabilityChanged;
using Protocol::PresenceBatch;
using Protocol::PresenceStatus;
using Protocol::UserPresence;

AvailabilityFanout::AvailabilityFanout(
    std::chrono::milliseconds interval, Deliver deliver, QObject *parent)
    : QObject(parent)
    , m_interval(interval)
    , m_deliver(std::move(deliver))
{
    m_unbatched.timer.setInterval(m_interval);
    m_unbatched.timer.setSingleShot(true);
    m_unbatched.timer.setTimerType(Qt::PreciseTimer);
    connect(&m_unbatched.timer, &QTimer::timeout, this, [this] { flushPending(m_unbatched); });
}

AvailabilityFanout::Pending &AvailabilityFanout::pendingFor(std::chrono::milliseconds batchWindow)
{
    if (batchWindow.count() <= 0)
        return m_unbatched;
    std::unique_ptr<Pending> &pending = m_batched[batchWindow];
    if (!pending) {
        pending = std::make_unique<Pending>();
        pending->timer.setInterval(batchWindow);
        pending->timer.setSingleShot(true);
        pending->timer.setTimerType(Qt::PreciseTimer);
        Pending *raw = pending.get();
        connect(&raw->timer, &QTimer::timeout, this, [this, raw] { flushPending(*raw); });
    }
    return *pending;
}

void AvailabilityFanout::forgetPending(ConnectionId connection, const Watcher &watcher)
{
    if (watcher.batchWindow.count() <= 0) {
        m_unbatched.connections.remove(connection);
        return;
    }
    if (const auto it = m_batched.find(watcher.batchWindow); it != m_batched.end())
        it->second->connections.remove(connection);
}

void AvailabilityFanout::watch(ConnectionId connection, const QStringList &covered,
    int totalFriends, std::chrono::milliseconds batchWindow)
{
    unwatch(connection);
    Watcher &watcher = m_watchers[connection];
    watcher.covered = covered;
    watcher.totalFriends = totalFriends;
    watcher.batchWindow = batchWindow;
    for (const QString &id : covered) {
        QSet<ConnectionId> &coverers = m_coverers[id];
        coverers.insert(connection);
        if (coverers.size() == 1)
            Q_EMIT userCovered(id);
    }
}

void AvailabilityFanout::unwatch(ConnectionId connection)
{
    const auto it = m_watchers.find(connection);
    if (it == m_watchers.end())
        return;
    forgetPending(connection, *it);
    const QStringList covered = std::move(it->covered);
    m_watchers.erase(it);
    for (const QString &id : covered) {
        const auto coverers = m_coverers.find(id);
        if (coverers == m_coverers.end())
            continue;
        coverers->remove(connection);
        if (coverers->isEmpty()) {
            m_coverers.erase(coverers);
            m_latest.remove(id);
            Q_EMIT userUncovered(id);
        }
    }
}

Availability AvailabilityFanout::snapshotRead(
    ConnectionId connection, const QList<UserPresence> &users)
{
    for (const UserPresence &user : users) {
        if (!m_coverers.contains(user.id))
            continue;
        // A push that overtook the read is newer than what was read.
        const auto held = m_latest.constFind(user.id);
        if (held == m_latest.constEnd() || held->presence.seq <= user.seq)
            setLatest(user);
    }
    const auto it = m_watchers.find(connection);
    if (it == m_watchers.end())
        return {};
    return tell(*it);
}

void AvailabilityFanout::resetFrom(const QList<UserPresence> &users)
{
    m_latest.clear();
    for (const UserPresence &user : users) {
        if (m_coverers.contains(user.id))
            setLatest(user);
    }
    QList<Outgoing> out;
    for (auto it = m_watchers.begin(); it != m_watchers.end(); ++it) {
        if (!it->ready)
            continue; // its own snapshot is on the way
        out.append({ it.key(), u"availability"_s, Protocol::serializeFrame(toJson(tell(*it))) });
        forgetPending(it.key(), *it);
    }
    deliverAll(out);
}

void AvailabilityFanout::setLatest(const UserPresence &presence)
{
    m_latest.insert(presence.id, { presence, ++m_published });
}

void AvailabilityFanout::deliverAll(const QList<Outgoing> &out)
{
    // Only after the bookkeeping: a send may close a connection that reads nothing, and its
    // unwatch() must not run under a loop over the watchers.
    for (const Outgoing &frame : out)
        m_deliver(frame.connection, frame.type, frame.frame);
}

Availability AvailabilityFanout::tell(Watcher &watcher)
{
    Availability availability;
    availability.covered = int(watcher.covered.size());
    availability.total = watcher.totalFriends;
    watcher.told.clear();
    watcher.dirty.clear();
    watcher.ready = true;
    for (const QString &id : std::as_const(watcher.covered)) {
        const PresenceStatus status = latestOf(id);
        if (status == PresenceStatus::Offline)
            continue;
        watcher.told.insert(id, status);
        (status == PresenceStatus::Online ? availability.online : availability.away).append(id);
    }
    return availability;
}

std::optional<QHash<QString, PresenceStatus>> AvailabilityFanout::toldTo(
    ConnectionId connection) const
{
    const auto it = m_watchers.constFind(connection);
    if (it == m_watchers.constEnd() || !it->ready)
        return std::nullopt;
    return it->told;
}

PresenceStatus AvailabilityFanout::latestOf(const QString &userId) const
{
    const auto it = m_latest.constFind(userId);
    return it == m_latest.constEnd() ? PresenceStatus::Offline : it->presence.status;
}

void AvailabilityFanout::presencePublished(const UserPresence &presence)
{
    const auto coverers = m_coverers.constFind(presence.id);
    if (coverers == m_coverers.constEnd())
        return;
    // Pushes of one user come in the store's order, even after a store restarted seq.
    setLatest(presence);
    for (const ConnectionId connection : *coverers) {
        const auto watcher = m_watchers.find(connection); // a coverer is always a watcher
        if (watcher == m_watchers.end() || !watcher->ready)
            continue; // its snapshot will include this
        watcher->dirty.insert(presence.id);
        // Started by the first change after a flush: a connection hears at most once per
        // interval (or window), and a change waits at most that long.
        Pending &pending = pendingFor(watcher->batchWindow);
        pending.connections.insert(connection);
        if (!pending.timer.isActive())
            pending.timer.start();
    }
}

void AvailabilityFanout::flush()
{
    flushPending(m_unbatched);
    for (const auto &[window, pending] : m_batched)
        flushPending(*pending);
}

void AvailabilityFanout::flushPending(Pending &pending)
{
    pending.timer.stop();
    const QSet<ConnectionId> connections = std::exchange(pending.connections, {});
    QList<Outgoing> out;
    for (const ConnectionId connection : connections) {
        const auto it = m_watchers.find(connection);
        if (it == m_watchers.end())
            continue;
        if (std::optional<Outgoing> frame = changesFor(connection, *it))
            out.append(std::move(*frame));
    }
    deliverAll(out);
}

std::optional<AvailabilityFanout::Outgoing> AvailabilityFanout::changesFor(
    ConnectionId connection, Watcher &watcher)
{
    const QSet<QString> dirty = std::exchange(watcher.dirty, {});
    if (watcher.batchWindow.count() > 0) {
        // Each latest presence once, in the order they were published: a user's states are
        // never reordered, across batches either.
        PresenceBatch batch;
        batch.updates.reserve(dirty.size());
        std::vector<const Latest *> latest;
        latest.reserve(dirty.size());
        for (const QString &id : dirty) {
            if (const auto held = m_latest.constFind(id); held != m_latest.constEnd())
                latest.push_back(&*held);
        }
        std::sort(latest.begin(), latest.end(),
            [](const Latest *a, const Latest *b) { return a->order < b->order; });
        for (const Latest *held : latest) {
            const UserPresence &presence = held->presence;
            if (presence.status == PresenceStatus::Offline)
                watcher.told.remove(presence.id);
            else
                watcher.told.insert(presence.id, presence.status);
            batch.updates.append(presence);
        }
        if (batch.updates.isEmpty())
            return std::nullopt;
        return Outgoing { connection, u"presence_batch"_s, Protocol::serializeFrame(batch) };
    }
    AvailabilityChanged changed;
    // Sorted, so the frame does not depend on hashing; only the changed ids are visited.
    QStringList ids(dirty.cbegin(), dirty.cend());
    ids.sort();
    for (const QString &id : std::as_const(ids)) {
        const PresenceStatus now = latestOf(id);
        const PresenceStatus was = watcher.told.value(id, PresenceStatus::Offline);
        if (now == was)
            continue; // went and came back within the interval: nothing to say
        if (now == PresenceStatus::Offline) {
            watcher.told.remove(id);
            changed.offline.append(id);
        } else {
            watcher.told.insert(id, now);
            (now == PresenceStatus::Online ? changed.online : changed.away).append(id);
        }
    }
    if (changed.online.isEmpty() && changed.away.isEmpty() && changed.offline.isEmpty())
        return std::nullopt;
    return Outgoing { connection, u"availability_changed"_s,
        Protocol::serializeFrame(toJson(changed)) };
}

} // namespace Presence::Server
