// Tests for EpollEventDispatcher, the gateway's event loop, installed here as the gateway's
// main installs it: timers of each type, zero timers, socket notifiers (re-entrancy, hang-ups,
// interest toggled within one iteration, descriptors reused), QProcess, nested loops,
// deleteLater, wake-ups from other threads, interrupt() and a real TCP exchange. Qt's own
// tst_qtimer and tst_qsocketnotifier are the checklist.

// C++
#include <algorithm>
#include <atomic>
#include <functional>
#include <future>
#include <memory>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>
// System
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

// Qt
#include <QElapsedTimer>
#include <QEventLoop>
#include <QPointer>
#include <QProcess>
#include <QSignalSpy>
#include <QSocketNotifier>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>

// Presence
#include "server-mock/loop/EpollEventDispatcher.h"

using namespace Qt::StringLiterals;
using namespace Presence::Server;
using namespace std::chrono_literals;

namespace {

// Calls back on every QTimerEvent it gets (QObject::startTimer timers, no QTimer).
class TimerSink : public QObject {
public:
    std::function<void(int)> onTimer;

protected:
    void timerEvent(QTimerEvent *event) override
    {
        if (onTimer)
            onTimer(event->timerId());
    }
};

// Two connected local stream sockets, closed at the end unless taken.
struct SocketPair {
    int fds[2] = { -1, -1 };
    SocketPair() { socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fds); }
    ~SocketPair()
    {
        for (int fd : fds) {
            if (fd >= 0)
                close(fd);
        }
    }
    void closeEnd(int i)
    {
        close(fds[i]);
        fds[i] = -1;
    }
};

struct Pipe {
    int fds[2] = { -1, -1 };
    Pipe() { pipe2(fds, O_NONBLOCK | O_CLOEXEC); }
    ~Pipe()
    {
        for (int fd : fds) {
            if (fd >= 0)
                close(fd);
        }
    }
    void closeEnd(int i)
    {
        close(fds[i]);
        fds[i] = -1;
    }
};

EpollEventDispatcher *dispatcher()
{
    return qobject_cast<EpollEventDispatcher *>(QAbstractEventDispatcher::instance());
}

// Runs the loop until `done` or `timeout`; true if done.
bool spinUntil(const std::function<bool()> &done, std::chrono::milliseconds timeout = 5s)
{
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > timeout.count())
            return false;
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    }
    return true;
}

} // namespace

class TestEpollEventDispatcher : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();

    void timerTypes_data();
    void timerTypes();
    void timersFireInDeadlineOrder();
    void equalDeadlinesFireInStartOrder();
    void restartFromItsOwnSlot();
    void stopFromAnotherTimersSlot();
    void deleteFromAnotherTimersSlot();
    void tenThousandTimersAllFire();
    void zeroTimersShareTheLoop();
    void singleShotZeroRunsInOrder();
    void remainingTime();
    void remainingTimeDuringActivation();
    void registeredTimers();
    void deletingAnObjectStopsItsTimers();

    void readAndWriteNotifiers();
    void notifiersDeleteEachOtherOnOneDescriptor();
    void notifiersDeleteEachOtherAcrossDescriptors();
    void hangUpReachesTheReadNotifier();
    void errorReachesTheWriteNotifier();
    void interestToggledWithinOneIteration();
    void descriptorReusedWithinOneIteration();
    void excludeSocketNotifiers();

    void processRuns();
    void nestedEventLoop();
    void timerNotReenteredByItsNestedLoop();
    void deleteLaterAcrossIterations();
    void wakeUpFromAnotherThread();
    void manyThreadsPostingLoseNothing();
    void interruptFromAnotherThread();
    void interruptBeforeBlocking();
    void tcpLoopbackExchange();
};

void TestEpollEventDispatcher::initTestCase()
{
    QVERIFY2(dispatcher(), "the test must run on EpollEventDispatcher");
}

