// AvailabilityFanout on its own, over a small directory: who is covered, what a snapshot
// tells, how changes are coalesced per connection (availability_changed) or batched in
// publication order (presence_batch), and that connections which left or watched again hear
// nothing stale. The timers are not waited for (flush() sends what is pending), except by the
// one test of when batches leave.

// C++
#include <algorithm>
#include <chrono>
#include <vector>

// Qt
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

// Presence
#include "server-mock/directory/UserDirectory.h"
#include "server-mock/server/AvailabilityFanout.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Protocol::PresenceStatus;
using Presence::Protocol::UserPresence;
using Presence::Server::AvailabilityFanout;
using Presence::Server::ConnectionId;
using Presence::Server::UserDirectory;

namespace {

struct Sent {
    ConnectionId connection;
    QString type;
    QJsonObject frame;
};

// alice, bob, carol, dave, erin: indexes 0..4.
UserDirectory makeDirectory()
{
    UserDirectory directory;
    for (const QString &id : { u"alice"_s, u"bob"_s, u"carol"_s, u"dave"_s, u"erin"_s })
        directory.addUser(id, id, u"token-"_s + id);
    for (int other = 1; other < 5; ++other)
        directory.addFriendship(0, other);
    directory.addFriendship(1, 2);
    directory.finish();
    return directory;
}

UserPresence presence(const QString &id, PresenceStatus status, qint64 seq)
{
    return UserPresence { id, status, seq, std::nullopt };
}

QStringList strings(const QJsonValue &value)
{
    QStringList out;
    for (const QJsonValue &item : value.toArray())
        out.append(item.toString());
    return out;
}

// The ids of a presence_batch's updates with their statuses, in frame order.
QStringList updates(const QJsonObject &frame)
{
    QStringList out;
    for (const QJsonValue &item : frame.value("updates"_L1).toArray())
        out.append(item["id"_L1].toString() + u':' + item["status"_L1].toString());
    return out;
}

} // namespace

class TestAvailabilityFanout : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_sent.clear();
        m_fanout = std::make_unique<AvailabilityFanout>(m_directory, 1h,
            [this](ConnectionId connection, const QString &type, const QByteArray &frame) {
                m_sent.append({ connection, type, QJsonDocument::fromJson(frame).object() });
            });
    }
    void cleanup() { m_fanout.reset(); }

    void firstCovererAndLastAreAnnounced();
    void snapshotTellsTheAvailableInFriendsOrder();
    void aPushThatOvertookTheReadWins();
    void changesAreCoalescedPerConnection();
    void wentAndCameBackSaysNothing();
    void changesBeforeTheSnapshotAreNotSentTwice();
    void batchesCarryTheLatestStateInPublicationOrder();
    void aConnectionThatLeftHearsNothing();
    void watchingAgainInAnotherModeStartsAfresh();
    void resetSendsEveryReadyWatcherTheWholeTruth();
    void strangersAndUnknownUsersAreIgnored();
    void coveredUsersAreTheUnionOfWatchers();
    void aWindowsBatchesLeaveInPhases();
    void batchTurns_data();
    void batchTurns();
    void batchStretch_data();
    void batchStretch();

private:
    std::vector<AvailabilityFanout::UserIndex> friendsOf(const QString &id) const
    {
        std::vector<AvailabilityFanout::UserIndex> covered;
        for (const int index : m_directory.user(*m_directory.indexOfId(id)).friends)
            covered.push_back(AvailabilityFanout::UserIndex(index));
        return covered;
    }

    // Watches the friends of `owner` and tells the connection a snapshot of nobody available.
    void watchTold(ConnectionId connection, const QString &owner, int total,
        std::chrono::milliseconds batchWindow = 0ms)
    {
        m_fanout->watch(connection, friendsOf(owner), total, batchWindow);
        (void)m_fanout->snapshotRead(connection, {});
    }

    const UserDirectory m_directory = makeDirectory();
    std::unique_ptr<AvailabilityFanout> m_fanout;
    QList<Sent> m_sent;
};

