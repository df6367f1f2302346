#pragma once

// C++
#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

// Qt
#include <QAbstractEventDispatcher>
#include <QList>
#include <QMultiHash>

class QObject;

namespace Presence::Server {

// Every timer of one event dispatcher in a binary heap keyed by (deadline, registration order),
// each timer knowing its index in the heap: starting, stopping and restarting a QTimer cost
// O(log n) however many run (Qt's own list is sorted by insertion, O(n)). Deadlines follow
// Qt's rules: PreciseTimer to the millisecond; CoarseTimer rounded up by at most 5 % so timers
// due close together fire in one wake-up (never early), precise under 20 ms and very coarse
// from 20 s; VeryCoarseTimer in whole seconds. A timer whose event is being delivered is out
// of the heap, so a nested event loop in its slot neither fires it again nor spins on it.
class TimerHeap {
public:
    using Clock = std::chrono::steady_clock;

    TimerHeap();
    ~TimerHeap();
    TimerHeap(const TimerHeap &) = delete;
    TimerHeap &operator=(const TimerHeap &) = delete;

    void registerTimer(int timerId, qint64 interval, Qt::TimerType timerType, QObject *object,
        Clock::time_point now);
    bool unregisterTimer(int timerId);
    bool unregisterTimers(QObject *object);
    [[nodiscard]] QList<QAbstractEventDispatcher::TimerInfo> registeredTimers(
        QObject *object) const;
    // Milliseconds until the timer is due (rounded up, 0 when overdue), -1 for an unknown id.
    [[nodiscard]] int remainingTime(int timerId, Clock::time_point now) const;
    // How long until the first timer is due (zero when one is), nullopt without timers.
    [[nodiscard]] std::optional<Clock::duration> timeUntilNext(Clock::time_point now) const;
    // Sends a QTimerEvent to each timer due at `now`, each at most once (a zero timer waits
    // for the next call); returns how many it sent.
    int activate(Clock::time_point now);
    [[nodiscard]] std::size_t size() const { return m_timers.size(); }

private:
    struct Timer;

    [[nodiscard]] static bool before(const Timer *a, const Timer *b);
    void push(Timer *timer);
    void removeAt(std::size_t index);
    void siftUp(std::size_t index);
    void siftDown(std::size_t index);
    void place(Timer *timer, std::size_t index);
    void destroy(Timer *timer);

    std::unordered_map<int, std::unique_ptr<Timer>> m_timers;
    QMultiHash<QObject *, Timer *> m_byObject;
    std::vector<Timer *> m_heap;
    // Ties on the deadline fire in registration order, as with Qt's list.
    quint64 m_nextSequence = 0;
};

} // namespace Presence::Server
