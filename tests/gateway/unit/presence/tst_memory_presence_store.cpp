// MemoryPresenceStore: devices joining, leaving and choosing a status, published at once or after
// the grace, seq and last seen, snapshots; on real timers.

// C++
#include <chrono>
#include <optional>

// Qt
#include <QDateTime>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

// Presence
#include "protocol/PresenceStatus.h"
#include "protocol/UserPresence.h"
#include "server-mock/presence/MemoryPresenceStore.h"
#include "server-mock/presence/PresenceRules.h"
#include "tests/harness/EventLoopWait.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace Presence::Server;
using Presence::Protocol::ChosenStatus;
using Presence::Protocol::PresenceStatus;
using Presence::Protocol::UserPresence;

// QCOMPARE prints a presence as {id status seq last_seen} when two differ.
namespace Presence::Protocol {

char *toString(const UserPresence &presence)
{
    const QString text = u"{%1 %2 seq=%3 last_seen=%4}"_s.arg(presence.id,
        toString(presence.status), QString::number(presence.seq),
        presence.lastSeen ? QString::number(*presence.lastSeen) : u"none"_s);
    return qstrdup(text.toUtf8().constData());
}

} // namespace Presence::Protocol

namespace {

constexpr auto kGrace = 100ms;
// How long past the grace a test waits when the absence of a publication is what it checks.
constexpr auto kMargin = 100ms;

UserPresence presence(const QString &id, PresenceStatus status, qint64 seq,
    std::optional<qint64> lastSeen = std::nullopt)
{
    UserPresence result;
    result.id = id;
    result.status = status;
    result.seq = seq;
    result.lastSeen = lastSeen;
    return result;
}

UserPresence publishedAt(const QSignalSpy &spy, qsizetype index)
{
    return qvariant_cast<UserPresence>(spy.at(index).at(0));
}

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

} // namespace

class TestMemoryPresenceStore : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void visibleDeviceIsPublishedAtOnce_data();
    void visibleDeviceIsPublishedAtOnce();
    void invisibleDeviceIsNeverPublished();
    void moreAvailableIsPublishedAtOnce();
    void chosenAwayIsPublishedAtOnce();
    void lastDeviceLeavingPublishesOfflineAfterGrace();
    void returnWithinGracePublishesNothing();
    void onlineDeviceLeavingLeavesAwayAfterGrace();
    void secondDeviceKeepsUserOnline();
    void devicesAreFoundWhateverTheirOrder();
    void onlineDeviceGoingInvisibleLooksLikeLeaving();
    void graceQueueDoesNotPileUpDeadEntries();
    void lastDeviceLeavingDuringAwayGraceRestartsIt();
    void goingInvisibleLooksLikeLeaving();
    void invisibleActionsDoNotMoveOfflineUser();
    void invisibleActionsDoNotPostponeOffline();
    void seqGrowsByOnePerPublication();
    void lastSeenOnlyWhileOffline();
    void snapshotOfUnknownAndKnownIds();
    void closingUnknownConnectionIsHarmless();
};

void TestMemoryPresenceStore::visibleDeviceIsPublishedAtOnce_data()
{
    QTest::addColumn<ChosenStatus>("chosen");
    QTest::addColumn<PresenceStatus>("expected");
    QTest::addRow("online") << ChosenStatus::Online << PresenceStatus::Online;
    QTest::addRow("away") << ChosenStatus::Away << PresenceStatus::Away;
}

void TestMemoryPresenceStore::visibleDeviceIsPublishedAtOnce()
{
    QFETCH(ChosenStatus, chosen);
    QFETCH(PresenceStatus, expected);

    MemoryPresenceStore store(kGrace);
    QSignalSpy spy(&store, &PresenceStore::presencePublished);
    QVERIFY(spy.isValid());

    store.connectionOpened(u"bob"_s, 1, chosen);
    QCOMPARE(spy.count(), 1); // synchronously, no grace
    QCOMPARE(publishedAt(spy, 0), presence(u"bob"_s, expected, 1));
    QCOMPARE(store.presenceOf(u"bob"_s), presence(u"bob"_s, expected, 1));
}

