// Unit tests for the gateway's presence machinery, without sockets: the pure presence rules,
// the in-memory store, the grace queue, the frame rate limiter and the subscription registry.

// C++
#include <algorithm>
#include <chrono>
#include <optional>

// Qt
#include <QDateTime>
#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

// Presence
#include "protocol/PresenceStatus.h"
#include "protocol/ServerMessages.h"
#include "server-mock/core/GraceQueue.h"
#include "server-mock/presence/MemoryPresenceStore.h"
#include "server-mock/presence/PresenceRules.h"
#include "server-mock/presence/SubscriptionRegistry.h"
#include "server-mock/server/RateLimiter.h"

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

QString nameOf(Publication publication)
{
    switch (publication) {
    case Publication::Nothing:
        return u"Nothing"_s;
    case Publication::Now:
        return u"Now"_s;
    case Publication::AfterGrace:
        return u"AfterGrace"_s;
    }
    return u"?"_s;
}

QString nameOf(ChangeCause cause)
{
    switch (cause) {
    case ChangeCause::StatusChosen:
        return u"StatusChosen"_s;
    case ChangeCause::DeviceJoined:
        return u"DeviceJoined"_s;
    case ChangeCause::DeviceLeft:
        return u"DeviceLeft"_s;
    case ChangeCause::GraceExpired:
        return u"GraceExpired"_s;
    }
    return u"?"_s;
}

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

// QTest::qWait for a std::chrono duration (Qt 6.4 takes int milliseconds only).
void pause(std::chrono::milliseconds duration)
{
    QTest::qWait(int(duration.count()));
}

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

} // namespace

class TestPresenceStore : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // PresenceRules
    void aggregate_data();
    void aggregate();
    void tallyVisible();
    void decide_data();
    void decide();

    // MemoryPresenceStore
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

    // GraceQueue
    void graceArmAndExpire();
    void graceExpiresInArmOrder();
    void graceCancelledUserNeverExpires();
    void graceRearmRestartsDeadline();
    void graceManyUsersExpireInOrder();

    // RateLimiter
    void rateBurstThenDrops();
    void rateRefillsAtConfiguredRate();
    void rateRefillIsCappedAtBurst();
    void rateAbuseAfterDropLimit();
    void rateAbuseWindowResets();

    // SubscriptionRegistry
    void registryWatchedOnFirstUnwatchedOnLast();
    void registryRemoveConnection();
    void registryCountsAndSorts();
    void registryAgreesWithASimpleModel();
};

// ---- PresenceRules ------------------------------------------------------------------------

void TestPresenceStore::aggregate_data()
{
    QTest::addColumn<int>("online");
    QTest::addColumn<int>("away");
    QTest::addColumn<int>("invisible");
    QTest::addColumn<QString>("expected");

    QTest::addRow("no devices") << 0 << 0 << 0 << u"offline"_s;
    QTest::addRow("one invisible") << 0 << 0 << 1 << u"offline"_s;
    QTest::addRow("many invisible") << 0 << 0 << 3 << u"offline"_s;
    QTest::addRow("one online") << 1 << 0 << 0 << u"online"_s;
    QTest::addRow("one away") << 0 << 1 << 0 << u"away"_s;
    QTest::addRow("online beats away") << 1 << 2 << 0 << u"online"_s;
    QTest::addRow("online beats invisible") << 1 << 0 << 2 << u"online"_s;
    QTest::addRow("all three") << 2 << 1 << 1 << u"online"_s;
    QTest::addRow("away beats invisible") << 0 << 2 << 3 << u"away"_s;
}

void TestPresenceStore::aggregate()
{
    QFETCH(int, online);
    QFETCH(int, away);
    QFETCH(int, invisible);
    QFETCH(QString, expected);

    // Built through add() as the store does, so the tally bookkeeping is covered as well.
    DeviceTally tally;
    for (int i = 0; i < online; ++i)
        tally.add(ChosenStatus::Online, +1);
    for (int i = 0; i < away; ++i)
        tally.add(ChosenStatus::Away, +1);
    for (int i = 0; i < invisible; ++i)
        tally.add(ChosenStatus::Invisible, +1);
    QCOMPARE(tally.online, online);
    QCOMPARE(tally.away, away);
    QCOMPARE(tally.invisible, invisible);
    QCOMPARE(Presence::Protocol::toString(Presence::Server::aggregate(tally)), expected);
    QCOMPARE(tally.visible(), online + away > 0);
}

