// The client's subscription sync on its own, without a gateway: the frames it sends for a
// wanted set (unsubscribe first, batches under the limits, the cap), what it does with the
// answers (snapshots, refusals, pushes older than what it holds), and how it waits for frame
// budget and then sends the difference as it is then.
// C++
#include <chrono>

// Qt
#include <QJsonArray>
#include <QSignalSpy>
#include <QStringList>
#include <QTest>

// Presence
#include "protocol/Frame.h"
#include "session/FramePacer.h"
#include "session/SubscriptionSync.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Protocol::Limits;
using Presence::Protocol::PresenceStatus;
using Presence::Protocol::Snapshot;
using Presence::Protocol::UserPresence;
using Presence::Session::FramePacer;
using Presence::Session::SubscriptionSync;

namespace {

// One request as the gateway would read it.
struct Request {
    QString type;
    QString ref;
    QStringList ids;
    friend bool operator==(const Request &, const Request &) = default;
};

// A sync over a pacer whose frames land in `sent`, on a clock the test moves.
struct Sync {
    Sync()
        : pacer(
            [this](const QString &frame) {
                sent.append(decode(frame));
                frameBytes.append(int(frame.toUtf8().size()));
            },
            [this] { return now; })
        , sync(&pacer, [this] { return u"s%1"_s.arg(++refs); })
    {
    }
    [[nodiscard]] static Request decode(const QString &frame)
    {
        const auto envelope = Presence::Protocol::parseFrame(frame);
        if (!envelope.ok())
            return { u"(bad)"_s, {}, {} };
        QStringList ids;
        for (const QJsonValue &id : envelope.value().body.value(u"ids"_s).toArray())
            ids.append(id.toString());
        return { envelope.value().type, envelope.value().ref.value_or(QString()), ids };
    }
    void start(Limits limits = {})
    {
        sync.start(limits);
        sync.sync();
    }
    // setWanted, then the turn of the event loop that sends it.
    void want(const QStringList &ids)
    {
        sync.setWanted(QSet<QString>(ids.cbegin(), ids.cend()));
        QCoreApplication::processEvents();
    }
    [[nodiscard]] QStringList subscribed() const
    {
        QStringList ids(sync.subscribed().cbegin(), sync.subscribed().cend());
        ids.sort();
        return ids;
    }

    FramePacer::Clock::time_point now = FramePacer::Clock::now();
    QList<Request> sent;
    QList<int> frameBytes; // of each frame sent
    int refs = 0;
    FramePacer pacer;
    SubscriptionSync sync;
};

UserPresence presence(const QString &id, PresenceStatus status, qint64 seq)
{
    return { id, status, seq, std::nullopt };
}

} // namespace

class TestSubscriptionSync : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void nothingIsSentBeforeTheConnectionStarts();
    void updatesWithinOneTurnMakeOneRound();
    void unsubscribesFirstThenSubscribesTheRest();
    void batchesRespectIdsPerRequestAndFrameSize_data();
    void batchesRespectIdsPerRequestAndFrameSize();
    void theCapWatchesOnlySome();
    void refusedIdsAreNotAskedForAgainOnThisConnection();
    void friendsChangedDropsTheRemovedAndAsksForTheAdded();
    void pushesOlderThanWhatIsHeldAreDropped();
    void aSpentBudgetSendsTheDifferenceAsItIsLater();
    void stopForgetsTheConnection();
    void resubscribeAllAsksForEverySubscribedIdAgain();
};

void TestSubscriptionSync::nothingIsSentBeforeTheConnectionStarts()
{
    Sync s;
    s.want({ u"alice"_s, u"bob"_s });
    QVERIFY(s.sent.isEmpty());
    QVERIFY(!s.sync.isActive());
    QCOMPARE(s.sync.wanted().size(), 2);
    s.start(); // signed in: what was wanted meanwhile goes now
    QCOMPARE(s.sent, (QList<Request> { { u"subscribe"_s, u"s1"_s, { u"alice"_s, u"bob"_s } } }));
    QCOMPARE(s.subscribed(), (QStringList { u"alice"_s, u"bob"_s }));
    QCOMPARE(s.sync.subscribeRequestsSent(), 1);
}

void TestSubscriptionSync::updatesWithinOneTurnMakeOneRound()
{
    Sync s;
    s.start();
    s.sync.setWanted({ u"alice"_s });
    s.sync.setWanted({ u"alice"_s, u"bob"_s });
    s.sync.setWanted({ u"bob"_s, u"carol"_s });
    QVERIFY(s.sent.isEmpty()); // nothing until the event loop turns
    QCoreApplication::processEvents();
    QCOMPARE(s.sent, (QList<Request> { { u"subscribe"_s, u"s1"_s, { u"bob"_s, u"carol"_s } } }));
}

