#include "server-mock/loop/SocketNotifierTable.h"

// C++
#include <array>
#include <cerrno>
// System
#include <sys/epoll.h>

// Qt
#include <QCoreApplication>
#include <QEvent>
#include <QSocketNotifier>

// Presence
#include "server-mock/loop/Logging.h"

namespace Presence::Server {

struct SocketNotifierTable::Descriptor {
    int fd = -1;
    // Indexed by QSocketNotifier::Type: Read, Write, Exception.
    std::array<QSocketNotifier *, 3> notifiers {};
    // What epoll watches now (0: not in the set).
    std::uint32_t watched = 0;
    bool queued = false;

    [[nodiscard]] std::uint32_t wanted() const
    {
        return (notifiers[QSocketNotifier::Read] ? std::uint32_t(EPOLLIN) : 0u)
            | (notifiers[QSocketNotifier::Write] ? std::uint32_t(EPOLLOUT) : 0u)
            | (notifiers[QSocketNotifier::Exception] ? std::uint32_t(EPOLLPRI) : 0u);
    }
};

namespace {

const char *typeName(QSocketNotifier::Type type)
{
    switch (type) {
    case QSocketNotifier::Read:
        return "Read";
    case QSocketNotifier::Write:
        return "Write";
    case QSocketNotifier::Exception:
        return "Exception";
    }
    return "?";
}

// The notifier's own guard against delivery after it is gone: the record's slot is re-read
// after every slot, so a notifier deleted or disabled meanwhile is skipped.
bool send(QSocketNotifier *const &slot)
{
    if (!slot)
        return false;
    QEvent event(QEvent::SockAct);
    QCoreApplication::sendEvent(slot, &event);
    return true;
}

} // namespace

SocketNotifierTable::SocketNotifierTable(int epollFd)
    : m_epollFd(epollFd)
{
}

SocketNotifierTable::~SocketNotifierTable() = default;

void SocketNotifierTable::add(QSocketNotifier *notifier)
{
    const int fd = int(notifier->socket());
    const QSocketNotifier::Type type = notifier->type();
    if (fd < 0) {
        qCWarning(lcLoop, "socket notifier with invalid descriptor %d", fd);
        return;
    }
    if (std::size_t(fd) >= m_descriptors.size())
        m_descriptors.resize(std::size_t(fd) + 1);
    auto &record = m_descriptors[std::size_t(fd)];
    if (!record) {
        record = std::make_unique<Descriptor>();
        record->fd = fd;
    }
    if (record->notifiers[type] && record->notifiers[type] != notifier)
        qCWarning(
            lcLoop, "multiple socket notifiers for descriptor %d and type %s", fd, typeName(type));
    record->notifiers[type] = notifier;
    if (!record->queued) {
        record->queued = true;
        m_changed.push_back(fd);
    }
}

void SocketNotifierTable::remove(QSocketNotifier *notifier)
{
    const int fd = int(notifier->socket());
    Descriptor *record = find(fd);
    if (!record || record->notifiers[notifier->type()] != notifier)
        return;
    record->notifiers[notifier->type()] = nullptr;
    if (record->wanted() == 0) {
        retire(fd);
        return;
    }
    if (!record->queued) {
        record->queued = true;
        m_changed.push_back(fd);
    }
}

void SocketNotifierTable::applyChanges()
{
    for (const int fd : m_changed) {
        Descriptor *record = find(fd);
        if (!record || !record->queued)
            continue;
        record->queued = false;
        const std::uint32_t wanted = record->wanted();
        if (wanted == record->watched)
            continue;
        epoll_event event {};
        event.events = wanted;
        event.data.ptr = record;
        int op = record->watched == 0 ? EPOLL_CTL_ADD : EPOLL_CTL_MOD;
        int result = epoll_ctl(m_epollFd, op, fd, &event);
        // The set and the table disagree only when a descriptor was closed under its
        // notifiers (the kernel dropped it) or reused: make the set match the table.
        if (result != 0 && op == EPOLL_CTL_MOD && errno == ENOENT)
            result = epoll_ctl(m_epollFd, op = EPOLL_CTL_ADD, fd, &event);
        else if (result != 0 && op == EPOLL_CTL_ADD && errno == EEXIST)
            result = epoll_ctl(m_epollFd, op = EPOLL_CTL_MOD, fd, &event);
        if (result != 0) {
            qCWarning(lcLoop, "epoll_ctl(%s, %d) failed: %s; its notifiers will not fire",
                op == EPOLL_CTL_ADD ? "ADD" : "MOD", fd, qPrintable(qt_error_string(errno)));
            continue;
        }
        record->watched = wanted;
    }
    m_changed.clear();
}

int SocketNotifierTable::activate(const epoll_event *events, int count)
{
    int activated = 0;
    ++m_dispatchDepth;
    for (int i = 0; i < count; ++i) {
        auto *record = static_cast<Descriptor *>(events[i].data.ptr);
        if (!record)
            continue;
        const std::uint32_t ready = events[i].events;
        // A slot may delete any notifier, even the next one on this descriptor: each slot of
        // the record is read only when its turn comes, and a retired record has none left.
        if (ready & (EPOLLIN | EPOLLHUP | EPOLLERR))
            activated += send(record->notifiers[QSocketNotifier::Read]);
        if (ready & (EPOLLOUT | EPOLLHUP | EPOLLERR))
            activated += send(record->notifiers[QSocketNotifier::Write]);
        if (ready & EPOLLPRI)
            activated += send(record->notifiers[QSocketNotifier::Exception]);
    }
    if (--m_dispatchDepth == 0)
        m_retired.clear();
    return activated;
}

SocketNotifierTable::Descriptor *SocketNotifierTable::find(int fd) const
{
    if (fd < 0 || std::size_t(fd) >= m_descriptors.size())
        return nullptr;
    return m_descriptors[std::size_t(fd)].get();
}

void SocketNotifierTable::retire(int fd)
{
    auto &slot = m_descriptors[std::size_t(fd)];
    // Now, while the descriptor is still open: QAbstractSocket disables its notifiers before
    // it closes, and a number closed then reused must not find a stale entry in the set.
    if (slot->watched != 0 && epoll_ctl(m_epollFd, EPOLL_CTL_DEL, fd, nullptr) != 0
        && errno != EBADF && errno != ENOENT)
        qCWarning(lcLoop, "epoll_ctl(DEL, %d) failed: %s", fd, qPrintable(qt_error_string(errno)));
    slot->watched = 0;
    slot->queued = false;
    if (m_dispatchDepth > 0)
        m_retired.push_back(std::move(slot));
    else
        slot.reset();
}

} // namespace Presence::Server