// 32 connections of one window hear the same change: their batches leave on 16 turns spread
// over the window, not all in one loop iteration, each within about one window of the change.
void TestAvailabilityFanout::aWindowsBatchesLeaveInPhases()
{
    constexpr auto kWindow = 320ms;
    QElapsedTimer clock;
    clock.start();
    QList<qint64> at; // ms after the change, one per batch
    QSet<ConnectionId> heard;
    m_fanout = std::make_unique<AvailabilityFanout>(
        m_directory, 1h, [&](ConnectionId connection, const QString &type, const QByteArray &) {
            QCOMPARE(type, u"presence_batch"_s);
            heard.insert(connection);
            at.append(clock.elapsed());
        });
    for (ConnectionId connection = 1; connection <= 32; ++connection)
        watchTold(connection, u"bob"_s, 2, kWindow);
    clock.restart();
    m_fanout->presencePublished(presence(u"alice"_s, PresenceStatus::Online, 1));
    QTRY_COMPARE_WITH_TIMEOUT(at.size(), 32, 5000);
    QCOMPARE(heard.size(), 32);
    std::sort(at.begin(), at.end());
    // Turns 20 ms apart: the first and the last batch are most of a window apart.
    QVERIFY2(at.constLast() - at.constFirst() >= kWindow.count() / 2,
        qPrintable(u"batches from %1 to %2 ms"_s.arg(at.constFirst()).arg(at.constLast())));
    QVERIFY2(at.constLast() <= kWindow.count() + 100,
        qPrintable(u"last at %1 ms"_s.arg(at.constLast())));
}

void TestAvailabilityFanout::firstCovererAndLastAreAnnounced()
{
    QSignalSpy covered(m_fanout.get(), &AvailabilityFanout::userCovered);
    QSignalSpy uncovered(m_fanout.get(), &AvailabilityFanout::userUncovered);
    m_fanout->watch(1, friendsOf(u"bob"_s), 2); // alice, carol
    m_fanout->watch(2, friendsOf(u"carol"_s), 2); // alice, bob
    QStringList first;
    for (const QList<QVariant> &args : std::as_const(covered))
        first.append(args.at(0).toString());
    QCOMPARE(first, (QStringList { u"alice"_s, u"carol"_s, u"bob"_s }));
    QCOMPARE(m_fanout->covererCount(u"alice"_s), 2);

    m_fanout->unwatch(1);
    QCOMPARE(uncovered.size(), 1); // carol; alice is still covered by 2
    QCOMPARE(uncovered.at(0).at(0).toString(), u"carol"_s);
    QCOMPARE(m_fanout->covererCount(u"alice"_s), 1);
    m_fanout->unwatch(2);
    QCOMPARE(uncovered.size(), 3);
    QCOMPARE(m_fanout->watcherCount(), 0);
    QVERIFY(m_fanout->coveredUsers().isEmpty());
}

void TestAvailabilityFanout::snapshotTellsTheAvailableInFriendsOrder()
{
    m_fanout->watch(7, friendsOf(u"alice"_s), 9);
    QVERIFY(!m_fanout->toldTo(7));
    const auto told = m_fanout->snapshotRead(7,
        { presence(u"erin"_s, PresenceStatus::Online, 1),
            presence(u"bob"_s, PresenceStatus::Online, 1),
            presence(u"carol"_s, PresenceStatus::Away, 1),
            presence(u"dave"_s, PresenceStatus::Offline, 1) });
    QCOMPARE(told.online, (QStringList { u"bob"_s, u"erin"_s }));
    QCOMPARE(told.away, QStringList { u"carol"_s });
    QCOMPARE(told.covered, 4);
    QCOMPARE(told.total, 9);
    const QHash<QString, PresenceStatus> expected { { u"bob"_s, PresenceStatus::Online },
        { u"erin"_s, PresenceStatus::Online }, { u"carol"_s, PresenceStatus::Away } };
    QCOMPARE(m_fanout->toldTo(7).value(), expected);
}

void TestAvailabilityFanout::aPushThatOvertookTheReadWins()
{
    m_fanout->watch(1, friendsOf(u"alice"_s), 4);
    m_fanout->presencePublished(presence(u"bob"_s, PresenceStatus::Away, 5));
    const auto told = m_fanout->snapshotRead(1, { presence(u"bob"_s, PresenceStatus::Online, 4) });
    QCOMPARE(told.away, QStringList { u"bob"_s });
    QVERIFY(told.online.isEmpty());
}

