// Simulated users (issue 6): users present without a connection, driven by the gateway itself
// (SimulatedUsers), by the churn (ChurnDriver) and by a scenario (ScenarioPlayer), seen by real
// QWebSocket clients on loopback exactly as real users are: same pushes, same seq, same grace,
// invisible never leaking. Also through a Redis store shared by two gateways.

// C++
#include <chrono>
#include <memory>

// Qt
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QSignalSpy>
#include <QTest>

// Presence
#include "ClientSteps.h"
#include "GatewayFixture.h"
#include "PresenceFrames.h"
#include "RedisTestBed.h"
#include "TestClient.h"
#include "server-mock/chat/MemoryChatStore.h"
#include "server-mock/directory/PopulationGenerator.h"
#include "server-mock/presence/MemoryPresenceStore.h"
#include "server-mock/qa/ChurnDriver.h"
#include "server-mock/qa/ScenarioPlayer.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace Presence::Server;
using Presence::Protocol::ChosenStatus;

char *toString(const QJsonObject &object)
{
    return qstrdup(QJsonDocument(object).toJson(QJsonDocument::Compact).constData());
}

char *toString(const QJsonArray &array)
{
    return qstrdup(QJsonDocument(array).toJson(QJsonDocument::Compact).constData());
}

namespace {

using ClientSteps::setStatus;
using PresenceFrames::entry;
using PresenceFrames::push;

std::unique_ptr<TestClient> login(const Gateway &gateway, const QString &id)
{
    auto client = std::make_unique<TestClient>();
    if (client->login(gateway.url(), tokenOf(id)).isEmpty())
        return nullptr;
    return client;
}

// The five people of PresenceFrames on a gateway of their own, with the given grace.
std::unique_ptr<QaGateway> startFivePeople(std::chrono::milliseconds grace = testConfig().grace)
{
    GatewayConfig config = testConfig();
    config.grace = grace;
    return startQaGateway(PresenceFrames::fivePeople(), config);
}

QJsonArray subscribe(TestClient &client, const QStringList &ids)
{
    return client
        .request({ { "type"_L1, "subscribe"_L1 }, { "ids"_L1, QJsonArray::fromStringList(ids) } })
        .value("users"_L1)
        .toArray();
}

// The statuses a client following the protocol shows, from every presence push and snapshot
// entry it received, newest seq winning.
QMap<QString, QString> shown(const TestClient &client)
{
    QMap<QString, QPair<qint64, QString>> held;
    const auto take = [&held](const QJsonObject &user) {
        const QString id = user.value("id"_L1).toString();
        const qint64 seq = user.value("seq"_L1).toInteger();
        if (!held.contains(id) || held.value(id).first < seq)
            held.insert(id, { seq, user.value("status"_L1).toString() });
    };
    for (const QJsonObject &frame : client.received()) {
        const QString type = frame.value("type"_L1).toString();
        if (type == u"presence")
            take(frame);
        else if (type == u"snapshot")
            for (const QJsonValue &user : frame.value("users"_L1).toArray())
                take(user.toObject());
    }
    QMap<QString, QString> statuses;
    for (auto it = held.cbegin(); it != held.cend(); ++it)
        statuses.insert(it.key(), it->second);
    return statuses;
}

} // namespace

class TestSimulatedUsers : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();

    void simulatedUserIsSeenLikeARealOne();
    void simulatedDevicesAggregateWithRealOnes();
    void invisibleSimulatedUserNeverLeaks();
    void simulatedUsersAcrossGatewaysThroughRedis();
    void churnKeepsThePopulationMoving();
    void churnLeavesRealUsersAlone();
    void churnLetsGoOfAUserAsTheySignIn();
    void scenarioPlaysItsTimeline();
    void scenarioStartsAndEndsFaults();
};

void TestSimulatedUsers::initTestCase()
{
    QLoggingCategory::setFilterRules(u"presence.*.info=false"_s);
}