void TestEpollEventDispatcher::timerTypes_data()
{
    QTest::addColumn<Qt::TimerType>("type");
    QTest::addColumn<int>("interval");
    QTest::addColumn<int>("earliest");
    QTest::addRow("precise") << Qt::PreciseTimer << 30 << 30;
    QTest::addRow("coarse") << Qt::CoarseTimer << 200 << 200;
    QTest::addRow("coarse under 20 ms is precise") << Qt::CoarseTimer << 15 << 15;
    // Whole seconds, rounded to the nearest: up to half a second either side.
    QTest::addRow("very coarse") << Qt::VeryCoarseTimer << 1000 << 500;
}

void TestEpollEventDispatcher::timerTypes()
{
    QFETCH(Qt::TimerType, type);
    QFETCH(int, interval);
    QFETCH(int, earliest);
    QTimer timer;
    timer.setTimerType(type);
    timer.setSingleShot(true);
    timer.setInterval(interval);
    QSignalSpy spy(&timer, &QTimer::timeout);
    QVERIFY(spy.isValid());
    QElapsedTimer clock;
    clock.start();
    timer.start();
    QVERIFY(spy.wait(5000));
    QVERIFY2(clock.elapsed() >= earliest, qPrintable(u"fired after %1 ms"_s.arg(clock.elapsed())));
    QCOMPARE(spy.count(), 1);
}

void TestEpollEventDispatcher::timersFireInDeadlineOrder()
{
    std::vector<int> fired;
    std::vector<std::unique_ptr<QTimer>> timers;
    for (const int interval : { 50, 10, 40, 20, 30, 0 }) {
        auto timer = std::make_unique<QTimer>();
        timer->setTimerType(Qt::PreciseTimer);
        timer->setSingleShot(true);
        QObject::connect(
            timer.get(), &QTimer::timeout, [&fired, interval] { fired.push_back(interval); });
        timer->start(interval);
        timers.push_back(std::move(timer));
    }
    QVERIFY(spinUntil([&] { return fired.size() == 6; }));
    QCOMPARE(fired, (std::vector<int> { 0, 10, 20, 30, 40, 50 }));
}

void TestEpollEventDispatcher::equalDeadlinesFireInStartOrder()
{
    // Started within the same millisecond or not, equal intervals from one start keep the
    // order in which they were started when their deadlines tie.
    TimerSink sink;
    std::vector<int> fired;
    sink.onTimer = [&](int id) {
        sink.killTimer(id);
        fired.push_back(id);
    };
    std::vector<int> started;
    started.reserve(20);
    for (int i = 0; i < 20; ++i)
        started.push_back(sink.startTimer(0ms, Qt::PreciseTimer));
    QVERIFY(spinUntil([&] { return fired.size() == started.size(); }));
    QCOMPARE(fired, started);
}

void TestEpollEventDispatcher::restartFromItsOwnSlot()
{
    QTimer timer;
    timer.setSingleShot(true);
    timer.setTimerType(Qt::PreciseTimer);
    int count = 0;
    QObject::connect(&timer, &QTimer::timeout, [&] {
        if (++count < 5)
            timer.start(5 * count);
    });
    timer.start(5);
    QVERIFY(spinUntil([&] { return count == 5; }));
    QVERIFY(!timer.isActive());
    // A repeating timer restarted from its slot keeps running on the new interval.
    QTimer repeating;
    int ticks = 0;
    QObject::connect(&repeating, &QTimer::timeout, [&] {
        ++ticks;
        repeating.start(1);
    });
    repeating.start(1000);
    QVERIFY(spinUntil([&] { return ticks == 1; }, 3s));
    QVERIFY(spinUntil([&] { return ticks >= 10; }, 1s));
}

void TestEpollEventDispatcher::stopFromAnotherTimersSlot()
{
    // Both due in the same activation: the first stops the second before its turn.
    TimerSink sink;
    int firstId = 0;
    int secondId = 0;
    int firstFired = 0;
    int secondFired = 0;
    sink.onTimer = [&](int id) {
        if (id == firstId) {
            ++firstFired;
            sink.killTimer(firstId);
            sink.killTimer(secondId);
        } else if (id == secondId) {
            ++secondFired;
        }
    };
    firstId = sink.startTimer(10ms, Qt::PreciseTimer);
    secondId = sink.startTimer(10ms, Qt::PreciseTimer);
    // The loop is kept away until both are overdue, so that they fall in one activation.
    QTest::qSleep(20);
    bool later = false;
    QTimer::singleShot(50, &sink, [&] { later = true; });
    QVERIFY(spinUntil([&] { return later; }));
    QCOMPARE(firstFired, 1);
    QCOMPARE(secondFired, 0);
    QVERIFY(dispatcher()->registeredTimers(&sink).isEmpty());
}