void TestAvailabilityFanout::changesAreCoalescedPerConnection()
{
    watchTold(1, u"alice"_s, 4);
    watchTold(2, u"bob"_s, 2);
    m_fanout->presencePublished(presence(u"erin"_s, PresenceStatus::Online, 1));
    m_fanout->presencePublished(presence(u"carol"_s, PresenceStatus::Online, 1));
    m_fanout->presencePublished(presence(u"carol"_s, PresenceStatus::Away, 2));
    m_fanout->presencePublished(presence(u"bob"_s, PresenceStatus::Online, 1));
    QVERIFY(m_sent.isEmpty()); // until the interval is up
    m_fanout->flush();
    QCOMPARE(m_sent.size(), 2);
    QHash<ConnectionId, QJsonObject> byConnection;
    for (const Sent &sent : std::as_const(m_sent)) {
        QCOMPARE(sent.type, u"availability_changed"_s);
        byConnection.insert(sent.connection, sent.frame);
    }
    QCOMPARE(strings(byConnection[1]["online"_L1]), (QStringList { u"bob"_s, u"erin"_s }));
    QCOMPARE(strings(byConnection[1]["away"_L1]), QStringList { u"carol"_s });
    QCOMPARE(strings(byConnection[2]["away"_L1]), QStringList { u"carol"_s });
    QVERIFY(!byConnection[2].contains("online"_L1));

    // Told, so the same state again is news to nobody; going offline is.
    m_sent.clear();
    m_fanout->presencePublished(presence(u"erin"_s, PresenceStatus::Offline, 2));
    m_fanout->flush();
    QCOMPARE(m_sent.size(), 1);
    QCOMPARE(strings(m_sent.at(0).frame["offline"_L1]), QStringList { u"erin"_s });
    QCOMPARE(m_fanout->toldTo(1)->contains(u"erin"_s), false);
}

void TestAvailabilityFanout::wentAndCameBackSaysNothing()
{
    m_fanout->watch(1, friendsOf(u"alice"_s), 4);
    (void)m_fanout->snapshotRead(1, { presence(u"bob"_s, PresenceStatus::Online, 1) });
    m_fanout->presencePublished(presence(u"bob"_s, PresenceStatus::Offline, 2));
    m_fanout->presencePublished(presence(u"bob"_s, PresenceStatus::Online, 3));
    m_fanout->flush();
    QVERIFY(m_sent.isEmpty());
    // And the change after it is still heard: the flag was cleared with the flush.
    m_fanout->presencePublished(presence(u"bob"_s, PresenceStatus::Offline, 4));
    m_fanout->flush();
    QCOMPARE(m_sent.size(), 1);
}

void TestAvailabilityFanout::changesBeforeTheSnapshotAreNotSentTwice()
{
    m_fanout->watch(1, friendsOf(u"alice"_s), 4);
    m_fanout->presencePublished(presence(u"dave"_s, PresenceStatus::Online, 1));
    m_fanout->flush();
    QVERIFY(m_sent.isEmpty()); // not ready: the snapshot will include it
    const auto told = m_fanout->snapshotRead(1, {});
    QCOMPARE(told.online, QStringList { u"dave"_s });
    m_fanout->flush();
    QVERIFY(m_sent.isEmpty());
}

void TestAvailabilityFanout::batchesCarryTheLatestStateInPublicationOrder()
{
    watchTold(1, u"alice"_s, 4, 50ms);
    watchTold(2, u"bob"_s, 2); // unbatched, beside it
    m_fanout->presencePublished(presence(u"erin"_s, PresenceStatus::Online, 1));
    m_fanout->presencePublished(presence(u"carol"_s, PresenceStatus::Online, 1));
    m_fanout->presencePublished(presence(u"erin"_s, PresenceStatus::Away, 2));
    m_fanout->presencePublished(presence(u"bob"_s, PresenceStatus::Online, 1));
    m_fanout->presencePublished(presence(u"bob"_s, PresenceStatus::Offline, 2));
    m_fanout->flush();
    QCOMPARE(m_sent.size(), 2);
    const Sent batch = m_sent.at(0).connection == 1 ? m_sent.at(0) : m_sent.at(1);
    QCOMPARE(batch.type, u"presence_batch"_s);
    // Each user once, with its latest state, ordered by when that state was published;
    // bob's offline is said even though he was never told online.
    QCOMPARE(updates(batch.frame),
        (QStringList { u"carol:online"_s, u"erin:away"_s, u"bob:offline"_s }));
    QCOMPARE(batch.frame["updates"_L1].toArray().at(1)["seq"_L1].toInteger(), 2);
    const QHash<QString, PresenceStatus> told { { u"carol"_s, PresenceStatus::Online },
        { u"erin"_s, PresenceStatus::Away } };
    QCOMPARE(m_fanout->toldTo(1).value(), told);

    m_sent.clear();
    m_fanout->flush();
    QVERIFY(m_sent.isEmpty()); // nothing new
}

