// The availability set (watch_availability) through a real gateway: who is listed (friends,
// online or away, never invisible, never strangers, only the covered first friends), the
// changes coalesced and paced per connection, unwatching, clean-up, and the same across two
// gateways sharing a real Redis; and the same set as presence batches, for a connection that
// asked for them in hello.

// C++
#include <chrono>
#include <memory>

// Qt
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QTest>

// Presence
#include "ClientSteps.h"
#include "GatewayFixture.h"
#include "PresenceFrames.h"
#include "PrometheusText.h"
#include "RedisTestBed.h"
#include "TestClient.h"
#include "server-mock/redis/RedisPresenceStore.h"
#include "tests/harness/RedisServer.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Server::GatewayConfig;
using Presence::Server::RedisClient;
using Presence::Server::RedisStoreOptions;

char *toString(const QJsonObject &object)
{
    return qstrdup(QJsonDocument(object).toJson(QJsonDocument::Compact).constData());
}

namespace {

using ClientSteps::roundTrip;
using ClientSteps::setStatus;
using ClientSteps::signIn;
using ClientSteps::subscribe;
using ClientSteps::unsubscribe;
using ClientSteps::watchAvailability;

constexpr auto kInterval = 300ms;

GatewayConfig config(int cap = 5000)
{
    GatewayConfig c = testConfig();
    c.availabilityInterval = kInterval;
    c.maxAvailabilityFriends = cap;
    return c;
}

QJsonObject availability(const QStringList &online, const QStringList &away, int covered, int total,
    const QString &ref = {})
{
    QJsonObject frame { { "type"_L1, "availability"_L1 },
        { "online"_L1, QJsonArray::fromStringList(online) },
        { "away"_L1, QJsonArray::fromStringList(away) }, { "covered"_L1, covered },
        { "total"_L1, total } };
    if (!ref.isEmpty())
        frame.insert("ref"_L1, ref);
    return frame;
}

QJsonObject changed(const QStringList &online, const QStringList &away, const QStringList &offline)
{
    QJsonObject frame { { "type"_L1, "availability_changed"_L1 } };
    if (!online.isEmpty())
        frame.insert("online"_L1, QJsonArray::fromStringList(online));
    if (!away.isEmpty())
        frame.insert("away"_L1, QJsonArray::fromStringList(away));
    if (!offline.isEmpty())
        frame.insert("offline"_L1, QJsonArray::fromStringList(offline));
    return frame;
}

// The answer without its ref (TestClient chooses refs).
QJsonObject withoutRef(QJsonObject frame)
{
    frame.remove("ref"_L1);
    return frame;
}

// Waits long enough for a paced change to have gone out, then checks that none did.
bool nothingMoreWithin(TestClient &client, std::chrono::milliseconds wait)
{
    QTest::qWait(int(wait.count()));
    roundTrip(client);
    const auto frames = client.pending(u"availability_changed"_s);
    if (!frames.isEmpty())
        qWarning("unexpected: %s", PresenceFrames::dump(frames).constData());
    return frames.isEmpty();
}

} // namespace

class TestGatewayAvailability : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void listsAvailableFriendsOnly();
    void welcomeAnnouncesTheCapAndInterval();
    void changesAreCoalescedAndPaced();
    void aBlipWithinOneIntervalSaysNothing();
    void strangersAndInvisibleUsersNeverShow();
    void capCoversTheFirstFriends();
    void unwatchStopsAndLeavingCleansUp();
    void acrossGatewaysThroughRedis();
    void aStoreResetSendsTheSetAgain();
    void batchesCarryEachLatestPresenceOncePerWindow();
    void aBlipWithinAWindowIsItsLatestState();
    void aBatchWindowOutOfRangeIsRefused();
};

void TestGatewayAvailability::init()
{
    QLoggingCategory::setFilterRules(u"presence.*.info=false"_s);
}

