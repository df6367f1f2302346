#include "server-mock/loop/TimerHeap.h"

// C++
#include <algorithm>
#include <array>
#include <limits>

// Qt
#include <QCoreApplication>
#include <QObject>
#include <QTimerEvent>

namespace Presence::Server {

namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using Clock = TimerHeap::Clock;

constexpr std::size_t kNotInHeap = std::numeric_limits<std::size_t>::max();

// Rounds `t` up to a multiple of `step` (on the clock's own epoch, so that timers of the
// same step meet on the same instants).
Clock::time_point roundUp(Clock::time_point t, Clock::duration step)
{
    const auto since = t.time_since_epoch();
    const auto remainder = since % step;
    return remainder == Clock::duration::zero() ? t : t + (step - remainder);
}

Clock::time_point roundToSecond(Clock::time_point t)
{
    const auto since = t.time_since_epoch();
    return Clock::time_point(std::chrono::round<seconds>(since));
}

// The coarse step: the largest "round" duration within 5 % of the interval.
Clock::duration coarseStep(qint64 interval)
{
    static constexpr std::array<qint64, 9> kSteps = { 500, 200, 100, 50, 20, 10, 5, 2, 1 };
    for (const qint64 step : kSteps) {
        if (step * 20 <= interval)
            return milliseconds(step);
    }
    return milliseconds(1);
}

} // namespace

struct TimerHeap::Timer {
    int id = 0;
    // Milliseconds; whole seconds for a very coarse timer (as registeredTimers reports it).
    qint64 interval = 0;
    Qt::TimerType type = Qt::CoarseTimer;
    QObject *object = nullptr;
    Clock::time_point deadline;
    quint64 sequence = 0;
    std::size_t heapIndex = kNotInHeap;
    // While its event is delivered: the deliverer's pointer, cleared if the slot unregisters it.
    Timer **delivering = nullptr;

    void scheduleFirst(Clock::time_point now)
    {
        const auto due = now + milliseconds(interval);
        switch (type) {
        case Qt::PreciseTimer:
            deadline = due;
            break;
        case Qt::CoarseTimer:
            deadline = roundUp(due, coarseStep(interval));
            break;
        case Qt::VeryCoarseTimer:
            deadline = roundToSecond(due);
            break;
        }
    }

    // After it fired at `now`: keep the phase, skip what was missed (Qt's rules).
    void scheduleNext(Clock::time_point now)
    {
        if (type == Qt::VeryCoarseTimer) {
            deadline += milliseconds(interval);
            if (deadline <= now)
                deadline = std::chrono::floor<seconds>(now) + milliseconds(interval);
            return;
        }
        deadline += milliseconds(interval);
        if (deadline < now)
            deadline = now + milliseconds(interval);
        if (type == Qt::CoarseTimer)
            deadline = roundUp(deadline, coarseStep(interval));
    }
};

TimerHeap::TimerHeap() = default;

TimerHeap::~TimerHeap()
{
    for (auto &entry : m_timers) {
        if (entry.second->delivering)
            *entry.second->delivering = nullptr;
    }
}

void TimerHeap::registerTimer(
    int timerId, qint64 interval, Qt::TimerType timerType, QObject *object, Clock::time_point now)
{
    auto timer = std::make_unique<Timer>();
    timer->id = timerId;
    timer->object = object;
    timer->interval = std::max<qint64>(interval, 0);
    timer->type = timerType;
    // Qt's boundaries: under 20 ms 5 % is below a millisecond; from 20 s it is above a second.
    if (timerType == Qt::CoarseTimer) {
        if (timer->interval >= 20000)
            timer->type = Qt::VeryCoarseTimer;
        else if (timer->interval <= 20)
            timer->type = Qt::PreciseTimer;
    }
    if (timer->type == Qt::VeryCoarseTimer)
        timer->interval = (timer->interval + 500) / 1000 * 1000;
    timer->scheduleFirst(now);
    timer->sequence = m_nextSequence++;

    Timer *raw = timer.get();
    if (auto previous = m_timers.find(timerId); previous != m_timers.end()) {
        qWarning("TimerHeap: timer id %d registered twice", timerId);
        destroy(previous->second.get());
    }
    m_timers.emplace(timerId, std::move(timer));
    m_byObject.insert(object, raw);
    push(raw);
}

