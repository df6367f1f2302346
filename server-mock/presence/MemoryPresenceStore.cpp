#include "server-mock/presence/MemoryPresenceStore.h"

// C++
#include <algorithm>

// Qt
#include <QDateTime>

namespace Presence::Server {

using Protocol::ChosenStatus;
using Protocol::PresenceStatus;
using Protocol::UserPresence;

MemoryPresenceStore::MemoryPresenceStore(std::chrono::milliseconds grace, QObject *parent)
    : PresenceStore(parent)
    , m_grace(grace)
{
    connect(&m_grace, &GraceQueue::expired, this, &MemoryPresenceStore::onGraceExpired);
}

void MemoryPresenceStore::connectionOpened(
    const QString &userId, ConnectionId connection, ChosenStatus status)
{
    changeDevice(userId, connection, status, ChangeCause::DeviceJoined);
}

void MemoryPresenceStore::connectionStatusChanged(
    const QString &userId, ConnectionId connection, ChosenStatus status)
{
    changeDevice(userId, connection, status, causeOfStatusChange(status));
}

void MemoryPresenceStore::connectionClosed(const QString &userId, ConnectionId connection)
{
    changeDevice(userId, connection, std::nullopt, ChangeCause::DeviceLeft);
}

void MemoryPresenceStore::changeDevice(const QString &userId, ConnectionId connection,
    std::optional<ChosenStatus> status, ChangeCause cause)
{
    UserState &state = m_users[userId];
    const bool wasVisible = state.tally.visible();
    auto device = std::lower_bound(state.devices.begin(), state.devices.end(), connection,
        [](const Device &d, ConnectionId id) { return d.connection < id; });
    const bool known = device != state.devices.end() && device->connection == connection;
    if (!known && !status)
        return; // closing a connection this store never saw opened
    if (known)
        state.tally.add(device->status, -1);
    if (!status)
        state.devices.erase(device);
    else if (known)
        device->status = *status;
    else
        state.devices.insert(device, Device { connection, *status });
    if (status)
        state.tally.add(*status, +1);
    if (wasVisible && !state.tally.visible())
        state.lastSeen = QDateTime::currentMSecsSinceEpoch();
    settle(userId, state, cause);
}

void MemoryPresenceStore::settle(const QString &userId, UserState &state, ChangeCause cause)
{
    const PresenceStatus current = aggregate(state.tally);
    switch (decide(state.published, current, cause)) {
    case Publication::Nothing:
        m_grace.cancel(userId);
        state.pending.reset();
        return;
    case Publication::AfterGrace:
        // The grace counts from the change that made the user less available: invisible
        // actions that change nothing visible must not postpone it.
        if (!m_grace.isArmed(userId) || state.pending != current) {
            m_grace.arm(userId);
            state.pending = current;
        }
        return;
    case Publication::Now:
        m_grace.cancel(userId);
        state.pending.reset();
        state.published = current;
        ++state.seq;
        Q_EMIT presencePublished(presenceOf(userId));
        return;
    }
}

void MemoryPresenceStore::onGraceExpired(const QString &userId)
{
    const auto it = m_users.find(userId);
    if (it == m_users.end())
        return;
    it->pending.reset();
    settle(userId, *it, ChangeCause::GraceExpired);
}

UserPresence MemoryPresenceStore::presenceOf(const QString &userId) const
{
    UserPresence presence;
    presence.id = userId;
    const auto it = m_users.constFind(userId);
    if (it == m_users.constEnd())
        return presence;
    presence.status = it->published;
    presence.seq = it->seq;
    if (it->published == PresenceStatus::Offline)
        presence.lastSeen = it->lastSeen;
    return presence;
}

void MemoryPresenceStore::snapshot(
    const QStringList &ids, QObject *context, SnapshotCallback callback)
{
    QList<UserPresence> result;
    result.reserve(ids.size());
    for (const QString &id : ids)
        result.append(presenceOf(id));
    if (context)
        callback(result);
}

} // namespace Presence::Server