void TestGatewayAvailability::listsAvailableFriendsOnly()
{
    const auto gateway = startGateway(PresenceFrames::fivePeople(), config());
    QVERIFY(gateway);
    // alice's friends: bob (online), carol (invisible), erin (away). dave is not her friend.
    auto bob = signIn(gateway->url(), u"bob"_s);
    auto carol = signIn(gateway->url(), u"carol"_s, u"invisible"_s);
    auto erin = signIn(gateway->url(), u"erin"_s, u"away"_s);
    auto dave = signIn(gateway->url(), u"dave"_s);
    QVERIFY(bob && carol && erin && dave);

    auto alice = signIn(gateway->url(), u"alice"_s);
    QVERIFY(alice);
    const QJsonObject answer = watchAvailability(*alice);
    QVERIFY(answer.contains("ref"_L1));
    QCOMPARE(withoutRef(answer), availability({ u"bob"_s }, { u"erin"_s }, 3, 3));
    QCOMPARE(gateway->availability().watcherCount(), 1);
}

void TestGatewayAvailability::welcomeAnnouncesTheCapAndInterval()
{
    const auto gateway = startGateway(PresenceFrames::fivePeople(), config(7));
    QVERIFY(gateway);
    TestClient client;
    const QJsonObject welcome = client.login(gateway->url(), tokenOf(u"alice"_s));
    const QJsonObject limits = welcome.value("limits"_L1).toObject();
    QCOMPARE(limits.value("max_availability_friends"_L1).toInt(), 7);
    QCOMPARE(limits.value("availability_interval_ms"_L1).toInt(), int(kInterval.count()));
    // Batches are for those who ask.
    QVERIFY(!welcome.contains("presence_batch_ms"_L1));
}

void TestGatewayAvailability::changesAreCoalescedAndPaced()
{
    // A whole second, so that three sign-ins and a status change fit in one interval even on
    // a loaded machine.
    constexpr auto interval = 1s;
    GatewayConfig c = config();
    c.availabilityInterval = interval;
    const auto gateway = startGateway(PresenceFrames::fivePeople(), c);
    QVERIFY(gateway);
    auto alice = signIn(gateway->url(), u"alice"_s);
    QVERIFY(alice);
    QCOMPARE(withoutRef(watchAvailability(*alice)), availability({}, {}, 3, 3));

    auto bob = signIn(gateway->url(), u"bob"_s);
    QVERIFY(bob);
    QCOMPARE(alice->waitFor(u"availability_changed"_s), changed({ u"bob"_s }, {}, {}));
    QElapsedTimer sinceFirst;
    sinceFirst.start();

    // Three changes in quick succession: one frame, with where each friend ended up.
    auto carol = signIn(gateway->url(), u"carol"_s);
    QVERIFY(carol);
    QCOMPARE(setStatus(*carol, u"away"_s).value("type"_L1).toString(), u"ok"_s);
    auto erin = signIn(gateway->url(), u"erin"_s);
    QVERIFY(erin);
    QCOMPARE(alice->waitFor(u"availability_changed"_s), changed({ u"erin"_s }, { u"carol"_s }, {}));
    // At most one frame per interval on a connection (the timer may fire a little early).
    QVERIFY2(sinceFirst.elapsed() >= std::chrono::milliseconds(interval).count() - 20,
        qPrintable(u"second frame %1 ms after the first"_s.arg(sinceFirst.elapsed())));

    // Leaving counts after the grace, like any offline.
    QVERIFY(ClientSteps::closeAndWait(*gateway, *bob));
    QCOMPARE(alice->waitFor(u"availability_changed"_s), changed({}, {}, { u"bob"_s }));
    QVERIFY(nothingMoreWithin(*alice, interval + 100ms));

    // The metrics count what was sent, once.
    QString error;
    const auto metrics
        = Presence::TestSupport::PrometheusText::parse(gateway->metrics().render(), &error);
    QVERIFY2(metrics, qPrintable(error));
    const auto sent = [&](const QString &type) {
        return metrics->value("presence_frames_out_total", { { "type", type } }).value_or(-1);
    };
    QCOMPARE(sent(u"availability_changed"_s), 3.0);
    QCOMPARE(sent(u"availability"_s), 1.0);
}