void TestAvailabilityFanout::aConnectionThatLeftHearsNothing()
{
    watchTold(1, u"alice"_s, 4, 50ms);
    watchTold(2, u"bob"_s, 2);
    m_fanout->presencePublished(presence(u"carol"_s, PresenceStatus::Online, 1));
    m_fanout->unwatch(1);
    m_fanout->unwatch(2);
    m_fanout->flush();
    QVERIFY(m_sent.isEmpty());
}

void TestAvailabilityFanout::watchingAgainInAnotherModeStartsAfresh()
{
    watchTold(1, u"alice"_s, 4, 50ms);
    m_fanout->presencePublished(presence(u"carol"_s, PresenceStatus::Online, 1));
    // Watching again (unbatched now) drops what was pending; the new watch hears only what
    // follows its own snapshot.
    m_fanout->watch(1, friendsOf(u"alice"_s), 4);
    m_fanout->flush();
    QVERIFY(m_sent.isEmpty());
    const auto told
        = m_fanout->snapshotRead(1, { presence(u"carol"_s, PresenceStatus::Online, 1) });
    QCOMPARE(told.online, QStringList { u"carol"_s });
    m_fanout->presencePublished(presence(u"dave"_s, PresenceStatus::Away, 1));
    m_fanout->flush();
    QCOMPARE(m_sent.size(), 1);
    QCOMPARE(m_sent.at(0).type, u"availability_changed"_s);
    QCOMPARE(strings(m_sent.at(0).frame["away"_L1]), QStringList { u"dave"_s });
}

void TestAvailabilityFanout::resetSendsEveryReadyWatcherTheWholeTruth()
{
    m_fanout->watch(1, friendsOf(u"alice"_s), 4);
    m_fanout->watch(2, friendsOf(u"bob"_s), 2); // not ready: its own snapshot is on the way
    (void)m_fanout->snapshotRead(1, { presence(u"bob"_s, PresenceStatus::Online, 7) });
    m_fanout->presencePublished(presence(u"carol"_s, PresenceStatus::Online, 8)); // pending
    // The store restarted: seq counts from 1 again and bob is gone.
    m_fanout->resetFrom({ presence(u"dave"_s, PresenceStatus::Away, 1) });
    QCOMPARE(m_sent.size(), 1);
    QCOMPARE(m_sent.at(0).connection, ConnectionId(1));
    QCOMPARE(m_sent.at(0).type, u"availability"_s);
    QVERIFY(strings(m_sent.at(0).frame["online"_L1]).isEmpty());
    QCOMPARE(strings(m_sent.at(0).frame["away"_L1]), QStringList { u"dave"_s });
    m_sent.clear();
    m_fanout->flush();
    QVERIFY(m_sent.isEmpty()); // the pending change was in the reset's truth already
    // A lower seq after the reset still counts.
    m_fanout->presencePublished(presence(u"bob"_s, PresenceStatus::Online, 2));
    m_fanout->flush();
    QCOMPARE(m_sent.size(), 1);
    QCOMPARE(strings(m_sent.at(0).frame["online"_L1]), QStringList { u"bob"_s });
}