void TestMemoryPresenceStore::invisibleDeviceIsNeverPublished()
{
    MemoryPresenceStore store(kGrace);
    QSignalSpy spy(&store, &PresenceStore::presencePublished);

    store.connectionOpened(u"bob"_s, 1, ChosenStatus::Invisible);
    store.connectionOpened(u"bob"_s, 2, ChosenStatus::Invisible);
    store.connectionClosed(u"bob"_s, 1);
    Harness::pause(kGrace + kMargin);
    QCOMPARE(spy.count(), 0);
    QCOMPARE(store.presenceOf(u"bob"_s), presence(u"bob"_s, PresenceStatus::Offline, 0));
}

void TestMemoryPresenceStore::moreAvailableIsPublishedAtOnce()
{
    MemoryPresenceStore store(kGrace);
    QSignalSpy spy(&store, &PresenceStore::presencePublished);

    store.connectionOpened(u"bob"_s, 1, ChosenStatus::Away);
    QCOMPARE(spy.count(), 1);
    store.connectionOpened(u"bob"_s, 2, ChosenStatus::Online); // away -> online by a new device
    QCOMPARE(spy.count(), 2);
    QCOMPARE(publishedAt(spy, 1), presence(u"bob"_s, PresenceStatus::Online, 2));
    store.connectionOpened(u"bob"_s, 3, ChosenStatus::Away); // still online: nothing
    store.connectionStatusChanged(u"bob"_s, 1, ChosenStatus::Online);
    QCOMPARE(spy.count(), 2);
}

void TestMemoryPresenceStore::chosenAwayIsPublishedAtOnce()
{
    MemoryPresenceStore store(kGrace);
    QSignalSpy spy(&store, &PresenceStore::presencePublished);

    store.connectionOpened(u"bob"_s, 1, ChosenStatus::Online);
    store.connectionStatusChanged(u"bob"_s, 1, ChosenStatus::Away);
    QCOMPARE(spy.count(), 2);
    QCOMPARE(publishedAt(spy, 1), presence(u"bob"_s, PresenceStatus::Away, 2));
    store.connectionStatusChanged(u"bob"_s, 1, ChosenStatus::Away); // same again: nothing
    QCOMPARE(spy.count(), 2);
    store.connectionStatusChanged(u"bob"_s, 1, ChosenStatus::Online);
    QCOMPARE(spy.count(), 3);
    QCOMPARE(publishedAt(spy, 2), presence(u"bob"_s, PresenceStatus::Online, 3));
}

void TestMemoryPresenceStore::lastDeviceLeavingPublishesOfflineAfterGrace()
{
    MemoryPresenceStore store(kGrace);
    QSignalSpy spy(&store, &PresenceStore::presencePublished);

    store.connectionOpened(u"bob"_s, 1, ChosenStatus::Online);
    QCOMPARE(spy.count(), 1);

    QElapsedTimer sinceClose;
    sinceClose.start();
    const qint64 before = nowMs();
    store.connectionClosed(u"bob"_s, 1);
    const qint64 after = nowMs();
    QCOMPARE(spy.count(), 1); // not at once
    // Still published online during the grace.
    QCOMPARE(store.presenceOf(u"bob"_s), presence(u"bob"_s, PresenceStatus::Online, 1));

    QVERIFY(spy.wait(5000));
    QVERIFY2(
        sinceClose.elapsed() >= kGrace.count(), qPrintable(QString::number(sinceClose.elapsed())));
    QCOMPARE(spy.count(), 2);
    const UserPresence offline = publishedAt(spy, 1);
    QCOMPARE(Presence::Protocol::toString(offline.status), u"offline"_s);
    QCOMPARE(offline.seq, 2);
    QVERIFY(offline.lastSeen.has_value());
    QVERIFY2(*offline.lastSeen >= before && *offline.lastSeen <= after,
        qPrintable(
            u"last_seen %1 outside [%2, %3]"_s.arg(*offline.lastSeen).arg(before).arg(after)));
    QCOMPARE(store.presenceOf(u"bob"_s), offline);
}

