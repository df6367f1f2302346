// DeadlineSweep: members are called back once their due time has passed and never before,
// members that leave (removed, destroyed, or removed by another member's callback in the same
// sweep) are never called, and the timer runs only while there are members. Sweeps are driven
// with explicit times; one test runs on the real timer.

// C++
#include <functional>
#include <memory>

// Qt
#include <QTest>

// Presence
#include "server-mock/core/DeadlineSweep.h"

using Presence::Server::DeadlineSweep;
using namespace std::chrono_literals;
using Clock = DeadlineSweep::Clock;

namespace {

class Probe : public DeadlineSweep::Member {
public:
    explicit Probe(Clock::time_point due) { setDue(due); }
    ~Probe() override = default;

    void moveDue(Clock::time_point due) { setDue(due); }
    void leave() { leaveSweep(); }

    int calls = 0;
    Clock::time_point calledAt;
    std::function<void()> onCall; // runs inside the callback
    Clock::time_point next = Clock::time_point::max(); // due after a call

private:
    void deadlineReached(Clock::time_point now) override
    {
        ++calls;
        calledAt = now;
        setDue(next);
        if (onCall)
            onCall();
    }
};

const Clock::time_point t0 = Clock::now();

} // namespace

class TestDeadlineSweep : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void calledOnceDueHasPassed();
    void dueMovesOnAfterACall();
    void removedMembersAreNotCalled();
    void memberRemovedByAnotherInTheSameSweepIsSkipped();
    void memberDestroyedInItsOwnCallback();
    void memberAddedDuringASweepWaitsForTheNext();
    void destroyedMemberLeavesItsSweep();
    void memberOutlivingItsSweep();
    void addingToAnotherSweepLeavesTheFirst();
    void timerRunsOnlyWithMembers();
    void realTimerHonoursADeadlineWithinATick();
    void aMemberMovedByARemovalKeepsItsDueTime();
    void tickForKeepsDeadlinesWithinAHundredth();
};

void TestDeadlineSweep::calledOnceDueHasPassed()
{
    DeadlineSweep sweep(100ms);
    Probe early(t0 + 10ms), late(t0 + 50ms), never(Clock::time_point::max());
    sweep.add(&early);
    sweep.add(&late);
    sweep.add(&never);

    sweep.sweep(t0 + 9ms);
    QCOMPARE(early.calls, 0);
    sweep.sweep(t0 + 10ms); // due is inclusive
    QCOMPARE(early.calls, 1);
    QCOMPARE(early.calledAt, t0 + 10ms);
    QCOMPARE(late.calls, 0);
    sweep.sweep(t0 + 80ms);
    QCOMPARE(early.calls, 1); // its due moved to max
    QCOMPARE(late.calls, 1);
    QCOMPARE(never.calls, 0);
}

void TestDeadlineSweep::dueMovesOnAfterACall()
{
    DeadlineSweep sweep(100ms);
    Probe periodic(t0 + 10ms);
    sweep.add(&periodic);
    for (int i = 1; i <= 5; ++i) {
        periodic.next = t0 + (i + 1) * 10ms;
        sweep.sweep(t0 + i * 10ms);
        sweep.sweep(t0 + i * 10ms + 5ms); // between two dues: nothing
        QCOMPARE(periodic.calls, i);
    }
}

void TestDeadlineSweep::removedMembersAreNotCalled()
{
    DeadlineSweep sweep(100ms);
    Probe a(t0), b(t0), c(t0);
    sweep.add(&a);
    sweep.add(&b);
    sweep.add(&c);
    sweep.remove(&a); // the first: the last takes its place
    sweep.remove(&a); // twice is harmless
    QCOMPARE(sweep.size(), std::size_t(2));
    sweep.sweep(t0);
    QCOMPARE(a.calls, 0);
    QCOMPARE(b.calls, 1);
    QCOMPARE(c.calls, 1);
}

void TestDeadlineSweep::memberRemovedByAnotherInTheSameSweepIsSkipped()
{
    // Whichever of the two is visited first removes the other: exactly one is called.
    DeadlineSweep sweep(100ms);
    Probe a(t0), b(t0);
    sweep.add(&a);
    sweep.add(&b);
    a.onCall = [&] { sweep.remove(&b); };
    b.onCall = [&] { sweep.remove(&a); };
    sweep.sweep(t0);
    QCOMPARE(a.calls + b.calls, 1);
    QCOMPARE(sweep.size(), std::size_t(1));
}

