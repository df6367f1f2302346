#include "server-mock/qa/ChurnDriver.h"

// C++
#include <algorithm>

// Presence
#include "server-mock/qa/QaGateway.h"
#include "server-mock/qa/SimulatedUsers.h"
#include "server-mock/server/ClientConnection.h"

namespace Presence::Server {

namespace {

// Events applied per timer tick at most, so that a rate the machine cannot keep up with
// leaves the event loop breathing (clients still get served) and falls behind instead.
constexpr int kMaxEventsPerTick = 5000;

} // namespace

ChurnDriver::ChurnDriver(ChurnModel model, QaGateway &gateway, QObject *parent)
    : QObject(parent)
    , m_model(std::move(model))
    , m_gateway(gateway)
{
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &ChurnDriver::onTick);
    connect(&gateway, &Gateway::connectionSignedIn, this, &ChurnDriver::onSignedIn);
}

void ChurnDriver::onSignedIn(const ClientConnection *connection)
{
    SimulatedUsers &users = m_gateway.simulatedUsers();
    if (!users.devicesOf(connection->userId()).isEmpty())
        users.setStatus(connection->userId(), std::nullopt);
}

void ChurnDriver::start()
{
    for (const ChurnEvent &event : m_model.initial())
        apply(event);
    m_clock.start();
    onTick();
}

void ChurnDriver::apply(const ChurnEvent &event)
{
    SimulatedUsers &users = m_gateway.simulatedUsers();
    if (m_gateway.hasConnectionOf(event.userId)) {
        users.setStatus(event.userId, std::nullopt);
        ++m_skipped;
        return;
    }
    users.setStatus(event.userId, event.status);
    ++m_applied;
}

void ChurnDriver::onTick()
{
    const qint64 now = m_clock.elapsed();
    for (int i = 0; i < kMaxEventsPerTick && m_model.nextAtMs() <= now; ++i)
        apply(m_model.next());
    m_timer.start(int(std::clamp<qint64>(m_model.nextAtMs() - m_clock.elapsed(), 0, 1000)));
}

} // namespace Presence::Server