void TestMemoryPresenceStore::returnWithinGracePublishesNothing()
{
    MemoryPresenceStore store(kGrace);
    QSignalSpy spy(&store, &PresenceStore::presencePublished);

    store.connectionOpened(u"bob"_s, 1, ChosenStatus::Online);
    store.connectionClosed(u"bob"_s, 1);
    store.connectionOpened(u"bob"_s, 2, ChosenStatus::Online); // back within the grace
    Harness::pause(kGrace + kMargin);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(store.presenceOf(u"bob"_s), presence(u"bob"_s, PresenceStatus::Online, 1));

    // Back as away within the grace: away is published at once (chosen by the new device),
    // and the pending offline never comes.
    store.connectionClosed(u"bob"_s, 2);
    store.connectionOpened(u"bob"_s, 3, ChosenStatus::Away);
    Harness::pause(kGrace + kMargin);
    QCOMPARE(spy.count(), 2);
    QCOMPARE(publishedAt(spy, 1), presence(u"bob"_s, PresenceStatus::Away, 2));
}

void TestMemoryPresenceStore::onlineDeviceLeavingLeavesAwayAfterGrace()
{
    MemoryPresenceStore store(kGrace);
    QSignalSpy spy(&store, &PresenceStore::presencePublished);

    store.connectionOpened(u"bob"_s, 1, ChosenStatus::Online);
    store.connectionOpened(u"bob"_s, 2, ChosenStatus::Away);
    QCOMPARE(spy.count(), 1);

    QElapsedTimer sinceClose;
    sinceClose.start();
    store.connectionClosed(u"bob"_s, 1);
    QCOMPARE(spy.count(), 1);
    QVERIFY(spy.wait(5000));
    QVERIFY(sinceClose.elapsed() >= kGrace.count());
    QCOMPARE(spy.count(), 2);
    // Away: the user was visible all along, so no last_seen.
    QCOMPARE(publishedAt(spy, 1), presence(u"bob"_s, PresenceStatus::Away, 2));
}

void TestMemoryPresenceStore::secondDeviceKeepsUserOnline()
{
    MemoryPresenceStore store(kGrace);
    QSignalSpy spy(&store, &PresenceStore::presencePublished);

    store.connectionOpened(u"bob"_s, 1, ChosenStatus::Online);
    store.connectionOpened(u"bob"_s, 2, ChosenStatus::Online);
    store.connectionClosed(u"bob"_s, 1);
    Harness::pause(kGrace + kMargin);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(store.presenceOf(u"bob"_s), presence(u"bob"_s, PresenceStatus::Online, 1));
}

void TestMemoryPresenceStore::devicesAreFoundWhateverTheirOrder()
{
    // A simulated device (ids from 2^62) opened before a client connection: the store must act
    // on the very device each call names.
    constexpr ConnectionId simulated = ConnectionId(1) << 62;
    MemoryPresenceStore store(kGrace);
    QSignalSpy spy(&store, &PresenceStore::presencePublished);

    store.connectionOpened(u"bob"_s, simulated, ChosenStatus::Invisible);
    store.connectionOpened(u"bob"_s, 7, ChosenStatus::Away);
    QCOMPARE(spy.count(), 1);
    store.connectionStatusChanged(u"bob"_s, simulated, ChosenStatus::Online);
    QCOMPARE(spy.count(), 2);
    QCOMPARE(publishedAt(spy, 1), presence(u"bob"_s, PresenceStatus::Online, 2));

    store.connectionClosed(u"bob"_s, simulated); // the away device stays
    QVERIFY(spy.wait(5000));
    QCOMPARE(publishedAt(spy, 2), presence(u"bob"_s, PresenceStatus::Away, 3));
    store.connectionClosed(u"bob"_s, 7);
    QVERIFY(spy.wait(5000));
    QVERIFY(publishedAt(spy, 3).status == PresenceStatus::Offline);
}

