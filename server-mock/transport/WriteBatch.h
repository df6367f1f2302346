#pragma once

// C++
#include <vector>

// Qt
#include <QObject>

namespace Presence::Server {

class RawWebSocketTransport;

// Frames written during one event-loop iteration leave together: a transport with output adds
// itself here, and once the iteration's sockets, timers and fan-out are done (one posted call,
// run at the start of the next iteration) each one flushes everything it holds in one send().
// A connection that gets K pushes in an iteration costs one system call, not K; the idea is
// uWebSockets' cork. Transports waiting for the kernel to drain are flushed by their write
// notifier instead. What a transport defers to the end of the iteration (reading the bytes that
// came with the upgrade, telling its end) is done at the same turn.
class WriteBatch : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    ~WriteBatch() override;

    // Flushes transport at the end of this iteration; adding twice is the caller's to avoid.
    void add(RawWebSocketTransport *transport);
    // A transport that goes away before the flush.
    void remove(RawWebSocketTransport *transport);
    [[nodiscard]] std::size_t size() const { return m_pending.size(); }

    // Flushes every transport added so far (the posted call does this).
    void flush();

private:
    std::vector<RawWebSocketTransport *> m_pending;
    std::vector<RawWebSocketTransport *> m_flushing; // the batch being flushed
    bool m_posted = false;
};

} // namespace Presence::Server
