#include "session/Heartbeat.h"

namespace Presence::Session {

Heartbeat::Heartbeat(Ping ping, QObject *parent)
    : QObject(parent)
    , m_ping(std::move(ping))
{
    connect(&m_pingTimer, &QTimer::timeout, this, &Heartbeat::ping);
    m_pongTimer.setSingleShot(true);
    connect(&m_pongTimer, &QTimer::timeout, this, [this] {
        stop();
        Q_EMIT pongMissed();
    });
}

void Heartbeat::start(std::chrono::milliseconds interval, std::chrono::milliseconds pongTimeout)
{
    m_pongTimeout = pongTimeout;
    m_pongTimer.stop();
    m_pingTimer.start(interval);
}

void Heartbeat::stop()
{
    m_pingTimer.stop();
    m_pongTimer.stop();
}

void Heartbeat::onPong()
{
    m_pongTimer.stop();
}

void Heartbeat::ping()
{
    if (m_pongTimer.isActive())
        return; // the previous ping is still waiting for its pong
    m_pongTimer.start(m_pongTimeout); // before the ping: a pong may come back within it
    m_ping();
}

} // namespace Presence::Session
