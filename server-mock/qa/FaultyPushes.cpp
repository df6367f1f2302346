#include "server-mock/qa/FaultyPushes.h"

// C++
#include <utility>

// Presence
#include "server-mock/qa/FaultInjector.h"

namespace Presence::Server {

using namespace Protocol;

FaultyPushes::FaultyPushes(const FaultInjector &faults, QObject *parent)
    : QObject(parent)
    , m_faults(faults)
{
    connect(&m_faults, &FaultInjector::faultEnded, this, &FaultyPushes::onFaultEnded);
    // A reordered push whose successor never comes goes out late rather than never.
    m_reorderTimer.setSingleShot(true);
    m_reorderTimer.setInterval(2000);
    connect(&m_reorderTimer, &QTimer::timeout, this, &FaultyPushes::flushReordered);
}

void FaultyPushes::route(const UserPresence &presence, const PresenceFanout::Push &push)
{
    if (m_faults.losesPresenceOf(presence.id))
        return; // as a pub/sub message dropped between gateways: only the digest tells
    if (m_faults.reordersPresenceOf(presence.id)) {
        // Hold each push until the next one of that user has gone out: older after newer.
        const auto held = m_reordered.find(presence.id);
        if (held == m_reordered.end()) {
            m_reordered.insert(presence.id, { presence, push });
            m_reorderTimer.start();
            return;
        }
        const Held older = *held;
        m_reordered.erase(held);
        push(presence);
        older.push(older.presence);
        return;
    }
    push(presence);
    if (m_faults.duplicatesPresenceOf(presence.id))
        push(presence);
}

void FaultyPushes::onFaultEnded(const QString &id, const FaultSpec &fault)
{
    Q_UNUSED(id)
    if (fault.kind != FaultKind::Reorder || m_faults.reordersPresenceOf(fault.user))
        return;
    if (const auto held = m_reordered.find(fault.user); held != m_reordered.end()) {
        const Held last = std::move(*held);
        m_reordered.erase(held);
        last.push(last.presence);
    }
}

void FaultyPushes::flushReordered()
{
    const QHash<QString, Held> held = std::exchange(m_reordered, {});
    for (const Held &last : held)
        last.push(last.presence);
}

} // namespace Presence::Server