void TestEpollEventDispatcher::deleteFromAnotherTimersSlot()
{
    auto first = std::make_unique<QTimer>();
    auto *second = new QTimer;
    QPointer<QTimer> secondAlive(second);
    int secondFired = 0;
    first->setSingleShot(true);
    second->setSingleShot(true);
    QObject::connect(first.get(), &QTimer::timeout, [&] { delete secondAlive.data(); });
    QObject::connect(second, &QTimer::timeout, [&] { ++secondFired; });
    first->start(5);
    second->start(5);
    QTest::qSleep(10);
    bool later = false;
    QTimer::singleShot(30, first.get(), [&] { later = true; });
    QVERIFY(spinUntil([&] { return later; }));
    QVERIFY(!secondAlive);
    QCOMPARE(secondFired, 0);
}

void TestEpollEventDispatcher::tenThousandTimersAllFire()
{
    constexpr int kTimers = 10'000;
    TimerSink sink;
    QElapsedTimer clock;
    clock.start();
    std::unordered_map<int, int> intervalOf;
    int fired = 0;
    int early = 0;
    sink.onTimer = [&](int id) {
        sink.killTimer(id);
        ++fired;
        if (clock.elapsed() < intervalOf.at(id))
            ++early;
    };
    for (int i = 0; i < kTimers; ++i) {
        const int interval = (i * 7) % 300;
        const auto type = i % 2 ? Qt::CoarseTimer : Qt::PreciseTimer;
        intervalOf.emplace(sink.startTimer(std::chrono::milliseconds(interval), type), interval);
    }
    QCOMPARE(dispatcher()->registeredTimers(&sink).size(), kTimers);
    QVERIFY(spinUntil([&] { return fired == kTimers; }, 10s));
    QCOMPARE(early, 0);
    QCOMPARE(dispatcher()->registeredTimers(&sink).size(), 0);
}

void TestEpollEventDispatcher::zeroTimersShareTheLoop()
{
    // Two zero timers take turns, and a 20 ms timer still fires among them.
    QTimer a;
    QTimer b;
    QString turns;
    QObject::connect(&a, &QTimer::timeout, [&] { turns += u'a'; });
    QObject::connect(&b, &QTimer::timeout, [&] { turns += u'b'; });
    a.start(0);
    b.start(0);
    bool fired = false;
    QTimer::singleShot(20ms, Qt::PreciseTimer, &a, [&] { fired = true; });
    QVERIFY(spinUntil([&] { return fired; }, 2s));
    a.stop();
    b.stop();
    QVERIFY2(turns.size() >= 4, qPrintable(turns));
    QVERIFY2(turns.startsWith(u"abab"_s), qPrintable(turns.left(20)));
    QVERIFY(!turns.contains(u"aa"_s) && !turns.contains(u"bb"_s));
}

void TestEpollEventDispatcher::singleShotZeroRunsInOrder()
{
    QString order;
    QTimer::singleShot(0, this, [&] { order += u'1'; });
    QTimer::singleShot(0, this, [&] { order += u'2'; });
    QTimer::singleShot(0ms, Qt::PreciseTimer, this, [&] { order += u'3'; });
    QVERIFY(spinUntil([&] { return order.size() == 3; }));
    QCOMPARE(order, u"123"_s);
}

