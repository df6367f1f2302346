// The client's frame pacer on its own, on a clock the test moves: frames go at once while
// unpaced and within the budget, wait in order when it is spent, and leave only as the clock
// gives budget back; whoever waits for budget hears once the outbox is empty.
// C++
#include <chrono>

// Qt
#include <QJsonObject>
#include <QSignalSpy>
#include <QStringList>
#include <QTest>

// Presence
#include "protocol/Frame.h"
#include "session/FramePacer.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Session::FramePacer;

namespace {

// A pacer whose frames land in `sent` (as their refs) and whose time is `now`.
struct Pacer {
    Pacer()
        : pacer([this](const QString &frame) { sent.append(refOf(frame)); }, [this] { return now; })
    {
    }
    [[nodiscard]] static QString refOf(const QString &frame)
    {
        const auto envelope = Presence::Protocol::parseFrame(frame);
        return envelope.ok() ? envelope.value().ref.value_or(u"(none)"_s) : u"(bad)"_s;
    }
    void send(const QString &ref) { pacer.send(QJsonObject { { u"type"_s, u"ping"_s } }, ref); }

    FramePacer::Clock::time_point now = FramePacer::Clock::now();
    QStringList sent;
    FramePacer pacer;
};

} // namespace

class TestFramePacer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void unpacedFramesGoAtOnce();
    void aSpentBudgetQueuesInOrderUntilTheClockGivesItBack();
    void aFrameSentNowGoesAheadOfTheQueue();
    void clearDropsWhatWaits();
    void removingTheBudgetSendsAtOnceAgain();
    void whoeverWaitsHearsOnceTheOutboxIsEmpty();
    void serializeAddsTheRefOnlyWhenGiven();
};

void TestFramePacer::unpacedFramesGoAtOnce()
{
    Pacer p;
    QVERIFY(!p.pacer.isPaced());
    for (int i = 1; i <= 5; ++i)
        p.send(u"r%1"_s.arg(i));
    QCOMPARE(p.sent, (QStringList { u"r1"_s, u"r2"_s, u"r3"_s, u"r4"_s, u"r5"_s }));
    QCOMPARE(p.pacer.queued(), 0);
    QVERIFY(p.pacer.takeToken()); // unpaced: there is always budget
}

void TestFramePacer::aSpentBudgetQueuesInOrderUntilTheClockGivesItBack()
{
    Pacer p;
    p.pacer.setBudget(10, 2); // a frame every 100 ms, two at once
    QVERIFY(p.pacer.isPaced());
    for (const QString &ref : { u"a"_s, u"b"_s, u"c"_s, u"d"_s })
        p.send(ref);
    QCOMPARE(p.sent, (QStringList { u"a"_s, u"b"_s }));
    QCOMPARE(p.pacer.queued(), 2);

    // Wall time alone gives nothing back: the budget follows the clock it was given.
    QTest::qWait(250);
    QCOMPARE(p.sent, (QStringList { u"a"_s, u"b"_s }));

    p.now += 100ms;
    QTRY_COMPARE(p.sent, (QStringList { u"a"_s, u"b"_s, u"c"_s }));
    QCOMPARE(p.pacer.queued(), 1);
    // A later frame waits behind the queued one, even with budget back.
    p.now += 100ms;
    p.send(u"e"_s);
    QTRY_COMPARE(p.sent, (QStringList { u"a"_s, u"b"_s, u"c"_s, u"d"_s }));
    p.now += 100ms;
    QTRY_COMPARE(p.sent, (QStringList { u"a"_s, u"b"_s, u"c"_s, u"d"_s, u"e"_s }));
    QCOMPARE(p.pacer.queued(), 0);
}

void TestFramePacer::aFrameSentNowGoesAheadOfTheQueue()
{
    Pacer p;
    p.pacer.setBudget(10, 1);
    p.send(u"a"_s);
    p.send(u"b"_s); // queued: the burst is spent
    QVERIFY(!p.pacer.takeToken());
    p.now += 100ms;
    QVERIFY(p.pacer.takeToken());
    p.pacer.sendNow(QJsonObject { { u"type"_s, u"subscribe"_s } }, u"s1"_s);
    QCOMPARE(p.sent, (QStringList { u"a"_s, u"s1"_s }));
    QCOMPARE(p.pacer.queued(), 1);
    p.now += 100ms;
    QTRY_COMPARE(p.sent, (QStringList { u"a"_s, u"s1"_s, u"b"_s }));
}

void TestFramePacer::clearDropsWhatWaits()
{
    Pacer p;
    p.pacer.setBudget(10, 1);
    p.send(u"a"_s);
    p.send(u"b"_s);
    p.send(u"c"_s);
    QCOMPARE(p.pacer.queued(), 2);
    p.pacer.clear(); // the connection they were for is gone
    QCOMPARE(p.pacer.queued(), 0);
    p.now += 1s;
    QTest::qWait(250);
    QCOMPARE(p.sent, (QStringList { u"a"_s }));
}

void TestFramePacer::removingTheBudgetSendsAtOnceAgain()
{
    Pacer p;
    p.pacer.setBudget(10, 1);
    p.send(u"a"_s);
    p.send(u"b"_s);
    p.pacer.removeBudget(); // a new connection: hello goes before any welcome
    QVERIFY(!p.pacer.isPaced());
    QCOMPARE(p.pacer.queued(), 0);
    p.send(u"hello"_s);
    p.send(u"again"_s);
    QCOMPARE(p.sent, (QStringList { u"a"_s, u"hello"_s, u"again"_s }));
}

void TestFramePacer::whoeverWaitsHearsOnceTheOutboxIsEmpty()
{
    Pacer p;
    QSignalSpy freed(&p.pacer, &FramePacer::budgetFreed);
    QVERIFY(freed.isValid());
    p.pacer.setBudget(10, 1);
    p.send(u"a"_s);
    p.send(u"b"_s);
    QVERIFY(!p.pacer.takeToken());
    p.pacer.setWaitingForBudget(true);
    QVERIFY(p.pacer.isWaitingForBudget());

    // Budget for b only: the queue goes first, then the waiter hears.
    p.now += 100ms;
    QTRY_COMPARE(freed.size(), 1);
    QCOMPARE(p.sent, (QStringList { u"a"_s, u"b"_s }));
    QVERIFY(!p.pacer.isWaitingForBudget()); // a waiter that still waits says so again

    // Once heard, no more: nobody waits.
    p.now += 1s;
    QTest::qWait(150);
    QCOMPARE(freed.size(), 1);

    // Waiting with nothing queued: heard at the next drain.
    p.pacer.setWaitingForBudget(true);
    QTRY_COMPARE(freed.size(), 2);
    // And a waiter that gives up is not told.
    p.pacer.setWaitingForBudget(true);
    p.pacer.setWaitingForBudget(false);
    QTest::qWait(150);
    QCOMPARE(freed.size(), 2);
}

void TestFramePacer::serializeAddsTheRefOnlyWhenGiven()
{
    const QJsonObject message { { u"type"_s, u"ping"_s } };
    const auto with = Presence::Protocol::parseFrame(FramePacer::serialize(message, u"r7"_s));
    QVERIFY(with.ok());
    QCOMPARE(with.value().type, u"ping"_s);
    QCOMPARE(with.value().ref, std::optional<QString>(u"r7"_s));
    const auto without = Presence::Protocol::parseFrame(FramePacer::serialize(message, {}));
    QVERIFY(without.ok());
    QVERIFY(!without.value().ref);
}

QTEST_MAIN(TestFramePacer)
#include "tst_frame_pacer.moc"
