#pragma once

// C++
#include <chrono>
#include <functional>

// Qt
#include <QObject>

// Presence
#include "server-mock/admin/AdminBackend.h"
#include "server-mock/core/GraceQueue.h"
#include "server-mock/directory/DirectoryDiff.h"

namespace Presence::Server {

class QaGateway;

// The gateway as the admin and heartbeat HTTP server sees it (AdminBackend). Heartbeats are
// simulated devices named "http" that expire `heartbeatTtl` after the last heartbeat, so
// HTTP-only clients mix with WebSocket and simulated devices under the same rules.
class GatewayAdminBackend : public QObject, public AdminBackend {
    Q_OBJECT
public:
    static constexpr std::chrono::milliseconds kDefaultHeartbeatTtl { 35'000 };

    explicit GatewayAdminBackend(QaGateway &gateway,
        std::chrono::milliseconds heartbeatTtl = kDefaultHeartbeatTtl, QObject *parent = nullptr);

    [[nodiscard]] std::optional<QString> userOfToken(const QString &token) const override;
    [[nodiscard]] bool userExists(const QString &userId) const override;
    [[nodiscard]] bool areFriends(const QString &a, const QString &b) const override;
    [[nodiscard]] QJsonObject health(bool *ok) const override;
    [[nodiscard]] QByteArray metrics() const override;
    void simulatePresence(
        const QString &userId, std::optional<Protocol::ChosenStatus> status) override;
    void describeUser(const QString &userId, QObject *context, JsonCallback done) override;
    bool setFriendship(const QString &a, const QString &b, bool friends) override;
    [[nodiscard]] std::optional<QJsonObject> reloadUsers(QString *error, bool *fileError) override;
    // Reads the users file again and applies it (the composition root's, which knows the
    // file); nullopt with *error when the file does not load. Unset: nothing to reload.
    using Reload = std::function<std::optional<DirectoryDiff>(QString *error)>;
    void setReload(Reload reload) { m_reload = std::move(reload); }
    // What a reload changed, as POST /admin/reload answers it.
    [[nodiscard]] static QJsonObject toJson(const DirectoryDiff &diff);
    [[nodiscard]] QString startFault(const FaultSpec &fault, QString *error) override;
    bool endFault(const QString &faultId) override;
    [[nodiscard]] QJsonObject faults() const override;
    void heartbeat(const QString &userId) override;
    void presenceOf(const QStringList &ids, QObject *context, PresenceCallback done) override;

    [[nodiscard]] std::chrono::milliseconds heartbeatTtl() const { return m_heartbeats.grace(); }
    [[nodiscard]] static QString heartbeatDevice() { return QStringLiteral("http"); }

private:
    QaGateway &m_gateway;
    GraceQueue m_heartbeats;
    Reload m_reload;
};

} // namespace Presence::Server