void TestEpollEventDispatcher::remainingTime()
{
    QTimer timer;
    timer.setTimerType(Qt::PreciseTimer);
    timer.start(300);
    const int left = timer.remainingTime();
    QVERIFY2(left > 200 && left <= 300, qPrintable(QString::number(left)));
    QTest::qSleep(50);
    QVERIFY(timer.remainingTime() <= 250);
    timer.stop();
    QCOMPARE(timer.remainingTime(), -1);
    QCOMPARE(dispatcher()->remainingTime(987654), -1);

    // An overdue timer has 0 left until the loop fires it.
    QTimer overdue;
    overdue.setTimerType(Qt::PreciseTimer);
    overdue.start(1);
    QTest::qSleep(5);
    QCOMPARE(overdue.remainingTime(), 0);
}

void TestEpollEventDispatcher::remainingTimeDuringActivation()
{
    // Inside the slot of a repeating timer the next period has already begun.
    QTimer timer;
    timer.setTimerType(Qt::PreciseTimer);
    int left = -2;
    QObject::connect(&timer, &QTimer::timeout, [&] {
        left = timer.remainingTime();
        timer.stop();
    });
    timer.start(100);
    QVERIFY(spinUntil([&] { return left != -2; }));
    QVERIFY2(left > 50 && left <= 100, qPrintable(QString::number(left)));
}

void TestEpollEventDispatcher::registeredTimers()
{
    TimerSink sink;
    const int precise = sink.startTimer(100ms, Qt::PreciseTimer);
    const int coarse = sink.startTimer(200ms, Qt::CoarseTimer);
    const int shortCoarse = sink.startTimer(10ms, Qt::CoarseTimer);
    const int longCoarse = sink.startTimer(30s, Qt::CoarseTimer);
    const int veryCoarse = sink.startTimer(1600ms, Qt::VeryCoarseTimer);
    const auto infos = dispatcher()->registeredTimers(&sink);
    QCOMPARE(infos.size(), 5);
    const auto check = [&](int id, int interval, Qt::TimerType type) {
        const auto info = std::find_if(
            infos.cbegin(), infos.cend(), [id](const auto &i) { return i.timerId == id; });
        QVERIFY(info != infos.cend());
        QCOMPARE(info->interval, interval);
        QCOMPARE(info->timerType, type);
    };
    check(precise, 100, Qt::PreciseTimer);
    check(coarse, 200, Qt::CoarseTimer);
    // Qt's boundaries: 5 % of under 20 ms is not worth it, 5 % of 20 s is over a second.
    check(shortCoarse, 10, Qt::PreciseTimer);
    check(longCoarse, 30000, Qt::VeryCoarseTimer);
    check(veryCoarse, 2000, Qt::VeryCoarseTimer);
    TimerSink other;
    QVERIFY(dispatcher()->registeredTimers(&other).isEmpty());
    sink.killTimer(coarse);
    QCOMPARE(dispatcher()->registeredTimers(&sink).size(), 4);
    for (const int id : { precise, shortCoarse, longCoarse, veryCoarse })
        sink.killTimer(id);
    QVERIFY(dispatcher()->registeredTimers(&sink).isEmpty());
}

void TestEpollEventDispatcher::deletingAnObjectStopsItsTimers()
{
    auto *sink = new TimerSink;
    int fired = 0;
    sink->onTimer = [&](int) { ++fired; };
    sink->startTimer(1ms);
    sink->startTimer(2ms);
    delete sink;
    bool later = false;
    QTimer::singleShot(30, this, [&] { later = true; });
    QVERIFY(spinUntil([&] { return later; }));
    QCOMPARE(fired, 0);
}

void TestEpollEventDispatcher::readAndWriteNotifiers()
{
    SocketPair pair;
    QSocketNotifier read(pair.fds[0], QSocketNotifier::Read);
    QSocketNotifier write(pair.fds[1], QSocketNotifier::Write);
    QSignalSpy readSpy(&read, &QSocketNotifier::activated);
    QSignalSpy writeSpy(&write, &QSocketNotifier::activated);
    QVERIFY(writeSpy.wait(1000));
    write.setEnabled(false);
    QCOMPARE(readSpy.count(), 0);
    QCOMPARE(::write(pair.fds[1], "x", 1), 1);
    QVERIFY(readSpy.wait(1000));
    char byte = 0;
    QCOMPARE(::read(pair.fds[0], &byte, 1), 1);
    QCOMPARE(byte, 'x');
}

