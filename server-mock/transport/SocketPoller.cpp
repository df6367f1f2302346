#include "server-mock/transport/SocketPoller.h"

// C++
#include <cerrno>
// System
#include <unistd.h>

namespace Presence::Server {

namespace {

epoll_event eventFor(SocketPoller::Watcher *watcher, bool read, bool write)
{
    epoll_event event {};
    event.events = (read ? EPOLLIN : 0U) | (write ? EPOLLOUT : 0U);
    event.data.ptr = watcher;
    return event;
}

} // namespace

SocketPoller::SocketPoller(QObject *parent)
    : QObject(parent)
    , m_epoll(::epoll_create1(EPOLL_CLOEXEC))
{
    if (m_epoll < 0)
        return;
    m_notifier = new QSocketNotifier(m_epoll, QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &SocketPoller::dispatch);
}

SocketPoller::~SocketPoller()
{
    if (m_epoll < 0)
        return;
    delete m_notifier; // before the descriptor it watches is closed
    ::close(m_epoll);
}

bool SocketPoller::watch(int descriptor, Watcher *watcher, bool read, bool write)
{
    epoll_event event = eventFor(watcher, read, write);
    return m_epoll >= 0 && ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, descriptor, &event) == 0;
}

void SocketPoller::setInterest(int descriptor, Watcher *watcher, bool read, bool write)
{
    if (!read && !write) {
        // Out of the set: epoll reports a hang-up whatever one asks, and level-triggered that
        // would wake the loop for ever on a connection that reads nothing now.
        unwatch(descriptor, watcher);
        return;
    }
    epoll_event event = eventFor(watcher, read, write);
    if (::epoll_ctl(m_epoll, EPOLL_CTL_MOD, descriptor, &event) != 0 && errno == ENOENT)
        ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, descriptor, &event);
}

void SocketPoller::unwatch(int descriptor, Watcher *watcher)
{
    ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, descriptor, nullptr);
    // Events of this batch not handed out yet must not reach a watcher that may be gone.
    for (int i = 0; i < m_ready; ++i) {
        if (m_events[std::size_t(i)].data.ptr == watcher)
            m_events[std::size_t(i)].data.ptr = nullptr;
    }
}

void SocketPoller::dispatch()
{
    const int ready = ::epoll_wait(m_epoll, m_events.data(), kBatch, 0);
    if (ready <= 0)
        return; // EINTR or nothing: level-triggered, the loop comes back
    m_ready = ready;
    for (int i = 0; i < ready; ++i) {
        const epoll_event &event = m_events[std::size_t(i)];
        const uint32_t flags = event.events;
        if (auto *watcher = static_cast<Watcher *>(event.data.ptr);
            watcher && (flags & (EPOLLIN | EPOLLHUP | EPOLLERR)))
            watcher->socketReadable();
        // Read again: socketReadable() may have unwatched it.
        if (auto *watcher = static_cast<Watcher *>(event.data.ptr);
            watcher && (flags & (EPOLLOUT | EPOLLHUP | EPOLLERR)))
            watcher->socketWritable();
    }
    m_ready = 0;
}

} // namespace Presence::Server
