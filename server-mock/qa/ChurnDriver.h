#pragma once

// Qt
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

// Presence
#include "server-mock/qa/ChurnModel.h"

namespace Presence::Server {

class ClientConnection;
class QaGateway;

// Plays a ChurnModel in real time on the gateway's simulated users (--churn RATE). A user
// signed in for real leaves the churn while connected: their simulated device goes as they
// sign in (it would otherwise mask the status they choose), and the model's changes for them
// are skipped until they sign out.
class ChurnDriver : public QObject {
    Q_OBJECT
public:
    ChurnDriver(ChurnModel model, QaGateway &gateway, QObject *parent = nullptr);

    // Applies the initial state and starts the clock.
    void start();
    [[nodiscard]] quint64 appliedCount() const { return m_applied; }
    [[nodiscard]] quint64 skippedCount() const { return m_skipped; }

private:
    void apply(const ChurnEvent &event);
    void onTick();
    void onSignedIn(const ClientConnection *connection);

    ChurnModel m_model;
    QaGateway &m_gateway;
    QElapsedTimer m_clock;
    QTimer m_timer;
    quint64 m_applied = 0;
    quint64 m_skipped = 0;
};

} // namespace Presence::Server