void TestSimulatedUsers::simulatedUserIsSeenLikeARealOne()
{
    const auto gateway = startFivePeople();
    QVERIFY(gateway);
    auto alice = login(*gateway, u"alice"_s);
    QVERIFY(alice);
    QCOMPARE(subscribe(*alice, { u"bob"_s }), (QJsonArray { entry(u"bob"_s, u"offline"_s, 0) }));

    SimulatedUsers &simulated = gateway->simulatedUsers();
    simulated.setStatus(u"bob"_s, ChosenStatus::Online);
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"bob"_s, u"online"_s, 1));
    simulated.setStatus(u"bob"_s, ChosenStatus::Away);
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"bob"_s, u"away"_s, 2));
    QCOMPARE(simulated.devicesOf(u"bob"_s).size(), 1);

    // Offline after the grace, with last_seen, as for a closed connection.
    const qint64 before = PresenceFrames::nowMs();
    simulated.setStatus(u"bob"_s, std::nullopt);
    const QJsonObject offline = alice->waitFor(u"presence"_s);
    QCOMPARE(offline.value("status"_L1).toString(), u"offline"_s);
    QCOMPARE(offline.value("seq"_L1).toInteger(), 3);
    QVERIFY(offline.value("last_seen"_L1).toInteger() >= before);
    QCOMPARE(simulated.userCount(), 0);
    QCOMPARE(simulated.deviceCount(), 0);

    // A device that was never connected: nothing happens.
    QVERIFY(!simulated.disconnectDevice(u"bob"_s, u"phone"_s));
}

void TestSimulatedUsers::simulatedDevicesAggregateWithRealOnes()
{
    const auto gateway = startFivePeople(200ms);
    QVERIFY(gateway);
    auto alice = login(*gateway, u"alice"_s);
    QVERIFY(alice);
    QCOMPARE(subscribe(*alice, { u"bob"_s }).size(), 1);

    SimulatedUsers &simulated = gateway->simulatedUsers();
    simulated.connectDevice(u"bob"_s, u"phone"_s, ChosenStatus::Away);
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"bob"_s, u"away"_s, 1));
    // bob signs in for real: online wins over the away phone.
    auto bob = login(*gateway, u"bob"_s);
    QVERIFY(bob);
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"bob"_s, u"online"_s, 2));
    // The real connection goes; the phone is still there: away after the grace, not offline.
    bob->socket().close();
    QVERIFY(bob->waitDisconnected());
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"bob"_s, u"away"_s, 3));
    simulated.connectDevice(u"bob"_s, u"phone"_s, ChosenStatus::Online); // a status change
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"bob"_s, u"online"_s, 4));
    QVERIFY(simulated.disconnectDevice(u"bob"_s, u"phone"_s));
    QCOMPARE(alice->waitFor(u"presence"_s).value("status"_L1).toString(), u"offline"_s);
}

void TestSimulatedUsers::invisibleSimulatedUserNeverLeaks()
{
    const auto gateway = startFivePeople();
    QVERIFY(gateway);
    auto alice = login(*gateway, u"alice"_s);
    QVERIFY(alice);
    QCOMPARE(subscribe(*alice, { u"bob"_s }).size(), 1);
    gateway->simulatedUsers().setStatus(u"bob"_s, ChosenStatus::Invisible);
    gateway->simulatedUsers().setStatus(u"carol"_s, ChosenStatus::Online); // a marker after it
    QCOMPARE(subscribe(*alice, { u"carol"_s }), (QJsonArray { entry(u"carol"_s, u"online"_s, 1) }));
    QCOMPARE(alice->pending(u"presence"_s).size(), 0);
    QCOMPARE(shown(*alice).value(u"bob"_s), u"offline"_s);
}

void TestSimulatedUsers::simulatedUsersAcrossGatewaysThroughRedis()
{
    RedisTestBed redis;
    QString error;
    QVERIFY2(redis.start("tst_simulated_users", &error), qPrintable(error));
    const QByteArray prefix = redis.prefixForCurrentTest();
    auto a = startRedisQaGateway(PresenceFrames::fivePeople(), redis.url(), prefix);
    auto b = startRedisQaGateway(PresenceFrames::fivePeople(), redis.url(), prefix);
    QVERIFY(a && b);
    auto alice = login(*a, u"alice"_s);
    QVERIFY(alice);
    QCOMPARE(subscribe(*alice, { u"bob"_s }).size(), 1);
    // Simulated on gateway B, watched on gateway A.
    b->simulatedUsers().setStatus(u"bob"_s, ChosenStatus::Online);
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"bob"_s, u"online"_s, 1));
    b->simulatedUsers().setStatus(u"bob"_s, ChosenStatus::Away);
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"bob"_s, u"away"_s, 2));
    a.reset();
    b.reset();
    QVERIFY2(redis.deleteKeys(prefix, &error) >= 0, qPrintable(error));
}