bool TimerHeap::unregisterTimer(int timerId)
{
    const auto it = m_timers.find(timerId);
    if (it == m_timers.end())
        return false;
    destroy(it->second.get());
    return true;
}

bool TimerHeap::unregisterTimers(QObject *object)
{
    const QList<Timer *> timers = m_byObject.values(object);
    for (Timer *timer : timers)
        destroy(timer);
    return !timers.isEmpty();
}

QList<QAbstractEventDispatcher::TimerInfo> TimerHeap::registeredTimers(QObject *object) const
{
    QList<QAbstractEventDispatcher::TimerInfo> infos;
    const QList<Timer *> timers = m_byObject.values(object);
    for (const Timer *timer : timers)
        infos.append({ timer->id, int(timer->interval), timer->type });
    return infos;
}

int TimerHeap::remainingTime(int timerId, Clock::time_point now) const
{
    const auto it = m_timers.find(timerId);
    if (it == m_timers.end())
        return -1;
    const auto left = it->second->deadline - now;
    if (left <= Clock::duration::zero())
        return 0;
    return int(std::min<qint64>(
        std::chrono::ceil<milliseconds>(left).count(), std::numeric_limits<int>::max()));
}

std::optional<Clock::duration> TimerHeap::timeUntilNext(Clock::time_point now) const
{
    if (m_heap.empty())
        return std::nullopt;
    return std::max(m_heap.front()->deadline - now, Clock::duration::zero());
}

int TimerHeap::activate(Clock::time_point now)
{
    // Timers (re)scheduled from here on carry a later sequence: they wait for the next call.
    const quint64 round = m_nextSequence;
    int sent = 0;
    while (!m_heap.empty()) {
        Timer *timer = m_heap.front();
        if (timer->deadline > now || timer->sequence >= round)
            break;
        removeAt(0);
        timer->scheduleNext(now);
        timer->sequence = m_nextSequence++;

        // Out of the heap while its slot runs; back in unless the slot stopped it.
        Timer *alive = timer;
        timer->delivering = &alive;
        QTimerEvent event(timer->id);
        QCoreApplication::sendEvent(timer->object, &event);
        ++sent;
        if (alive) {
            alive->delivering = nullptr;
            push(alive);
        }
    }
    return sent;
}

bool TimerHeap::before(const Timer *a, const Timer *b)
{
    return a->deadline < b->deadline || (a->deadline == b->deadline && a->sequence < b->sequence);
}

void TimerHeap::push(Timer *timer)
{
    m_heap.push_back(timer);
    timer->heapIndex = m_heap.size() - 1;
    siftUp(timer->heapIndex);
}

void TimerHeap::removeAt(std::size_t index)
{
    Timer *removed = m_heap[index];
    Timer *last = m_heap.back();
    m_heap.pop_back();
    removed->heapIndex = kNotInHeap;
    if (index == m_heap.size())
        return;
    place(last, index);
    if (index > 0 && before(last, m_heap[(index - 1) / 2]))
        siftUp(index);
    else
        siftDown(index);
}

void TimerHeap::siftUp(std::size_t index)
{
    Timer *timer = m_heap[index];
    while (index > 0) {
        const std::size_t parent = (index - 1) / 2;
        if (!before(timer, m_heap[parent]))
            break;
        place(m_heap[parent], index);
        index = parent;
    }
    place(timer, index);
}

void TimerHeap::siftDown(std::size_t index)
{
    Timer *timer = m_heap[index];
    const std::size_t size = m_heap.size();
    while (true) {
        std::size_t child = 2 * index + 1;
        if (child >= size)
            break;
        if (child + 1 < size && before(m_heap[child + 1], m_heap[child]))
            ++child;
        if (!before(m_heap[child], timer))
            break;
        place(m_heap[child], index);
        index = child;
    }
    place(timer, index);
}

void TimerHeap::place(Timer *timer, std::size_t index)
{
    m_heap[index] = timer;
    timer->heapIndex = index;
}

void TimerHeap::destroy(Timer *timer)
{
    if (timer->heapIndex != kNotInHeap)
        removeAt(timer->heapIndex);
    if (timer->delivering)
        *timer->delivering = nullptr;
    m_byObject.remove(timer->object, timer);
    m_timers.erase(timer->id);
}

} // namespace Presence::Server