void TestEpollEventDispatcher::notifiersDeleteEachOtherOnOneDescriptor()
{
    // Readable and writable at once: one epoll event for both; whichever slot runs first
    // deletes the other notifier, which must then not be activated.
    SocketPair pair;
    QCOMPARE(::write(pair.fds[1], "x", 1), 1);
    auto *read = new QSocketNotifier(pair.fds[0], QSocketNotifier::Read);
    auto *write = new QSocketNotifier(pair.fds[0], QSocketNotifier::Write);
    QPointer<QSocketNotifier> readAlive(read);
    QPointer<QSocketNotifier> writeAlive(write);
    int activations = 0;
    QObject::connect(read, &QSocketNotifier::activated, [&] {
        ++activations;
        delete writeAlive.data();
        readAlive->setEnabled(false);
    });
    QObject::connect(write, &QSocketNotifier::activated, [&] {
        ++activations;
        delete readAlive.data();
        writeAlive->setEnabled(false);
    });
    QVERIFY(spinUntil([&] { return activations > 0; }));
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
    QCOMPARE(activations, 1);
    QVERIFY(bool(readAlive) != bool(writeAlive));
    delete readAlive.data();
    delete writeAlive.data();
}

void TestEpollEventDispatcher::notifiersDeleteEachOtherAcrossDescriptors()
{
    SocketPair first;
    SocketPair second;
    QCOMPARE(::write(first.fds[1], "x", 1), 1);
    QCOMPARE(::write(second.fds[1], "x", 1), 1);
    auto *a = new QSocketNotifier(first.fds[0], QSocketNotifier::Read);
    auto *b = new QSocketNotifier(second.fds[0], QSocketNotifier::Read);
    QPointer<QSocketNotifier> aAlive(a);
    QPointer<QSocketNotifier> bAlive(b);
    int activations = 0;
    QObject::connect(a, &QSocketNotifier::activated, [&] {
        ++activations;
        delete bAlive.data();
        aAlive->setEnabled(false);
    });
    QObject::connect(b, &QSocketNotifier::activated, [&] {
        ++activations;
        delete aAlive.data();
        bAlive->setEnabled(false);
    });
    QVERIFY(spinUntil([&] { return activations > 0; }));
    QCoreApplication::processEvents();
    QCOMPARE(activations, 1);
    delete aAlive.data();
    delete bAlive.data();
}

void TestEpollEventDispatcher::hangUpReachesTheReadNotifier()
{
    // An empty pipe whose writer has gone reports EPOLLHUP alone, no EPOLLIN.
    Pipe pipe;
    QSocketNotifier read(pipe.fds[0], QSocketNotifier::Read);
    QSignalSpy spy(&read, &QSocketNotifier::activated);
    QCoreApplication::processEvents();
    QCOMPARE(spy.count(), 0);
    pipe.closeEnd(1);
    QVERIFY(spy.wait(1000));
    read.setEnabled(false);
}

void TestEpollEventDispatcher::errorReachesTheWriteNotifier()
{
    // A full pipe is not writable; once its reader has gone it reports EPOLLERR alone.
    Pipe pipe;
    const QByteArray chunk(4096, 'x');
    while (::write(pipe.fds[1], chunk.constData(), size_t(chunk.size())) > 0) { }
    QSocketNotifier write(pipe.fds[1], QSocketNotifier::Write);
    QSignalSpy spy(&write, &QSocketNotifier::activated);
    QCoreApplication::processEvents();
    QCOMPARE(spy.count(), 0);
    pipe.closeEnd(0);
    QVERIFY(spy.wait(1000));
    write.setEnabled(false);
}

void TestEpollEventDispatcher::interestToggledWithinOneIteration()
{
    // As QTcpSocket does per write: on, off, on within one iteration ends on; on, off ends off.
    SocketPair pair;
    QSocketNotifier write(pair.fds[0], QSocketNotifier::Write);
    QSignalSpy spy(&write, &QSocketNotifier::activated);
    QVERIFY(spy.wait(1000));
    for (int i = 0; i < 10; ++i) {
        write.setEnabled(false);
        write.setEnabled(true);
    }
    spy.clear();
    QVERIFY(spy.wait(1000));
    write.setEnabled(false);
    write.setEnabled(true);
    write.setEnabled(false);
    spy.clear();
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
    QCOMPARE(spy.count(), 0);
    write.setEnabled(true);
    QVERIFY(spy.wait(1000));
    write.setEnabled(false);
}