void TestSimulatedUsers::churnKeepsThePopulationMoving()
{
    auto gateway
        = std::make_unique<QaGateway>(testConfig(), PopulationGenerator::generate(300, 20, 7),
            new MemoryPresenceStore(testConfig().grace), new MemoryChatStore);
    QVERIFY(gateway->listen());
    const UserDirectory &directory = gateway->directory();
    auto watcher = std::make_unique<TestClient>();
    QVERIFY(!watcher->login(gateway->url(), directory.user(0).token).isEmpty());
    QStringList friends;
    for (int other = 1; other < directory.size(); ++other) {
        if (directory.areFriends(0, other))
            friends.append(directory.user(other).id);
    }
    QVERIFY(friends.size() >= 10);
    QCOMPARE(subscribe(*watcher, friends).size(), friends.size());

    QStringList ids;
    for (int i = 0; i < directory.size(); ++i)
        ids.append(directory.user(i).id);
    QString error;
    auto model = ChurnModel::create(ids, 300.0, 42, &error);
    QVERIFY2(model, qPrintable(error));
    ChurnDriver driver(std::move(*model), *gateway);
    driver.start();
    QVERIFY(gateway->simulatedUsers().userCount() > 0); // some start connected
    // About 300 changes/s over 300 users: a watcher of 20 friends hears of some within
    // seconds, with seq counting up per user.
    QTRY_VERIFY_WITH_TIMEOUT(watcher->pending(u"presence"_s).size() >= 5, 10000);
    QVERIFY(driver.appliedCount() > 50);
    QMap<QString, qint64> lastSeq;
    for (const QJsonObject &frame : watcher->pending(u"presence"_s)) {
        const QString id = frame.value("id"_L1).toString();
        QVERIFY2(friends.contains(id), qPrintable(id)); // only what it watches
        QVERIFY(frame.value("seq"_L1).toInteger() > lastSeq.value(id, 0));
        lastSeq.insert(id, frame.value("seq"_L1).toInteger());
    }
}

void TestSimulatedUsers::churnLeavesRealUsersAlone()
{
    const auto gateway = startFivePeople();
    QVERIFY(gateway);
    auto bob = login(*gateway, u"bob"_s);
    QVERIFY(bob);
    auto alice = login(*gateway, u"alice"_s);
    QVERIFY(alice);
    QCOMPARE(subscribe(*alice, { u"bob"_s }), (QJsonArray { entry(u"bob"_s, u"online"_s, 1) }));
    QString error;
    // Five users at a high rate: every one of them changes many times a second.
    auto model = ChurnModel::create(
        { u"alice"_s, u"bob"_s, u"carol"_s, u"dave"_s, u"erin"_s }, 200.0, 1, &error);
    QVERIFY2(model, qPrintable(error));
    ChurnDriver driver(std::move(*model), *gateway);
    driver.start();
    QTRY_VERIFY(driver.skippedCount() > 20 && driver.appliedCount() > 20);
    // bob and alice, signed in for real, never got simulated devices; bob stayed online.
    QVERIFY(gateway->simulatedUsers().devicesOf(u"bob"_s).isEmpty());
    QVERIFY(gateway->simulatedUsers().devicesOf(u"alice"_s).isEmpty());
    QCOMPARE(alice->pending(u"presence"_s).size(), 0);
}

