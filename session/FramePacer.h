#pragma once

// C++
#include <deque>
#include <functional>
#include <optional>

// Qt
#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QTimer>

// Presence
#include "protocol/TokenBucket.h"

namespace Presence::Session {

// Sends a connection's frames at a rate the gateway accepts: a token bucket under the
// gateway's frame limits and an outbox that keeps, in order, what the bucket cannot send yet,
// drained by one single-shot timer. Until a budget is set (before welcome) frames go at once.
// It knows nothing of sockets: frames go to the sink it is given.
class FramePacer : public QObject {
    Q_OBJECT
public:
    using Clock = Protocol::TokenBucket::Clock;
    // Where serialized frames go (the socket).
    using Sink = std::function<void(const QString &frame)>;
    // The time now (tests pass a clock of their own).
    using Now = std::function<Clock::time_point()>;

    explicit FramePacer(Sink sink, QObject *parent = nullptr);
    FramePacer(Sink sink, Now now, QObject *parent = nullptr);

    // Paces from now on: `ratePerSecond` frames sustained, `burst` at once.
    void setBudget(double ratePerSecond, double burst);
    // Back to unpaced, nothing queued (a new connection, before its welcome).
    void removeBudget();
    [[nodiscard]] bool isPaced() const { return m_budget.has_value(); }
    // Drops whatever waits: the connection it was for is gone.
    void clear();

    // Sends now if the budget allows and nothing waits, else queues it in order behind the
    // others.
    void send(const QJsonObject &message, const QString &ref = {});
    // Takes one frame of budget, if there is one (always, while unpaced).
    [[nodiscard]] bool takeToken();
    // Sends at once, ahead of anything queued: for a caller that took a token for it.
    void sendNow(const QJsonObject &message, const QString &ref = {});
    // Someone waits for budget (budgetFreed) once the outbox is empty: keep the drain timer
    // going until then. Set again by each caller that still waits.
    void setWaitingForBudget(bool waiting);
    [[nodiscard]] bool isWaitingForBudget() const { return m_waiting; }

    [[nodiscard]] qsizetype queued() const { return qsizetype(m_outbox.size()); }
    [[nodiscard]] static QString serialize(const QJsonObject &message, const QString &ref);

Q_SIGNALS:
    // The outbox emptied while someone waited for budget (setWaitingForBudget).
    void budgetFreed();

private:
    void scheduleDrain();
    void drain();

    Sink m_sink;
    Now m_now;
    std::optional<Protocol::TokenBucket> m_budget;
    std::deque<QString> m_outbox;
    QTimer m_drainTimer;
    bool m_waiting = false;
};

} // namespace Presence::Session