void TestEpollEventDispatcher::descriptorReusedWithinOneIteration()
{
    // A notifier's descriptor closed and its number reused before the loop runs again: the new
    // descriptor's notifier must fire, not be mistaken for the old registration.
    auto first = std::make_unique<SocketPair>();
    const int number = first->fds[0];
    {
        QSocketNotifier read(number, QSocketNotifier::Read);
        QCoreApplication::processEvents(); // in the epoll set now
        read.setEnabled(false);
    }
    first->closeEnd(0);
    SocketPair second;
    QCOMPARE(second.fds[0], number);
    QSocketNotifier read(second.fds[0], QSocketNotifier::Read);
    QSignalSpy spy(&read, &QSocketNotifier::activated);
    QCOMPARE(::write(second.fds[1], "x", 1), 1);
    QVERIFY(spy.wait(1000));
    read.setEnabled(false);
}

void TestEpollEventDispatcher::excludeSocketNotifiers()
{
    SocketPair pair;
    QCOMPARE(::write(pair.fds[1], "x", 1), 1);
    QSocketNotifier read(pair.fds[0], QSocketNotifier::Read);
    QSignalSpy spy(&read, &QSocketNotifier::activated);
    // Timers still fire while notifiers wait; a ready descriptor does not make it spin.
    bool fired = false;
    QTimer::singleShot(20, this, [&] { fired = true; });
    QElapsedTimer clock;
    clock.start();
    while (!fired && clock.elapsed() < 2000)
        dispatcher()->processEvents(
            QEventLoop::ExcludeSocketNotifiers | QEventLoop::WaitForMoreEvents);
    QVERIFY(fired);
    QCOMPARE(spy.count(), 0);
    QVERIFY(spy.wait(1000));
    read.setEnabled(false);
    // Excluding timers leaves notifiers alone.
    spy.clear();
    bool timerFired = false;
    QTimer zero; // a zero timer (QTimer::singleShot(0) posts an event instead)
    zero.setSingleShot(true);
    QObject::connect(&zero, &QTimer::timeout, [&] { timerFired = true; });
    zero.start(0);
    read.setEnabled(true);
    dispatcher()->processEvents(QEventLoop::X11ExcludeTimers);
    QCOMPARE(spy.count(), 1);
    QVERIFY(!timerFired);
    read.setEnabled(false);
    QVERIFY(spinUntil([&] { return timerFired; }));
}

void TestEpollEventDispatcher::processRuns()
{
    QProcess process;
    QSignalSpy finished(&process, &QProcess::finished);
    process.start(u"/bin/echo"_s, { u"hello"_s });
    QVERIFY(finished.wait(10000));
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 0);
    QCOMPARE(process.readAllStandardOutput(), QByteArray("hello\n"));
}

void TestEpollEventDispatcher::nestedEventLoop()
{
    // A slot runs a QEventLoop: timers, notifiers and posted events reach it inside, and the
    // outer loop goes on after it.
    SocketPair pair;
    bool innerTimer = false;
    bool innerNotifier = false;
    bool innerPosted = false;
    bool outerAfter = false;
    QSocketNotifier read(pair.fds[0], QSocketNotifier::Read);
    QObject::connect(&read, &QSocketNotifier::activated, [&] {
        char byte = 0;
        if (::read(pair.fds[0], &byte, 1) == 1)
            innerNotifier = true;
    });
    QTimer::singleShot(0, this, [&] {
        QEventLoop loop;
        QTimer::singleShot(10, &loop, [&] {
            innerTimer = true;
            QCOMPARE(::write(pair.fds[1], "x", 1), 1);
        });
        QMetaObject::invokeMethod(
            &loop, [&] { innerPosted = true; }, Qt::QueuedConnection);
        QTimer check;
        QObject::connect(&check, &QTimer::timeout, &loop, [&] {
            if (innerTimer && innerNotifier && innerPosted)
                loop.quit();
        });
        check.start(1);
        QTimer::singleShot(5000, &loop, &QEventLoop::quit);
        loop.exec();
        QTimer::singleShot(0, this, [&] { outerAfter = true; });
    });
    QVERIFY(spinUntil([&] { return outerAfter; }, 10s));
    QVERIFY(innerTimer);
    QVERIFY(innerNotifier);
    QVERIFY(innerPosted);
    read.setEnabled(false);
}

