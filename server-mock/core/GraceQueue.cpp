#include "server-mock/core/GraceQueue.h"

namespace Presence::Server {

GraceQueue::GraceQueue(std::chrono::milliseconds grace, QObject *parent)
    : QObject(parent)
    , m_grace(grace)
{
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &GraceQueue::onTimeout);
}

void GraceQueue::arm(const QString &userId)
{
    // Cancelled and re-armed users leave dead entries behind until their deadline; keep
    // them from piling up when someone toggles quickly with a long grace.
    if (m_entries.size() > 2 * size_t(m_generation.size()) + 64) {
        std::erase_if(m_entries, [this](const Entry &entry) {
            const auto live = m_generation.constFind(entry.userId);
            return live == m_generation.constEnd() || *live != entry.generation;
        });
    }
    const quint64 generation = m_nextGeneration++;
    m_generation.insert(userId, generation);
    m_entries.push_back({ Clock::now() + m_grace, userId, generation });
    if (!m_timer.isActive())
        scheduleFront();
}

void GraceQueue::cancel(const QString &userId)
{
    m_generation.remove(userId);
}

void GraceQueue::onTimeout()
{
    const auto now = Clock::now();
    while (!m_entries.empty() && m_entries.front().deadline <= now) {
        Entry entry = std::move(m_entries.front());
        m_entries.pop_front();
        const auto live = m_generation.constFind(entry.userId);
        if (live == m_generation.constEnd() || *live != entry.generation)
            continue; // cancelled or re-armed since
        m_generation.erase(live);
        Q_EMIT expired(entry.userId);
    }
    scheduleFront();
}

void GraceQueue::scheduleFront()
{
    // Drop stale entries at the front so the timer never wakes for nothing.
    while (!m_entries.empty()) {
        const auto live = m_generation.constFind(m_entries.front().userId);
        if (live != m_generation.constEnd() && *live == m_entries.front().generation)
            break;
        m_entries.pop_front();
    }
    if (m_entries.empty())
        return;
    const auto wait
        = std::chrono::ceil<std::chrono::milliseconds>(m_entries.front().deadline - Clock::now());
    m_timer.start(std::max(wait, std::chrono::milliseconds(0)));
}

} // namespace Presence::Server