void TestPresenceStore::tallyVisible()
{
    DeviceTally tally;
    tally.add(ChosenStatus::Invisible, +1);
    QVERIFY(!tally.visible());
    tally.add(ChosenStatus::Away, +1);
    QVERIFY(tally.visible());
    tally.add(ChosenStatus::Away, -1);
    QVERIFY(!tally.visible());
    tally.add(ChosenStatus::Online, +1);
    QVERIFY(tally.visible());
    tally.add(ChosenStatus::Online, -1);
    tally.add(ChosenStatus::Invisible, -1);
    QCOMPARE(tally.online, 0);
    QCOMPARE(tally.away, 0);
    QCOMPARE(tally.invisible, 0);
}

void TestPresenceStore::decide_data()
{
    QTest::addColumn<PresenceStatus>("published");
    QTest::addColumn<PresenceStatus>("current");
    QTest::addColumn<ChangeCause>("cause");
    QTest::addColumn<Publication>("expected");

    const PresenceStatus statuses[]
        = { PresenceStatus::Online, PresenceStatus::Away, PresenceStatus::Offline };
    const ChangeCause causes[] = { ChangeCause::StatusChosen, ChangeCause::DeviceJoined,
        ChangeCause::DeviceLeft, ChangeCause::GraceExpired };
    // Every combination, the expectation spelled out from the protocol's presence semantics.
    for (const PresenceStatus published : statuses) {
        for (const PresenceStatus current : statuses) {
            for (const ChangeCause cause : causes) {
                Publication expected = Publication::Now;
                // Branches with the same outcome stay apart: each has its own reason.
                // NOLINTBEGIN(bugprone-branch-clone)
                if (current == published)
                    expected = Publication::Nothing; // nothing visible changed
                else if (cause == ChangeCause::GraceExpired)
                    expected = Publication::Now; // the grace is over: say what is true now
                else if (current == PresenceStatus::Online)
                    expected = Publication::Now; // more available: at once
                else if (current == PresenceStatus::Away && published == PresenceStatus::Offline)
                    expected = Publication::Now; // more available: at once
                else if (current == PresenceStatus::Offline)
                    expected = Publication::AfterGrace; // leaving or invisible: after grace
                else if (cause == ChangeCause::DeviceLeft)
                    expected = Publication::AfterGrace; // online -> away because a device left
                else
                    expected = Publication::Now; // online -> away chosen
                // NOLINTEND(bugprone-branch-clone)
                QTest::addRow("%s->%s by %s", qPrintable(Presence::Protocol::toString(published)),
                    qPrintable(Presence::Protocol::toString(current)), qPrintable(nameOf(cause)))
                    << published << current << cause << expected;
            }
        }
    }
}

void TestPresenceStore::decide()
{
    QFETCH(PresenceStatus, published);
    QFETCH(PresenceStatus, current);
    QFETCH(ChangeCause, cause);
    QFETCH(Publication, expected);

    QCOMPARE(nameOf(Presence::Server::decide(published, current, cause)), nameOf(expected));
}

// ---- MemoryPresenceStore ------------------------------------------------------------------

void TestPresenceStore::visibleDeviceIsPublishedAtOnce_data()
{
    QTest::addColumn<ChosenStatus>("chosen");
    QTest::addColumn<PresenceStatus>("expected");
    QTest::addRow("online") << ChosenStatus::Online << PresenceStatus::Online;
    QTest::addRow("away") << ChosenStatus::Away << PresenceStatus::Away;
}

void TestPresenceStore::visibleDeviceIsPublishedAtOnce()
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

void TestPresenceStore::invisibleDeviceIsNeverPublished()
{
    MemoryPresenceStore store(kGrace);
    QSignalSpy spy(&store, &PresenceStore::presencePublished);

    store.connectionOpened(u"bob"_s, 1, ChosenStatus::Invisible);
    store.connectionOpened(u"bob"_s, 2, ChosenStatus::Invisible);
    store.connectionClosed(u"bob"_s, 1);
    pause(kGrace + kMargin);
    QCOMPARE(spy.count(), 0);
    QCOMPARE(store.presenceOf(u"bob"_s), presence(u"bob"_s, PresenceStatus::Offline, 0));
}