void TestEpollEventDispatcher::timerNotReenteredByItsNestedLoop()
{
    // A repeating timer whose slot runs a nested loop is not fired again inside it.
    QTimer timer;
    timer.setTimerType(Qt::PreciseTimer);
    int depth = 0;
    int maxDepth = 0;
    int ticks = 0;
    QObject::connect(&timer, &QTimer::timeout, [&] {
        ++ticks;
        maxDepth = std::max(maxDepth, ++depth);
        if (ticks == 1) {
            QEventLoop loop;
            QTimer::singleShot(50, &loop, &QEventLoop::quit);
            loop.exec();
        }
        --depth;
    });
    timer.start(2);
    QVERIFY(spinUntil([&] { return ticks >= 5; }));
    timer.stop();
    QCOMPARE(maxDepth, 1);
}

void TestEpollEventDispatcher::deleteLaterAcrossIterations()
{
    // Deferred deletion waits for the loop it was asked in: not inside a nested loop, then
    // at the next iteration.
    QPointer<QObject> object = new QObject;
    bool aliveInNestedLoop = false;
    bool done = false;
    QTimer::singleShot(0, this, [&] {
        object->deleteLater();
        QEventLoop loop;
        QTimer::singleShot(20, &loop, &QEventLoop::quit);
        loop.exec();
        aliveInNestedLoop = !object.isNull();
        done = true;
    });
    QVERIFY(spinUntil([&] { return done; }));
    QVERIFY(aliveInNestedLoop);
    QVERIFY(spinUntil([&] { return object.isNull(); }));

    // An object whose destructor deletes another later: both go, one iteration apart.
    QPointer<QObject> second = new QObject;
    QPointer<QObject> first = new QObject;
    QObject::connect(first.data(), &QObject::destroyed, second.data(), &QObject::deleteLater);
    // From a slot, as the gateway asks: a deleteLater() outside any event delivery waits for
    // an event loop's exec() (Qt's rule, whichever the dispatcher).
    QTimer::singleShot(0, this, [&] { first->deleteLater(); });
    QVERIFY(spinUntil([&] { return first.isNull() && second.isNull(); }));
}

void TestEpollEventDispatcher::wakeUpFromAnotherThread()
{
    // The loop blocks in epoll_wait with nothing due for 5 s; a queued call from another
    // thread must wake it long before.
    QObject receiver;
    bool called = false;
    QTimer guard;
    guard.setSingleShot(true);
    guard.start(5000);
    std::promise<void> blocking;
    bool signalled = false;
    const auto connection
        = QObject::connect(dispatcher(), &QAbstractEventDispatcher::aboutToBlock, &receiver, [&] {
              if (!std::exchange(signalled, true))
                  blocking.set_value();
          });
    std::thread poster([&] {
        blocking.get_future().wait();
        QMetaObject::invokeMethod(
            &receiver, [&] { called = true; }, Qt::QueuedConnection);
    });
    QElapsedTimer clock;
    clock.start();
    dispatcher()->processEvents(QEventLoop::WaitForMoreEvents);
    poster.join();
    QObject::disconnect(connection);
    QVERIFY(clock.elapsed() < 4000);
    QVERIFY(spinUntil([&] { return called; }, 1s));
}

