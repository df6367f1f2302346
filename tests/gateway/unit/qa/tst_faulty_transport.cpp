// FaultyTransport, the delay and stall faults as a transport decorator: what reaches the
// transport it wraps, and in which order, while a fault runs and when it ends. The wrapped
// transport is a recording one; tst_faults covers the same faults end to end on a gateway.

// C++
#include <chrono>

// Qt
#include <QElapsedTimer>
#include <QTest>

// Presence
#include "server-mock/qa/FaultyTransport.h"
#include "tests/gateway/unit/RecordingReceiver.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Server::ClientTransport;
using Presence::Server::FaultyTransport;

namespace {

// Remembers what it was asked to do, in order; the test plays the peer through peer*().
class RecordingTransport : public ClientTransport {
public:
    QStringList calls;
    bool paused = false;
    bool *deleted = nullptr; // set true when it goes

    RecordingTransport() = default;
    ~RecordingTransport() override
    {
        if (deleted)
            *deleted = true;
    }
    RecordingTransport(const RecordingTransport &) = delete;
    RecordingTransport &operator=(const RecordingTransport &) = delete;

    [[nodiscard]] QString peer() const override { return u"127.0.0.1:1"_s; }
    [[nodiscard]] bool isOpen() const override { return true; }
    [[nodiscard]] qint64 bytesToWrite() const override { return 0; }
    void sendText(const QByteArray &frame) override
    {
        calls << u"send "_s + QString::fromUtf8(frame);
    }
    void ping() override { calls << u"ping"_s; }
    void close(quint16 code, const QString &reason) override
    {
        calls << u"close %1 %2"_s.arg(code).arg(reason);
    }
    void abort() override { calls << u"abort"_s; }
    void setReadingPaused(bool pause) override
    {
        if (pause == paused)
            return;
        paused = pause;
        calls << (pause ? u"pause"_s : u"resume"_s);
        if (!pause)
            tellReadingResumed();
    }
    [[nodiscard]] bool isReadingPaused() const override { return paused; }

    void peerText(const QString &text) { tellText(text); }
    void peerClosed(quint16 code) { tellClosed(code); }
};

struct Pair {
    RecordingTransport *inner = new RecordingTransport;
    FaultyTransport outer { inner };
    RecordingReceiver receiver;
    const QStringList &received = receiver.texts;

    Pair() { outer.setReceiver(&receiver); }
    Pair(const Pair &) = delete;
    Pair &operator=(const Pair &) = delete;
};

} // namespace

class TestFaultyTransport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void passesThroughWithoutFaults();
    void delayKeepsTheOrder();
    void stallHoldsWritesPingsAndReads();
    void releaseCatchesUpInOrder();
    void closeDuringAStallDropsWhatWasHeld();
    void floodOfAStalledTransportAborts();
    void ownersPauseOutlivesTheStall();
    void adoptsATransportPausedByItsOwner();
    void deletesTheTransportItAdopted();
};

void TestFaultyTransport::passesThroughWithoutFaults()
{
    Pair pair;
    pair.outer.sendText("a"_ba);
    pair.outer.ping();
    pair.inner->peerText(u"in"_s);
    pair.inner->peerClosed(1006);
    QCOMPARE(pair.inner->calls, (QStringList { u"send a"_s, u"ping"_s }));
    QCOMPARE(pair.received, QStringList { u"in"_s });
    QCOMPARE(pair.receiver.closed, QList<quint16> { 1006 });
}

void TestFaultyTransport::delayKeepsTheOrder()
{
    Pair pair;
    pair.outer.setOutgoingDelay(150ms);
    QElapsedTimer clock;
    clock.start();
    pair.outer.sendText("1"_ba);
    pair.outer.sendText("2"_ba);
    QVERIFY(pair.inner->calls.isEmpty());
    pair.outer.setOutgoingDelay(0ms); // ended: what waits keeps its place before new frames
    pair.outer.sendText("3"_ba);
    QVERIFY(pair.inner->calls.isEmpty());
    QTRY_COMPARE(pair.inner->calls, (QStringList { u"send 1"_s, u"send 2"_s, u"send 3"_s }));
    QVERIFY2(clock.elapsed() >= 140, qPrintable(QString::number(clock.elapsed())));
}

