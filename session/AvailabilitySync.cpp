#include "session/AvailabilitySync.h"

// C++
#include <algorithm>
#include <utility>

// Presence
#include "protocol/ClientMessages.h"
#include "protocol/Digest.h"
#include "session/FramePacer.h"
#include "session/Logging.h"

namespace Presence::Session {

using namespace Protocol;

AvailabilitySync::AvailabilitySync(FramePacer *pacer, NextRef nextRef, QObject *parent)
    : QObject(parent)
    , m_pacer(pacer)
    , m_nextRef(std::move(nextRef))
{
}

void AvailabilitySync::start(const Limits &limits)
{
    stop();
    m_limits = limits;
    m_active = true;
}

void AvailabilitySync::stop()
{
    m_active = false;
    m_friendIds.clear();
    m_ref.clear();
    m_live = false;
    m_available.clear();
}

void AvailabilitySync::watch(const QStringList &friendIds)
{
    if (!m_active)
        return;
    m_friendIds = friendIds;
    // A gateway that predates the set says max_availability_friends 0 (or nothing).
    if (m_limits.maxAvailabilityFriends > 0 && !m_friendIds.isEmpty())
        requestSet();
}

void AvailabilitySync::unwatch()
{
    m_ref.clear();
    m_live = false;
}

void AvailabilitySync::requestSet()
{
    m_ref = m_nextRef();
    m_pacer->send(toJson(WatchAvailabilityRequest {}), m_ref);
}

void AvailabilitySync::onAvailability(const Availability &availability, const QString &ref)
{
    // With our ref: the answer. Without: the gateway's reset, once we are watching.
    if (!m_active || (ref.isEmpty() ? !m_live : ref != m_ref))
        return;
    m_ref.clear();
    m_live = true;
    if (availability.total != m_friendIds.size())
        qCInfo(lcSession) << "availability covers" << availability.covered << "of"
                          << availability.total << "friends; we loaded" << m_friendIds.size();
    QHash<QString, PresenceStatus> statuses;
    const qsizetype covered = std::min<qsizetype>(availability.covered, m_friendIds.size());
    statuses.reserve(covered);
    for (qsizetype i = 0; i < covered; ++i)
        statuses.insert(m_friendIds.at(i), PresenceStatus::Offline);
    // Only ids we hold as covered friends: a list that changed since we loaded it must not add
    // rows or uncover others.
    const auto mark = [&statuses](const QStringList &ids, PresenceStatus status) {
        for (const QString &id : ids) {
            if (const auto it = statuses.find(id); it != statuses.end())
                *it = status;
        }
    };
    mark(availability.online, PresenceStatus::Online);
    mark(availability.away, PresenceStatus::Away);
    m_available.clear();
    for (auto it = statuses.cbegin(); it != statuses.cend(); ++it) {
        if (it.value() != PresenceStatus::Offline)
            m_available.insert(it.key(), it.value());
    }
    Q_EMIT availabilityReceived(statuses, true);
}

void AvailabilitySync::onAvailabilityChanged(const AvailabilityChanged &changed)
{
    QHash<QString, PresenceStatus> statuses;
    for (const QString &id : changed.online)
        statuses.insert(id, PresenceStatus::Online);
    for (const QString &id : changed.away)
        statuses.insert(id, PresenceStatus::Away);
    for (const QString &id : changed.offline)
        statuses.insert(id, PresenceStatus::Offline);
    apply(statuses);
}

void AvailabilitySync::onPresenceBatch(const PresenceBatch &batch)
{
    // Coarse here too: a row on screen takes seq and last_seen from its subscription.
    QHash<QString, PresenceStatus> statuses;
    statuses.reserve(batch.updates.size());
    for (const UserPresence &presence : batch.updates)
        statuses.insert(presence.id, presence.status);
    apply(statuses);
}

void AvailabilitySync::apply(const QHash<QString, PresenceStatus> &statuses)
{
    if (!m_active || !m_live)
        return;
    for (auto it = statuses.cbegin(); it != statuses.cend(); ++it) {
        if (it.value() == PresenceStatus::Offline)
            m_available.remove(it.key());
        else
            m_available.insert(it.key(), it.value());
    }
    if (!statuses.isEmpty())
        Q_EMIT availabilityReceived(statuses, false);
}

bool AvailabilitySync::checkDigest(const QString &digest)
{
    if (!m_active || !m_live || awaitsAnswer() || availabilityDigest(m_available) == digest)
        return false;
    qCInfo(lcSession) << "the availability digest differs: asking for the set again";
    requestSet();
    return true;
}

} // namespace Presence::Session