void TestEpollEventDispatcher::manyThreadsPostingLoseNothing()
{
    // Concurrent wake-ups coalesce into one write; no posted call is lost.
    constexpr int kThreads = 8;
    constexpr int kPosts = 2000;
    QObject receiver;
    int received = 0;
    std::vector<std::thread> threads;
    threads.reserve(kThreads);
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < kPosts; ++i)
                QMetaObject::invokeMethod(
                    &receiver, [&] { ++received; }, Qt::QueuedConnection);
        });
    }
    QVERIFY(spinUntil([&] { return received == kThreads * kPosts; }, 10s));
    for (auto &thread : threads)
        thread.join();
    QCoreApplication::processEvents();
    QCOMPARE(received, kThreads * kPosts);
}

void TestEpollEventDispatcher::interruptFromAnotherThread()
{
    QTimer guard;
    guard.setSingleShot(true);
    guard.start(5000);
    QObject context;
    std::promise<void> blocking;
    bool signalled = false;
    const auto connection
        = QObject::connect(dispatcher(), &QAbstractEventDispatcher::aboutToBlock, &context, [&] {
              if (!std::exchange(signalled, true))
                  blocking.set_value();
          });
    EpollEventDispatcher *target = dispatcher(); // instance() is per thread
    std::thread interrupter([&] {
        blocking.get_future().wait();
        target->interrupt();
    });
    QElapsedTimer clock;
    clock.start();
    dispatcher()->processEvents(QEventLoop::WaitForMoreEvents);
    interrupter.join();
    QObject::disconnect(connection);
    QVERIFY(clock.elapsed() < 4000);

    // QEventLoop::exit() from a slot interrupts: exec() returns without another wait.
    QEventLoop loop;
    QTimer::singleShot(0, &loop, [&] { loop.exit(3); });
    QCOMPARE(loop.exec(), 3);
}

void TestEpollEventDispatcher::interruptBeforeBlocking()
{
    // interrupt() from aboutToBlock: processEvents returns instead of waiting 5 s.
    QTimer guard;
    guard.setSingleShot(true);
    guard.start(5000);
    QObject context;
    const auto connection = QObject::connect(dispatcher(), &QAbstractEventDispatcher::aboutToBlock,
        &context, [] { dispatcher()->interrupt(); });
    QElapsedTimer clock;
    clock.start();
    QVERIFY(!dispatcher()->processEvents(QEventLoop::WaitForMoreEvents));
    QObject::disconnect(connection);
    QVERIFY(clock.elapsed() < 4000);
}

void TestEpollEventDispatcher::tcpLoopbackExchange()
{
    // A real TCP server and client on port 0: a megabyte each way, echoed back, then a close
    // seen by the other side.
    QTcpServer server;
    QVERIFY(server.listen(QHostAddress::LocalHost, 0));
    QTcpSocket *accepted = nullptr;
    QByteArray echoed;
    QObject::connect(&server, &QTcpServer::newConnection, [&] {
        accepted = server.nextPendingConnection();
        QObject::connect(accepted, &QTcpSocket::readyRead, [&] {
            const QByteArray data = accepted->readAll();
            accepted->write(data);
        });
    });
    QTcpSocket client;
    client.connectToHost(QHostAddress::LocalHost, server.serverPort());
    QVERIFY(spinUntil([&] { return client.state() == QAbstractSocket::ConnectedState; }));
    QByteArray sent;
    sent.reserve(1 << 20);
    for (int i = 0; sent.size() < (1 << 20); ++i)
        sent += QByteArray::number(i) + ',';
    QObject::connect(&client, &QTcpSocket::readyRead, [&] { echoed += client.readAll(); });
    client.write(sent);
    QVERIFY(spinUntil([&] { return echoed.size() >= sent.size(); }, 20s));
    QCOMPARE(echoed, sent);

    QVERIFY(accepted);
    QSignalSpy disconnected(accepted, &QTcpSocket::disconnected);
    client.disconnectFromHost();
    QVERIFY(disconnected.wait(5000));
    accepted->deleteLater();
}

int main(int argc, char *argv[])
{
    // Before QCoreApplication, as the gateway's main does: the main thread runs on it.
    QCoreApplication::setEventDispatcher(new EpollEventDispatcher);
    QCoreApplication app(argc, argv);
    TestEpollEventDispatcher test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_epoll_event_dispatcher.moc"
