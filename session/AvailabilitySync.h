#pragma once

// C++
#include <functional>

// Qt
#include <QHash>
#include <QObject>
#include <QString>
#include <QStringList>

// Presence
#include "protocol/PresenceStatus.h"
#include "protocol/ServerMessages.h"

namespace Presence::Session {

class FramePacer;

// The availability set on one connection: every friend's coarse presence, which sorts
// "online first" and counts who is online for rows that are not on screen. It asks for the
// set once the friend list is read, takes the answer and the changes that follow (one by one
// or in presence batches), keeps the covered friends who are online or away, and checks them
// against the gateway's digest. Rows on screen get exact presence from SubscriptionSync.
class AvailabilitySync : public QObject {
    Q_OBJECT
public:
    // The next watch ref of the connection ("a12").
    using NextRef = std::function<QString()>;

    AvailabilitySync(FramePacer *pacer, NextRef nextRef, QObject *parent = nullptr);

    // A connection signed in with these limits: nothing is watched on it yet.
    void start(const Protocol::Limits &limits);
    // The connection is gone, and with it the gateway's watch.
    void stop();
    [[nodiscard]] bool isActive() const { return m_active; }
    // The friend list was read, in the gateway's order (the set covers a prefix of it): asks
    // for the set, if the gateway offers one.
    void watch(const QStringList &friendIds);
    // The friend list changed and the gateway ended its watch: its pushes are not ours until
    // the list is read and watch() asks again.
    void unwatch();

    // The answer to our watch (`ref`), or the gateway's reset without a ref.
    void onAvailability(const Protocol::Availability &availability, const QString &ref);
    void onAvailabilityChanged(const Protocol::AvailabilityChanged &changed);
    void onPresenceBatch(const Protocol::PresenceBatch &batch);
    // The gateway's digest of the set: on a mismatch the set is asked for again. Returns
    // whether it differed. Not comparable (false) while an answer is awaited.
    bool checkDigest(const QString &digest);

    // A watch is awaiting its answer: what is held is not comparable with a digest yet.
    [[nodiscard]] bool awaitsAnswer() const { return !m_ref.isEmpty(); }
    // Covered friends who are online or away, once the answer arrived.
    [[nodiscard]] const QHash<QString, Protocol::PresenceStatus> &available() const
    {
        return m_available;
    }

Q_SIGNALS:
    // Each id with its availability now. When `complete`, it holds every covered friend and
    // whoever is missing is not covered (past the gateway's cap); otherwise only the friends
    // whose availability changed.
    void availabilityReceived(
        const QHash<QString, Presence::Protocol::PresenceStatus> &availability, bool complete);

private:
    void requestSet();
    // Changes of covered friends' availability, from either kind of push.
    void apply(const QHash<QString, Protocol::PresenceStatus> &statuses);

    FramePacer *m_pacer;
    NextRef m_nextRef;
    Protocol::Limits m_limits;
    bool m_active = false;
    QStringList m_friendIds; // in the gateway's order
    QString m_ref; // of the watch_availability in flight
    bool m_live = false; // its answer arrived: changes apply
    QHash<QString, Protocol::PresenceStatus> m_available;
};

} // namespace Presence::Session
