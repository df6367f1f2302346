#pragma once

// C++
#include <optional>

// Qt
#include <QHash>
#include <QList>
#include <QString>

// Presence
#include "protocol/PresenceStatus.h"
#include "server-mock/presence/PresenceStore.h"

namespace Presence::Server {

// Users present without a real connection: QA's and the demo's population. Each simulated
// device is a connection of the presence store like any WebSocket (an id from a range of its
// own), so the same rules apply (several devices, the grace, invisible) and watchers get the
// same pushes, with the in-memory store and with Redis alike.
class SimulatedUsers {
public:
    // Simulated connection ids start here; real ones count up from 1.
    static constexpr ConnectionId kFirstConnectionId = ConnectionId(1) << 62;

    struct Device {
        QString id;
        Protocol::ChosenStatus status = Protocol::ChosenStatus::Online;
    };

    explicit SimulatedUsers(PresenceStore *store);

    // The user's own simulated device ("sim") takes this status; nullopt (offline) removes every
    // simulated device of the user.
    void setStatus(const QString &userId, std::optional<Protocol::ChosenStatus> status);
    // Device deviceId of userId connects with this status, or changes to it if connected.
    void connectDevice(
        const QString &userId, const QString &deviceId, Protocol::ChosenStatus status);
    // False when that device is not connected.
    bool disconnectDevice(const QString &userId, const QString &deviceId);

    [[nodiscard]] QList<Device> devicesOf(const QString &userId) const;
    [[nodiscard]] int userCount() const { return int(m_devices.size()); }
    [[nodiscard]] int deviceCount() const { return m_deviceCount; }

    [[nodiscard]] static QString defaultDevice() { return QStringLiteral("sim"); }

private:
    struct Connection {
        ConnectionId id;
        Protocol::ChosenStatus status;
    };

    PresenceStore *m_store;
    QHash<QString, QHash<QString, Connection>> m_devices; // user -> device -> connection
    ConnectionId m_nextId = kFirstConnectionId;
    int m_deviceCount = 0;
};

} // namespace Presence::Server