void TestPresenceStore::moreAvailableIsPublishedAtOnce()
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

void TestPresenceStore::chosenAwayIsPublishedAtOnce()
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

void TestPresenceStore::lastDeviceLeavingPublishesOfflineAfterGrace()
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

void TestPresenceStore::returnWithinGracePublishesNothing()
{
    MemoryPresenceStore store(kGrace);
    QSignalSpy spy(&store, &PresenceStore::presencePublished);

    store.connectionOpened(u"bob"_s, 1, ChosenStatus::Online);
    store.connectionClosed(u"bob"_s, 1);
    store.connectionOpened(u"bob"_s, 2, ChosenStatus::Online); // back within the grace
    pause(kGrace + kMargin);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(store.presenceOf(u"bob"_s), presence(u"bob"_s, PresenceStatus::Online, 1));

    // Back as away within the grace: away is published at once (chosen by the new device),
    // and the pending offline never comes.
    store.connectionClosed(u"bob"_s, 2);
    store.connectionOpened(u"bob"_s, 3, ChosenStatus::Away);
    pause(kGrace + kMargin);
    QCOMPARE(spy.count(), 2);
    QCOMPARE(publishedAt(spy, 1), presence(u"bob"_s, PresenceStatus::Away, 2));
}

void TestPresenceStore::onlineDeviceLeavingLeavesAwayAfterGrace()
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

void TestPresenceStore::onlineDeviceGoingInvisibleLooksLikeLeaving()
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

void TestPresenceStore::graceQueueDoesNotPileUpDeadEntries()
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

void TestPresenceStore::lastDeviceLeavingDuringAwayGraceRestartsIt()
{
    MemoryPresenceStore store(kGrace);
    QSignalSpy spy(&store, &PresenceStore::presencePublished);

    store.connectionOpened(u"bob"_s, 1, ChosenStatus::Online);
    store.connectionOpened(u"bob"_s, 2, ChosenStatus::Away);
    store.connectionClosed(u"bob"_s, 1); // away, one grace from now ...
    pause(kGrace / 2);
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
    pause(kMargin);
    QCOMPARE(spy.count(), 2);
}

void TestPresenceStore::secondDeviceKeepsUserOnline()
{
    MemoryPresenceStore store(kGrace);
    QSignalSpy spy(&store, &PresenceStore::presencePublished);

    store.connectionOpened(u"bob"_s, 1, ChosenStatus::Online);
    store.connectionOpened(u"bob"_s, 2, ChosenStatus::Online);
    store.connectionClosed(u"bob"_s, 1);
    pause(kGrace + kMargin);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(store.presenceOf(u"bob"_s), presence(u"bob"_s, PresenceStatus::Online, 1));
}

void TestPresenceStore::devicesAreFoundWhateverTheirOrder()
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

void TestPresenceStore::goingInvisibleLooksLikeLeaving()
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

void TestPresenceStore::invisibleActionsDoNotMoveOfflineUser()
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
    pause(kGrace + kMargin);
    QCOMPARE(spy.count(), 2);
    QCOMPARE(store.presenceOf(u"bob"_s), offline);
}

void TestPresenceStore::invisibleActionsDoNotPostponeOffline()
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
        pause(kGrace / 4);
    }
    QVERIFY2(spy.count() == 2,
        qPrintable(u"no offline within %1 ms of going invisible"_s.arg(sinceInvisible.elapsed())));
    QCOMPARE(Presence::Protocol::toString(publishedAt(spy, 1).status), u"offline"_s);
}

void TestPresenceStore::seqGrowsByOnePerPublication()
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

void TestPresenceStore::lastSeenOnlyWhileOffline()
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

void TestPresenceStore::snapshotOfUnknownAndKnownIds()
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

