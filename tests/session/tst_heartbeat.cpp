// Heartbeat on its own: a ping every interval, one at a time, and a missed pong reported once.
// Short real intervals; every wait is on a condition.
// Qt
#include <QSignalSpy>
#include <QTest>

// Presence
#include "session/Heartbeat.h"

using namespace std::chrono_literals;
using Presence::Session::Heartbeat;

class TestHeartbeat : public QObject {
    Q_OBJECT

private slots:
    void pingsWhileAnswered();
    void oneQuietPingIsMissedOnce();
    void aSlowPongDelaysTheNextPing();
    void stopEndsEverything();
};

void TestHeartbeat::pingsWhileAnswered()
{
    int pings = 0;
    Heartbeat *beat = nullptr;
    Heartbeat heartbeat([&] {
        ++pings;
        beat->onPong(); // answered at once
    });
    beat = &heartbeat;
    QSignalSpy missed(&heartbeat, &Heartbeat::pongMissed);
    QVERIFY(!heartbeat.isActive());
    heartbeat.start(10ms, 10s);
    QVERIFY(heartbeat.isActive());
    QTRY_VERIFY(pings >= 5);
    QCOMPARE(missed.size(), 0);
    QVERIFY(!heartbeat.awaitsPong());
}

void TestHeartbeat::oneQuietPingIsMissedOnce()
{
    int pings = 0;
    Heartbeat heartbeat([&] { ++pings; });
    QSignalSpy missed(&heartbeat, &Heartbeat::pongMissed);
    heartbeat.start(10ms, 30ms);
    QVERIFY(missed.wait());
    QCOMPARE(missed.size(), 1);
    // The interval is shorter than the timeout, yet only the one ping went out.
    QCOMPARE(pings, 1);
    // Missed, it stops: the session reconnects rather than pinging a dead connection.
    QVERIFY(!heartbeat.isActive());
    QVERIFY(!heartbeat.awaitsPong());
    QVERIFY(!missed.wait(100));
    QCOMPARE(pings, 1);
}

void TestHeartbeat::aSlowPongDelaysTheNextPing()
{
    int pings = 0;
    Heartbeat heartbeat([&] { ++pings; });
    QSignalSpy missed(&heartbeat, &Heartbeat::pongMissed);
    heartbeat.start(5ms, 10s);
    QTRY_COMPARE(pings, 1);
    QVERIFY(heartbeat.awaitsPong());
    // Many intervals pass while the pong is awaited: no second ping stacks up.
    QTest::qWait(60);
    QCOMPARE(pings, 1);
    heartbeat.onPong();
    QVERIFY(!heartbeat.awaitsPong());
    QTRY_COMPARE(pings, 2);
    QCOMPARE(missed.size(), 0);
}

void TestHeartbeat::stopEndsEverything()
{
    int pings = 0;
    Heartbeat heartbeat([&] { ++pings; });
    QSignalSpy missed(&heartbeat, &Heartbeat::pongMissed);
    heartbeat.start(5ms, 20ms);
    QTRY_COMPARE(pings, 1);
    heartbeat.stop();
    QVERIFY(!heartbeat.isActive());
    QVERIFY(!heartbeat.awaitsPong());
    QVERIFY(!missed.wait(100));
    QCOMPARE(pings, 1);
    // Started again, it pings again.
    heartbeat.start(5ms, 10s);
    QTRY_COMPARE(pings, 2);
}

QTEST_GUILESS_MAIN(TestHeartbeat)
#include "tst_heartbeat.moc"
