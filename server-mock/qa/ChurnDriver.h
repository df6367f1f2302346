#pragma once

// C++
#include <functional>

// Qt
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

// Presence
#include "server-mock/qa/ChurnModel.h"

namespace Presence::Server {

class SimulatedUsers;

// Plays a ChurnModel in real time on simulated users (--churn RATE). A user signed in for real
// leaves the churn while connected: their simulated device goes, and the model's changes for
// them are skipped until they sign out.
class ChurnDriver : public QObject {
    Q_OBJECT
public:
    using IsConnected = std::function<bool(const QString &userId)>;

    ChurnDriver(ChurnModel model, SimulatedUsers &users, IsConnected isConnected,
        QObject *parent = nullptr);

    // Applies the initial state and starts the clock.
    void start();
    [[nodiscard]] quint64 appliedCount() const { return m_applied; }
    [[nodiscard]] quint64 skippedCount() const { return m_skipped; }

private:
    void apply(const ChurnEvent &event);
    void onTick();

    ChurnModel m_model;
    SimulatedUsers &m_users;
    IsConnected m_isConnected;
    QElapsedTimer m_clock;
    QTimer m_timer;
    quint64 m_applied = 0;
    quint64 m_skipped = 0;
};

} // namespace Presence::Server
