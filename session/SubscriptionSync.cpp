#include "session/SubscriptionSync.h"

// C++
#include <algorithm>

// Presence
#include "protocol/ClientMessages.h"
#include "session/FramePacer.h"
#include "session/Logging.h"

namespace Presence::Session {

using namespace Protocol;

SubscriptionSync::SubscriptionSync(FramePacer *pacer, NextRef nextRef, QObject *parent)
    : QObject(parent)
    , m_pacer(pacer)
    , m_nextRef(std::move(nextRef))
{
    Q_ASSERT(m_pacer);
    // The rest of a round that ran out of budget goes when the budget allows; the difference
    // is computed afresh then.
    connect(m_pacer, &FramePacer::budgetFreed, this, &SubscriptionSync::sync);
}

void SubscriptionSync::setWanted(const QSet<QString> &ids)
{
    m_wanted = ids;
    // Coalesce several updates within one event-loop turn into one round of requests.
    if (!m_syncQueued) {
        m_syncQueued = true;
        QMetaObject::invokeMethod(
            this,
            [this] {
                m_syncQueued = false;
                sync();
            },
            Qt::QueuedConnection);
    }
}

void SubscriptionSync::start(const Limits &limits)
{
    m_limits = limits;
    m_active = true;
    // What the gateway holds for us starts empty on every connection.
    m_subscribed.clear();
    m_denied.clear();
    m_pending.clear();
    m_held.clear();
}

void SubscriptionSync::stop()
{
    m_active = false;
    m_subscribed.clear();
    m_pending.clear();
    m_held.clear();
}

QList<QStringList> SubscriptionSync::splitRequest(const QStringList &ids) const
{
    // At most max_ids_per_request ids, and a frame under max_frame_bytes: long ids with a
    // small frame limit must not make a request the gateway closes the connection for.
    constexpr qsizetype kOverhead = 128; // type, ref, brackets
    const qsizetype maxIds = std::max(1, m_limits.maxIdsPerRequest);
    const qsizetype maxBytes = std::max<qsizetype>(kOverhead * 2, m_limits.maxFrameBytes);
    QList<QStringList> chunks;
    QStringList chunk;
    qsizetype bytes = kOverhead;
    for (const QString &id : ids) {
        const qsizetype cost = id.size() + 3; // ids are ASCII: quotes and a comma
        if (!chunk.isEmpty() && (chunk.size() == maxIds || bytes + cost > maxBytes)) {
            chunks.append(chunk);
            chunk.clear();
            bytes = kOverhead;
        }
        chunk.append(id);
        bytes += cost;
    }
    if (!chunk.isEmpty())
        chunks.append(chunk);
    return chunks;
}

void SubscriptionSync::sync()
{
    if (!m_active)
        return;
    const int before = int(m_subscribed.size());
    bool outOfBudget = false;

    // Unsubscribe first: it frees room for what is wanted now.
    QStringList toRemove;
    for (const QString &id : std::as_const(m_subscribed)) {
        if (!m_wanted.contains(id))
            toRemove.append(id);
    }
    toRemove.sort();
    QStringList removed;
    for (const QStringList &chunk : splitRequest(toRemove)) {
        if (!m_pacer->takeToken()) {
            outOfBudget = true;
            break;
        }
        m_pacer->sendNow(toJson(UnsubscribeRequest { chunk }));
        ++m_unsubscribeRequests;
        for (const QString &id : chunk) {
            m_subscribed.remove(id);
            m_held.remove(id);
        }
        removed += chunk;
    }

    QStringList toAdd;
    for (const QString &id : std::as_const(m_wanted)) {
        if (!m_subscribed.contains(id) && !m_denied.contains(id))
            toAdd.append(id);
    }
    toAdd.sort();
    const qsizetype room = std::max<qsizetype>(0, m_limits.maxSubscriptions - m_subscribed.size());
    if (toAdd.size() > room && !outOfBudget) {
        qCWarning(lcSession) << "wanted" << m_wanted.size() << "users, more than the gateway's"
                             << m_limits.maxSubscriptions << ": watching only some";
        toAdd.resize(room);
    }
    bool added = false;
    for (const QStringList &chunk : splitRequest(toAdd)) {
        if (outOfBudget || !m_pacer->takeToken()) {
            outOfBudget = true;
            break;
        }
        const QString ref = m_nextRef();
        m_pending.insert(ref, chunk);
        for (const QString &id : chunk) {
            m_subscribed.insert(id);
            m_held.remove(id); // the snapshot is the truth, whatever was held before
        }
        m_pacer->sendNow(toJson(SubscribeRequest { chunk }), ref);
        ++m_subscribeRequests;
        added = true;
    }
    // The rest goes when the budget allows.
    m_pacer->setWaitingForBudget(outOfBudget);

    if (!removed.isEmpty())
        Q_EMIT presenceStale(removed);
    if (int(m_subscribed.size()) != before || !removed.isEmpty() || added)
        Q_EMIT subscriptionsChanged(int(m_subscribed.size()));
}

void SubscriptionSync::resubscribeAll()
{
    QStringList ids(m_subscribed.cbegin(), m_subscribed.cend());
    ids.sort();
    for (const QStringList &chunk : splitRequest(ids)) {
        const QString ref = m_nextRef();
        m_pending.insert(ref, chunk);
        for (const QString &id : chunk)
            m_held.remove(id); // the snapshot is the truth
        m_pacer->send(toJson(SubscribeRequest { chunk }), ref);
        ++m_subscribeRequests;
    }
}

void SubscriptionSync::onSnapshot(const Snapshot &snapshot, const QString &ref)
{
    m_pending.remove(ref);
    bool changed = false;
    for (const QString &id : snapshot.denied) {
        changed |= m_subscribed.remove(id);
        m_denied.insert(id);
    }
    QList<UserPresence> accepted;
    accepted.reserve(snapshot.users.size());
    for (const UserPresence &presence : snapshot.users) {
        if (!m_subscribed.contains(presence.id))
            continue; // unsubscribed while the request was in flight
        // A snapshot without ref is the gateway's reset (its store lost pushes, or counts
        // seq from zero again): the whole truth, whatever seq was held.
        const auto held = m_held.constFind(presence.id);
        if (!ref.isEmpty() && held != m_held.constEnd() && held->seq > presence.seq)
            continue; // a push overtook this snapshot
        m_held.insert(presence.id, presence);
        accepted.append(presence);
    }
    if (!accepted.isEmpty())
        Q_EMIT presenceReceived(accepted);
    if (changed)
        Q_EMIT subscriptionsChanged(int(m_subscribed.size()));
}

void SubscriptionSync::onPresence(const UserPresence &presence)
{
    if (!m_subscribed.contains(presence.id))
        return; // in flight when we unsubscribed
    const auto held = m_held.constFind(presence.id);
    if (held != m_held.constEnd() && held->seq >= presence.seq) {
        qCDebug(lcSession) << "dropping stale presence of" << presence.id << "seq" << presence.seq
                           << "<=" << held->seq;
        return;
    }
    m_held.insert(presence.id, presence);
    Q_EMIT presenceReceived({ presence });
}

bool SubscriptionSync::onRefused(const QString &ref)
{
    // A refused subscribe: do not ask for those ids again on this connection.
    const auto pending = m_pending.constFind(ref);
    if (pending == m_pending.constEnd())
        return false;
    for (const QString &id : *pending) {
        m_subscribed.remove(id);
        m_denied.insert(id);
    }
    m_pending.erase(pending);
    Q_EMIT subscriptionsChanged(int(m_subscribed.size()));
    return true;
}

void SubscriptionSync::onFriendsChanged(const QStringList &added, const QStringList &removed)
{
    QStringList dropped;
    for (const QString &id : removed) {
        m_denied.insert(id);
        m_held.remove(id);
        if (m_subscribed.remove(id))
            dropped.append(id);
    }
    bool undenied = false;
    for (const QString &id : added)
        undenied |= m_denied.remove(id);
    if (!dropped.isEmpty()) {
        Q_EMIT presenceStale(dropped);
        Q_EMIT subscriptionsChanged(int(m_subscribed.size()));
    }
    // A new friend on screen was denied before: ask now.
    if (undenied)
        sync();
}

QList<UserPresence> SubscriptionSync::held() const
{
    QList<UserPresence> held;
    held.reserve(m_subscribed.size());
    for (const QString &id : std::as_const(m_subscribed)) {
        if (const auto it = m_held.constFind(id); it != m_held.constEnd())
            held.append(*it);
    }
    return held;
}

} // namespace Presence::Session
