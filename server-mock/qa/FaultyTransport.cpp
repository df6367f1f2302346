#include "server-mock/qa/FaultyTransport.h"

// C++
#include <utility>

namespace Presence::Server {

FaultyTransport::FaultyTransport(ClientTransport *inner)
    : m_inner(inner)
    , m_pausedByOwner(inner->isReadingPaused())
{
    m_inner->setReceiver(this);
    m_outboxTimer.setSingleShot(true);
    QObject::connect(&m_outboxTimer, &QTimer::timeout, &m_outboxTimer, [this] { writeDue(); });
}

void FaultyTransport::setOutgoingDelay(std::chrono::milliseconds delay)
{
    m_delay = delay;
}

void FaultyTransport::setStalled(bool stalled)
{
    if (stalled == m_stalled || m_ending)
        return;
    m_stalled = stalled;
    if (stalled) {
        m_outboxTimer.stop();
        m_inner->setReadingPaused(true);
        return;
    }
    writeDue();
    // What was read before the stall took hold, before anything still waiting in TCP.
    const QStringList received = std::exchange(m_inbox, {});
    for (const QString &text : received) {
        if (m_ending)
            break;
        tellText(text);
    }
    if (!m_ending && !m_pausedByOwner)
        m_inner->setReadingPaused(false);
}

void FaultyTransport::sendText(const QByteArray &frame)
{
    if (m_ending)
        return;
    if (m_stalled || m_delay.count() > 0 || !m_outbox.empty()) {
        m_outbox.push_back({ std::chrono::steady_clock::now() + m_delay, frame });
        writeDue();
        return;
    }
    m_inner->sendText(frame);
}

void FaultyTransport::writeDue()
{
    if (m_stalled)
        return;
    const auto now = std::chrono::steady_clock::now();
    while (!m_outbox.empty() && m_outbox.front().due <= now && !m_ending) {
        const QByteArray frame = std::move(m_outbox.front().frame);
        m_outbox.pop_front();
        m_inner->sendText(frame);
    }
    if (!m_outbox.empty() && !m_ending)
        m_outboxTimer.start(
            std::chrono::ceil<std::chrono::milliseconds>(m_outbox.front().due - now));
}

void FaultyTransport::ping()
{
    if (!m_stalled) // a stuck gateway sends nothing
        m_inner->ping();
}

void FaultyTransport::close(quint16 code, const QString &reason)
{
    // Closing ends the stall: what was held is never written.
    m_ending = true;
    m_outboxTimer.stop();
    m_outbox.clear();
    m_inner->close(code, reason);
}

void FaultyTransport::abort()
{
    m_ending = true;
    m_outboxTimer.stop();
    m_outbox.clear();
    m_inner->abort();
}

void FaultyTransport::setReadingPaused(bool paused)
{
    m_pausedByOwner = paused;
    if (!m_stalled)
        m_inner->setReadingPaused(paused);
}

bool FaultyTransport::isReadingPaused() const
{
    return m_stalled || m_inner->isReadingPaused();
}

void FaultyTransport::transportText(const QString &text)
{
    if (!m_stalled) {
        tellText(text);
        return;
    }
    constexpr qsizetype kMaxHeld = 10'000; // a peer that floods a stuck gateway goes
    if (m_inbox.size() >= kMaxHeld)
        abort();
    else
        m_inbox.append(text);
}

} // namespace Presence::Server
