#include "server-mock/qa/FaultyPresenceStore.h"

#include "server-mock/qa/FaultInjector.h"

#include <utility>

namespace Presence::Gateway {

using namespace Protocol;

FaultyPresenceStore::FaultyPresenceStore(
    PresenceStore *inner, const FaultInjector &faults, QObject *parent)
    : PresenceStore(parent)
    , m_inner(inner)
    , m_faults(faults)
{
    m_inner->setParent(this);
    connect(m_inner, &PresenceStore::presencePublished, this, &FaultyPresenceStore::onPublished);
    connect(m_inner, &PresenceStore::storeReset, this, &PresenceStore::storeReset);
    connect(&m_faults, &FaultInjector::faultEnded, this, &FaultyPresenceStore::onFaultEnded);
    // A reordered push whose successor never comes goes out late rather than never.
    m_reorderTimer.setSingleShot(true);
    m_reorderTimer.setInterval(2000);
    connect(&m_reorderTimer, &QTimer::timeout, this, &FaultyPresenceStore::flushReordered);
}

void FaultyPresenceStore::connectionOpened(
    const QString &userId, ConnectionId connection, ChosenStatus status)
{
    m_inner->connectionOpened(userId, connection, status);
}

void FaultyPresenceStore::connectionStatusChanged(
    const QString &userId, ConnectionId connection, ChosenStatus status)
{
    m_inner->connectionStatusChanged(userId, connection, status);
}

void FaultyPresenceStore::connectionClosed(const QString &userId, ConnectionId connection)
{
    m_inner->connectionClosed(userId, connection);
}

void FaultyPresenceStore::snapshot(
    const QStringList &ids, QObject *context, SnapshotCallback callback)
{
    m_inner->snapshot(ids, context, std::move(callback));
}

void FaultyPresenceStore::watch(const QString &userId)
{
    m_inner->watch(userId);
}

void FaultyPresenceStore::unwatch(const QString &userId)
{
    m_inner->unwatch(userId);
}

void FaultyPresenceStore::onPublished(const UserPresence &presence)
{
    if (m_faults.losesPresenceOf(presence.id))
        return; // as a pub/sub message dropped between gateways: only the digest tells
    if (m_faults.reordersPresenceOf(presence.id)) {
        // Hold each change until the next one of that user has gone out: older after newer.
        const auto held = m_reordered.find(presence.id);
        if (held == m_reordered.end()) {
            m_reordered.insert(presence.id, presence);
            m_reorderTimer.start();
            return;
        }
        const UserPresence older = *held;
        m_reordered.erase(held);
        Q_EMIT presencePublished(presence);
        Q_EMIT presencePublished(older);
        return;
    }
    Q_EMIT presencePublished(presence);
    if (m_faults.duplicatesPresenceOf(presence.id))
        Q_EMIT presencePublished(presence);
}

void FaultyPresenceStore::onFaultEnded(const QString &id, const FaultSpec &fault)
{
    Q_UNUSED(id)
    if (fault.kind != FaultKind::Reorder || m_faults.reordersPresenceOf(fault.user))
        return;
    if (const auto held = m_reordered.constFind(fault.user); held != m_reordered.cend()) {
        const UserPresence presence = *held;
        m_reordered.erase(held);
        Q_EMIT presencePublished(presence);
    }
}

void FaultyPresenceStore::flushReordered()
{
    const QHash<QString, UserPresence> held = std::exchange(m_reordered, {});
    for (const UserPresence &presence : held)
        Q_EMIT presencePublished(presence);
}

} // namespace Presence::Gateway