void TestDeadlineSweep::memberDestroyedInItsOwnCallback()
{
    DeadlineSweep sweep(100ms);
    auto doomed = std::make_unique<Probe>(t0);
    Probe after(t0);
    sweep.add(doomed.get());
    sweep.add(&after);
    doomed->onCall = [&] { doomed.reset(); };
    sweep.sweep(t0);
    QVERIFY(!doomed);
    QCOMPARE(after.calls, 1);
    QCOMPARE(sweep.size(), std::size_t(1));
}

void TestDeadlineSweep::memberAddedDuringASweepWaitsForTheNext()
{
    DeadlineSweep sweep(100ms);
    Probe adder(t0), added(t0);
    sweep.add(&adder);
    adder.onCall = [&] { sweep.add(&added); };
    sweep.sweep(t0);
    QCOMPARE(added.calls, 0);
    sweep.sweep(t0 + 1ms);
    QCOMPARE(added.calls, 1);
}

void TestDeadlineSweep::destroyedMemberLeavesItsSweep()
{
    DeadlineSweep sweep(100ms);
    Probe stays(t0);
    sweep.add(&stays);
    {
        Probe gone(t0);
        sweep.add(&gone);
        QCOMPARE(sweep.size(), std::size_t(2));
    }
    QCOMPARE(sweep.size(), std::size_t(1));
    sweep.sweep(t0);
    QCOMPARE(stays.calls, 1);
}

void TestDeadlineSweep::memberOutlivingItsSweep()
{
    // A connection may be destroyed after its gateway's members: it must not touch the sweep.
    Probe survivor(t0);
    {
        DeadlineSweep sweep(100ms);
        sweep.add(&survivor);
    }
    survivor.leave(); // and its destructor, later: no use of the dead sweep
    QCOMPARE(survivor.calls, 0);
}

void TestDeadlineSweep::addingToAnotherSweepLeavesTheFirst()
{
    DeadlineSweep first(100ms), second(100ms);
    Probe probe(t0);
    first.add(&probe);
    second.add(&probe);
    QCOMPARE(first.size(), std::size_t(0));
    QCOMPARE(second.size(), std::size_t(1));
    first.sweep(t0);
    QCOMPARE(probe.calls, 0);
    second.sweep(t0);
    QCOMPARE(probe.calls, 1);
}

void TestDeadlineSweep::timerRunsOnlyWithMembers()
{
    DeadlineSweep sweep(100ms);
    QVERIFY(!sweep.isRunning());
    {
        Probe probe(Clock::time_point::max());
        sweep.add(&probe);
        QVERIFY(sweep.isRunning());
    }
    QVERIFY(!sweep.isRunning());
}

void TestDeadlineSweep::realTimerHonoursADeadlineWithinATick()
{
    DeadlineSweep sweep(20ms);
    const Clock::time_point due = Clock::now() + 60ms;
    Probe probe(due);
    sweep.add(&probe);
    QTRY_COMPARE_WITH_TIMEOUT(probe.calls, 1, 5000);
    QVERIFY(probe.calledAt >= due); // never early
}

// A removal moves the last member into the gap: its due time, and later changes to it, go
// with it.
void TestDeadlineSweep::aMemberMovedByARemovalKeepsItsDueTime()
{
    DeadlineSweep sweep(100ms);
    Probe a(t0 + 10ms), b(t0 + 1h), c(t0 + 20ms);
    sweep.add(&a);
    sweep.add(&b);
    sweep.add(&c);
    sweep.remove(&a); // c takes a's place
    sweep.sweep(t0 + 15ms); // a's old due time: nobody is due
    QCOMPARE(b.calls + c.calls, 0);
    sweep.sweep(t0 + 20ms);
    QCOMPARE(c.calls, 1);
    c.moveDue(t0 + 30ms);
    b.moveDue(t0 + 40ms);
    sweep.sweep(t0 + 35ms);
    QCOMPARE(c.calls, 2);
    QCOMPARE(b.calls, 0);
    sweep.sweep(t0 + 40ms);
    QCOMPARE(b.calls, 1);
    QCOMPARE(a.calls, 0);
}

void TestDeadlineSweep::tickForKeepsDeadlinesWithinAHundredth()
{
    QCOMPARE(DeadlineSweep::tickFor({ 5s, 25s, 2s }), 20ms);
    QCOMPARE(DeadlineSweep::tickFor({ 3s, 25s }), 30ms);
    QCOMPARE(DeadlineSweep::tickFor({ 10ms }), 5ms); // floor: the sweep is not a busy loop
    QCOMPARE(
        DeadlineSweep::tickFor({ 1h }), 50ms); // ceiling: what falls due in one tick stays small
}

QTEST_GUILESS_MAIN(TestDeadlineSweep)
#include "tst_deadline_sweep.moc"
