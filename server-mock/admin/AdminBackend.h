#pragma once

// C++
#include <functional>
#include <optional>

// Qt
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

// Presence
#include "protocol/PresenceStatus.h"
#include "protocol/ServerMessages.h"
#include "server-mock/qa/FaultSpec.h"

namespace Presence::Server {

// What the admin and heartbeat HTTP server (AdminServer) asks of the gateway. The HTTP side
// parses, authorises and limits requests; everything here is given checked input. Answers that
// may need the store (Redis) come through callbacks, not called once `context` is destroyed.
class AdminBackend {
public:
    using PresenceCallback = std::function<void(const QList<Protocol::UserPresence> &)>;
    using JsonCallback = std::function<void(const QJsonObject &)>;

    virtual ~AdminBackend() = default;

    // The user a client token belongs to (the users file's tokens); nullopt if none.
    [[nodiscard]] virtual std::optional<QString> userOfToken(const QString &token) const = 0;
    [[nodiscard]] virtual bool userExists(const QString &userId) const = 0;
    [[nodiscard]] virtual bool areFriends(const QString &a, const QString &b) const = 0;

    // GET /healthz: {"status":"ok", ...}; ok is false when the gateway cannot serve (its store
    // is away), which the server answers with 503.
    [[nodiscard]] virtual QJsonObject health(bool *ok) const = 0;
    // GET /metrics: the Prometheus text exposition.
    [[nodiscard]] virtual QByteArray metrics() const = 0;

    // POST /admin/users/{id}/presence: the simulated device of userId takes this status;
    // nullopt (offline) removes it.
    virtual void simulatePresence(
        const QString &userId, std::optional<Protocol::ChosenStatus> status)
        = 0;
    // GET /admin/users/{id}: status, seq, last_seen, devices and watchers, as JSON.
    virtual void describeUser(const QString &userId, QObject *context, JsonCallback done) = 0;
    // PUT (friends) and DELETE (not) /admin/users/{a}/friends/{b}, two distinct users: false
    // when they already were what was asked.
    virtual bool setFriendship(const QString &a, const QString &b, bool friends) = 0;
    // POST /admin/reload: reads the users file again and applies it. What changed, as JSON;
    // or nullopt with *error, nothing changed: the file does not load (*fileError true), or
    // there is no file to read (a generated population).
    [[nodiscard]] virtual std::optional<QJsonObject> reloadUsers(QString *error, bool *fileError)
        = 0;
    // POST /admin/faults: starts the fault, returns its id (empty and *error when refused).
    [[nodiscard]] virtual QString startFault(const FaultSpec &fault, QString *error) = 0;
    // DELETE /admin/faults/{id}: false when no such fault runs.
    virtual bool endFault(const QString &faultId) = 0;
    // GET /admin/faults: the faults running, as [{"id":…, "fault":{…}}].
    [[nodiscard]] virtual QJsonObject faults() const = 0;

    // POST /api/heartbeat: userId is present (online) for the heartbeat TTL from now.
    virtual void heartbeat(const QString &userId) = 0;
    // GET /api/presence: the published presence of ids (already checked to be friends).
    virtual void presenceOf(const QStringList &ids, QObject *context, PresenceCallback done) = 0;
};

} // namespace Presence::Server