void TestPresenceStore::closingUnknownConnectionIsHarmless()
{
    MemoryPresenceStore store(kGrace);
    QSignalSpy spy(&store, &PresenceStore::presencePublished);

    store.connectionClosed(u"nobody"_s, 42);
    store.connectionOpened(u"bob"_s, 1, ChosenStatus::Online);
    store.connectionClosed(u"bob"_s, 99); // bob's, but never opened
    store.connectionClosed(u"carol"_s, 1); // bob's connection id under another user
    pause(kGrace + kMargin);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(store.presenceOf(u"nobody"_s), presence(u"nobody"_s, PresenceStatus::Offline, 0));
    QCOMPARE(store.presenceOf(u"bob"_s), presence(u"bob"_s, PresenceStatus::Online, 1));

    // Closing the same connection twice publishes one offline.
    store.connectionClosed(u"bob"_s, 1);
    store.connectionClosed(u"bob"_s, 1);
    QVERIFY(spy.wait(5000));
    pause(kGrace + kMargin);
    QCOMPARE(spy.count(), 2);
    QCOMPARE(Presence::Protocol::toString(publishedAt(spy, 1).status), u"offline"_s);
}

// ---- GraceQueue ---------------------------------------------------------------------------

void TestPresenceStore::graceArmAndExpire()
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

void TestPresenceStore::graceExpiresInArmOrder()
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

void TestPresenceStore::graceCancelledUserNeverExpires()
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
    pause(kGrace + kMargin);
    QCOMPARE(spy.count(), 1);
}

void TestPresenceStore::graceRearmRestartsDeadline()
{
    GraceQueue queue(kGrace);
    QSignalSpy spy(&queue, &GraceQueue::expired);

    queue.arm(u"alice"_s);
    queue.arm(u"bob"_s);
    pause(kGrace / 2);
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
    pause(kMargin);
    QCOMPARE(spy.count(), 2);
}

void TestPresenceStore::graceManyUsersExpireInOrder()
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
    pause(kMargin);
    QCOMPARE(expired.size(), expected.size());
}

// ---- RateLimiter --------------------------------------------------------------------------

void TestPresenceStore::rateBurstThenDrops()
{
    const auto t0 = RateLimiter::Clock::time_point(1h);
    RateLimiter limiter(10, 5, 100, 10s, t0);
    for (int i = 0; i < 5; ++i)
        QVERIFY2(limiter.admit(t0) == RateLimiter::Verdict::Accept, qPrintable(QString::number(i)));
    QVERIFY(limiter.admit(t0) == RateLimiter::Verdict::Drop);
    QVERIFY(limiter.admit(t0) == RateLimiter::Verdict::Drop);
}

void TestPresenceStore::rateRefillsAtConfiguredRate()
{
    const auto t0 = RateLimiter::Clock::time_point(1h);
    RateLimiter limiter(10, 5, 1000, 10s, t0); // one token per 100 ms
    for (int i = 0; i < 5; ++i)
        QVERIFY(limiter.admit(t0) == RateLimiter::Verdict::Accept);
    QVERIFY(limiter.admit(t0) == RateLimiter::Verdict::Drop);

    QVERIFY(limiter.admit(t0 + 50ms) == RateLimiter::Verdict::Drop); // half a token
    QVERIFY(limiter.admit(t0 + 100ms) == RateLimiter::Verdict::Accept); // one whole token
    QVERIFY(limiter.admit(t0 + 100ms) == RateLimiter::Verdict::Drop);

    // 300 ms later: three tokens, not more.
    int accepted = 0;
    for (int i = 0; i < 10; ++i)
        accepted += limiter.admit(t0 + 400ms) == RateLimiter::Verdict::Accept ? 1 : 0;
    QCOMPARE(accepted, 3);

    // Sustained: a frame every 100 ms is always accepted.
    for (int i = 1; i <= 50; ++i)
        QVERIFY(limiter.admit(t0 + 400ms + i * 100ms) == RateLimiter::Verdict::Accept);
}

void TestPresenceStore::rateRefillIsCappedAtBurst()
{
    const auto t0 = RateLimiter::Clock::time_point(1h);
    RateLimiter limiter(10, 5, 1000, 10s, t0);
    QVERIFY(limiter.admit(t0) == RateLimiter::Verdict::Accept);
    // An hour of silence still buys only the burst.
    int accepted = 0;
    for (int i = 0; i < 100; ++i)
        accepted += limiter.admit(t0 + 1h) == RateLimiter::Verdict::Accept ? 1 : 0;
    QCOMPARE(accepted, 5);
}