void TestGatewayAvailability::aBlipWithinOneIntervalSaysNothing()
{
    GatewayConfig c = config();
    c.availabilityInterval = 1s; // room for the blip inside one interval on a slow machine
    const auto gateway = startGateway(PresenceFrames::fivePeople(), c);
    QVERIFY(gateway);
    auto bob = signIn(gateway->url(), u"bob"_s);
    auto alice = signIn(gateway->url(), u"alice"_s);
    QVERIFY(alice && bob);
    QCOMPARE(withoutRef(watchAvailability(*alice)), availability({ u"bob"_s }, {}, 3, 3));
    // Away and back: two published changes, and alice's availability did not change.
    QCOMPARE(setStatus(*bob, u"away"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(setStatus(*bob, u"online"_s).value("type"_L1).toString(), u"ok"_s);
    QVERIFY(nothingMoreWithin(*alice, 1s + 200ms));
}

void TestGatewayAvailability::strangersAndInvisibleUsersNeverShow()
{
    const auto gateway = startGateway(PresenceFrames::fivePeople(), config());
    QVERIFY(gateway);
    auto alice = signIn(gateway->url(), u"alice"_s);
    QVERIFY(alice);
    QCOMPARE(withoutRef(watchAvailability(*alice)), availability({}, {}, 3, 3));
    auto dave = signIn(gateway->url(), u"dave"_s); // not alice's friend
    auto carol = signIn(gateway->url(), u"carol"_s, u"invisible"_s);
    QVERIFY(dave && carol);
    QVERIFY(nothingMoreWithin(*alice, kInterval + 100ms));

    // Going invisible looks like leaving, after the grace.
    QCOMPARE(setStatus(*carol, u"online"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(alice->waitFor(u"availability_changed"_s), changed({ u"carol"_s }, {}, {}));
    QCOMPARE(setStatus(*carol, u"invisible"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(alice->waitFor(u"availability_changed"_s), changed({}, {}, { u"carol"_s }));
}

void TestGatewayAvailability::capCoversTheFirstFriends()
{
    const auto gateway = startGateway(PresenceFrames::fivePeople(), config(2));
    QVERIFY(gateway);
    auto erin = signIn(gateway->url(), u"erin"_s); // alice's third friend: past the cap
    auto carol = signIn(gateway->url(), u"carol"_s);
    QVERIFY(erin && carol);
    auto alice = signIn(gateway->url(), u"alice"_s);
    QVERIFY(alice);
    // Covered: the first two in friends order (bob, carol).
    QCOMPARE(withoutRef(watchAvailability(*alice)), availability({ u"carol"_s }, {}, 2, 3));
    QCOMPARE(setStatus(*erin, u"away"_s).value("type"_L1).toString(), u"ok"_s);
    QVERIFY(nothingMoreWithin(*alice, kInterval + 100ms));
    // A subscription still reaches past the cap.
    QCOMPARE(subscribe(*alice, { u"erin"_s }).value("type"_L1).toString(), u"snapshot"_s);

    // A cap of 0 covers nobody.
    const auto none = startGateway(PresenceFrames::fivePeople(), config(0));
    QVERIFY(none);
    auto other = signIn(none->url(), u"alice"_s);
    QVERIFY(other);
    QCOMPARE(withoutRef(watchAvailability(*other)), availability({}, {}, 0, 3));
}

void TestGatewayAvailability::unwatchStopsAndLeavingCleansUp()
{
    const auto gateway = startGateway(PresenceFrames::fivePeople(), config());
    QVERIFY(gateway);
    auto alice = signIn(gateway->url(), u"alice"_s);
    QVERIFY(alice);
    (void)watchAvailability(*alice);
    QCOMPARE(gateway->followedUserCount(), 3);
    const QJsonObject ok = alice->request({ { "type"_L1, "unwatch_availability"_L1 } });
    QCOMPARE(ok.value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(gateway->followedUserCount(), 0);
    auto bob = signIn(gateway->url(), u"bob"_s);
    QVERIFY(bob);
    QVERIFY(nothingMoreWithin(*alice, kInterval + 100ms));

    // Watching twice is watching once; leaving lets go of everything.
    (void)watchAvailability(*alice);
    QCOMPARE(withoutRef(watchAvailability(*alice)), availability({ u"bob"_s }, {}, 3, 3));
    QCOMPARE(gateway->availability().watcherCount(), 1);
    QVERIFY(ClientSteps::closeAndWait(*gateway, *alice));
    QCOMPARE(gateway->availability().watcherCount(), 0);
    QCOMPARE(gateway->followedUserCount(), 0);
}

void TestGatewayAvailability::acrossGatewaysThroughRedis()
{
    RedisTestBed redis;
    QString error;
    QVERIFY2(redis.start("tst_gateway_availability", &error), qPrintable(error));
    const QByteArray prefix = redis.prefixForCurrentTest();
    auto a = startRedisGateway(PresenceFrames::fivePeople(), redis.url(), prefix, config());
    auto b = startRedisGateway(PresenceFrames::fivePeople(), redis.url(), prefix, config());
    QVERIFY(a && b);

    auto erin = signIn(b->url(), u"erin"_s, u"away"_s);
    QVERIFY(erin);
    auto alice = signIn(a->url(), u"alice"_s);
    QVERIFY(alice);
    // The answer is read from Redis: erin is on the other gateway.
    QTRY_COMPARE(withoutRef(watchAvailability(*alice)), availability({}, { u"erin"_s }, 3, 3));

    // An exact subscription to bob as well, then dropped: the availability set still follows
    // him (gateway A keeps listening to his channel for it).
    QCOMPARE(subscribe(*alice, { u"bob"_s }).value("type"_L1).toString(), u"snapshot"_s);
    QCOMPARE(unsubscribe(*alice, { u"bob"_s }).value("type"_L1).toString(), u"ok"_s);
    auto bob = signIn(b->url(), u"bob"_s);
    QVERIFY(bob);
    QCOMPARE(alice->waitFor(u"availability_changed"_s), changed({ u"bob"_s }, {}, {}));
    QVERIFY(ClientSteps::closeAndWait(*b, *erin));
    QCOMPARE(alice->waitFor(u"availability_changed"_s), changed({}, {}, { u"erin"_s }));

    QVERIFY(ClientSteps::closeAndWait(*a, *alice));
    QCOMPARE(a->followedUserCount(), 0);
    a.reset();
    b.reset();
    QVERIFY2(redis.deleteKeys(prefix, &error) >= 0, qPrintable(error));
}

void TestGatewayAvailability::aStoreResetSendsTheSetAgain()
{
    // A private Redis: killing every pub/sub connection would disturb the other tests.
    RedisServer redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    const auto gateway = startRedisGateway(
        PresenceFrames::fivePeople(), redis.url(), RedisStoreOptions().prefix, config());
    QVERIFY(gateway);
    auto bob = signIn(gateway->url(), u"bob"_s);
    auto alice = signIn(gateway->url(), u"alice"_s);
    QVERIFY(alice && bob);
    QTRY_COMPARE(withoutRef(watchAvailability(*alice)), availability({ u"bob"_s }, {}, 3, 3));

    // The gateway's subscriber loses its connection: what it was pushed meanwhile may be lost,
    // so once it is back every watcher gets the whole set again, without ref.
    RedisClient admin;
    admin.connectTo(redis.url());
    QTRY_VERIFY(admin.state() == RedisClient::State::Ready);
    // The presence store's subscriber, and the chat store's (alice and bob are signed in here).
    for (int subscriber = 0; subscriber < 2; ++subscriber) {
        QTest::ignoreMessage(
            QtWarningMsg, QRegularExpression(u"^subscriber: connection .* lost"_s));
    }
    const auto killed = runCommand(admin, { "CLIENT", "KILL", "TYPE", "pubsub" });
    QVERIFY2(killed.toInteger() == 2, qPrintable(killed.errorMessage()));
    QCOMPARE(alice->waitFor(u"availability"_s, 10000), availability({ u"bob"_s }, {}, 3, 3));
}

void TestGatewayAvailability::batchesCarryEachLatestPresenceOncePerWindow()
{
    constexpr auto window = 250ms;
    const auto gateway = startGateway(PresenceFrames::fivePeople(), config());
    QVERIFY(gateway);
    TestClient alice;
    QElapsedTimer clock;
    clock.start();
    QList<qint64> arrivals; // of each presence_batch, ms
    connect(&alice, &TestClient::frameReceived, this, [&](const QJsonObject &frame) {
        if (frame.value("type"_L1).toString() == u"presence_batch")
            arrivals.append(clock.elapsed());
    });
    const QJsonObject welcome
        = alice.login(gateway->url(), tokenOf(u"alice"_s), { { "presence_batch_ms"_L1, 250 } });
    QCOMPARE(welcome.value("presence_batch_ms"_L1).toInt(), 250);
    QCOMPARE(withoutRef(watchAvailability(alice)), availability({}, {}, 3, 3));

    auto bob = signIn(gateway->url(), u"bob"_s);
    auto carol = signIn(gateway->url(), u"carol"_s);
    auto erin = signIn(gateway->url(), u"erin"_s, u"away"_s);
    auto dave = signIn(gateway->url(), u"dave"_s); // not alice's friend: never in a batch
    QVERIFY(bob && carol && erin && dave);
    QCOMPARE(setStatus(*carol, u"away"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(setStatus(*erin, u"online"_s).value("type"_L1).toString(), u"ok"_s);

    // Whatever windows the changes fell into: each entry is a whole presence, a user at most
    // once per batch, and a user's seq only grows from batch to batch.
    QHash<QString, QJsonObject> latest;
    const QHash<QString, QString> expected { { u"bob"_s, u"online"_s }, { u"carol"_s, u"away"_s },
        { u"erin"_s, u"online"_s } };
    const auto arrived = [&] {
        for (auto it = expected.cbegin(); it != expected.cend(); ++it) {
            if (latest.value(it.key()).value("status"_L1).toString() != it.value())
                return false;
        }
        return true;
    };
    for (int batches = 0; batches < 10 && !arrived(); ++batches) {
        const QJsonObject batch = alice.waitFor(u"presence_batch"_s);
        QVERIFY2(!batch.isEmpty(), PresenceFrames::dump(alice.received()).constData());
        QCOMPARE(batch.keys(), QStringList({ u"type"_s, u"updates"_s }));
        QSet<QString> inThisBatch;
        for (const QJsonValue &value : batch.value("updates"_L1).toArray()) {
            const QJsonObject entry = value.toObject();
            const QString id = entry.value("id"_L1).toString();
            QVERIFY2(expected.contains(id), qPrintable(id));
            QVERIFY(!inThisBatch.contains(id));
            inThisBatch.insert(id);
            QCOMPARE(entry.keys(), QStringList({ u"id"_s, u"seq"_s, u"status"_s }));
            QVERIFY(
                entry.value("seq"_L1).toInteger() > latest.value(id).value("seq"_L1).toInteger(-1));
            latest.insert(id, entry);
        }
    }
    QVERIFY2(arrived(), PresenceFrames::dump(alice.received()).constData());
    // At most one batch per window (a precise timer: a few ms of slack for delivery).
    for (qsizetype i = 1; i < arrivals.size(); ++i)
        QVERIFY2(arrivals.at(i) - arrivals.at(i - 1) >= window.count() - 25,
            qPrintable(u"batches at %1 and %2 ms"_s.arg(arrivals.at(i - 1)).arg(arrivals.at(i))));

    // Leaving is offline after the grace, with when the user was last seen.
    QVERIFY(ClientSteps::closeAndWait(*gateway, *bob));
    const QJsonObject gone = alice.waitFor(u"presence_batch"_s);
    const QJsonArray updates = gone.value("updates"_L1).toArray();
    QCOMPARE(updates.size(), 1);
    QCOMPARE(updates.at(0).toObject().value("status"_L1).toString(), u"offline"_s);
    QVERIFY(updates.at(0).toObject().value("last_seen"_L1).toInteger() > 0);
    QVERIFY(alice.pending(u"availability_changed"_s).isEmpty());

    QString error;
    const auto metrics
        = Presence::TestSupport::PrometheusText::parse(gateway->metrics().render(), &error);
    QVERIFY2(metrics, qPrintable(error));
    QCOMPARE(metrics->value("presence_frames_out_total", { { "type", "presence_batch" } }),
        double(arrivals.size()));
}

void TestGatewayAvailability::aBlipWithinAWindowIsItsLatestState()
{
    const auto gateway = startGateway(PresenceFrames::fivePeople(), config());
    QVERIFY(gateway);
    auto bob = signIn(gateway->url(), u"bob"_s);
    QVERIFY(bob);
    TestClient alice;
    QVERIFY(!alice.login(gateway->url(), tokenOf(u"alice"_s), { { "presence_batch_ms"_L1, 1000 } })
                 .isEmpty());
    QCOMPARE(withoutRef(watchAvailability(alice)), availability({ u"bob"_s }, {}, 3, 3));
    // An exact subscription as well: its pushes are not batched.
    const QJsonObject snapshot = subscribe(alice, { u"bob"_s });
    const qint64 seq
        = snapshot.value("users"_L1).toArray().at(0).toObject().value("seq"_L1).toInteger();

    // A batch has just left: the connection's next turn is a whole window away.
    QCOMPARE(setStatus(*bob, u"away"_s).value("type"_L1).toString(), u"ok"_s);
    const QJsonArray first { QJsonObject {
        { "id"_L1, u"bob"_s }, { "status"_L1, u"away"_s }, { "seq"_L1, seq + 1 } } };
    QCOMPARE(alice.waitFor(u"presence_batch"_s).value("updates"_L1).toArray(), first);
    // Back and away again within that window: one entry, bob's latest state, with its seq.
    QCOMPARE(setStatus(*bob, u"online"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(setStatus(*bob, u"away"_s).value("type"_L1).toString(), u"ok"_s);
    const QJsonObject batch = alice.waitFor(u"presence_batch"_s);
    const QJsonArray expected { QJsonObject {
        { "id"_L1, u"bob"_s }, { "status"_L1, u"away"_s }, { "seq"_L1, seq + 3 } } };
    QCOMPARE(batch.value("updates"_L1).toArray(), expected);
    QCOMPARE(alice.pending(u"presence"_s).size(), 3);
    roundTrip(alice);
    QVERIFY(alice.pending(u"presence_batch"_s).isEmpty());
}

void TestGatewayAvailability::aBatchWindowOutOfRangeIsRefused()
{
    const auto gateway = startGateway(PresenceFrames::fivePeople(), config());
    QVERIFY(gateway);
    for (const QJsonValue &window : { QJsonValue(9), QJsonValue(1001), QJsonValue(u"50"_s) }) {
        TestClient client;
        QVERIFY(
            client
                .login(gateway->url(), tokenOf(u"alice"_s), { { "presence_batch_ms"_L1, window } })
                .isEmpty());
        const QJsonObject error = client.waitFor(u"error"_s);
        QCOMPARE(error.value("code"_L1).toString(), u"unauthorized"_s);
        QVERIFY2(error.value("message"_L1).toString().contains("presence_batch_ms"_L1),
            qPrintable(error.value("message"_L1).toString()));
        QVERIFY(client.waitDisconnected());
        QCOMPARE(client.closeCode(), 4001);
    }
}

QTEST_GUILESS_MAIN(TestGatewayAvailability)
#include "tst_gateway_availability.moc"
