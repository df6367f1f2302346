// SocketPoller over real socket pairs: readiness told to the right watcher, writability only
// when asked, a hang-up told as both, a descriptor without interest out of the set (a hang-up
// waits for interest to return), and a watcher ended by another in the same batch told nothing.

// C++
#include <array>
#include <cstring>
#include <functional>
#include <utility>
// System
#include <sys/socket.h>
#include <unistd.h>

// Qt
#include <QTest>
#include <QTimer>

// Presence
#include "server-mock/transport/SocketPoller.h"

using namespace Presence::Server;

namespace {

class CountingWatcher : public SocketPoller::Watcher {
public:
    int readable = 0;
    int writable = 0;
    std::function<void()> onReadable;

    void socketReadable() override
    {
        ++readable;
        if (onReadable)
            onReadable();
    }
    void socketWritable() override { ++writable; }
};

// Both ends of a socket pair, closed at the end of the test.
struct Pair {
    std::array<int, 2> ends { -1, -1 };
    Pair() { ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, ends.data()); }
    ~Pair()
    {
        for (const int end : ends) {
            if (end >= 0)
                ::close(end);
        }
    }
    Pair(const Pair &) = delete;
    Pair &operator=(const Pair &) = delete;
    void send(const char *bytes) const
    {
        (void)::send(ends[1], bytes, strlen(bytes), MSG_NOSIGNAL);
    }
    void closePeer() { ::close(std::exchange(ends[1], -1)); }
};

// Lets the loop run for a while (it is never blocked: a timer ends the wait).
void runLoopFor(int ms)
{
    bool later = false;
    QTimer::singleShot(ms, [&] { later = true; });
    QTRY_VERIFY(later);
}

} // namespace

class TestSocketPoller : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void readinessReachesItsWatcher();
    void writableOnlyWhenAsked();
    void hangUpIsToldAsBoth();
    void noInterestLeavesTheSetUntilItReturns();
    void watcherEndedInTheSameBatchHearsNothing();
};

void TestSocketPoller::readinessReachesItsWatcher()
{
    SocketPoller poller;
    QVERIFY(poller.isValid());
    Pair a;
    Pair b;
    CountingWatcher wa;
    CountingWatcher wb;
    QVERIFY(poller.watch(a.ends[0], &wa, true, false));
    QVERIFY(poller.watch(b.ends[0], &wb, true, false));
    b.send("x");
    QTRY_VERIFY(wb.readable > 0);
    QCOMPARE(wa.readable, 0);
    QCOMPARE(wb.writable, 0);
    poller.unwatch(a.ends[0], &wa);
    poller.unwatch(b.ends[0], &wb);
}

void TestSocketPoller::writableOnlyWhenAsked()
{
    SocketPoller poller;
    Pair pair;
    CountingWatcher watcher;
    QVERIFY(poller.watch(pair.ends[0], &watcher, true, false));
    runLoopFor(20);
    QCOMPARE(watcher.writable, 0);
    poller.setInterest(pair.ends[0], &watcher, true, true);
    QTRY_VERIFY(watcher.writable > 0);
    QCOMPARE(watcher.readable, 0);
    poller.unwatch(pair.ends[0], &watcher);
}

void TestSocketPoller::hangUpIsToldAsBoth()
{
    SocketPoller poller;
    Pair pair;
    CountingWatcher watcher;
    QVERIFY(poller.watch(pair.ends[0], &watcher, true, false));
    pair.closePeer();
    // Told as writable too, though not asked: a transport waiting to write must hear of it.
    QTRY_VERIFY(watcher.readable > 0 && watcher.writable > 0);
    poller.unwatch(pair.ends[0], &watcher);
}

void TestSocketPoller::noInterestLeavesTheSetUntilItReturns()
{
    SocketPoller poller;
    Pair pair;
    CountingWatcher watcher;
    QVERIFY(poller.watch(pair.ends[0], &watcher, true, false));
    poller.setInterest(pair.ends[0], &watcher, false, false);
    pair.closePeer(); // epoll tells a hang-up whatever one asks: not this one
    runLoopFor(30);
    QCOMPARE(watcher.readable + watcher.writable, 0);
    poller.setInterest(pair.ends[0], &watcher, true, false);
    QTRY_VERIFY(watcher.readable > 0);
    poller.unwatch(pair.ends[0], &watcher);
}

void TestSocketPoller::watcherEndedInTheSameBatchHearsNothing()
{
    SocketPoller poller;
    Pair a;
    Pair b;
    CountingWatcher wa;
    CountingWatcher wb;
    QVERIFY(poller.watch(a.ends[0], &wa, true, false));
    QVERIFY(poller.watch(b.ends[0], &wb, true, false));
    // Whichever is told first ends both, as a gateway may close another connection.
    const auto endBoth = [&] {
        poller.unwatch(a.ends[0], &wa);
        poller.unwatch(b.ends[0], &wb);
    };
    wa.onReadable = endBoth;
    wb.onReadable = endBoth;
    a.send("x");
    b.send("y");
    runLoopFor(30); // both ready before the loop looks: one batch
    QCOMPARE(wa.readable + wb.readable, 1);
}

QTEST_GUILESS_MAIN(TestSocketPoller)
#include "tst_socket_poller.moc"
