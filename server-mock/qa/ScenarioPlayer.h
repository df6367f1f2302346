#pragma once

// Qt
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

// Presence
#include "server-mock/qa/Scenario.h"

namespace Presence::Server {

class FaultInjector;
class SimulatedUsers;

// Plays a scenario (--scenario FILE, docs/scenarios.md) in real time against the gateway's
// simulated users and faults, logging each step with its line. Faults with "for" end by
// themselves that long after they started.
class ScenarioPlayer : public QObject {
    Q_OBJECT
public:
    ScenarioPlayer(
        Scenario scenario, SimulatedUsers &users, FaultInjector &faults, QObject *parent = nullptr);

    void start();
    [[nodiscard]] int playedCount() const { return m_next; }
    [[nodiscard]] bool isFinished() const { return m_finished; }

Q_SIGNALS:
    // Every step has been played and every fault with "for" has ended.
    void finished();

private:
    void play(const Scenario::Step &step);
    void onTick();
    void checkFinished();

    Scenario m_scenario;
    SimulatedUsers &m_users;
    FaultInjector &m_faults;
    QElapsedTimer m_clock;
    QTimer m_timer;
    int m_next = 0;
    int m_timedFaults = 0; // "for" faults still running
    bool m_finished = false;
};

} // namespace Presence::Server