void TestSubscriptionSync::unsubscribesFirstThenSubscribesTheRest()
{
    Sync s;
    QSignalSpy stale(&s.sync, &SubscriptionSync::presenceStale);
    QSignalSpy changed(&s.sync, &SubscriptionSync::subscriptionsChanged);
    QVERIFY(stale.isValid());
    QVERIFY(changed.isValid());
    s.start();
    s.want({ u"alice"_s, u"bob"_s, u"carol"_s });
    s.sent.clear();
    s.want({ u"carol"_s, u"dave"_s });
    QCOMPARE(s.sent,
        (QList<Request> { { u"unsubscribe"_s, {}, { u"alice"_s, u"bob"_s } },
            { u"subscribe"_s, u"s2"_s, { u"dave"_s } } }));
    QCOMPARE(s.subscribed(), (QStringList { u"carol"_s, u"dave"_s }));
    QCOMPARE(stale.size(), 1);
    QCOMPARE(stale.at(0).at(0).toStringList(), (QStringList { u"alice"_s, u"bob"_s }));
    QCOMPARE(changed.last().at(0).toInt(), 2);
    QCOMPARE(s.sync.unsubscribeRequestsSent(), 1);
    QCOMPARE(s.sync.subscribeRequestsSent(), 2);
}

void TestSubscriptionSync::batchesRespectIdsPerRequestAndFrameSize_data()
{
    QTest::addColumn<int>("maxIds");
    QTest::addColumn<int>("maxFrameBytes");
    QTest::addColumn<int>("idLength");
    QTest::addColumn<QList<int>>("batchSizes");
    QTest::addRow("ids per request") << 4 << 65536 << 5 << QList<int> { 4, 4, 2 };
    // 128 bytes of overhead, then each id costs its length plus 3: 4 of 61 fit in 384.
    QTest::addRow("frame size") << 500 << 384 << 61 << QList<int> { 4, 4, 2 };
    QTest::addRow("one batch") << 500 << 65536 << 5 << QList<int> { 10 };
}

void TestSubscriptionSync::batchesRespectIdsPerRequestAndFrameSize()
{
    QFETCH(int, maxIds);
    QFETCH(int, maxFrameBytes);
    QFETCH(int, idLength);
    QFETCH(QList<int>, batchSizes);
    Sync s;
    Limits limits;
    limits.maxIdsPerRequest = maxIds;
    limits.maxFrameBytes = maxFrameBytes;
    s.start(limits);
    QStringList ids;
    for (int i = 0; i < 10; ++i)
        ids.append(u"u%1"_s.arg(i).leftJustified(idLength, u'x'));
    s.want(ids);
    QList<int> sizes;
    QStringList all;
    for (const int bytes : std::as_const(s.frameBytes))
        QVERIFY2(bytes <= maxFrameBytes, qPrintable(QString::number(bytes)));
    for (const Request &request : std::as_const(s.sent)) {
        QCOMPARE(request.type, u"subscribe"_s);
        sizes.append(int(request.ids.size()));
        all += request.ids;
    }
    QCOMPARE(sizes, batchSizes);
    ids.sort();
    QCOMPARE(all, ids); // every id once, in order
}

void TestSubscriptionSync::theCapWatchesOnlySome()
{
    Sync s;
    Limits limits;
    limits.maxSubscriptions = 3;
    s.start(limits);
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"more than the gateway's"_s));
    s.want({ u"a"_s, u"b"_s, u"c"_s, u"d"_s, u"e"_s });
    QCOMPARE(s.subscribed(), (QStringList { u"a"_s, u"b"_s, u"c"_s }));
    // Room freed by an unsubscribe is used in the same round.
    s.sent.clear();
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"more than the gateway's"_s));
    s.want({ u"c"_s, u"d"_s, u"e"_s, u"f"_s });
    QCOMPARE(s.sent.first(), (Request { u"unsubscribe"_s, {}, { u"a"_s, u"b"_s } }));
    QCOMPARE(s.subscribed(), (QStringList { u"c"_s, u"d"_s, u"e"_s }));
}

