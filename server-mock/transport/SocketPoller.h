#pragma once

// C++
#include <array>
// System
#include <sys/epoll.h>

// Qt
#include <QObject>
#include <QSocketNotifier>

namespace Presence::Server {

// Watches many sockets through one epoll descriptor of its own, which one QSocketNotifier
// watches in turn: the event loop sees a single descriptor however many connections there
// are, and a watched socket costs an epoll entry, not two QSocketNotifiers (a QObject, a
// signal connection and a loop record each, about 600 bytes a connection in all).
// Level-triggered; each time the loop finds it ready it hands out at most kBatch events.
class SocketPoller : public QObject {
    Q_OBJECT
public:
    // Told of its socket's readiness. A hang-up or an error is told as both, whatever was
    // asked: a watcher ignores what it is not waiting for.
    class Watcher {
    public:
        virtual void socketReadable() = 0;
        virtual void socketWritable() = 0;

    protected:
        virtual ~Watcher() = default;
    };

    explicit SocketPoller(QObject *parent = nullptr);
    ~SocketPoller() override;

    // False when the kernel gave no epoll descriptor (then nothing can be watched).
    [[nodiscard]] bool isValid() const { return m_epoll >= 0; }
    // False (errno set) when epoll refuses the descriptor.
    bool watch(int descriptor, Watcher *watcher, bool read, bool write);
    // Neither read nor write takes the descriptor out of the set until interest returns.
    void setInterest(int descriptor, Watcher *watcher, bool read, bool write);
    // Before the descriptor is closed or the watcher goes; safe while events are handed out
    // (a watcher may end another one): the watcher hears nothing more.
    void unwatch(int descriptor, Watcher *watcher);

    static constexpr int kBatch = 256;

private:
    void dispatch();

    int m_epoll;
    QSocketNotifier *m_notifier = nullptr;
    std::array<epoll_event, kBatch> m_events {};
    int m_ready = 0; // events of the batch being handed out
};

} // namespace Presence::Server
