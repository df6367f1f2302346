// SlicedRounds on its own, on real (short) timers: every connection once a round, in slices
// of the size asked, spread over the interval, and a slice that waits (a store read) holds back
// the rest of its round and the next one.

// C++
#include <chrono>
#include <functional>
#include <utility>
#include <vector>

// Qt
#include <QElapsedTimer>
#include <QTest>

// Presence
#include "server-mock/core/SlicedRounds.h"

using namespace std::chrono_literals;
using Presence::Server::ConnectionId;
using Presence::Server::SlicedRounds;

namespace {

struct Slice {
    std::vector<ConnectionId> ids;
    qint64 atMs;
    int round; // roundsStarted() when it was sent
};

std::vector<ConnectionId> range(ConnectionId first, ConnectionId last)
{
    std::vector<ConnectionId> ids;
    for (ConnectionId id = first; id <= last; ++id)
        ids.push_back(id);
    return ids;
}

// Rounds over a fixed roster, started at once, whose slices are recorded (ids, when, which
// round) and done at once, or left `pending` for the test to answer (a store that waits).
class RecordedRounds {
public:
    enum class Answer { AtOnce, Later };

    RecordedRounds(std::chrono::milliseconds interval, int sliceSize,
        const std::vector<ConnectionId> &roster, Answer answer = Answer::AtOnce)
        : rounds(
            interval, sliceSize, [roster] { return roster; },
            [this, answer](std::span<const ConnectionId> slice, const std::function<void()> &done) {
                slices.push_back(
                    { { slice.begin(), slice.end() }, clock.elapsed(), rounds.roundsStarted() });
                if (answer == Answer::AtOnce)
                    done();
                else
                    pending = done;
            })
    {
        clock.start();
        rounds.start();
    }

    std::vector<Slice> slices;
    std::function<void()> pending; // Answer::Later: the last slice's done
    QElapsedTimer clock;
    SlicedRounds rounds; // last: its callbacks use the members above
};

} // namespace

class TestSlicedRounds : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aRoundSendsEveryConnectionOnceInSlices();
    void slicesAreSpreadOverTheInterval();
    void eachRoundReadsTheRosterAgain();
    void aWaitingSliceHoldsBackItsRoundAndTheNext();
    void anEmptyRosterSendsNothing();
    void aRoundGoesInTheOrderOfTheIds();
    void stopEndsTheRoundAndItsLateSliceIsIgnored();
};

void TestSlicedRounds::aRoundSendsEveryConnectionOnceInSlices()
{
    RecordedRounds recorded(100ms, 3, range(1, 10));
    const std::vector<Slice> &slices = recorded.slices;
    QTRY_VERIFY_WITH_TIMEOUT(slices.size() >= 5, 5000);
    QCOMPARE(slices.at(0).ids, range(1, 3));
    QCOMPARE(slices.at(1).ids, range(4, 6));
    QCOMPARE(slices.at(2).ids, range(7, 9));
    QCOMPARE(slices.at(3).ids, range(10, 10));
    QCOMPARE(slices.at(3).round, 1);
    // The next round starts over.
    QCOMPARE(slices.at(4).ids, range(1, 3));
    QCOMPARE(slices.at(4).round, 2);
}

void TestSlicedRounds::slicesAreSpreadOverTheInterval()
{
    // 4 slices in a 400 ms interval: one every 100 ms, the last 300 ms after the first. Timers
    // never fire much early, so half of that is a bound a busy machine cannot break.
    RecordedRounds recorded(400ms, 5, range(1, 20));
    const std::vector<Slice> &slices = recorded.slices;
    QTRY_VERIFY_WITH_TIMEOUT(slices.size() >= 4, 5000);
    QVERIFY2(slices.at(1).atMs - slices.at(0).atMs >= 50, "the second slice came at once");
    QVERIFY2(slices.at(3).atMs - slices.at(0).atMs >= 150, "the slices were not spread");
    QCOMPARE(slices.at(3).round, 1);
}

