#include "server-mock/qa/QaGateway.h"

// C++
#include <cstdlib>

// Presence
#include "server-mock/qa/FaultyTransport.h"
#include "server-mock/qa/Logging.h"
#include "server-mock/server/ClientConnection.h"

namespace Presence::Server {

QaGateway::QaGateway(GatewayConfig config, UserDirectory directory, PresenceStore *store,
    ChatStore *chats, QObject *parent)
    : Gateway(std::move(config), std::move(directory), store, chats, parent)
    , m_pushes(m_faults)
    , m_simulated(Gateway::store())
{
    connect(&m_faults, &FaultInjector::faultStarted, this, &QaGateway::onFaultStarted);
    connect(&m_faults, &FaultInjector::faultEnded, this, &QaGateway::onFaultEnded);
    presence().setPushHook(
        [this](const Protocol::UserPresence &presence, const PresenceFanout::Push &push) {
            m_pushes.route(presence, push);
        });
    // Before the welcome: a delayed connection gets even that late.
    connect(this, &Gateway::connectionSignedIn, this, &QaGateway::applyFaults);
    // A refuse fault: what an overloaded gateway behind a proxy says.
    setAdmissionCheck([this] { return !m_faults.refusesConnections(); });

    MetricsRegistry &registry = metrics().registry();
    registry.gauge("presence_simulated_devices", "Simulated devices (QA, demos).",
        [this] { return double(m_simulated.deviceCount()); });
    registry.gauge("presence_faults_running", "Faults injected and still running.",
        [this] { return double(m_faults.running().size()); });
}

QaGateway::~QaGateway()
{
    // The hooks point at members that go before the Gateway does.
    presence().setPushHook({});
    setAdmissionCheck({});
}

void QaGateway::onFaultStarted(const QString &id, const FaultSpec &fault)
{
    Q_UNUSED(id)
    switch (fault.kind) {
    case FaultKind::Drop:
        for (const ConnectionId connectionId : connections().ids(fault.user)) {
            if (ClientConnection *connection = connections().find(connectionId))
                connection->abortAbruptly();
        }
        break;
    case FaultKind::Close:
        for (const ConnectionId connectionId : connections().ids(fault.user)) {
            if (ClientConnection *connection = connections().find(connectionId))
                connection->close(fault.code, fault.reason);
        }
        break;
    case FaultKind::Delay:
    case FaultKind::Stall:
        for (const ConnectionId connectionId : connections().ids(fault.user)) {
            if (ClientConnection *connection = connections().find(connectionId))
                applyFaults(connection);
        }
        break;
    case FaultKind::Crash:
        qCCritical(lcFaults) << "crash fault: aborting without closing anything";
        std::abort();
    case FaultKind::Duplicate:
    case FaultKind::Reorder:
    case FaultKind::Lose:
    case FaultKind::Refuse:
        break; // asked for while they run
    }
}

void QaGateway::onFaultEnded(const QString &id, const FaultSpec &fault)
{
    Q_UNUSED(id)
    if (fault.kind != FaultKind::Delay && fault.kind != FaultKind::Stall)
        return;
    for (const ConnectionId connectionId : connections().ids(fault.user)) {
        if (ClientConnection *connection = connections().find(connectionId))
            applyFaults(connection);
    }
}

void QaGateway::applyFaults(ClientConnection *connection)
{
    const QString &user = connection->userId();
    const std::chrono::milliseconds delay = m_faults.outgoingDelayFor(user);
    const bool stalled = m_faults.isStalled(user);
    auto *transport = dynamic_cast<FaultyTransport *>(connection->transport());
    if (!transport) {
        // The fault layer costs a connection nothing (about 1.3 KiB measured) until a fault
        // reaches it; once there it stays, holding frames in order.
        if (delay.count() == 0 && !stalled)
            return;
        transport = new FaultyTransport(connection->transport());
        connection->interposeTransport(transport);
    }
    transport->setOutgoingDelay(delay);
    transport->setStalled(stalled);
}

} // namespace Presence::Server