void TestPresenceStore::rateAbuseAfterDropLimit()
{
    const auto t0 = RateLimiter::Clock::time_point(1h);
    RateLimiter limiter(1, 2, 5, 10s, t0);
    QVERIFY(limiter.admit(t0) == RateLimiter::Verdict::Accept);
    QVERIFY(limiter.admit(t0) == RateLimiter::Verdict::Accept);
    // Exactly abuseDropLimit drops are tolerated, spread over most of the window ...
    for (int i = 0; i < 5; ++i)
        QVERIFY2(limiter.admit(t0 + i * 1ms) == RateLimiter::Verdict::Drop,
            qPrintable(QString::number(i)));
    // ... one more inside the window is abuse.
    QVERIFY(limiter.admit(t0 + 10ms) == RateLimiter::Verdict::Abuse);
}

void TestPresenceStore::rateAbuseWindowResets()
{
    const auto t0 = RateLimiter::Clock::time_point(1h);
    // One token per second and a 100 ms window: no token comes back within a window.
    RateLimiter limiter(1, 1, 3, 100ms, t0);
    QVERIFY(limiter.admit(t0) == RateLimiter::Verdict::Accept);
    for (int i = 0; i < 3; ++i)
        QVERIFY(limiter.admit(t0 + 10ms) == RateLimiter::Verdict::Drop);

    // The window has passed: the drop count starts again.
    const auto t1 = t0 + 150ms;
    for (int i = 0; i < 3; ++i)
        QVERIFY2(limiter.admit(t1) == RateLimiter::Verdict::Drop, qPrintable(QString::number(i)));
    QVERIFY(limiter.admit(t1 + 10ms) == RateLimiter::Verdict::Abuse);
}

// ---- SubscriptionRegistry -----------------------------------------------------------------

void TestPresenceStore::registryWatchedOnFirstUnwatchedOnLast()
{
    SubscriptionRegistry registry;
    QSignalSpy watched(&registry, &SubscriptionRegistry::userWatched);
    QSignalSpy unwatched(&registry, &SubscriptionRegistry::userUnwatched);
    QVERIFY(watched.isValid());
    QVERIFY(unwatched.isValid());

    QVERIFY(registry.add(1, u"bob"_s));
    QCOMPARE(watched.count(), 1);
    QCOMPARE(watched.at(0).at(0).toString(), u"bob"_s);
    QVERIFY(!registry.add(1, u"bob"_s)); // already watching
    QVERIFY(registry.add(2, u"bob"_s)); // second watcher: not announced
    QCOMPARE(watched.count(), 1);
    QCOMPARE(registry.watchedUserCount(), 1);
    QCOMPARE(registry.watchersOf(u"bob"_s).size(), 2);

    registry.remove(1, u"bob"_s);
    QCOMPARE(unwatched.count(), 0);
    registry.remove(1, u"bob"_s); // twice: harmless
    registry.remove(3, u"bob"_s); // never watched
    registry.remove(2, u"nobody"_s);
    QCOMPARE(unwatched.count(), 0);
    QCOMPARE(registry.watchersOf(u"bob"_s), QList<ConnectionId> { 2 });
    registry.remove(2, u"bob"_s); // the last one
    QCOMPARE(unwatched.count(), 1);
    QCOMPARE(unwatched.at(0).at(0).toString(), u"bob"_s);
    QCOMPARE(registry.watchedUserCount(), 0);
    QVERIFY(registry.watchersOf(u"bob"_s).isEmpty());

    QVERIFY(registry.add(3, u"bob"_s)); // watched again: announced again
    QCOMPARE(watched.count(), 2);
}

