#pragma once

// C++
#include <chrono>
#include <functional>
#include <span>
#include <vector>

// Qt
#include <QObject>
#include <QTimer>

// Presence
#include "server-mock/core/ConnectionId.h"

namespace Presence::Server {

// When each connection gets its digest (docs/protocol.md §4): every interval a round over the
// connections there are, a slice at a time, the slices spread evenly over the interval. Sent in
// one go, a round over 19,000 connections stalls the loop for every push behind it.
//
// A slice may finish later (a store read that waits for Redis): the next starts only after
// that, and a round still running when the interval comes round again carries on instead of
// a second one starting.
class DigestRounds : public QObject {
    Q_OBJECT
public:
    // Who gets a digest this round, read when it starts.
    using Roster = std::function<std::vector<ConnectionId>()>;
    // Sends the digests of these connections (some may have gone since), now or later, and
    // calls done after. The span lives only as long as the call.
    using SendSlice
        = std::function<void(std::span<const ConnectionId>, std::function<void()> done)>;

    // interval > 0, sliceSize > 0.
    DigestRounds(std::chrono::milliseconds interval, int sliceSize, Roster roster,
        SendSlice sendSlice, QObject *parent = nullptr);

    void start();
    [[nodiscard]] bool isRoundRunning() const { return m_running; }
    [[nodiscard]] int roundsStarted() const { return m_roundsStarted; }
    // Intervals that came round while a round was still running.
    [[nodiscard]] int roundsSkipped() const { return m_roundsSkipped; }

private:
    void beginRound();
    void sendNextSlice();

    const std::chrono::milliseconds m_interval;
    const int m_sliceSize;
    Roster m_roster;
    SendSlice m_sendSlice;
    QTimer m_roundTimer;
    QTimer m_sliceTimer;
    std::vector<ConnectionId> m_round;
    size_t m_next = 0;
    bool m_running = false;
    int m_roundsStarted = 0;
    int m_roundsSkipped = 0;
};

} // namespace Presence::Server