void TestSubscriptionSync::refusedIdsAreNotAskedForAgainOnThisConnection()
{
    Sync s;
    QSignalSpy changed(&s.sync, &SubscriptionSync::subscriptionsChanged);
    QVERIFY(changed.isValid());
    s.start();
    s.want({ u"alice"_s, u"mallory"_s });
    QCOMPARE(s.sent.size(), 1);
    // The snapshot denies one of them.
    s.sync.onSnapshot(
        Snapshot { { presence(u"alice"_s, PresenceStatus::Online, 1) }, { u"mallory"_s } },
        u"s1"_s);
    QCOMPARE(s.subscribed(), (QStringList { u"alice"_s }));
    QCOMPARE(changed.last().at(0).toInt(), 1);
    QVERIFY(!s.sync.awaitsSnapshots());
    // A refused request: none of its ids again.
    s.want({ u"alice"_s, u"mallory"_s, u"trent"_s });
    QCOMPARE(s.sent.last(), (Request { u"subscribe"_s, u"s2"_s, { u"trent"_s } }));
    QVERIFY(s.sync.awaitsSnapshots());
    QVERIFY(!s.sync.onRefused(u"m9"_s)); // not one of ours
    QVERIFY(s.sync.onRefused(u"s2"_s));
    QCOMPARE(s.subscribed(), (QStringList { u"alice"_s }));
    s.sent.clear();
    s.want({ u"alice"_s, u"mallory"_s, u"trent"_s, u"zoe"_s });
    QCOMPARE(s.sent, (QList<Request> { { u"subscribe"_s, u"s3"_s, { u"zoe"_s } } }));

    // A new connection may ask again.
    s.sent.clear();
    s.start();
    QCOMPARE(s.sent,
        (QList<Request> {
            { u"subscribe"_s, u"s4"_s, { u"alice"_s, u"mallory"_s, u"trent"_s, u"zoe"_s } } }));
}

void TestSubscriptionSync::friendsChangedDropsTheRemovedAndAsksForTheAdded()
{
    Sync s;
    QSignalSpy stale(&s.sync, &SubscriptionSync::presenceStale);
    QSignalSpy changed(&s.sync, &SubscriptionSync::subscriptionsChanged);
    QVERIFY(stale.isValid() && changed.isValid());
    s.start();
    s.want({ u"alice"_s, u"bob"_s, u"dave"_s });
    s.sync.onSnapshot(Snapshot { { presence(u"alice"_s, PresenceStatus::Online, 1),
                                     presence(u"bob"_s, PresenceStatus::Away, 2) },
                          { u"dave"_s } },
        u"s1"_s);
    QCOMPARE(s.subscribed(), (QStringList { u"alice"_s, u"bob"_s }));

    // bob is no friend any more (the gateway dropped him), dave is one now.
    s.sent.clear();
    s.sync.onFriendsChanged({ u"dave"_s }, { u"bob"_s, u"carol"_s });
    QCOMPARE(stale.size(), 1);
    QCOMPARE(stale.at(0).at(0).toStringList(), QStringList { u"bob"_s }); // carol was not held
    QCOMPARE(s.sync.held().size(), 1);
    // dave, still wanted, is asked for at once; bob, still wanted, is not: he would be denied.
    QCOMPARE(s.sent, (QList<Request> { { u"subscribe"_s, u"s2"_s, { u"dave"_s } } }));
    QCOMPARE(s.subscribed(), (QStringList { u"alice"_s, u"dave"_s }));
    QCOMPARE(changed.last().at(0).toInt(), 2);
    s.sent.clear();
    s.want({ u"alice"_s, u"bob"_s, u"dave"_s, u"erin"_s });
    QCOMPARE(s.sent, (QList<Request> { { u"subscribe"_s, u"s3"_s, { u"erin"_s } } }));

    // A friend again: asked for again.
    s.sent.clear();
    s.sync.onFriendsChanged({ u"bob"_s }, {});
    QCOMPARE(s.sent, (QList<Request> { { u"subscribe"_s, u"s4"_s, { u"bob"_s } } }));
}

