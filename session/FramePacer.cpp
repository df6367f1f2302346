#include "session/FramePacer.h"

// C++
#include <algorithm>

// Presence
#include "protocol/Frame.h"

namespace Presence::Session {

using namespace std::chrono_literals;

FramePacer::FramePacer(Sink sink, QObject *parent)
    : FramePacer(
        std::move(sink), [] { return Clock::now(); }, parent)
{
}

FramePacer::FramePacer(Sink sink, Now now, QObject *parent)
    : QObject(parent)
    , m_sink(std::move(sink))
    , m_now(std::move(now))
{
    m_drainTimer.setSingleShot(true);
    connect(&m_drainTimer, &QTimer::timeout, this, &FramePacer::drain);
}

void FramePacer::setBudget(double ratePerSecond, double burst)
{
    m_budget.emplace(ratePerSecond, burst, m_now());
}

void FramePacer::removeBudget()
{
    m_budget.reset();
    clear();
}

void FramePacer::clear()
{
    m_outbox.clear();
    m_waiting = false;
    m_drainTimer.stop();
}

void FramePacer::send(const QJsonObject &message, const QString &ref)
{
    if (m_outbox.empty() && takeToken()) {
        m_sink(serialize(message, ref));
        return;
    }
    m_outbox.push_back(serialize(message, ref));
    scheduleDrain();
}

void FramePacer::sendNow(const QJsonObject &message, const QString &ref)
{
    m_sink(serialize(message, ref));
}

void FramePacer::setWaitingForBudget(bool waiting)
{
    m_waiting = waiting;
    if (waiting)
        scheduleDrain();
}

QString FramePacer::serialize(const QJsonObject &message, const QString &ref)
{
    return QString::fromUtf8(Protocol::serializeFrame(
        message, ref.isEmpty() ? std::nullopt : std::optional<QString>(ref)));
}

bool FramePacer::takeToken()
{
    // Before welcome there is only hello; after it, stay under the gateway's frame rate so
    // that no request of ours is ever dropped as rate_limited.
    return !m_budget || m_budget->tryTake(m_now());
}

void FramePacer::scheduleDrain()
{
    if (m_drainTimer.isActive() || !m_budget)
        return;
    m_drainTimer.start(std::max(1ms, m_budget->timeUntilToken(m_now())));
}

void FramePacer::drain()
{
    while (!m_outbox.empty() && takeToken()) {
        m_sink(m_outbox.front());
        m_outbox.pop_front();
    }
    if (m_outbox.empty() && m_waiting) {
        m_waiting = false; // whoever still waits says so again
        Q_EMIT budgetFreed();
    }
    if (!m_outbox.empty() || m_waiting)
        scheduleDrain();
}

} // namespace Presence::Session