void TestSimulatedUsers::churnLetsGoOfAUserAsTheySignIn()
{
    const auto gateway = startFivePeople();
    QVERIFY(gateway);
    auto alice = login(*gateway, u"alice"_s);
    QVERIFY(alice);
    QString error;
    // Slow enough that bob's next change is seconds away when he signs in.
    auto model = ChurnModel::create({ u"bob"_s, u"carol"_s }, 0.5, 3, &error);
    QVERIFY2(model, qPrintable(error));
    ChurnDriver driver(std::move(*model), *gateway);
    driver.start();
    QTRY_VERIFY_WITH_TIMEOUT(!gateway->simulatedUsers().devicesOf(u"bob"_s).isEmpty(), 20'000);

    // bob signs in: his simulated device goes at once, and what he chooses is what alice sees.
    auto bob = login(*gateway, u"bob"_s);
    QVERIFY(bob);
    QVERIFY(gateway->simulatedUsers().devicesOf(u"bob"_s).isEmpty());
    QCOMPARE(subscribe(*alice, { u"bob"_s }).at(0).toObject().value("status"_L1).toString(),
        u"online"_s);
    alice->clear();
    QCOMPARE(setStatus(*bob, u"away"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(alice->waitFor(u"presence"_s).value("status"_L1).toString(), u"away"_s);
}

void TestSimulatedUsers::scenarioPlaysItsTimeline()
{
    const auto gateway = startFivePeople(100ms);
    QVERIFY(gateway);
    auto alice = login(*gateway, u"alice"_s);
    QVERIFY(alice);
    QCOMPARE(subscribe(*alice, { u"bob"_s, u"carol"_s }).size(), 2);

    QString error;
    auto scenario = Scenario::parse(R"(# bob's day
{"at": "50ms", "do": "online", "user": "bob"}
{"at": 100, "do": "log", "text": "bob settles in"}
{"at": "150ms", "do": "away", "user": "bob"}
{"at": "200ms", "do": "connect", "user": "carol", "device": "phone", "status": "away"}
{"at": "250ms", "do": "connect", "user": "carol", "device": "laptop"}
{"at": "300ms", "do": "disconnect", "user": "carol", "device": "laptop"}
{"at": "350ms", "do": "offline", "user": "bob"}
)",
        u"day.jsonl"_s, &error);
    QVERIFY2(scenario, qPrintable(error));
    ScenarioPlayer player(std::move(*scenario), gateway->simulatedUsers(), gateway->faults());
    QSignalSpy finished(&player, &ScenarioPlayer::finished);
    player.start();
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"bob"_s, u"online"_s, 1));
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"bob"_s, u"away"_s, 2));
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"carol"_s, u"away"_s, 1));
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"carol"_s, u"online"_s, 2));
    // The laptop leaves: back to away after the grace; bob offline after his.
    QTRY_COMPARE(shown(*alice).value(u"carol"_s), u"away"_s);
    QTRY_COMPARE(shown(*alice).value(u"bob"_s), u"offline"_s);
    QVERIFY(finished.count() == 1 || finished.wait());
    QCOMPARE(player.playedCount(), 7);
    QVERIFY(player.isFinished());
}

void TestSimulatedUsers::scenarioStartsAndEndsFaults()
{
    const auto gateway = startFivePeople();
    QVERIFY(gateway);
    QString error;
    auto scenario = Scenario::parse(
        R"({"at": 0, "do": "fault", "id": "slow", "fault": {"kind": "delay", "ms": 50}, "for": "1s"}
{"at": 0, "do": "fault", "id": "dup", "fault": {"kind": "duplicate", "user": "bob"}}
{"at": "100ms", "do": "end_fault", "id": "dup"}
)",
        u"faults.jsonl"_s, &error);
    QVERIFY2(scenario, qPrintable(error));
    ScenarioPlayer player(std::move(*scenario), gateway->simulatedUsers(), gateway->faults());
    QSignalSpy finished(&player, &ScenarioPlayer::finished);
    player.start();
    QCOMPARE(gateway->faults().running().size(), 2);
    QTRY_COMPARE(gateway->faults().running().size(), 1);
    QCOMPARE(gateway->faults().running().constFirst().id, u"slow"_s);
    QVERIFY(finished.wait());
    QVERIFY(gateway->faults().running().isEmpty());
}

QTEST_GUILESS_MAIN(TestSimulatedUsers)
#include "tst_simulated_users.moc"