void TestSubscriptionSync::pushesOlderThanWhatIsHeldAreDropped()
{
    Sync s;
    QSignalSpy received(&s.sync, &SubscriptionSync::presenceReceived);
    QVERIFY(received.isValid());
    s.start();
    s.want({ u"alice"_s });
    s.sync.onPresence(presence(u"alice"_s, PresenceStatus::Online, 5));
    s.sync.onPresence(presence(u"alice"_s, PresenceStatus::Away, 5)); // not newer
    s.sync.onPresence(presence(u"alice"_s, PresenceStatus::Away, 4)); // older
    s.sync.onPresence(presence(u"bob"_s, PresenceStatus::Online, 9)); // not watched
    QCOMPARE(received.size(), 1);
    // The push overtook the snapshot: the snapshot's older entry is dropped.
    s.sync.onSnapshot(
        Snapshot { { presence(u"alice"_s, PresenceStatus::Offline, 3) }, {} }, u"s1"_s);
    QCOMPARE(received.size(), 1);
    QCOMPARE(
        s.sync.held(), (QList<UserPresence> { presence(u"alice"_s, PresenceStatus::Online, 5) }));
    // The gateway's reset (no ref) is the whole truth, whatever seq was held.
    s.sync.onSnapshot(Snapshot { { presence(u"alice"_s, PresenceStatus::Offline, 1) }, {} }, {});
    QCOMPARE(received.size(), 2);
    QCOMPARE(
        s.sync.held(), (QList<UserPresence> { presence(u"alice"_s, PresenceStatus::Offline, 1) }));
    s.sync.onPresence(presence(u"alice"_s, PresenceStatus::Online, 2));
    QCOMPARE(received.size(), 3);
}

void TestSubscriptionSync::aSpentBudgetSendsTheDifferenceAsItIsLater()
{
    Sync s;
    Limits limits;
    limits.maxIdsPerRequest = 1;
    s.start(limits);
    s.pacer.setBudget(10, 2); // two frames now, then one every 100 ms
    s.want({ u"a"_s, u"b"_s, u"c"_s, u"d"_s });
    QCOMPARE(s.sent.size(), 2);
    QCOMPARE(s.subscribed(), (QStringList { u"a"_s, u"b"_s }));
    QVERIFY(s.pacer.isWaitingForBudget());

    // Meanwhile the wanted set changes: what goes later is the difference then.
    s.want({ u"a"_s, u"d"_s });
    QCOMPARE(s.sent.size(), 2); // still no budget
    s.now += 100ms;
    QTRY_COMPARE(s.sent.size(), 3);
    QCOMPARE(s.sent.last(), (Request { u"unsubscribe"_s, {}, { u"b"_s } }));
    s.now += 100ms;
    QTRY_COMPARE(s.sent.size(), 4);
    QCOMPARE(s.sent.last(), (Request { u"subscribe"_s, u"s3"_s, { u"d"_s } }));
    QCOMPARE(s.subscribed(), (QStringList { u"a"_s, u"d"_s }));
    QTRY_VERIFY(!s.pacer.isWaitingForBudget());
    s.now += 1s;
    QTest::qWait(150);
    QCOMPARE(s.sent.size(), 4); // nothing more to say
}

void TestSubscriptionSync::stopForgetsTheConnection()
{
    Sync s;
    s.start();
    s.want({ u"alice"_s });
    s.sync.onPresence(presence(u"alice"_s, PresenceStatus::Online, 2));
    s.sync.stop();
    QVERIFY(!s.sync.isActive());
    QVERIFY(s.sync.subscribed().isEmpty());
    QVERIFY(s.sync.held().isEmpty());
    QCOMPARE(s.sync.wanted().size(), 1); // what the UI wants stays
    s.sent.clear();
    s.want({ u"alice"_s, u"bob"_s });
    QVERIFY(s.sent.isEmpty()); // no connection, no requests
}

void TestSubscriptionSync::resubscribeAllAsksForEverySubscribedIdAgain()
{
    Sync s;
    Limits limits;
    limits.maxIdsPerRequest = 2;
    s.start(limits);
    s.want({ u"a"_s, u"b"_s, u"c"_s });
    s.sync.onSnapshot(Snapshot { { presence(u"a"_s, PresenceStatus::Online, 7) }, {} }, u"s1"_s);
    s.sync.onSnapshot(Snapshot {}, u"s2"_s);
    QVERIFY(!s.sync.awaitsSnapshots());
    s.sent.clear();
    s.sync.resubscribeAll();
    QCOMPARE(s.sent,
        (QList<Request> { { u"subscribe"_s, u"s3"_s, { u"a"_s, u"b"_s } },
            { u"subscribe"_s, u"s4"_s, { u"c"_s } } }));
    QVERIFY(s.sync.awaitsSnapshots());
    QVERIFY(s.sync.held().isEmpty()); // the snapshots are the truth
    // So an older seq is taken from the answer.
    s.sync.onSnapshot(Snapshot { { presence(u"a"_s, PresenceStatus::Away, 3) }, {} }, u"s3"_s);
    QCOMPARE(s.sync.held(), (QList<UserPresence> { presence(u"a"_s, PresenceStatus::Away, 3) }));
}

QTEST_MAIN(TestSubscriptionSync)
#include "tst_subscription_sync.moc"