void TestAvailabilityFanout::strangersAndUnknownUsersAreIgnored()
{
    m_fanout->watch(1, friendsOf(u"bob"_s), 2); // alice, carol
    (void)m_fanout->snapshotRead(1,
        { presence(u"dave"_s, PresenceStatus::Online, 1),
            presence(u"nobody"_s, PresenceStatus::Online, 1) });
    m_fanout->presencePublished(presence(u"erin"_s, PresenceStatus::Online, 1));
    m_fanout->presencePublished(presence(u"nobody"_s, PresenceStatus::Online, 2));
    m_fanout->flush();
    QVERIFY(m_sent.isEmpty());
    QCOMPARE(m_fanout->toldTo(1).value(), (QHash<QString, PresenceStatus> {}));
    QCOMPARE(m_fanout->covererCount(u"nobody"_s), 0);
}

void TestAvailabilityFanout::coveredUsersAreTheUnionOfWatchers()
{
    m_fanout->watch(1, friendsOf(u"bob"_s), 2);
    m_fanout->watch(2, friendsOf(u"carol"_s), 2);
    QStringList covered = m_fanout->coveredUsers();
    covered.sort();
    QCOMPARE(covered, (QStringList { u"alice"_s, u"bob"_s, u"carol"_s }));
}

void TestAvailabilityFanout::batchTurns_data()
{
    // A 50 ms window: phase 0's points are at multiples of 50, phase 8's 25 ms later.
    QTest::addColumn<qint64>("now");
    QTest::addColumn<int>("phase");
    QTest::addColumn<qint64>("lastFlush");
    QTest::addColumn<qint64>("stretch");
    QTest::addColumn<qint64>("next");

    QTest::addRow("idle: its next point")
        << qint64(1010) << 0 << qint64(0) << qint64(0) << qint64(1050);
    QTest::addRow("idle: a later phase's point")
        << qint64(1010) << 8 << qint64(0) << qint64(0) << qint64(1025);
    QTest::addRow("flushed on time: the next point")
        << qint64(1010) << 0 << qint64(1000) << qint64(0) << qint64(1050);
    QTest::addRow("flushed a little late: a window after the flush")
        << qint64(1004) << 0 << qint64(1003) << qint64(0) << qint64(1053);
    // Two phases run by one long iteration at 1040 go back to points 25 ms apart.
    QTest::addRow("behind: more room, back on its points")
        << qint64(1041) << 0 << qint64(1040) << qint64(40) << qint64(1150);
    QTest::addRow("behind: another phase stays apart")
        << qint64(1041) << 8 << qint64(1040) << qint64(40) << qint64(1175);
    QTest::addRow("far behind: several windows")
        << qint64(1041) << 0 << qint64(1040) << qint64(200) << qint64(1300);
}

void TestAvailabilityFanout::batchTurns()
{
    QFETCH(qint64, now);
    QFETCH(int, phase);
    QFETCH(qint64, lastFlush);
    QFETCH(qint64, stretch);
    QFETCH(qint64, next);
    constexpr qint64 window = 50;
    const qint64 turn = AvailabilityFanout::nextTurnMs(now, window, phase, lastFlush, stretch);
    QCOMPARE(turn, next);
    QVERIFY(turn > now);
    QVERIFY(turn >= lastFlush + window + stretch); // at most one batch per window
}

void TestAvailabilityFanout::batchStretch_data()
{
    QTest::addColumn<qint64>("stretch");
    QTest::addColumn<qint64>("late");
    QTest::addColumn<qint64>("after");

    QTest::addRow("on time") << qint64(0) << qint64(0) << qint64(0);
    QTest::addRow("a quarter window late is on time") << qint64(0) << qint64(12) << qint64(0);
    QTest::addRow("later: the loop is behind") << qint64(0) << qint64(13) << qint64(13);
    QTest::addRow("late again: adds up") << qint64(45) << qint64(40) << qint64(85);
    QTest::addRow("at most 20 windows") << qint64(990) << qint64(40) << qint64(1000);
    QTest::addRow("on time again: over at once") << qint64(500) << qint64(2) << qint64(0);
    QTest::addRow("an early flush() is on time") << qint64(85) << qint64(-30) << qint64(0);
}

void TestAvailabilityFanout::batchStretch()
{
    QFETCH(qint64, stretch);
    QFETCH(qint64, late);
    QFETCH(qint64, after);
    QCOMPARE(AvailabilityFanout::stretchAfterTurnMs(stretch, late, 50), after);
}

QTEST_GUILESS_MAIN(TestAvailabilityFanout)
#include "tst_availability_fanout.moc"
