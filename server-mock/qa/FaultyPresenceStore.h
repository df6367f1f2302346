#pragma once

#include "server-mock/presence/PresenceStore.h"

#include <QHash>
#include <QTimer>

namespace Presence::Gateway {

class FaultInjector;
struct FaultSpec;

// A presence store in front of another that lets the running lose, reorder and duplicate faults
// act on what it publishes, as a network between gateways would: the gateway behind it sees
// pushes missing, late or twice and has only the digest and seq to set them right. Everything
// else goes to the store behind unchanged.
class FaultyPresenceStore : public PresenceStore {
    Q_OBJECT
public:
    // Takes ownership of `inner`; `faults` must outlive this store.
    FaultyPresenceStore(
        PresenceStore *inner, const FaultInjector &faults, QObject *parent = nullptr);

    void connectionOpened(
        const QString &userId, ConnectionId connection, Protocol::ChosenStatus status) override;
    void connectionStatusChanged(
        const QString &userId, ConnectionId connection, Protocol::ChosenStatus status) override;
    void connectionClosed(const QString &userId, ConnectionId connection) override;
    void snapshot(const QStringList &ids, QObject *context, SnapshotCallback callback) override;
    void watch(const QString &userId) override;
    void unwatch(const QString &userId) override;
    [[nodiscard]] QLatin1StringView kind() const override { return m_inner->kind(); }
    [[nodiscard]] bool isAvailable() const override { return m_inner->isAvailable(); }

    [[nodiscard]] PresenceStore *inner() const { return m_inner; }

private:
    void onPublished(const Protocol::UserPresence &presence);
    void onFaultEnded(const QString &id, const FaultSpec &fault);
    void flushReordered();

    PresenceStore *m_inner;
    const FaultInjector &m_faults;
    QHash<QString, Protocol::UserPresence> m_reordered; // held by a reorder fault, per user
    QTimer m_reorderTimer;
};

} // namespace Presence::Gateway
