#include "server-mock/core/DeadlineSweep.h"

// C++
#include <algorithm>

namespace Presence::Server {

DeadlineSweep::DeadlineSweep(std::chrono::milliseconds tick, QObject *parent)
    : QObject(parent)
    , m_tick(tick)
{
    m_timer.setInterval(tick);
    // Coarse is enough (the tick is the precision) and lets the loop merge wake-ups.
    m_timer.setTimerType(Qt::CoarseTimer);
    connect(&m_timer, &QTimer::timeout, this, [this] { sweep(Clock::now()); });
}

DeadlineSweep::~DeadlineSweep()
{
    for (Member *member : m_members)
        member->m_sweep = nullptr;
}

DeadlineSweep::Member::~Member()
{
    leaveSweep();
}

void DeadlineSweep::Member::setDue(Clock::time_point due)
{
    m_due = due;
    if (m_sweep)
        m_sweep->m_dueTimes[m_index] = due;
}

void DeadlineSweep::Member::leaveSweep()
{
    if (m_sweep)
        m_sweep->remove(this);
}

std::chrono::milliseconds DeadlineSweep::tickFor(
    std::initializer_list<std::chrono::milliseconds> deadlines)
{
    const std::chrono::milliseconds shortest = std::min(deadlines);
    return std::clamp(shortest / 100, std::chrono::milliseconds(5), std::chrono::milliseconds(50));
}

void DeadlineSweep::add(Member *member)
{
    if (member->m_sweep)
        member->m_sweep->remove(member);
    member->m_sweep = this;
    member->m_index = m_members.size();
    m_members.push_back(member);
    m_dueTimes.push_back(member->m_due);
    if (!m_timer.isActive())
        m_timer.start();
}

void DeadlineSweep::remove(Member *member)
{
    if (member->m_sweep != this)
        return;
    member->m_sweep = nullptr;
    const std::size_t index = member->m_index;
    // Swap with the last: O(1), and order does not matter to a sweep.
    m_members[index] = m_members.back();
    m_members[index]->m_index = index;
    m_members.pop_back();
    m_dueTimes[index] = m_dueTimes.back();
    m_dueTimes.pop_back();
    // A member removed while a sweep holds it must not be called back.
    std::replace(m_due.begin(), m_due.end(), member, static_cast<Member *>(nullptr));
    if (m_members.empty())
        m_timer.stop();
}

void DeadlineSweep::sweep(Clock::time_point now)
{
    // Collected first: a callback may add or remove members (a close ends a connection).
    m_due.clear();
    for (std::size_t i = 0; i < m_dueTimes.size(); ++i) {
        if (m_dueTimes[i] <= now)
            m_due.push_back(m_members[i]);
    }
    for (std::size_t i = 0; i < m_due.size(); ++i) {
        if (Member *member = m_due[i])
            member->deadlineReached(now);
    }
    m_due.clear();
}

} // namespace Presence::Server