void TestMemoryPresenceStore::onlineDeviceGoingInvisibleLooksLikeLeaving()
{
    // Laptop online, phone away: the laptop going invisible must publish exactly what the
    // laptop closing would, and as late, or watchers could tell invisible from gone.
    MemoryPresenceStore store(kGrace);
    QSignalSpy spy(&store, &PresenceStore::presencePublished);
    store.connectionOpened(u"bob"_s, 1, ChosenStatus::Online);
    store.connectionOpened(u"bob"_s, 2, ChosenStatus::Away);
    QCOMPARE(spy.count(), 1);

    QElapsedTimer sinceInvisible;
    sinceInvisible.start();
    store.connectionStatusChanged(u"bob"_s, 1, ChosenStatus::Invisible);
    QCOMPARE(spy.count(), 1);
    QVERIFY(spy.wait(5000));
    QVERIFY(sinceInvisible.elapsed() >= kGrace.count());
    QCOMPARE(publishedAt(spy, 1), presence(u"bob"_s, PresenceStatus::Away, 2));
}

void TestMemoryPresenceStore::graceQueueDoesNotPileUpDeadEntries()
{
    // Someone toggling invisible/online re-arms one user again and again within a long
    // grace: the queue must stay small, not hold one dead entry per toggle.
    GraceQueue queue(std::chrono::hours(24));
    for (int i = 0; i < 10'000; ++i) {
        queue.arm(u"bob"_s);
        queue.cancel(u"bob"_s);
    }
    queue.arm(u"bob"_s);
    QVERIFY2(queue.entryCount() <= 2 + 64 + 1, qPrintable(QString::number(queue.entryCount())));
    QVERIFY(queue.isArmed(u"bob"_s));
}

void TestMemoryPresenceStore::lastDeviceLeavingDuringAwayGraceRestartsIt()
{
    MemoryPresenceStore store(kGrace);
    QSignalSpy spy(&store, &PresenceStore::presencePublished);

    store.connectionOpened(u"bob"_s, 1, ChosenStatus::Online);
    store.connectionOpened(u"bob"_s, 2, ChosenStatus::Away);
    store.connectionClosed(u"bob"_s, 1); // away, one grace from now ...
    Harness::pause(kGrace / 2);
    QElapsedTimer sinceLastLeft;
    sinceLastLeft.start();
    const qint64 before = nowMs();
    store.connectionClosed(u"bob"_s, 2); // ... but now nobody is left: offline, one grace later
    const qint64 after = nowMs();

    QVERIFY(spy.wait(5000));
    QVERIFY2(sinceLastLeft.elapsed() >= kGrace.count(),
        qPrintable(QString::number(sinceLastLeft.elapsed())));
    QCOMPARE(spy.count(), 2); // straight from online to offline, no away in between
    const UserPresence offline = publishedAt(spy, 1);
    QCOMPARE(Presence::Protocol::toString(offline.status), u"offline"_s);
    QCOMPARE(offline.seq, 2);
    QVERIFY(offline.lastSeen.has_value());
    QVERIFY(*offline.lastSeen >= before && *offline.lastSeen <= after);
    Harness::pause(kMargin);
    QCOMPARE(spy.count(), 2);
}

void TestMemoryPresenceStore::goingInvisibleLooksLikeLeaving()
{
    MemoryPresenceStore store(kGrace);
    QSignalSpy spy(&store, &PresenceStore::presencePublished);

    store.connectionOpened(u"bob"_s, 1, ChosenStatus::Online);
    const qint64 before = nowMs();
    store.connectionStatusChanged(u"bob"_s, 1, ChosenStatus::Invisible);
    const qint64 after = nowMs();
    QCOMPARE(spy.count(), 1);
    QVERIFY(spy.wait(5000));
    QCOMPARE(spy.count(), 2);
    const UserPresence offline = publishedAt(spy, 1);
    QCOMPARE(Presence::Protocol::toString(offline.status), u"offline"_s);
    QCOMPARE(offline.seq, 2);
    QVERIFY(offline.lastSeen.has_value());
    QVERIFY(*offline.lastSeen >= before && *offline.lastSeen <= after);

    // Invisible -> online is more available: at once, without last_seen.
    store.connectionStatusChanged(u"bob"_s, 1, ChosenStatus::Online);
    QCOMPARE(spy.count(), 3);
    QCOMPARE(publishedAt(spy, 2), presence(u"bob"_s, PresenceStatus::Online, 3));
}

