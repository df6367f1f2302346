#pragma once

// C++
#include <chrono>
#include <cstddef>
#include <vector>

// Qt
#include <QObject>
#include <QTimer>

namespace Presence::Server {

// One timer for the deadlines of every connection (hello, heartbeat, silence, close), instead
// of a QTimer or four per connection: each member keeps the earliest time it may need to act
// (due()), and a sweep every tick calls back only the members whose time has come. As in
// uWebSockets' timeout sweep, a deadline is never honoured early and at most one tick late.
//
// The due times also sit in one array of the sweep's, so that a sweep reads 8 bytes per member
// in a row instead of visiting 19,000 connections scattered over the heap. That makes a short
// tick cheap, and a short tick matters: what falls due in one tick (19,000 connections' pings
// every 25 s) is done in one loop iteration, ahead of every push waiting behind it.
//
// A member may be called before its real deadline (a due time that is too early is allowed:
// it just recomputes and moves due() on), never after it by more than a tick.
class DeadlineSweep : public QObject {
    Q_OBJECT
public:
    using Clock = std::chrono::steady_clock;

    class Member {
    public:
        Member() = default;
        Member(const Member &) = delete;
        Member &operator=(const Member &) = delete;
        [[nodiscard]] Clock::time_point due() const { return m_due; }

    protected:
        // Leaves its sweep, if the sweep is still there (a connection may outlive its gateway's
        // members when both die).
        virtual ~Member();
        // Called by a sweep once due() has passed. Acts on what is late and sets due() again
        // (Clock::time_point::max() when it waits for nothing).
        virtual void deadlineReached(Clock::time_point now) = 0;
        void setDue(Clock::time_point due);
        void leaveSweep();

    private:
        friend class DeadlineSweep;
        DeadlineSweep *m_sweep = nullptr;
        Clock::time_point m_due = Clock::time_point::max();
        std::size_t m_index = 0; // in m_sweep->m_members
    };

    // tick: how late a deadline may be honoured; the sweep runs only while there are members.
    explicit DeadlineSweep(std::chrono::milliseconds tick, QObject *parent = nullptr);
    ~DeadlineSweep() override;

    // A member belongs to one sweep at a time.
    void add(Member *member);
    // Safe during a sweep, also for members not yet visited. Destroying a member removes it.
    void remove(Member *member);
    [[nodiscard]] std::size_t size() const { return m_members.size(); }
    [[nodiscard]] std::chrono::milliseconds tick() const { return m_tick; }
    // Whether the sweep timer runs (only while there are members).
    [[nodiscard]] bool isRunning() const { return m_timer.isActive(); }

    // The tick that keeps each of these deadlines within a hundredth of itself (5–50 ms).
    [[nodiscard]] static std::chrono::milliseconds tickFor(
        std::initializer_list<std::chrono::milliseconds> deadlines);

    // Runs one sweep now (the timer calls it every tick).
    void sweep(Clock::time_point now);

private:
    std::chrono::milliseconds m_tick;
    std::vector<Member *> m_members;
    std::vector<Clock::time_point> m_dueTimes; // m_members[i]->due(), read by a sweep
    std::vector<Member *> m_due; // scratch of one sweep
    QTimer m_timer;
};

} // namespace Presence::Server
