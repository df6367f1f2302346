#pragma once

// C++
#include <chrono>

// Qt
#include <QHash>
#include <QList>
#include <QObject>
#include <QTimer>

// Presence
#include "server-mock/qa/FaultSpec.h"

namespace Presence::Server {

// The faults QA started on purpose (docs/scenarios.md), from a scenario or the admin API: which
// run, and what they mean for a user's connections. The gateway acts on faultStarted() and
// faultEnded() and asks here while one runs.
//
// drop, close and crash act once, on the connections open at that moment, and are not kept;
// refuse ends by itself; delay, stall, duplicate and reorder last until ended.
class FaultInjector : public QObject {
    Q_OBJECT
public:
    struct Running {
        QString id;
        FaultSpec fault;
    };

    explicit FaultInjector(QObject *parent = nullptr);

    // Starts the fault under `id` (or a new id "fN" when empty) and returns the id; empty with
    // *error when a fault of that id runs already.
    QString start(const FaultSpec &fault, const QString &id = {}, QString *error = nullptr);
    // False when no fault of that id runs.
    bool end(const QString &id);
    [[nodiscard]] QList<Running> running() const;

    // What the running faults mean for a connection of userId.
    [[nodiscard]] std::chrono::milliseconds outgoingDelayFor(const QString &userId) const;
    [[nodiscard]] bool isStalled(const QString &userId) const;
    [[nodiscard]] bool duplicatesPresenceOf(const QString &userId) const;
    [[nodiscard]] bool reordersPresenceOf(const QString &userId) const;
    [[nodiscard]] bool losesPresenceOf(const QString &userId) const;
    [[nodiscard]] bool refusesConnections() const;

Q_SIGNALS:
    void faultStarted(const QString &id, const Presence::Server::FaultSpec &fault);
    void faultEnded(const QString &id, const Presence::Server::FaultSpec &fault);

private:
    [[nodiscard]] bool anyRunning(FaultKind kind, const QString &userId) const;

    QHash<QString, FaultSpec> m_running;
    QHash<QString, QTimer *> m_endTimers; // refuse faults end by themselves
    int m_nextNumber = 1;
};

} // namespace Presence::Server