void TestFaultyTransport::stallHoldsWritesPingsAndReads()
{
    Pair pair;
    pair.outer.setStalled(true);
    QVERIFY(pair.outer.isStalled());
    QVERIFY(pair.outer.isReadingPaused());
    pair.outer.sendText("welcome"_ba);
    pair.outer.ping();
    // Read just before the pause took hold: held too.
    pair.inner->peerText(u"subscribe"_s);
    QCoreApplication::processEvents();
    QCOMPARE(pair.inner->calls, QStringList { u"pause"_s });
    QVERIFY(pair.received.isEmpty());
}

void TestFaultyTransport::releaseCatchesUpInOrder()
{
    Pair pair;
    pair.outer.setStalled(true);
    pair.outer.sendText("welcome"_ba);
    pair.inner->peerText(u"a"_s);
    pair.inner->peerText(u"b"_s);
    // The order a stuck process would show: its own writes, then what it had read, then
    // reading again (what waits in TCP).
    QStringList order;
    pair.receiver.onText = [&](const QString &text) {
        order << u"received "_s + text + u" after "_s + pair.inner->calls.join(u", "_s);
    };
    pair.outer.setStalled(false);
    QCOMPARE(pair.inner->calls, (QStringList { u"pause"_s, u"send welcome"_s, u"resume"_s }));
    QCOMPARE(pair.received, (QStringList { u"a"_s, u"b"_s }));
    QCOMPARE(order,
        (QStringList { u"received a after pause, send welcome"_s,
            u"received b after pause, send welcome"_s }));
    QCOMPARE(pair.receiver.resumed, 1);
    QVERIFY(!pair.outer.isReadingPaused());
}

void TestFaultyTransport::closeDuringAStallDropsWhatWasHeld()
{
    Pair pair;
    pair.outer.setStalled(true);
    pair.outer.sendText("held"_ba);
    pair.outer.close(1001, u"going away"_s);
    pair.outer.sendText("late"_ba);
    pair.outer.setStalled(false);
    QCOMPARE(pair.inner->calls, (QStringList { u"pause"_s, u"close 1001 going away"_s }));
}

void TestFaultyTransport::floodOfAStalledTransportAborts()
{
    Pair pair;
    pair.outer.setStalled(true);
    for (int i = 0; i < 10'000; ++i)
        pair.inner->peerText(u"x"_s);
    QCOMPARE(pair.inner->calls, QStringList { u"pause"_s });
    pair.inner->peerText(u"one too many"_s);
    QCOMPARE(pair.inner->calls, (QStringList { u"pause"_s, u"abort"_s }));
}

void TestFaultyTransport::ownersPauseOutlivesTheStall()
{
    // The connection paused reading itself (not the fault): the stall's end does not resume.
    Pair pair;
    pair.outer.setReadingPaused(true);
    pair.outer.setStalled(true);
    pair.outer.setStalled(false);
    QVERIFY(pair.outer.isReadingPaused());
    QCOMPARE(pair.inner->calls, QStringList { u"pause"_s });
    pair.outer.setReadingPaused(false);
    QCOMPARE(pair.inner->calls, (QStringList { u"pause"_s, u"resume"_s }));
}

void TestFaultyTransport::adoptsATransportPausedByItsOwner()
{
    // Interposed on a live connection whose reading its owner had paused: the end of a stall
    // must not resume it behind the owner's back.
    auto *inner = new RecordingTransport;
    inner->setReadingPaused(true);
    FaultyTransport outer(inner);
    outer.setStalled(true);
    outer.setStalled(false);
    QVERIFY(inner->isReadingPaused());
    outer.setReadingPaused(false);
    QVERIFY(!inner->isReadingPaused());
}

void TestFaultyTransport::deletesTheTransportItAdopted()
{
    bool deleted = false;
    {
        auto *inner = new RecordingTransport;
        inner->deleted = &deleted;
        FaultyTransport outer(inner);
        QVERIFY(!deleted);
    }
    QVERIFY(deleted);
}

QTEST_GUILESS_MAIN(TestFaultyTransport)
#include "tst_faulty_transport.moc"