void TestMemoryPresenceStore::invisibleActionsDoNotMoveOfflineUser()
{
    MemoryPresenceStore store(kGrace);
    QSignalSpy spy(&store, &PresenceStore::presencePublished);

    store.connectionOpened(u"bob"_s, 1, ChosenStatus::Online);
    store.connectionStatusChanged(u"bob"_s, 1, ChosenStatus::Invisible);
    QVERIFY(spy.wait(5000));
    QCOMPARE(spy.count(), 2);
    const UserPresence offline = publishedAt(spy, 1);
    QVERIFY(offline.lastSeen.has_value());

    // Nothing an invisible user does shows: not even last_seen moves.
    store.connectionStatusChanged(u"bob"_s, 1, ChosenStatus::Invisible);
    store.connectionOpened(u"bob"_s, 2, ChosenStatus::Invisible);
    store.connectionClosed(u"bob"_s, 1);
    store.connectionClosed(u"bob"_s, 2);
    store.connectionOpened(u"bob"_s, 3, ChosenStatus::Invisible);
    Harness::pause(kGrace + kMargin);
    QCOMPARE(spy.count(), 2);
    QCOMPARE(store.presenceOf(u"bob"_s), offline);
}

void TestMemoryPresenceStore::invisibleActionsDoNotPostponeOffline()
{
    // Going invisible must look like leaving: offline one grace later. An invisible user who
    // keeps doing invisible things (re-sending set_status invisible, opening invisible
    // devices) must not keep appearing online past the grace.
    MemoryPresenceStore store(kGrace);
    QSignalSpy spy(&store, &PresenceStore::presencePublished);

    store.connectionOpened(u"bob"_s, 1, ChosenStatus::Online);
    QElapsedTimer sinceInvisible;
    sinceInvisible.start();
    store.connectionStatusChanged(u"bob"_s, 1, ChosenStatus::Invisible);
    ConnectionId next = 2;
    while (spy.count() < 2 && sinceInvisible.elapsed() < 4 * kGrace.count()) {
        store.connectionStatusChanged(u"bob"_s, 1, ChosenStatus::Invisible);
        store.connectionOpened(u"bob"_s, next++, ChosenStatus::Invisible);
        Harness::pause(kGrace / 4);
    }
    QVERIFY2(spy.count() == 2,
        qPrintable(u"no offline within %1 ms of going invisible"_s.arg(sinceInvisible.elapsed())));
    QCOMPARE(Presence::Protocol::toString(publishedAt(spy, 1).status), u"offline"_s);
}

void TestMemoryPresenceStore::seqGrowsByOnePerPublication()
{
    MemoryPresenceStore store(kGrace);
    QSignalSpy spy(&store, &PresenceStore::presencePublished);

    store.connectionOpened(u"bob"_s, 1, ChosenStatus::Online);
    const ChosenStatus changes[] = { ChosenStatus::Away, ChosenStatus::Online, ChosenStatus::Away,
        ChosenStatus::Away, ChosenStatus::Online, ChosenStatus::Online, ChosenStatus::Away };
    for (const ChosenStatus status : changes)
        store.connectionStatusChanged(u"bob"_s, 1, status);
    // online, away, online, away, online, away: repeats publish nothing.
    QCOMPARE(spy.count(), 6);
    for (int i = 0; i < spy.count(); ++i) {
        const UserPresence published = publishedAt(spy, i);
        QCOMPARE(published.seq, qint64(i + 1));
        QCOMPARE(
            Presence::Protocol::toString(published.status), i % 2 == 0 ? u"online"_s : u"away"_s);
    }
    // Another user has a sequence of its own.
    store.connectionOpened(u"carol"_s, 7, ChosenStatus::Online);
    QCOMPARE(publishedAt(spy, spy.count() - 1), presence(u"carol"_s, PresenceStatus::Online, 1));
}

