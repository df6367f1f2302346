#pragma once

// C++
#include <cstdint>
#include <memory>
#include <vector>

struct epoll_event;
class QSocketNotifier;

namespace Presence::Server {

// The socket notifiers of one epoll set: one record per descriptor (its read, write and
// exception notifiers), which epoll hands back through epoll_event.data.ptr, level-triggered.
// Interest changes are queued and applied at once before epoll_wait, and only where the
// descriptor's net mask changed: QTcpSocket turns its write notifier on for every write and off
// once sent, which would otherwise cost two epoll_ctl calls a frame. A descriptor left without
// notifiers leaves the set at once, while it is still open (its number may be reused within
// the iteration); its record outlives any dispatch that may still hold its pointer.
class SocketNotifierTable {
public:
    explicit SocketNotifierTable(int epollFd);
    ~SocketNotifierTable();
    SocketNotifierTable(const SocketNotifierTable &) = delete;
    SocketNotifierTable &operator=(const SocketNotifierTable &) = delete;

    void add(QSocketNotifier *notifier);
    void remove(QSocketNotifier *notifier);
    // One epoll_ctl per descriptor whose mask changed since the last call.
    void applyChanges();
    // Sends QEvent::SockAct to the notifiers of each ready descriptor (EPOLLHUP and EPOLLERR
    // to read and write alike); a notifier deleted or disabled by an earlier slot is skipped.
    // Events whose data.ptr is null are not the table's and are skipped. Returns how many
    // notifiers it activated.
    int activate(const epoll_event *events, int count);

private:
    struct Descriptor;

    [[nodiscard]] Descriptor *find(int fd) const;
    void retire(int fd);

    int m_epollFd;
    // Indexed by descriptor: descriptors are small numbers, and the lookup is on every change.
    std::vector<std::unique_ptr<Descriptor>> m_descriptors;
    std::vector<int> m_changed;
    // Records left without notifiers while a dispatch may still hold their pointer.
    std::vector<std::unique_ptr<Descriptor>> m_retired;
    int m_dispatchDepth = 0;
};

} // namespace Presence::Server
