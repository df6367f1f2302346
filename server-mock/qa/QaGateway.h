#pragma once

#include "server-mock/qa/FaultInjector.h"
#include "server-mock/qa/SimulatedUsers.h"
#include "server-mock/server/Gateway.h"

#include <memory>

namespace Presence::Gateway {

class FaultyPresenceStore;

// The gateway as QA and demos run it (presence-mock-server, most tests): a Gateway with
// simulated users and the faults of docs/scenarios.md acting on it from outside, through its
// neutral seams: a store decorator for lose/reorder/duplicate, the admission check for refuse,
// connectionSignedIn() and hold/release for delay and stall, the registry for drop and close.
class QaGateway : public Gateway {
    Q_OBJECT
public:
    // As Gateway's; the presence store (in memory when null) goes behind a FaultyPresenceStore.
    QaGateway(const GatewayConfig &config, UserDirectory directory, PresenceStore *store = nullptr,
        ChatStore *chats = nullptr, QObject *parent = nullptr);

    // Users present without a connection (QA and demos); same rules and pushes as real ones.
    [[nodiscard]] SimulatedUsers &simulatedUsers() { return m_simulated; }
    // Faults started on purpose (scenarios, admin API), acted upon here.
    [[nodiscard]] FaultInjector &faults() { return *m_faults; }
    // The store behind the fault decorator (what config chose: memory or Redis).
    [[nodiscard]] PresenceStore *innerStore() const;

private:
    QaGateway(std::unique_ptr<FaultInjector> faults, const GatewayConfig &config,
        UserDirectory directory, PresenceStore *store, ChatStore *chats, QObject *parent);
    void onFaultStarted(const QString &id, const FaultSpec &fault);
    void onFaultEnded(const QString &id, const FaultSpec &fault);
    // The running delay and stall faults, as they concern this connection.
    void applyFaults(ClientConnection *connection);

    // A child after the store decorator, which reads it: destroyed after it.
    FaultInjector *m_faults;
    SimulatedUsers m_simulated;
};

} // namespace Presence::Gateway