void TestMemoryPresenceStore::lastSeenOnlyWhileOffline()
{
    MemoryPresenceStore store(kGrace);
    QSignalSpy spy(&store, &PresenceStore::presencePublished);

    store.connectionOpened(u"bob"_s, 1, ChosenStatus::Online);
    store.connectionClosed(u"bob"_s, 1);
    QVERIFY(spy.wait(5000));
    const std::optional<qint64> firstSeen = publishedAt(spy, 1).lastSeen;
    QVERIFY(firstSeen.has_value());

    store.connectionOpened(u"bob"_s, 2, ChosenStatus::Away);
    QCOMPARE(spy.count(), 3);
    QCOMPARE(publishedAt(spy, 2), presence(u"bob"_s, PresenceStatus::Away, 3)); // no last_seen
    QCOMPARE(store.presenceOf(u"bob"_s).lastSeen, std::nullopt);

    QTRY_VERIFY(nowMs() > *firstSeen); // so that a moved last_seen is a different number
    const qint64 before = nowMs();
    store.connectionClosed(u"bob"_s, 2);
    QVERIFY(spy.wait(5000));
    const UserPresence offline = publishedAt(spy, 3);
    QCOMPARE(offline.seq, 4);
    QVERIFY(offline.lastSeen.has_value());
    QVERIFY(*offline.lastSeen >= before);
}

void TestMemoryPresenceStore::snapshotOfUnknownAndKnownIds()
{
    MemoryPresenceStore store(kGrace);
    store.connectionOpened(u"bob"_s, 1, ChosenStatus::Away);

    QList<UserPresence> answer;
    int calls = 0;
    QObject context;
    store.snapshot(
        { u"nobody"_s, u"bob"_s, u"ghost"_s }, &context, [&](const QList<UserPresence> &users) {
            answer = users;
            ++calls;
        });
    QTRY_COMPARE(calls, 1);
    const QList<UserPresence> expected { presence(u"nobody"_s, PresenceStatus::Offline, 0),
        presence(u"bob"_s, PresenceStatus::Away, 1),
        presence(u"ghost"_s, PresenceStatus::Offline, 0) };
    QCOMPARE(answer, expected);

    store.snapshot({}, &context, [&](const QList<UserPresence> &users) {
        answer = users;
        ++calls;
    });
    QTRY_COMPARE(calls, 2);
    QVERIFY(answer.isEmpty());
}

void TestMemoryPresenceStore::closingUnknownConnectionIsHarmless()
{
    MemoryPresenceStore store(kGrace);
    QSignalSpy spy(&store, &PresenceStore::presencePublished);

    store.connectionClosed(u"nobody"_s, 42);
    store.connectionOpened(u"bob"_s, 1, ChosenStatus::Online);
    store.connectionClosed(u"bob"_s, 99); // bob's, but never opened
    store.connectionClosed(u"carol"_s, 1); // bob's connection id under another user
    Harness::pause(kGrace + kMargin);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(store.presenceOf(u"nobody"_s), presence(u"nobody"_s, PresenceStatus::Offline, 0));
    QCOMPARE(store.presenceOf(u"bob"_s), presence(u"bob"_s, PresenceStatus::Online, 1));

    // Closing the same connection twice publishes one offline.
    store.connectionClosed(u"bob"_s, 1);
    store.connectionClosed(u"bob"_s, 1);
    QVERIFY(spy.wait(5000));
    Harness::pause(kGrace + kMargin);
    QCOMPARE(spy.count(), 2);
    QCOMPARE(Presence::Protocol::toString(publishedAt(spy, 1).status), u"offline"_s);
}

QTEST_GUILESS_MAIN(TestMemoryPresenceStore)
#include "tst_memory_presence_store.moc"
