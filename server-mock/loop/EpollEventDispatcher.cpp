#include "server-mock/loop/EpollEventDispatcher.h"

// C++
#include <array>
#include <cerrno>
#include <chrono>
#include <limits>
// System
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

// Qt
#include <QCoreApplication>
#include <QSocketNotifier>
#include <QThread>

// Presence
#include "server-mock/loop/Logging.h"
#include "server-mock/loop/SocketNotifierTable.h"
#include "server-mock/loop/TimerHeap.h"

namespace Presence::Server {

namespace {

// epoll_wait's timeout: at least as long as `wait` (a timer never fires early), -1 for ever.
int timeoutMs(std::optional<TimerHeap::Clock::duration> wait)
{
    if (!wait)
        return -1;
    const auto ms = std::chrono::ceil<std::chrono::milliseconds>(*wait).count();
    return int(std::min<qint64>(ms, std::numeric_limits<int>::max()));
}

} // namespace

EpollEventDispatcher::EpollEventDispatcher(QObject *parent)
    : QAbstractEventDispatcher(parent)
{
    m_epollFd = epoll_create1(EPOLL_CLOEXEC);
    if (m_epollFd < 0)
        qFatal("EpollEventDispatcher: epoll_create1: %s", qPrintable(qt_error_string(errno)));
    m_wakeFd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (m_wakeFd < 0)
        qFatal("EpollEventDispatcher: eventfd: %s", qPrintable(qt_error_string(errno)));
    // The wake-up descriptor is the one whose data.ptr is null; the notifiers' are records.
    epoll_event event {};
    event.events = EPOLLIN;
    event.data.ptr = nullptr;
    if (epoll_ctl(m_epollFd, EPOLL_CTL_ADD, m_wakeFd, &event) != 0)
        qFatal("EpollEventDispatcher: epoll_ctl: %s", qPrintable(qt_error_string(errno)));
    m_timers = std::make_unique<TimerHeap>();
    m_notifiers = std::make_unique<SocketNotifierTable>(m_epollFd);
}

EpollEventDispatcher::~EpollEventDispatcher()
{
    m_notifiers.reset();
    m_timers.reset();
    close(m_wakeFd);
    close(m_epollFd);
}

bool EpollEventDispatcher::processEvents(QEventLoop::ProcessEventsFlags flags)
{
    // As QEventDispatcherUNIX: awake, the posted events, then wait unless told not to.
    m_interrupted.store(false, std::memory_order_relaxed);
    Q_EMIT awake();
    QCoreApplication::sendPostedEvents();

    const bool includeTimers = !flags.testFlag(QEventLoop::X11ExcludeTimers);
    const bool includeNotifiers = !flags.testFlag(QEventLoop::ExcludeSocketNotifiers);
    const bool canWait = flags.testFlag(QEventLoop::WaitForMoreEvents)
        && !m_interrupted.load(std::memory_order_relaxed);
    if (canWait)
        Q_EMIT aboutToBlock();
    if (m_interrupted.load(std::memory_order_relaxed))
        return false;

    int timeout = 0;
    if (canWait)
        timeout = timeoutMs(
            includeTimers ? m_timers->timeUntilNext(TimerHeap::Clock::now()) : std::nullopt);

    int handled = 0;
    if (includeNotifiers) {
        m_notifiers->applyChanges();
        std::array<epoll_event, 256> events;
        int ready = epoll_wait(m_epollFd, events.data(), int(events.size()), timeout);
        if (ready < 0) {
            if (errno != EINTR)
                qCWarning(lcLoop, "epoll_wait: %s", qPrintable(qt_error_string(errno)));
            ready = 0;
        }
        for (int i = 0; i < ready; ++i) {
            if (!events[std::size_t(i)].data.ptr) {
                drainWakeUp();
                ++handled;
            }
        }
        handled += m_notifiers->activate(events.data(), ready);
    } else {
        // Level-triggered descriptors excluded from this call would wake epoll_wait at once
        // and for ever: wait on the wake-up descriptor alone, as Qt's poll() of it does.
        pollfd wake { m_wakeFd, POLLIN, 0 };
        if (poll(&wake, 1, timeout) > 0) {
            drainWakeUp();
            ++handled;
        }
    }
    if (includeTimers)
        handled += m_timers->activate(TimerHeap::Clock::now());
    return handled > 0;
}

void EpollEventDispatcher::registerSocketNotifier(QSocketNotifier *notifier)
{
    Q_ASSERT(notifier);
    if (notifier->thread() != thread() || thread() != QThread::currentThread()) {
        qCWarning(lcLoop, "socket notifiers cannot be enabled from another thread");
        return;
    }
    m_notifiers->add(notifier);
}

void EpollEventDispatcher::unregisterSocketNotifier(QSocketNotifier *notifier)
{
    Q_ASSERT(notifier);
    if (notifier->thread() != thread() || thread() != QThread::currentThread()) {
        qCWarning(lcLoop, "socket notifiers cannot be disabled from another thread");
        return;
    }
    m_notifiers->remove(notifier);
}

void EpollEventDispatcher::registerTimer(
    int timerId, qint64 interval, Qt::TimerType timerType, QObject *object)
{
    if (timerId < 1 || interval < 0 || !object) {
        qCWarning(lcLoop, "registerTimer: invalid arguments");
        return;
    }
    m_timers->registerTimer(timerId, interval, timerType, object, TimerHeap::Clock::now());
}

bool EpollEventDispatcher::unregisterTimer(int timerId)
{
    return m_timers->unregisterTimer(timerId);
}

bool EpollEventDispatcher::unregisterTimers(QObject *object)
{
    return m_timers->unregisterTimers(object);
}

QList<QAbstractEventDispatcher::TimerInfo> EpollEventDispatcher::registeredTimers(
    QObject *object) const
{
    return m_timers->registeredTimers(object);
}

int EpollEventDispatcher::remainingTime(int timerId)
{
    return m_timers->remainingTime(timerId, TimerHeap::Clock::now());
}

void EpollEventDispatcher::wakeUp()
{
    // Many threads may post at once: the first write is enough until the loop drains it.
    if (m_wakeUpPending.exchange(true, std::memory_order_acq_rel))
        return;
    eventfd_write(m_wakeFd, 1);
}

void EpollEventDispatcher::interrupt()
{
    m_interrupted.store(true, std::memory_order_relaxed);
    wakeUp();
}

void EpollEventDispatcher::drainWakeUp()
{
    eventfd_t value = 0;
    eventfd_read(m_wakeFd, &value);
    // After the read: a wakeUp() from here on writes again. One that came in between has its
    // event sent by the next processEvents(), which starts with the posted events.
    m_wakeUpPending.store(false, std::memory_order_release);
}

} // namespace Presence::Server
