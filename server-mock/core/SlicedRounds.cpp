#include "server-mock/core/SlicedRounds.h"

// C++
#include <algorithm>

// Qt
#include <QPointer>

namespace Presence::Server {

SlicedRounds::SlicedRounds(std::chrono::milliseconds interval, int sliceSize, Roster roster,
    RunSlice runSlice, QObject *parent)
    : QObject(parent)
    , m_interval(interval)
    , m_sliceSize(std::max(sliceSize, 1))
    , m_roster(std::move(roster))
    , m_runSlice(std::move(runSlice))
{
    m_roundTimer.setInterval(m_interval);
    connect(&m_roundTimer, &QTimer::timeout, this, &SlicedRounds::beginRound);
    m_sliceTimer.setSingleShot(true);
    connect(&m_sliceTimer, &QTimer::timeout, this, &SlicedRounds::runNextSlice);
}

void SlicedRounds::start()
{
    m_roundTimer.start();
}

void SlicedRounds::stop()
{
    m_roundTimer.stop();
    m_sliceTimer.stop();
    m_running = false;
    m_round.clear();
    m_next = 0;
    ++m_generation; // a slice still out calls done in vain
}

void SlicedRounds::beginRound()
{
    if (m_running) {
        ++m_roundsSkipped; // the last round's slices still wait on the store: none on top
        return;
    }
    m_round = m_roster();
    // In order, so that a connection's place in the round only moves forward as others leave:
    // its turns stay about one interval apart.
    std::sort(m_round.begin(), m_round.end());
    m_next = 0;
    ++m_roundsStarted;
    if (m_round.empty())
        return;
    m_running = true;
    // The slices end within the interval: the last one starts one spacing before the next round.
    const auto slices = qsizetype((m_round.size() + size_t(m_sliceSize) - 1) / size_t(m_sliceSize));
    m_sliceTimer.setInterval(m_interval / slices);
    runNextSlice();
}

void SlicedRounds::runNextSlice()
{
    const size_t end = std::min(m_round.size(), m_next + size_t(m_sliceSize));
    const std::span<const ConnectionId> slice(m_round.data() + m_next, end - m_next);
    m_next = end;
    m_runSlice(slice, [this, guard = QPointer<SlicedRounds>(this), generation = m_generation] {
        if (!guard || generation != m_generation)
            return;
        if (m_next < m_round.size())
            m_sliceTimer.start();
        else
            m_running = false;
    });
}

} // namespace Presence::Server