void TestPresenceStore::registryRemoveConnection()
{
    SubscriptionRegistry registry;
    QSignalSpy unwatched(&registry, &SubscriptionRegistry::userUnwatched);

    registry.add(1, u"bob"_s);
    registry.add(1, u"carol"_s);
    registry.add(1, u"dave"_s);
    registry.add(2, u"carol"_s);

    registry.removeConnection(1);
    QCOMPARE(registry.countOf(1), 0);
    QVERIFY(registry.subscriptionsOf(1).isEmpty());
    QVERIFY(!registry.contains(1, u"bob"_s));
    QStringList gone;
    for (const auto &arguments : std::as_const(unwatched))
        gone.append(arguments.at(0).toString());
    gone.sort();
    QCOMPARE(gone, (QStringList { u"bob"_s, u"dave"_s })); // carol still has a watcher
    QCOMPARE(registry.watchersOf(u"carol"_s), QList<ConnectionId> { 2 });
    QCOMPARE(registry.watchedUserCount(), 1);

    registry.removeConnection(1); // again: harmless
    registry.removeConnection(77); // unknown: harmless
    QCOMPARE(unwatched.count(), 2);
}

void TestPresenceStore::registryCountsAndSorts()
{
    SubscriptionRegistry registry;
    QCOMPARE(registry.countOf(1), 0);
    QVERIFY(registry.subscriptionsOf(1).isEmpty());

    for (const QString &id : { u"zoe"_s, u"bob"_s, u"mia"_s, u"al"_s, u"bob"_s })
        registry.add(1, id);
    registry.add(2, u"kim"_s);
    QCOMPARE(registry.countOf(1), 4);
    QCOMPARE(registry.countOf(2), 1);
    QCOMPARE(registry.subscriptionsOf(1), (QStringList { u"al"_s, u"bob"_s, u"mia"_s, u"zoe"_s }));
    QVERIFY(registry.contains(1, u"mia"_s));
    QVERIFY(!registry.contains(2, u"mia"_s));

    registry.remove(1, u"mia"_s);
    QCOMPARE(registry.countOf(1), 3);
    QCOMPARE(registry.subscriptionsOf(1), (QStringList { u"al"_s, u"bob"_s, u"zoe"_s }));
    QCOMPARE(registry.watchedUserCount(), 4);
}

void TestPresenceStore::registryAgreesWithASimpleModel()
{
    // Random adds and removes, whole connections gone now and then, against sets of strings:
    // the registry's sorted vectors of indexes must say the same in both directions.
    SubscriptionRegistry registry;
    QHash<ConnectionId, QSet<QString>> model;
    int watched = 0;
    int unwatched = 0;
    connect(&registry, &SubscriptionRegistry::userWatched, this, [&] { ++watched; });
    connect(&registry, &SubscriptionRegistry::userUnwatched, this, [&] { ++unwatched; });
    QRandomGenerator random(7);
    for (int step = 0; step < 5000; ++step) {
        const ConnectionId connection = 1 + random.bounded(12);
        const QString user = u"user%1"_s.arg(random.bounded(30));
        const int what = int(random.bounded(10));
        if (what < 6) {
            QCOMPARE(registry.add(connection, user), !model[connection].contains(user));
            model[connection].insert(user);
        } else if (what < 9) {
            registry.remove(connection, user);
            model[connection].remove(user);
        } else {
            registry.removeConnection(connection);
            model.remove(connection);
        }
    }
    QHash<QString, QList<ConnectionId>> watchers;
    for (auto it = model.cbegin(); it != model.cend(); ++it) {
        QStringList ids(it->cbegin(), it->cend());
        ids.sort();
        QCOMPARE(registry.subscriptionsOf(it.key()), ids);
        QCOMPARE(registry.countOf(it.key()), int(ids.size()));
        for (const QString &id : std::as_const(ids)) {
            QVERIFY(registry.contains(it.key(), id));
            watchers[id].append(it.key());
        }
    }
    for (int u = 0; u < 30; ++u) {
        const QString user = u"user%1"_s.arg(u);
        QList<ConnectionId> expected = watchers.value(user);
        std::sort(expected.begin(), expected.end());
        QCOMPARE(registry.watchersOf(user), expected);
    }
    QCOMPARE(registry.watchedUserCount(), int(watchers.size()));
    QCOMPARE(watched - unwatched, int(watchers.size()));
}

QTEST_GUILESS_MAIN(TestPresenceStore)
#include "tst_presence_store.moc"
