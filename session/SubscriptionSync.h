#pragma once

// C++
#include <functional>

// Qt
#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>
#include <QString>
#include <QStringList>

// Presence
#include "protocol/ServerMessages.h"

namespace Presence::Session {

class FramePacer;

// Keeps the gateway's watch set equal to the set the UI wants, on one connection: diffs the
// wanted set with what was sent, unsubscribes first, subscribes in batches under the
// gateway's limits (ids per request, frame size, max_subscriptions), waits for frame budget
// when the pacer has none, and never asks again for ids the gateway refused. It holds the
// newest presence of each watched user (by seq), so that older pushes are dropped and the
// gateway's digest can be compared with it.
class SubscriptionSync : public QObject {
    Q_OBJECT
public:
    // The next subscribe ref of the connection ("s12").
    using NextRef = std::function<QString()>;

    SubscriptionSync(FramePacer *pacer, NextRef nextRef, QObject *parent = nullptr);

    // The set of users whose presence the UI wants now. Several updates within one turn of the
    // event loop make one round of requests.
    void setWanted(const QSet<QString> &ids);
    [[nodiscard]] const QSet<QString> &wanted() const { return m_wanted; }

    // A connection signed in with these limits: the gateway watches nothing for it yet, and
    // nothing it refused before counts any more. sync() sends the first requests.
    void start(const Protocol::Limits &limits);
    // The connection is gone, and with it what the gateway watched for it.
    void stop();
    [[nodiscard]] bool isActive() const { return m_active; }
    // Sends what makes the gateway's set equal to the wanted one, as far as the budget allows;
    // the rest follows when the pacer has budget again.
    void sync();
    // Subscribes again to what is subscribed: the snapshots replace what is held.
    void resubscribeAll();

    // A snapshot arrived (the answer to `ref`, or the gateway's reset without one).
    void onSnapshot(const Protocol::Snapshot &snapshot, const QString &ref);
    // A presence push arrived.
    void onPresence(const Protocol::UserPresence &presence);
    // The gateway refused the request `ref`; true if it was a subscribe of ours.
    bool onRefused(const QString &ref);
    // New friends may be asked for (again); those no longer friends were unsubscribed by the
    // gateway (reported stale) and are not asked for again.
    void onFriendsChanged(const QStringList &added, const QStringList &removed);

    // Ids the gateway is subscribed to for us (requests sent and not refused).
    [[nodiscard]] const QSet<QString> &subscribed() const { return m_subscribed; }
    // Snapshots still awaited: what is held is not comparable with a digest until they are in.
    [[nodiscard]] bool awaitsSnapshots() const { return !m_pending.isEmpty(); }
    // The presence held of the subscribed users.
    [[nodiscard]] QList<Protocol::UserPresence> held() const;
    [[nodiscard]] int subscribeRequestsSent() const { return m_subscribeRequests; }
    [[nodiscard]] int unsubscribeRequestsSent() const { return m_unsubscribeRequests; }

Q_SIGNALS:
    // Presence newer than anything held (by seq); snapshots replace what was held.
    void presenceReceived(const QList<Presence::Protocol::UserPresence> &presence);
    // These users are no longer watched: what is known of them is no longer live.
    void presenceStale(const QStringList &ids);
    void subscriptionsChanged(int count);

private:
    [[nodiscard]] QList<QStringList> splitRequest(const QStringList &ids) const;

    FramePacer *m_pacer;
    NextRef m_nextRef;
    Protocol::Limits m_limits;
    bool m_active = false;
    bool m_syncQueued = false;
    QSet<QString> m_wanted;
    QSet<QString> m_subscribed;
    QSet<QString> m_denied; // refused by the gateway this connection: never asked again
    QHash<QString, QStringList> m_pending; // subscribe ref -> ids
    // What we hold of each subscribed user, seq included.
    QHash<QString, Protocol::UserPresence> m_held;
    int m_subscribeRequests = 0;
    int m_unsubscribeRequests = 0;
};

} // namespace Presence::Session
