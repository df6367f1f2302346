#pragma once

// C++
#include <chrono>
#include <optional>

// Qt
#include <QHash>
#include <QVarLengthArray>

// Presence
#include "server-mock/core/GraceQueue.h"
#include "server-mock/presence/PresenceRules.h"
#include "server-mock/presence/PresenceStore.h"

namespace Presence::Server {

// The default store: presence of this gateway's own connections, in memory.
class MemoryPresenceStore : public PresenceStore {
    Q_OBJECT
public:
    explicit MemoryPresenceStore(std::chrono::milliseconds grace, QObject *parent = nullptr);

    void connectionOpened(
        const QString &userId, ConnectionId connection, Protocol::ChosenStatus status) override;
    void connectionStatusChanged(
        const QString &userId, ConnectionId connection, Protocol::ChosenStatus status) override;
    void connectionClosed(const QString &userId, ConnectionId connection) override;
    void snapshot(const QStringList &ids, QObject *context, SnapshotCallback callback) override;
    void watch(const QString &) override { }
    void unwatch(const QString &) override { }
    [[nodiscard]] QLatin1StringView kind() const override { return QLatin1StringView("memory"); }

    [[nodiscard]] Protocol::UserPresence presenceOf(const QString &userId) const;

private:
    struct Device {
        ConnectionId connection;
        Protocol::ChosenStatus status;
    };
    struct UserState {
        // Sorted by connection. Nearly every user has one device: it is kept inline, where a
        // QHash would cost about 900 bytes a user (measured with heaptrack).
        QVarLengthArray<Device, 1> devices;
        DeviceTally tally;
        Protocol::PresenceStatus published = Protocol::PresenceStatus::Offline;
        qint64 seq = 0;
        std::optional<qint64> lastSeen; // when the last visible device went away
        // What the running grace will publish; a later change that aims elsewhere restarts it.
        std::optional<Protocol::PresenceStatus> pending;
    };

    // Records a device change on `state` and publishes or arms the grace as the rules say.
    void changeDevice(const QString &userId, ConnectionId connection,
        std::optional<Protocol::ChosenStatus> status, ChangeCause cause);
    void settle(const QString &userId, UserState &state, ChangeCause cause);
    void onGraceExpired(const QString &userId);

    QHash<QString, UserState> m_users;
    GraceQueue m_grace;
};

} // namespace Presence::Server
