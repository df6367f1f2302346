#pragma once

// Presence
#include "server-mock/qa/FaultInjector.h"
#include "server-mock/qa/FaultyPushes.h"
#include "server-mock/qa/SimulatedUsers.h"
#include "server-mock/server/Gateway.h"

namespace Presence::Server {

// The gateway as QA and demos run it (presence-mock-server, most tests): a Gateway with
// simulated users and the faults of docs/scenarios.md acting on it from outside, through its
// neutral seams: the push hook for lose/reorder/duplicate, the admission check for refuse,
// connectionSignedIn() and ClientConnection::interposeTransport() for delay and stall (a
// FaultyTransport goes in front of a connection's transport once a fault reaches it), the
// registry for drop and close.
class QaGateway : public Gateway {
    Q_OBJECT
public:
    // As Gateway's.
    QaGateway(GatewayConfig config, UserDirectory directory, PresenceStore *store, ChatStore *chats,
        QObject *parent = nullptr);
    ~QaGateway() override;

    // Users present without a connection (QA and demos); same rules and pushes as real ones.
    [[nodiscard]] SimulatedUsers &simulatedUsers() { return m_simulated; }
    // Faults started on purpose (scenarios, admin API), acted upon here.
    [[nodiscard]] FaultInjector &faults() { return m_faults; }

private:
    void onFaultStarted(const QString &id, const FaultSpec &fault);
    void onFaultEnded(const QString &id, const FaultSpec &fault);
    // The running delay and stall faults, as they concern this connection.
    void applyFaults(ClientConnection *connection);

    FaultInjector m_faults;
    FaultyPushes m_pushes;
    SimulatedUsers m_simulated;
};

} // namespace Presence::Server
