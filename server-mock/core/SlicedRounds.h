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

// Periodic work over every connection, done a slice at a time: every interval a round over the
// connections there are, the slices spread evenly over the interval. Done in one go, a round
// over 19,000 connections stalls the loop (or Redis) for every push behind it. The digests
// (docs/protocol.md §4) and the Redis store's TTL refresh go this way.
//
// A slice may finish later (a store read that waits for Redis): the next starts only after
// that, and a round still running when the interval comes round again carries on instead of
// a second one starting.
class SlicedRounds : public QObject {
    Q_OBJECT
public:
    // The connections of this round, read when it starts (in any order).
    using Roster = std::function<std::vector<ConnectionId>()>;
    // Does the work for these connections (some may have gone since), now or later, and calls
    // done after. The span lives only as long as the call.
    using RunSlice = std::function<void(std::span<const ConnectionId>, std::function<void()> done)>;

    // interval > 0, sliceSize > 0.
    SlicedRounds(std::chrono::milliseconds interval, int sliceSize, Roster roster,
        RunSlice runSlice, QObject *parent = nullptr);

    void start();
    // Ends the round under way too; a slice that has not called done yet never will need to.
    void stop();
    [[nodiscard]] bool isRoundRunning() const { return m_running; }
    [[nodiscard]] int roundsStarted() const { return m_roundsStarted; }
    // Intervals that came round while a round was still running.
    [[nodiscard]] int roundsSkipped() const { return m_roundsSkipped; }

private:
    void beginRound();
    void runNextSlice();

    const std::chrono::milliseconds m_interval;
    const int m_sliceSize;
    Roster m_roster;
    RunSlice m_runSlice;
    QTimer m_roundTimer;
    QTimer m_sliceTimer;
    std::vector<ConnectionId> m_round;
    size_t m_next = 0;
    bool m_running = false;
    int m_generation = 0; // of the rounds: stop() starts a new one
    int m_roundsStarted = 0;
    int m_roundsSkipped = 0;
};

} // namespace Presence::Server
