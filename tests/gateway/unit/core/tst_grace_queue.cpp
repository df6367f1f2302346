// GraceQueue: users armed expire after the grace, in order, unless cancelled or armed again;
// on real timers.

// C++
#include <chrono>

// Qt
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

// Presence
#include "server-mock/core/GraceQueue.h"
#include "tests/harness/EventLoopWait.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace Presence::Server;

namespace {

constexpr auto kGrace = 100ms;
// How long past the grace a test waits when the absence of a publication is what it checks.
constexpr auto kMargin = 100ms;

} // namespace

class TestGraceQueue : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void graceArmAndExpire();
    void graceExpiresInArmOrder();
    void graceCancelledUserNeverExpires();
    void graceRearmRestartsDeadline();
    void graceManyUsersExpireInOrder();
};

void TestGraceQueue::graceArmAndExpire()
{
    GraceQueue queue(kGrace);
    QSignalSpy spy(&queue, &GraceQueue::expired);
    QVERIFY(spy.isValid());
    QCOMPARE(queue.grace().count(), kGrace.count());

    QElapsedTimer elapsed;
    elapsed.start();
    queue.arm(u"bob"_s);
    QVERIFY(queue.isArmed(u"bob"_s));
    QVERIFY(!queue.isArmed(u"carol"_s));
    QVERIFY(spy.wait(5000));
    QVERIFY(elapsed.elapsed() >= kGrace.count());
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toString(), u"bob"_s);
    QVERIFY(!queue.isArmed(u"bob"_s));

    // Cancelling an unarmed user is harmless; arming again works.
    queue.cancel(u"nobody"_s);
    queue.arm(u"bob"_s);
    QVERIFY(spy.wait(5000));
    QCOMPARE(spy.count(), 2);
}

void TestGraceQueue::graceExpiresInArmOrder()
{
    GraceQueue queue(kGrace);
    QSignalSpy spy(&queue, &GraceQueue::expired);

    const QStringList users { u"u3"_s, u"u1"_s, u"u2"_s, u"u0"_s };
    for (const QString &user : users)
        queue.arm(user);
    QTRY_COMPARE(spy.count(), users.size());
    QStringList order;
    for (const auto &arguments : std::as_const(spy))
        order.append(arguments.at(0).toString());
    QCOMPARE(order, users);
}

void TestGraceQueue::graceCancelledUserNeverExpires()
{
    GraceQueue queue(kGrace);
    QSignalSpy spy(&queue, &GraceQueue::expired);

    queue.arm(u"alice"_s);
    queue.arm(u"bob"_s);
    queue.arm(u"carol"_s);
    queue.cancel(u"alice"_s);
    queue.cancel(u"carol"_s);
    QVERIFY(!queue.isArmed(u"alice"_s));
    QVERIFY(queue.isArmed(u"bob"_s));
    // alice was armed first: had she expired, it would have been before bob.
    QVERIFY(spy.wait(5000));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toString(), u"bob"_s);
    // carol was armed after bob: give her the grace and more.
    Harness::pause(kGrace + kMargin);
    QCOMPARE(spy.count(), 1);
}

void TestGraceQueue::graceRearmRestartsDeadline()
{
    GraceQueue queue(kGrace);
    QSignalSpy spy(&queue, &GraceQueue::expired);

    queue.arm(u"alice"_s);
    queue.arm(u"bob"_s);
    Harness::pause(kGrace / 2);
    QElapsedTimer sinceRearm;
    sinceRearm.start(); // before arm(), so the deadline cannot precede start + grace
    queue.arm(u"alice"_s);

    QVERIFY(spy.wait(5000));
    QCOMPARE(spy.at(0).at(0).toString(), u"bob"_s);
    QTRY_COMPARE(spy.count(), 2);
    const qint64 aliceAfter = sinceRearm.elapsed();
    QCOMPARE(spy.at(1).at(0).toString(), u"alice"_s);
    QVERIFY2(aliceAfter >= kGrace.count(), qPrintable(QString::number(aliceAfter)));
    // Her first, stale deadline did not fire a second expiry.
    Harness::pause(kMargin);
    QCOMPARE(spy.count(), 2);
}

void TestGraceQueue::graceManyUsersExpireInOrder()
{
    constexpr int users = 10000;
    GraceQueue queue(kGrace);
    QStringList expired;
    expired.reserve(users);
    connect(&queue, &GraceQueue::expired, this, [&](const QString &user) { expired.append(user); });

    QElapsedTimer elapsed;
    elapsed.start();
    QStringList expected;
    for (int i = 0; i < users; ++i) {
        const QString user = u"user%1"_s.arg(i);
        queue.arm(user);
        if (i % 2 == 1)
            queue.cancel(user); // every other one is cancelled and must never expire
        else
            expected.append(user);
    }
    QTRY_COMPARE_WITH_TIMEOUT(expired.size(), expected.size(), 10000);
    QVERIFY(elapsed.elapsed() >= kGrace.count());
    QCOMPARE(expired, expected); // once each, in arm order
    for (int i = 0; i < users; ++i)
        QVERIFY(!queue.isArmed(u"user%1"_s.arg(i)));
    Harness::pause(kMargin);
    QCOMPARE(expired.size(), expected.size());
}

QTEST_GUILESS_MAIN(TestGraceQueue)
#include "tst_grace_queue.moc"