void TestSlicedRounds::eachRoundReadsTheRosterAgain()
{
    std::vector<ConnectionId> connected = range(1, 2);
    std::vector<std::vector<ConnectionId>> slices;
    SlicedRounds rounds(
        50ms, 10, [&] { return connected; },
        [&](std::span<const ConnectionId> slice, const std::function<void()> &done) {
            slices.emplace_back(slice.begin(), slice.end());
            done();
        });
    rounds.start();
    QTRY_COMPARE(slices.size(), size_t(1));
    QCOMPARE(slices.back(), range(1, 2));
    connected = { 2, 7 };
    QTRY_COMPARE(slices.size(), size_t(2));
    QCOMPARE(slices.back(), (std::vector<ConnectionId> { 2, 7 }));
}

void TestSlicedRounds::aWaitingSliceHoldsBackItsRoundAndTheNext()
{
    // The store has not answered yet.
    RecordedRounds recorded(50ms, 2, range(1, 4), RecordedRounds::Answer::Later);
    const std::vector<Slice> &slices = recorded.slices;
    SlicedRounds &rounds = recorded.rounds;
    QTRY_COMPARE(slices.size(), size_t(1));
    // Several intervals go by: no second slice, no second round.
    QTRY_VERIFY(rounds.roundsSkipped() >= 3);
    QCOMPARE(slices.size(), size_t(1));
    QCOMPARE(rounds.roundsStarted(), 1);
    QVERIFY(rounds.isRoundRunning());

    std::exchange(recorded.pending, {})(); // the store answers
    QTRY_COMPARE(slices.size(), size_t(2));
    QCOMPARE(slices.back().ids, range(3, 4));
    std::exchange(recorded.pending, {})();
    QVERIFY(!rounds.isRoundRunning());
    QTRY_COMPARE(slices.size(), size_t(3));
    QCOMPARE(slices.back().ids, range(1, 2));
    QCOMPARE(rounds.roundsStarted(), 2);
}

void TestSlicedRounds::anEmptyRosterSendsNothing()
{
    int sent = 0;
    SlicedRounds rounds(
        20ms, 4, [] { return std::vector<ConnectionId> {}; },
        [&](std::span<const ConnectionId>, const std::function<void()> &done) {
            ++sent;
            done();
        });
    rounds.start();
    QTRY_VERIFY(rounds.roundsStarted() >= 3);
    QCOMPARE(sent, 0);
    QVERIFY(!rounds.isRoundRunning());
}

void TestSlicedRounds::aRoundGoesInTheOrderOfTheIds()
{
    RecordedRounds recorded(50ms, 2, { 9, 4, 7, 1 });
    QTRY_VERIFY(recorded.slices.size() >= 2);
    QCOMPARE(recorded.slices.at(0).ids, (std::vector<ConnectionId> { 1, 4 }));
    QCOMPARE(recorded.slices.at(1).ids, (std::vector<ConnectionId> { 7, 9 }));
}

// A store that went away answers nothing: stopping forgets the round, a start later begins a
// fresh one, and the old round's answer, should it come after all, moves nothing on.
void TestSlicedRounds::stopEndsTheRoundAndItsLateSliceIsIgnored()
{
    RecordedRounds recorded(50ms, 2, range(1, 4), RecordedRounds::Answer::Later);
    const std::vector<Slice> &slices = recorded.slices;
    SlicedRounds &rounds = recorded.rounds;
    QTRY_COMPARE(slices.size(), size_t(1));
    const std::function<void()> late = std::exchange(recorded.pending, {});
    rounds.stop();
    QVERIFY(!rounds.isRoundRunning());
    rounds.start();
    QTRY_COMPARE(slices.size(), size_t(2));
    QCOMPARE(slices.back().ids, range(1, 2)); // a new round, from the start
    late();
    // Intervals go by while the new round's first slice waits: nothing else is sent.
    const int skipped = rounds.roundsSkipped();
    QTRY_VERIFY(rounds.roundsSkipped() >= skipped + 2);
    QCOMPARE(slices.size(), size_t(2));
    QCOMPARE(rounds.roundsStarted(), 2);
}

QTEST_GUILESS_MAIN(TestSlicedRounds)
#include "tst_sliced_rounds.moc"
