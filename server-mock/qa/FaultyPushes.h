#pragma once

// Qt
#include <QHash>
#include <QObject>
#include <QTimer>

// Presence
#include "server-mock/server/PresenceFanout.h"

namespace Presence::Server {

class FaultInjector;
struct FaultSpec;

// The lose, reorder and duplicate faults, between a published change and its pushes to
// watchers (PresenceFanout's push hook): watchers see pushes missing, late or twice and have
// only the digest and seq to set them right. The store, the availability sets and the metrics
// still see every change once and in order.
class FaultyPushes : public QObject {
    Q_OBJECT
public:
    // `faults` must outlive this.
    explicit FaultyPushes(const FaultInjector &faults, QObject *parent = nullptr);

    void route(const Protocol::UserPresence &presence, const PresenceFanout::Push &push);

private:
    void onFaultEnded(const QString &id, const FaultSpec &fault);
    void flushReordered();

    const FaultInjector &m_faults;
    struct Held {
        Protocol::UserPresence presence;
        PresenceFanout::Push push;
    };
    QHash<QString, Held> m_reordered; // held by a reorder fault, per user
    QTimer m_reorderTimer;
};

} // namespace Presence::Server
