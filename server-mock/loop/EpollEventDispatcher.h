#pragma once

// C++
#include <atomic>
#include <memory>

// Qt
#include <QAbstractEventDispatcher>

namespace Presence::Server {

class SocketNotifierTable;
class TimerHeap;

// The gateway's event dispatcher, on epoll: Qt's own hands every descriptor to poll() on every
// iteration, which with thousands of idle connections costs more than the work itself. Each
// iteration sends the posted events, waits in epoll_wait until the first timer is due (no
// descriptor per timer), then activates the ready socket notifiers and the due timers.
// wakeUp() writes an eventfd, at most once until the loop has seen it; interrupt() makes the
// current processEvents() return. Install it for the main thread before QCoreApplication:
// QCoreApplication::setEventDispatcher(new EpollEventDispatcher).
class EpollEventDispatcher : public QAbstractEventDispatcher {
    Q_OBJECT
public:
    explicit EpollEventDispatcher(QObject *parent = nullptr);
    ~EpollEventDispatcher() override;

    bool processEvents(QEventLoop::ProcessEventsFlags flags) override;

    void registerSocketNotifier(QSocketNotifier *notifier) override;
    void unregisterSocketNotifier(QSocketNotifier *notifier) override;

    void registerTimer(
        int timerId, qint64 interval, Qt::TimerType timerType, QObject *object) override;
    bool unregisterTimer(int timerId) override;
    bool unregisterTimers(QObject *object) override;
    [[nodiscard]] QList<TimerInfo> registeredTimers(QObject *object) const override;
    int remainingTime(int timerId) override;

    // Both may be called from any thread.
    void wakeUp() override;
    void interrupt() override;

private:
    void drainWakeUp();

    int m_epollFd = -1;
    int m_wakeFd = -1;
    std::unique_ptr<TimerHeap> m_timers;
    std::unique_ptr<SocketNotifierTable> m_notifiers;
    // Set by the first wakeUp() since the loop last drained the eventfd: later ones write nothing.
    std::atomic<bool> m_wakeUpPending { false };
    std::atomic<bool> m_interrupted { false };
};

} // namespace Presence::Server
