#include "server-mock/qa/SimulatedUsers.h"

// C++
#include <algorithm>

namespace Presence::Server {

using Protocol::ChosenStatus;

SimulatedUsers::SimulatedUsers(PresenceStore *store)
    : m_store(store)
{
}

void SimulatedUsers::setStatus(const QString &userId, std::optional<ChosenStatus> status)
{
    if (status) {
        connectDevice(userId, defaultDevice(), *status);
        return;
    }
    const auto user = m_devices.find(userId);
    if (user == m_devices.end())
        return;
    const QHash<QString, Connection> devices = std::move(*user);
    m_devices.erase(user);
    m_deviceCount -= int(devices.size());
    for (const Connection &connection : devices)
        m_store->connectionClosed(userId, connection.id);
}

void SimulatedUsers::connectDevice(
    const QString &userId, const QString &deviceId, ChosenStatus status)
{
    QHash<QString, Connection> &devices = m_devices[userId];
    const auto device = devices.find(deviceId);
    if (device == devices.end()) {
        const ConnectionId id = m_nextId++;
        devices.insert(deviceId, { id, status });
        ++m_deviceCount;
        m_store->connectionOpened(userId, id, status);
    } else if (device->status != status) {
        device->status = status;
        m_store->connectionStatusChanged(userId, device->id, status);
    }
}

bool SimulatedUsers::disconnectDevice(const QString &userId, const QString &deviceId)
{
    const auto user = m_devices.find(userId);
    if (user == m_devices.end())
        return false;
    const auto device = user->find(deviceId);
    if (device == user->end())
        return false;
    const ConnectionId id = device->id;
    user->erase(device);
    if (user->isEmpty())
        m_devices.erase(user);
    --m_deviceCount;
    m_store->connectionClosed(userId, id);
    return true;
}

QList<SimulatedUsers::Device> SimulatedUsers::devicesOf(const QString &userId) const
{
    QList<Device> result;
    const auto user = m_devices.constFind(userId);
    if (user == m_devices.constEnd())
        return result;
    for (auto it = user->cbegin(); it != user->cend(); ++it)
        result.append({ it.key(), it->status });
    std::sort(
        result.begin(), result.end(), [](const Device &a, const Device &b) { return a.id < b.id; });
    return result;
}

} // namespace Presence::Server
