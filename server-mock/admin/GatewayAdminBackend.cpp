#include "server-mock/admin/GatewayAdminBackend.h"

// Qt
#include <QJsonArray>
#include <QPointer>

// Presence
#include "server-mock/admin/Logging.h"
#include "server-mock/presence/PresenceStore.h"
#include "server-mock/qa/QaGateway.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

using Protocol::ChosenStatus;

GatewayAdminBackend::GatewayAdminBackend(
    QaGateway &gateway, std::chrono::milliseconds heartbeatTtl, QObject *parent)
    : QObject(parent)
    , m_gateway(gateway)
    , m_heartbeats(heartbeatTtl)
{
    connect(&m_heartbeats, &GraceQueue::expired, this, [this](const QString &userId) {
        m_gateway.simulatedUsers().disconnectDevice(userId, heartbeatDevice());
    });
}

std::optional<QString> GatewayAdminBackend::userOfToken(const QString &token) const
{
    const Gateway::SignIn signIn = m_gateway.authenticate(token);
    if (!signIn.userIndex) {
        qCInfo(lcAdmin) << "refused a bearer token:" << qUtf8Printable(signIn.refusal);
        return std::nullopt;
    }
    return m_gateway.directory().user(*signIn.userIndex).id;
}

bool GatewayAdminBackend::userExists(const QString &userId) const
{
    return m_gateway.directory().indexOfId(userId).has_value();
}

bool GatewayAdminBackend::areFriends(const QString &a, const QString &b) const
{
    return m_gateway.directory().areFriends(a, b);
}

bool GatewayAdminBackend::setFriendship(const QString &a, const QString &b, bool friends)
{
    const UserDirectory &directory = m_gateway.directory();
    const auto first = directory.indexOfId(a);
    const auto second = directory.indexOfId(b);
    return first && second
        && m_gateway.friendships().changeFriendships({ { *first, *second, friends } }) > 0;
}

std::optional<QJsonObject> GatewayAdminBackend::reloadUsers(QString *error, bool *fileError)
{
    *fileError = false;
    if (!m_reload) {
        *error = u"the population was generated (--generate): there is no users file to read"_s;
        return std::nullopt;
    }
    const std::optional<DirectoryDiff> diff = m_reload(error);
    if (!diff) {
        *fileError = true;
        return std::nullopt;
    }
    return toJson(*diff);
}

QJsonObject GatewayAdminBackend::toJson(const DirectoryDiff &diff)
{
    const auto ids = [](const QList<DirectoryDiff::Entry> &entries) {
        QJsonArray array;
        for (const DirectoryDiff::Entry &entry : entries)
            array.append(entry.id);
        return array;
    };
    return { { "users"_L1,
                 QJsonObject { { "joined"_L1, ids(diff.joined) },
                     { "left"_L1, QJsonArray::fromStringList(diff.left) },
                     { "new_token"_L1, ids(diff.retokened) },
                     { "renamed"_L1, ids(diff.renamed) } } },
        { "friendships"_L1,
            QJsonObject {
                { "made"_L1, diff.befriended.size() }, { "ended"_L1, diff.unfriended.size() } } } };
}

QJsonObject GatewayAdminBackend::health(bool *ok) const
{
    const PresenceStore *store = m_gateway.store();
    const bool storeAvailable = store->isAvailable();
    if (ok)
        *ok = storeAvailable;
    return { { "status"_L1, storeAvailable ? "ok"_L1 : "store unavailable"_L1 },
        { "store"_L1, store->kind() }, { "connections"_L1, m_gateway.connectionCount() },
        { "users"_L1, m_gateway.directory().size() } };
}

QByteArray GatewayAdminBackend::metrics() const
{
    return m_gateway.metrics().render();
}

void GatewayAdminBackend::simulatePresence(
    const QString &userId, std::optional<ChosenStatus> status)
{
    m_gateway.simulatedUsers().setStatus(userId, status);
}

void GatewayAdminBackend::describeUser(const QString &userId, QObject *context, JsonCallback done)
{
    QJsonArray devices;
    for (const Gateway::ConnectionView &connection : m_gateway.connectionsOf(userId)) {
        devices.append(QJsonObject { { "kind"_L1, "websocket"_L1 },
            { "id"_L1, QString::number(connection.id) },
            { "status"_L1, Protocol::toString(connection.status) },
            { "peer"_L1, connection.peer } });
    }
    for (const SimulatedUsers::Device &device : m_gateway.simulatedUsers().devicesOf(userId)) {
        const bool heartbeat = device.id == heartbeatDevice();
        devices.append(QJsonObject { { "kind"_L1, heartbeat ? "heartbeat"_L1 : "simulated"_L1 },
            { "id"_L1, device.id }, { "status"_L1, Protocol::toString(device.status) } });
    }
    QJsonObject user { { "id"_L1, userId }, { "devices"_L1, devices },
        { "watchers"_L1, QJsonArray::fromStringList(m_gateway.watchersOf(userId)) } };
    // The published presence may live in Redis: asked for, answered later.
    m_gateway.store()->snapshot({ userId }, context,
        [user, done = std::move(done)](const QList<Protocol::UserPresence> &presence) mutable {
            if (!presence.isEmpty()) {
                const Protocol::UserPresence &published = presence.constFirst();
                user.insert("status"_L1, Protocol::toString(published.status));
                user.insert("seq"_L1, published.seq);
                if (published.lastSeen)
                    user.insert("last_seen"_L1, *published.lastSeen);
            }
            done(user);
        });
}

QString GatewayAdminBackend::startFault(const FaultSpec &fault, QString *error)
{
    if (!fault.user.isEmpty() && !userExists(fault.user)) {
        if (error)
            *error = u"no user \"%1\""_s.arg(fault.user);
        return {};
    }
    return m_gateway.faults().start(fault, {}, error);
}

bool GatewayAdminBackend::endFault(const QString &faultId)
{
    return m_gateway.faults().end(faultId);
}

QJsonObject GatewayAdminBackend::faults() const
{
    QJsonArray running;
    for (const FaultInjector::Running &fault : m_gateway.faults().running())
        running.append(QJsonObject { { "id"_L1, fault.id }, { "fault"_L1, fault.fault.toJson() } });
    return { { "faults"_L1, running } };
}

void GatewayAdminBackend::heartbeat(const QString &userId)
{
    m_gateway.simulatedUsers().connectDevice(userId, heartbeatDevice(), ChosenStatus::Online);
    m_heartbeats.arm(userId);
}

void GatewayAdminBackend::presenceOf(
    const QStringList &ids, QObject *context, PresenceCallback done)
{
    m_gateway.store()->snapshot(ids, context, std::move(done));
}

} // namespace Presence::Server
