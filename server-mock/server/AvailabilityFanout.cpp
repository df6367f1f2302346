#include "server-mock/server/AvailabilityFanout.h"

namespace Presence::Server {

using Protocol::Availability;
using Protocol::AvailabilityChanged;
using Protocol::PresenceStatus;
using Protocol::UserPresence;

AvailabilityFanout::AvailabilityFanout(
    std::chrono::milliseconds interval, Deliver deliver, QObject *parent)
    : QObject(parent)
    , m_interval(interval)
    , m_deliver(std::move(deliver))
{
    // Started by the first change after a flush: a connection hears at most once per interval,
    // and a change waits at most one interval.
    m_flushTimer.setSingleShot(true);
    // A coarse timer may fire up to 5 % early: "at most once per interval" must hold exactly.
    m_flushTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_flushTimer, &QTimer::timeout, this, &AvailabilityFanout::flush);
}

void AvailabilityFanout::watch(
    ConnectionId connection, const QStringList &covered, int totalFriends)
{
    unwatch(connection);
    Watcher &watcher = m_watchers[connection];
    watcher.covered = covered;
    watcher.totalFriends = totalFriends;
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
    const QStringList covered = std::move(it->covered);
    m_watchers.erase(it);
    m_dirtyConnections.remove(connection);
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
        if (held == m_latest.constEnd() || held->seq <= user.seq)
            m_latest.insert(user.id, user);
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
            m_latest.insert(user.id, user);
    }
    QList<std::pair<ConnectionId, QJsonObject>> out;
    for (auto it = m_watchers.begin(); it != m_watchers.end(); ++it) {
        if (!it->ready)
            continue; // its own snapshot is on the way
        out.append({ it.key(), toJson(tell(*it)) });
        m_dirtyConnections.remove(it.key());
    }
    deliverAll(out);
}

void AvailabilityFanout::deliverAll(const QList<std::pair<ConnectionId, QJsonObject>> &out)
{
    // Only after the bookkeeping: a send may close a connection that reads nothing, and its
    // unwatch() must not run under a loop over the watchers.
    for (const auto &[connection, message] : out)
        m_deliver(connection, message);
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
    return it == m_latest.constEnd() ? PresenceStatus::Offline : it->status;
}

void AvailabilityFanout::presencePublished(const UserPresence &presence)
{
    const auto coverers = m_coverers.constFind(presence.id);
    if (coverers == m_coverers.constEnd())
        return;
    // Pushes of one user come in the store's order, even after a store restarted seq.
    m_latest.insert(presence.id, presence);
    for (const ConnectionId connection : *coverers) {
        const auto watcher = m_watchers.find(connection); // a coverer is always a watcher
        if (watcher == m_watchers.end() || !watcher->ready)
            continue; // its snapshot will include this
        watcher->dirty.insert(presence.id);
        m_dirtyConnections.insert(connection);
    }
    if (!m_dirtyConnections.isEmpty() && !m_flushTimer.isActive())
        m_flushTimer.start(m_interval);
}

void AvailabilityFanout::flush()
{
    m_flushTimer.stop();
    const QSet<ConnectionId> dirty = std::exchange(m_dirtyConnections, {});
    QList<std::pair<ConnectionId, QJsonObject>> out;
    for (const ConnectionId connection : dirty) {
        const auto it = m_watchers.find(connection);
        if (it == m_watchers.end())
            continue;
        Watcher &watcher = *it;
        AvailabilityChanged changed;
        // Sorted, so the frame does not depend on hashing; only the changed ids are visited.
        QStringList ids(watcher.dirty.cbegin(), watcher.dirty.cend());
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
        watcher.dirty.clear();
        if (!changed.online.isEmpty() || !changed.away.isEmpty() || !changed.offline.isEmpty())
            out.append({ connection, toJson(changed) });
    }
    deliverAll(out);
}

} // namespace Presence::Server
