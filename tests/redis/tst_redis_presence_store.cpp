// Presence shared through a real Redis by several gateways (issue 5): in-process gateways on
// port 0, each with a RedisPresenceStore of its own over one redis-server, QWebSocket clients,
// and a real presence-mock-server process as the gateway that dies with SIGKILL.
//
// The redis-server is the shared one named by PRESENCE_TEST_REDIS_URL when set (in the database
// that URL names: tst_redis_client flushes database 9 and may run at the same time), else a
// private one. Every test function has a key prefix of its own, so tests never see each other's
// keys or channels, and its keys are deleted afterwards. Tests that stop Redis or start without
// one always use a private redis-server.

// C++
#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <vector>

// Qt
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

// Presence
#include "ClientSteps.h"
#include "GatewayFixture.h"
#include "PresenceFrames.h"
#include "RedisTestBed.h"
#include "TestClient.h"
#include "server-mock/directory/UsersFile.h"
#include "server-mock/redis/RedisPresenceStore.h"
#include "server-mock/redis/client/RedisClient.h"
#include "tests/harness/MockServerProcess.h"
#include "tests/harness/RedisServer.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace Presence::Server;
using Presence::Protocol::UserPresence;

// QCOMPARE shows frames as compact JSON when they differ.
char *toString(const QJsonObject &object)
{
    return qstrdup(QJsonDocument(object).toJson(QJsonDocument::Compact).constData());
}

char *toString(const QJsonArray &array)
{
    return qstrdup(QJsonDocument(array).toJson(QJsonDocument::Compact).constData());
}

namespace {

// Short timers, so that expiry and grace take a fraction of a second.
constexpr auto kTtl = 600ms;
constexpr auto kGrace = 300ms;
constexpr auto kSweepInterval = 100ms;
// The store refreshes every device every third of the TTL, two devices a script run here, so
// that a gateway's few test devices take several runs.
constexpr auto kRefreshInterval = kTtl / 3;
constexpr int kRefreshChunk = 2;
// The longest a Redis connection waits before its next attempt (RedisAsyncConnection's default
// retryMax, which the store uses): after Redis comes back, the store is connected within this.
constexpr std::chrono::milliseconds kReconnectCap = 5s;
// How long after a gateway's death its users must be offline for the watchers (issue 5).
constexpr auto kDeathDeadline = kTtl + kGrace + 5s;

constexpr int kStartTimeoutMs = 10000;

QList<TestUser> population()
{
    return PresenceFrames::fivePeople();
}

using ClientSteps::closeAndWait;
using ClientSteps::setStatus;
using ClientSteps::signIn;
using ClientSteps::unsubscribe;
using PresenceFrames::compact;
using PresenceFrames::dump;
using PresenceFrames::entry;
using PresenceFrames::nowMs;
using PresenceFrames::push;

qint64 lastSeenOf(const QJsonObject &frame)
{
    return frame.value("last_seen"_L1).toInteger(-1);
}

// Every presence push the client received, taken or not, in order.
QList<QJsonObject> presenceFrames(const TestClient &client)
{
    QList<QJsonObject> frames;
    for (const QJsonObject &frame : client.received()) {
        if (frame.value("type"_L1).toString() == u"presence")
            frames.append(frame);
    }
    return frames;
}

// What a client following the protocol shows, from the frames it received since `from`: a
// snapshot without ref is the whole truth; a push counts when its seq is newer than the held
// one. `held` is what it showed before (id -> frame with status and seq).
QMap<QString, QJsonObject> shownAfter(
    const TestClient &client, qsizetype from, QMap<QString, QJsonObject> held)
{
    const QList<QJsonObject> &frames = client.received();
    for (qsizetype i = from; i < frames.size(); ++i) {
        const QJsonObject &frame = frames.at(i);
        const QString type = frame.value("type"_L1).toString();
        if (type == u"snapshot" && !frame.contains("ref"_L1)) {
            for (const QJsonValue &user : frame.value("users"_L1).toArray())
                held.insert(user.toObject().value("id"_L1).toString(), user.toObject());
        } else if (type == u"presence") {
            const QString id = frame.value("id"_L1).toString();
            const auto it = held.constFind(id);
            if (it == held.constEnd()
                || it->value("seq"_L1).toInteger() < frame.value("seq"_L1).toInteger()) {
                QJsonObject user = frame;
                user.remove("type"_L1);
                held.insert(id, user);
            }
        }
    }
    return held;
}

// The frame answering the request sent with `ref`, waited for; empty on timeout.
QJsonObject answerTo(const TestClient &client, const QString &ref, int timeoutMs = 5000)
{
    QJsonObject answer;
    (void)QTest::qWaitFor(
        [&] {
            for (const QJsonObject &frame : client.received()) {
                if (frame.value("ref"_L1).toString() == ref) {
                    answer = frame;
                    return true;
                }
            }
            return false;
        },
        timeoutMs);
    return answer;
}

// id -> status of what shownAfter() returns, for comparing.
QMap<QString, QString> statuses(const QMap<QString, QJsonObject> &shown)
{
    QMap<QString, QString> result;
    for (auto it = shown.cbegin(); it != shown.cend(); ++it)
        result.insert(it.key(), it->value("status"_L1).toString());
    return result;
}

// An integer reply's value; -1 for anything else.
qint64 integerOf(const RedisReply &reply)
{
    return reply.toInteger().value_or(-1);
}

RedisPresenceStore *redisStore(const Gateway &gateway)
{
    return qobject_cast<RedisPresenceStore *>(gateway.store());
}

// Each of the two gateways says once that Redis lost its data and it rebuilds.
void expectEachGatewayToRebuild()
{
    const QRegularExpression lost(u"^Redis lost the presence data \\(epoch .* is now .*\\) - "
                                  "writing 1 connections again and sending every watcher a "
                                  "fresh snapshot$"_s);
    QTest::ignoreMessage(QtWarningMsg, lost);
    QTest::ignoreMessage(QtWarningMsg, lost);
}

// The store is connected and subscribed, so that nothing a test does waits for Redis.
bool waitStoreReady(const RedisPresenceStore &store)
{
    return QTest::qWaitFor(
        [&] {
            return store.isAvailable()
                && store.subscriber().state() == RedisSubscriber::State::Ready;
        },
        kStartTimeoutMs);
}

} // namespace

class TestRedisPresenceStore : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void friendsOnTwoGatewaysSeeEachOther();
    void userOnTwoGatewaysStaysOnline();
    void devicesRefreshedInChunksOutliveTheTtl();
    void invisibleNeverLeaksAcrossGateways();
    void awayAggregatesAcrossGateways();
    void channelSubscribedOnlyWhileWatched();
    void snapshotOf2000IdsIsFourRoundTrips();
    void snapshotWaitsUntilTheChannelIsSubscribed();
    void garbageInRedisIsShownOffline();
    void closeSettlesDevicesThatExpiredMeanwhile();
    void killedGatewaysUsersGoOffline();
    void everyGatewayGoneLeavesNoStaleOnline();
    void redisRestartedEmptyRecovers();
    void flushedRedisIsRecognisedBySeqEpoch();
    void evictedKeysAreRebuiltAsAfterARestart_data();
    void evictedKeysAreRebuiltAsAfterARestart();
    void unreachableRedisAtStartIsRetried();
    void badRedisUrlExitsWithTwo();

private:
    [[nodiscard]] RedisStoreOptions storeOptions(const RedisUrl &url) const;
    // Starts m_a and m_b over the Redis at url and waits until their stores are ready.
    [[nodiscard]] bool startGateways(const RedisUrl &url);
    // alice on m_a watches bob on m_b, who came online and went away (seq 2): a seq that a
    // store which lost its data counts again from 0. Both clients, or neither (with a warning).
    struct AliceAndBob {
        std::unique_ptr<TestClient> alice;
        std::unique_ptr<TestClient> bob;
    };
    [[nodiscard]] AliceAndBob aliceWatchingBobAway();
    // Starts the real gateway binary with the same users, store options and prefix, its users
    // file in dir, and waits until it listens: a gateway a test can kill.
    [[nodiscard]] bool startGatewayProcess(MockServerProcess &process, const QTemporaryDir &dir);
    [[nodiscard]] static std::unique_ptr<TestClient> login(
        const Gateway &gateway, const QString &id, const QString &status = {});
    // The users of the snapshot that answers the subscription.
    [[nodiscard]] static QJsonArray subscribe(TestClient &client, const QStringList &ids);

    // Redis as the test sees it, under this test's prefix.
    [[nodiscard]] QByteArray key(const char *kind, const QString &userId) const;
    [[nodiscard]] int deviceCount(const QString &userId);
    // When the user's device that expires last does so, in Redis's milliseconds (0: none).
    [[nodiscard]] qint64 deviceExpiry(const QString &userId);
    [[nodiscard]] bool gracePending(const QString &userId);
    [[nodiscard]] QList<QByteArray> channels();
    [[nodiscard]] int subscriberCount(const QString &userId);

    RedisTestBed m_redis; // the shared or private Redis and the test's own look at it
    QByteArray m_prefix; // of the current test function
    std::unique_ptr<Gateway> m_a;
    std::unique_ptr<Gateway> m_b;
};

void TestRedisPresenceStore::initTestCase()
{
    // Sign-ins and Redis connections are logged at info level; the tests make dozens.
    QLoggingCategory::setFilterRules(u"presence.*.info=false"_s);
    QVERIFY2(QFile::exists(QStringLiteral(PRESENCE_MOCK_SERVER)), PRESENCE_MOCK_SERVER);

    QString error;
    QVERIFY2(m_redis.start("presence_store", &error), qPrintable(error));
}

void TestRedisPresenceStore::init()
{
    m_prefix = m_redis.prefixForCurrentTest();
}

void TestRedisPresenceStore::cleanup()
{
    m_a.reset();
    m_b.reset();
    // Leave a shared server as found.
    QString error;
    QVERIFY2(m_redis.deleteKeys(m_prefix, &error) >= 0, qPrintable(error));
}

RedisStoreOptions TestRedisPresenceStore::storeOptions(const RedisUrl &url) const
{
    RedisStoreOptions options;
    options.url = url;
    options.prefix = m_prefix;
    options.ttl = kTtl;
    options.grace = kGrace;
    options.sweepInterval = kSweepInterval;
    options.refreshChunk = kRefreshChunk;
    return options;
}

bool TestRedisPresenceStore::startGateways(const RedisUrl &url)
{
    GatewayConfig config = testConfig();
    config.grace = kGrace;
    m_a = startGateway(population(), config, new RedisPresenceStore(storeOptions(url)));
    m_b = startGateway(population(), config, new RedisPresenceStore(storeOptions(url)));
    return m_a && m_b && waitStoreReady(*redisStore(*m_a)) && waitStoreReady(*redisStore(*m_b));
}

TestRedisPresenceStore::AliceAndBob TestRedisPresenceStore::aliceWatchingBobAway()
{
    const auto fail = [](const char *what) {
        qWarning("alice watching bob away: %s", what);
        return AliceAndBob {};
    };
    AliceAndBob both;
    both.alice = login(*m_a, u"alice"_s);
    if (!both.alice)
        return fail("alice cannot sign in");
    if (subscribe(*both.alice, { u"bob"_s }) != QJsonArray { entry(u"bob"_s, u"offline"_s, 0) })
        return fail("no snapshot of bob offline");
    both.bob = login(*m_b, u"bob"_s);
    if (!both.bob)
        return fail("bob cannot sign in");
    if (both.alice->waitFor(u"presence"_s) != push(u"bob"_s, u"online"_s, 1))
        return fail("no push of bob online");
    if (setStatus(*both.bob, u"away"_s).value("type"_L1).toString() != u"ok"
        || both.alice->waitFor(u"presence"_s) != push(u"bob"_s, u"away"_s, 2))
        return fail("no push of bob away");
    return both;
}

bool TestRedisPresenceStore::startGatewayProcess(
    MockServerProcess &process, const QTemporaryDir &dir)
{
    const QString usersPath = dir.filePath(u"users.json"_s);
    QString error;
    if (!UsersFile::save(makeDirectory(population()), usersPath, &error)) {
        qWarning("cannot write the users file: %s", qPrintable(error));
        return false;
    }
    if (!process.start({ u"--listen"_s, u"127.0.0.1:0"_s, u"--users"_s, usersPath, u"--redis"_s,
            m_redis.url().toString(), u"--redis-prefix"_s, QString::fromLatin1(m_prefix),
            u"--ttl-ms"_s, QString::number(kTtl.count()), u"--grace-ms"_s,
            QString::number(kGrace.count()) }))
        return false;
    if (!process.waitListening()) {
        qWarning("the gateway did not start: %s", process.transcript().constData());
        return false;
    }
    return true;
}

std::unique_ptr<TestClient> TestRedisPresenceStore::login(
    const Gateway &gateway, const QString &id, const QString &status)
{
    return signIn(gateway.url(), id, status);
}

QJsonArray TestRedisPresenceStore::subscribe(TestClient &client, const QStringList &ids)
{
    const QJsonObject answer = ClientSteps::subscribe(client, ids);
    if (answer.value("type"_L1).toString() != u"snapshot")
        qWarning("subscribe got %s", toString(answer));
    return answer.value("users"_L1).toArray();
}

QByteArray TestRedisPresenceStore::key(const char *kind, const QString &userId) const
{
    return m_prefix + kind + userId.toUtf8();
}

int TestRedisPresenceStore::deviceCount(const QString &userId)
{
    return int(integerOf(m_redis.run({ "ZCARD", key("dev:", userId) })));
}

qint64 TestRedisPresenceStore::deviceExpiry(const QString &userId)
{
    const RedisReply reply
        = m_redis.run({ "ZRANGE", key("dev:", userId), "-1", "-1", "WITHSCORES" });
    return reply.elements.size() == 2 ? reply.elements.at(1).bytes.toLongLong() : 0;
}

bool TestRedisPresenceStore::gracePending(const QString &userId)
{
    return m_redis.run({ "HEXISTS", key("pub:", userId), "grace_at" }).toInteger() != 0;
}

QList<QByteArray> TestRedisPresenceStore::channels()
{
    QList<QByteArray> names;
    for (const RedisReply &channel :
        m_redis.run({ "PUBSUB", "CHANNELS", m_prefix + "ch:*" }).elements)
        names.append(channel.bytes);
    std::sort(names.begin(), names.end());
    return names;
}

int TestRedisPresenceStore::subscriberCount(const QString &userId)
{
    const RedisReply reply = m_redis.run({ "PUBSUB", "NUMSUB", key("ch:", userId) });
    return reply.elements.size() == 2 ? int(integerOf(reply.elements.at(1))) : -1;
}

void TestRedisPresenceStore::friendsOnTwoGatewaysSeeEachOther()
{
    QVERIFY(startGateways(m_redis.url()));
    auto alice = login(*m_a, u"alice"_s);
    QVERIFY(alice);
    auto carol = login(*m_b, u"carol"_s);
    QVERIFY(carol);
    QCOMPARE(subscribe(*alice, { u"bob"_s }), (QJsonArray { entry(u"bob"_s, u"offline"_s, 0) }));
    QCOMPARE(subscribe(*carol, { u"bob"_s }), (QJsonArray { entry(u"bob"_s, u"offline"_s, 0) }));

    // bob signs in on B: his watcher on A hears it through Redis, his watcher on B too.
    auto bob = login(*m_b, u"bob"_s);
    QVERIFY(bob);
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"bob"_s, u"online"_s, 1));
    QCOMPARE(carol->waitFor(u"presence"_s), push(u"bob"_s, u"online"_s, 1));
    // And B's snapshot shows alice, who is on A.
    QCOMPARE(subscribe(*bob, { u"alice"_s }), (QJsonArray { entry(u"alice"_s, u"online"_s, 1) }));

    // alice leaves A: bob on B sees her offline one grace later, last_seen when she left.
    QElapsedTimer sinceClose;
    sinceClose.start();
    const qint64 beforeClose = nowMs();
    QVERIFY(closeAndWait(*m_a, *alice));
    const QJsonObject offline = bob->waitFor(u"presence"_s);
    const qint64 arrivedAt = nowMs();
    QVERIFY2(sinceClose.elapsed() >= kGrace.count(),
        qPrintable(u"offline after %1 ms"_s.arg(sinceClose.elapsed())));
    const qint64 lastSeen = lastSeenOf(offline);
    QVERIFY2(lastSeen >= beforeClose && arrivedAt - lastSeen >= kGrace.count() - 5,
        qPrintable(u"last_seen %1, closed at %2, arrived at %3"_s.arg(lastSeen)
                       .arg(beforeClose)
                       .arg(arrivedAt)));
    QCOMPARE(offline, push(u"alice"_s, u"offline"_s, 2, lastSeen));
    // carol on B asks for alice, who was last on A: the same offline, the same last_seen.
    QCOMPARE(subscribe(*carol, { u"alice"_s }),
        (QJsonArray { entry(u"alice"_s, u"offline"_s, 2, lastSeen) }));

    // bob leaves B and comes back on A: carol on B sees each change, seq + 1 each time.
    QVERIFY(closeAndWait(*m_b, *bob));
    const QJsonObject bobOffline = carol->waitFor(u"presence"_s);
    QCOMPARE(bobOffline, push(u"bob"_s, u"offline"_s, 2, lastSeenOf(bobOffline)));
    bob = login(*m_a, u"bob"_s);
    QVERIFY(bob);
    QCOMPARE(carol->waitFor(u"presence"_s), push(u"bob"_s, u"online"_s, 3));
    QCOMPARE(presenceFrames(*carol),
        (QList<QJsonObject> {
            push(u"bob"_s, u"online"_s, 1), bobOffline, push(u"bob"_s, u"online"_s, 3) }));
}

void TestRedisPresenceStore::userOnTwoGatewaysStaysOnline()
{
    QVERIFY(startGateways(m_redis.url()));
    auto alice = login(*m_a, u"alice"_s);
    QVERIFY(alice);
    QCOMPARE(subscribe(*alice, { u"bob"_s }), (QJsonArray { entry(u"bob"_s, u"offline"_s, 0) }));
    auto laptop = login(*m_a, u"bob"_s);
    QVERIFY(laptop);
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"bob"_s, u"online"_s, 1));
    auto phone = login(*m_b, u"bob"_s);
    QVERIFY(phone);
    QTRY_COMPARE(deviceCount(u"bob"_s), 2);

    // The laptop on A leaves: the phone on B keeps bob online, and no grace is even armed,
    // so nothing can be published later.
    QVERIFY(closeAndWait(*m_a, *laptop));
    QTRY_COMPARE(deviceCount(u"bob"_s), 1);
    QVERIFY(!gracePending(u"bob"_s));
    QCOMPARE(subscribe(*alice, { u"bob"_s }), (QJsonArray { entry(u"bob"_s, u"online"_s, 1) }));

    // The phone leaves too: offline, one grace later. seq 2 and nothing before it: bob never
    // flapped offline and back in between.
    QElapsedTimer sinceClose;
    sinceClose.start();
    const qint64 beforeClose = nowMs();
    QVERIFY(closeAndWait(*m_b, *phone));
    const QJsonObject offline = alice->waitFor(u"presence"_s);
    QVERIFY2(sinceClose.elapsed() >= kGrace.count(),
        qPrintable(u"offline after %1 ms"_s.arg(sinceClose.elapsed())));
    const qint64 lastSeen = lastSeenOf(offline);
    QVERIFY2(lastSeen >= beforeClose, compact(offline).constData());
    QCOMPARE(offline, push(u"bob"_s, u"offline"_s, 2, lastSeen));
    QCOMPARE(
        presenceFrames(*alice), (QList<QJsonObject> { push(u"bob"_s, u"online"_s, 1), offline }));
    QCOMPARE(deviceCount(u"bob"_s), 0);
}

// Four devices on A are refreshed two at a time, the runs spread over the refresh interval:
// every one of them stays alive for several TTLs, and their watcher on B hears nothing.
void TestRedisPresenceStore::devicesRefreshedInChunksOutliveTheTtl()
{
    QVERIFY(startGateways(m_redis.url()));
    const QStringList onA { u"bob"_s, u"carol"_s, u"dave"_s, u"erin"_s };
    std::vector<std::unique_ptr<TestClient>> clients;
    for (const QString &id : onA) {
        clients.push_back(login(*m_a, id));
        QVERIFY(clients.back());
    }
    auto alice = login(*m_b, u"alice"_s);
    QVERIFY(alice);
    QCOMPARE(subscribe(*alice, { u"bob"_s, u"carol"_s, u"erin"_s }),
        (QJsonArray { entry(u"bob"_s, u"online"_s, 1), entry(u"carol"_s, u"online"_s, 1),
            entry(u"erin"_s, u"online"_s, 1) }));

    // Each device renewed at least twice more than a TTL from now.
    const qint64 renewedBeyond = nowMs() + 3 * kTtl.count();
    for (const QString &id : onA)
        QTRY_VERIFY_WITH_TIMEOUT(deviceExpiry(id) >= renewedBeyond, 10'000);
    for (const QString &id : onA)
        QCOMPARE(deviceCount(id), 1);
    QVERIFY2(presenceFrames(*alice).isEmpty(), dump(presenceFrames(*alice)).constData());
}

void TestRedisPresenceStore::invisibleNeverLeaksAcrossGateways()
{
    QVERIFY(startGateways(m_redis.url()));
    auto alice = login(*m_a, u"alice"_s);
    QVERIFY(alice);
    QCOMPARE(subscribe(*alice, { u"bob"_s }), (QJsonArray { entry(u"bob"_s, u"offline"_s, 0) }));

    // bob is on B, invisible: his device is in Redis, his presence nowhere.
    auto bob = login(*m_b, u"bob"_s, u"invisible"_s);
    QVERIFY(bob);
    QTRY_COMPARE(deviceCount(u"bob"_s), 1);
    QCOMPARE(subscribe(*alice, { u"bob"_s }), (QJsonArray { entry(u"bob"_s, u"offline"_s, 0) }));
    auto carol = login(*m_b, u"carol"_s);
    QVERIFY(carol);
    QCOMPARE(subscribe(*carol, { u"bob"_s }), (QJsonArray { entry(u"bob"_s, u"offline"_s, 0) }));
    // A second invisible device on A comes and goes.
    auto phone = login(*m_a, u"bob"_s, u"invisible"_s);
    QVERIFY(phone);
    QTRY_COMPARE(deviceCount(u"bob"_s), 2);
    QVERIFY(closeAndWait(*m_a, *phone));
    QTRY_COMPARE(deviceCount(u"bob"_s), 1);
    QVERIFY(!gracePending(u"bob"_s));

    // bob shows himself: the first push anyone ever got about him is this online, seq 1.
    QCOMPARE(setStatus(*bob, u"online"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"bob"_s, u"online"_s, 1));
    QCOMPARE(carol->waitFor(u"presence"_s), push(u"bob"_s, u"online"_s, 1));
    QCOMPARE(presenceFrames(*alice).size(), 1);

    // Invisible again: exactly like leaving, on both gateways.
    QElapsedTimer sinceInvisible;
    sinceInvisible.start();
    const qint64 before = nowMs();
    QCOMPARE(setStatus(*bob, u"invisible"_s).value("type"_L1).toString(), u"ok"_s);
    const QJsonObject offline = alice->waitFor(u"presence"_s);
    QVERIFY2(sinceInvisible.elapsed() >= kGrace.count(),
        qPrintable(u"offline after %1 ms"_s.arg(sinceInvisible.elapsed())));
    const qint64 lastSeen = lastSeenOf(offline);
    QVERIFY2(lastSeen >= before, compact(offline).constData());
    QCOMPARE(offline, push(u"bob"_s, u"offline"_s, 2, lastSeen));
    QCOMPARE(carol->waitFor(u"presence"_s), offline);
    QCOMPARE(
        presenceFrames(*alice), (QList<QJsonObject> { push(u"bob"_s, u"online"_s, 1), offline }));
    QCOMPARE(deviceCount(u"bob"_s), 1); // still connected, still invisible
}

void TestRedisPresenceStore::awayAggregatesAcrossGateways()
{
    QVERIFY(startGateways(m_redis.url()));
    auto alice = login(*m_a, u"alice"_s);
    QVERIFY(alice);
    QCOMPARE(subscribe(*alice, { u"bob"_s }), (QJsonArray { entry(u"bob"_s, u"offline"_s, 0) }));
    auto desk = login(*m_a, u"bob"_s);
    QVERIFY(desk);
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"bob"_s, u"online"_s, 1));
    // An idle laptop on B adds nothing while the desk is online.
    auto laptop = login(*m_b, u"bob"_s, u"away"_s);
    QVERIFY(laptop);
    QTRY_COMPARE(deviceCount(u"bob"_s), 2);

    // Every device away: away at once. One online: online at once.
    QCOMPARE(setStatus(*desk, u"away"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"bob"_s, u"away"_s, 2));
    QCOMPARE(setStatus(*laptop, u"online"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"bob"_s, u"online"_s, 3));

    // The online laptop leaves B: away, after the grace (a device left; no flapping).
    QElapsedTimer sinceClose;
    sinceClose.start();
    QVERIFY(closeAndWait(*m_b, *laptop));
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"bob"_s, u"away"_s, 4));
    QVERIFY2(sinceClose.elapsed() >= kGrace.count(),
        qPrintable(u"away after %1 ms"_s.arg(sinceClose.elapsed())));

    // The desk leaves A: offline after the grace.
    const qint64 beforeClose = nowMs();
    QVERIFY(closeAndWait(*m_a, *desk));
    const QJsonObject offline = alice->waitFor(u"presence"_s);
    const qint64 lastSeen = lastSeenOf(offline);
    QVERIFY2(lastSeen >= beforeClose, compact(offline).constData());
    QCOMPARE(offline, push(u"bob"_s, u"offline"_s, 5, lastSeen));
    QCOMPARE(presenceFrames(*alice).size(), 5);
}

void TestRedisPresenceStore::channelSubscribedOnlyWhileWatched()
{
    QVERIFY(startGateways(m_redis.url()));
    RedisPresenceStore &storeA = *redisStore(*m_a);
    const QByteArray bobChannel = key("ch:", u"bob"_s);
    const QByteArray carolChannel = key("ch:", u"carol"_s);

    // Signing in watches nobody.
    auto alice = login(*m_a, u"alice"_s);
    QVERIFY(alice);
    auto bob = login(*m_b, u"bob"_s);
    QVERIFY(bob);
    QTRY_COMPARE(deviceCount(u"bob"_s), 1);
    QVERIFY(storeA.subscriber().channels().isEmpty());
    QVERIFY(redisStore(*m_b)->subscriber().channels().isEmpty());
    QCOMPARE(channels(), QList<QByteArray> {});

    // alice watches bob and carol: A subscribes to their two channels, nothing else.
    (void)subscribe(*alice, { u"bob"_s, u"carol"_s });
    QTRY_COMPARE(channels(), (QList<QByteArray> { bobChannel, carolChannel }));
    QCOMPARE(subscriberCount(u"bob"_s), 1);
    // A second watcher on A: still one subscription, A's.
    auto alicePhone = login(*m_a, u"alice"_s);
    QVERIFY(alicePhone);
    (void)subscribe(*alicePhone, { u"bob"_s });
    QCOMPARE(storeA.subscriber().channels(), (QSet<QByteArray> { bobChannel, carolChannel }));
    // A watcher on B: B subscribes too.
    auto carol = login(*m_b, u"carol"_s);
    QVERIFY(carol);
    (void)subscribe(*carol, { u"bob"_s });
    QTRY_COMPARE(subscriberCount(u"bob"_s), 2);

    // One of A's two watchers stops: A keeps the channel.
    QCOMPARE(unsubscribe(*alice, { u"bob"_s }).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(storeA.subscriber().channels(), (QSet<QByteArray> { bobChannel, carolChannel }));
    // The last one on A stops: A drops it, B keeps its own.
    QCOMPARE(unsubscribe(*alicePhone, { u"bob"_s }).value("type"_L1).toString(), u"ok"_s);
    QTRY_COMPARE(subscriberCount(u"bob"_s), 1);
    QCOMPARE(storeA.subscriber().channels(), QSet<QByteArray> { carolChannel });
    // A watcher that disconnects stops watching: B drops bob's channel.
    QVERIFY(closeAndWait(*m_b, *carol));
    QTRY_COMPARE(subscriberCount(u"bob"_s), 0);
    QCOMPARE(channels(), QList<QByteArray> { carolChannel });
    QVERIFY(closeAndWait(*m_a, *alice));
    QTRY_COMPARE(channels(), QList<QByteArray> {});
    QVERIFY(storeA.subscriber().channels().isEmpty());
}

void TestRedisPresenceStore::snapshotOf2000IdsIsFourRoundTrips()
{
    // A store that writes a few users, and one that reads; neither in a gateway. The reader
    // has no device to refresh and sweeps once an hour: nothing else shares its round trips.
    RedisPresenceStore writer(storeOptions(m_redis.url()));
    RedisStoreOptions readerOptions = storeOptions(m_redis.url());
    readerOptions.sweepInterval = 1h;
    RedisPresenceStore reader(readerOptions);
    QVERIFY(waitStoreReady(writer));
    QVERIFY(waitStoreReady(reader));
    QCOMPARE(reader.options().snapshotChunk, 500);

    QStringList ids;
    for (int i = 0; i < 2000; ++i)
        ids.append(u"u%1"_s.arg(i, 4, 10, QChar(u'0')));
    writer.connectionOpened(u"u0007"_s, 1, Presence::Protocol::ChosenStatus::Online);
    writer.connectionOpened(u"u1999"_s, 2, Presence::Protocol::ChosenStatus::Away);
    QTRY_COMPARE(m_redis.run({ "HGET", key("pub:", u"u1999"_s), "status" }).bytes, "away"_ba);
    QTRY_COMPARE(m_redis.run({ "HGET", key("pub:", u"u0007"_s), "status" }).bytes, "online"_ba);

    const quint64 before = reader.client().roundTrips();
    std::optional<QList<Presence::Protocol::UserPresence>> result;
    QObject context;
    reader.snapshot(ids, &context,
        [&result](const QList<Presence::Protocol::UserPresence> &users) { result = users; });
    QTRY_VERIFY(result.has_value());
    QCOMPARE(reader.client().roundTrips() - before, quint64(4));

    QCOMPARE(result->size(), 2000);
    for (int i = 0; i < 2000; ++i) {
        const Presence::Protocol::UserPresence &presence = result->at(i);
        QCOMPARE(presence.id, ids.at(i));
        const QString expected = i == 7 ? u"online"_s : i == 1999 ? u"away"_s : u"offline"_s;
        QCOMPARE(Presence::Protocol::toString(presence.status), expected);
        QCOMPARE(presence.seq, qint64((i == 7 || i == 1999) ? 1 : 0));
    }
}

void TestRedisPresenceStore::garbageInRedisIsShownOffline()
{
    QVERIFY(startGateways(m_redis.url()));
    // Garbage is never an outage that lasts: the store must not keep rebuilding its connection.
    QTest::failOnWarning(QRegularExpression(u"unexpected answer from Redis"_s));
    QTest::failOnWarning(QRegularExpression(u"Redis unavailable"_s));
    // erin's presence is not even a hash; carol's is a hash of nonsense; the due set is a string.
    QVERIFY(m_redis.run({ "SET", key("pub:", u"erin"_s), "x" }).isOk());
    QCOMPARE(integerOf(m_redis.run(
                 { "HSET", key("pub:", u"carol"_s), "status", "sleeping", "seq", "-4" })),
        qint64(2));
    QVERIFY(m_redis.run({ "SET", m_prefix + "due", "not a sorted set" }).isOk());

    // Snapshots still answer: such users are shown offline, and the gateway says why.
    auto alice = login(*m_a, u"alice"_s);
    QVERIFY(alice);
    QTest::ignoreMessage(
        QtWarningMsg, QRegularExpression(u"garbage presence in Redis for a user; shown offline"_s));
    QTest::ignoreMessage(
        QtWarningMsg, QRegularExpression(u"garbage presence in Redis for a user; shown offline"_s));
    QCOMPARE(subscribe(*alice, { u"bob"_s, u"carol"_s, u"erin"_s }),
        (QJsonArray { entry(u"bob"_s, u"offline"_s, 0), entry(u"carol"_s, u"offline"_s, 0),
            entry(u"erin"_s, u"offline"_s, 0) }));

    // Whoever can publish on a channel can publish nonsense: ignored, never pushed.
    QTest::ignoreMessage(
        QtWarningMsg, QRegularExpression(u"ignoring a malformed presence message on"_s));
    QTest::ignoreMessage(
        QtWarningMsg, QRegularExpression(u"ignoring a malformed presence message on"_s));
    QCOMPARE(integerOf(m_redis.run({ "PUBLISH", key("ch:", u"bob"_s), "not json" })), qint64(1));
    // Well-formed, but about someone else than the channel's user.
    QCOMPARE(
        integerOf(runCommand(m_redis.client(),
            { "PUBLISH", key("ch:", u"bob"_s), R"({"id":"carol","status":"online","seq":99})" })),
        qint64(1));

    // The gateways carry on: bob signs in on B, and the first push alice gets is his.
    auto bob = login(*m_b, u"bob"_s);
    QVERIFY(bob);
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"bob"_s, u"online"_s, 1));
    QCOMPARE(presenceFrames(*alice).size(), 1);

    // erin and carol sign in: their garbage is replaced by presence that starts afresh.
    auto erin = login(*m_a, u"erin"_s);
    QVERIFY(erin);
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"erin"_s, u"online"_s, 1));
    auto carol = login(*m_b, u"carol"_s);
    QVERIFY(carol);
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"carol"_s, u"online"_s, 1));
    // And the sweeps still settle graces, though the due set was garbage.
    QVERIFY(closeAndWait(*m_b, *bob));
    const QJsonObject offline = alice->waitFor(u"presence"_s);
    QCOMPARE(offline, push(u"bob"_s, u"offline"_s, 2, lastSeenOf(offline)));
    QVERIFY(redisStore(*m_a)->isAvailable());
    QVERIFY(redisStore(*m_b)->isAvailable());
    QVERIFY(alice->isOpen());
}

void TestRedisPresenceStore::closeSettlesDevicesThatExpiredMeanwhile()
{
    // One store, no gateway. Its own devices last 30 s, so no sweep looks at bob unasked.
    RedisStoreOptions options = storeOptions(m_redis.url());
    options.ttl = 30s;
    RedisPresenceStore store(options);
    QVERIFY(waitStoreReady(store));
    QSignalSpy published(&store, &PresenceStore::presencePublished);
    QVERIFY(published.isValid());
    QSignalSpy subscribed(&store.subscriber(), &RedisSubscriber::channelSubscribed);
    store.watch(u"bob"_s);
    QVERIFY(subscribed.wait());
    store.connectionOpened(u"bob"_s, 1, Presence::Protocol::ChosenStatus::Online);
    QVERIFY(published.wait());
    QCOMPARE(published.at(0).at(0).value<UserPresence>().seq, qint64(1));

    // This store's device was swept already (its gateway stalled), and one on a gateway that
    // died has expired, but no sweep has come to it yet.
    const QByteArray mine = store.instanceId() + "/1";
    QCOMPARE(integerOf(m_redis.run({ "ZREM", key("dev:", u"bob"_s), mine })), qint64(1));
    QCOMPARE(integerOf(m_redis.run({ "HDEL", key("st:", u"bob"_s), mine })), qint64(1));
    QCOMPARE(integerOf(runCommand(m_redis.client(),
                 { "ZADD", key("dev:", u"bob"_s), QByteArray::number(nowMs() - 1000), "dead/1" })),
        qint64(1));
    QCOMPARE(
        integerOf(m_redis.run({ "HSET", key("st:", u"bob"_s), "dead/1", "online" })), qint64(1));

    // Closing the device settles the dead one too: offline after the grace, not online for good.
    const qint64 beforeClose = nowMs();
    store.connectionClosed(u"bob"_s, 1);
    QVERIFY(published.wait());
    const UserPresence offline = published.at(1).at(0).value<UserPresence>();
    QCOMPARE(Presence::Protocol::toString(offline.status), u"offline"_s);
    QCOMPARE(offline.seq, qint64(2));
    QVERIFY(offline.lastSeen && *offline.lastSeen >= beforeClose);
    QCOMPARE(deviceCount(u"bob"_s), 0);
}

void TestRedisPresenceStore::killedGatewaysUsersGoOffline()
{
    // The gateway that dies is a real process, with the same users as the in-process one.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    MockServerProcess dying(QStringLiteral(PRESENCE_MOCK_SERVER));
    QVERIFY(startGatewayProcess(dying, dir));

    QVERIFY(startGateways(m_redis.url()));
    auto alice = login(*m_a, u"alice"_s);
    QVERIFY(alice);
    QCOMPARE(subscribe(*alice, { u"bob"_s, u"carol"_s }),
        (QJsonArray { entry(u"bob"_s, u"offline"_s, 0), entry(u"carol"_s, u"offline"_s, 0) }));
    auto bob = signIn(dying.url(), u"bob"_s);
    QVERIFY(bob);
    auto carol = signIn(dying.url(), u"carol"_s);
    QVERIFY(carol);
    QTRY_COMPARE(alice->pending(u"presence"_s).size(), 2);
    QCOMPARE(statuses(shownAfter(*alice, 0, {})),
        (QMap<QString, QString> { { u"bob"_s, u"online"_s }, { u"carol"_s, u"online"_s } }));
    (void)alice->waitFor(u"presence"_s);
    (void)alice->waitFor(u"presence"_s);

    // kill -9: no close reaches anyone, the process's devices just stop being refreshed.
    QElapsedTimer sinceKill;
    sinceKill.start();
    dying.kill();
    QVERIFY(bob->waitDisconnected());
    QVERIFY(carol->waitDisconnected());
    QTRY_COMPARE_WITH_TIMEOUT(alice->pending(u"presence"_s).size(), 2, int(kDeathDeadline.count()));
    QVERIFY2(sinceKill.elapsed() >= kGrace.count(),
        qPrintable(u"offline after %1 ms"_s.arg(sinceKill.elapsed())));
    qInfo("users of the killed gateway offline after %lld ms (TTL %lld ms, grace %lld ms)",
        qint64(sinceKill.elapsed()), qint64(kTtl.count()), qint64(kGrace.count()));
    for (const QJsonObject &offline : alice->pending(u"presence"_s)) {
        const QString id = offline.value("id"_L1).toString();
        QCOMPARE(offline, push(id, u"offline"_s, 2, lastSeenOf(offline)));
        QVERIFY2(lastSeenOf(offline) > 0, compact(offline).constData());
    }
    QCOMPARE(deviceCount(u"bob"_s), 0);
    QCOMPARE(deviceCount(u"carol"_s), 0);
}

void TestRedisPresenceStore::everyGatewayGoneLeavesNoStaleOnline()
{
    // The only gateway with devices is a real process; the reader is a store outside any
    // gateway that sweeps once an hour, like a gateway starting later that has not swept yet.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    MockServerProcess dying(QStringLiteral(PRESENCE_MOCK_SERVER));
    QVERIFY(startGatewayProcess(dying, dir));
    RedisStoreOptions readerOptions = storeOptions(m_redis.url());
    readerOptions.sweepInterval = 1h;
    RedisPresenceStore reader(readerOptions);
    QVERIFY(waitStoreReady(reader));
    const auto read = [&reader](const QString &id) {
        std::optional<QList<UserPresence>> result;
        QObject context;
        reader.snapshot(
            { id }, &context, [&result](const QList<UserPresence> &users) { result = users; });
        return QTest::qWaitFor([&result] { return result.has_value(); }, kStartTimeoutMs)
                && result->size() == 1
            ? Presence::Protocol::toString(result->at(0).status)
            : u"(no answer)"_s;
    };

    auto bob = signIn(dying.url(), u"bob"_s);
    QVERIFY(bob);
    QTRY_COMPARE(m_redis.run({ "HGET", key("pub:", u"bob"_s), "status" }).bytes, "online"_ba);
    // Presence in Redis carries an expiry of its own, refreshed with the device: TTL + grace.
    const qint64 ttl = integerOf(m_redis.run({ "PTTL", key("live:", u"bob"_s) }));
    QVERIFY2(ttl > 0 && ttl <= (kTtl + kGrace).count(), qPrintable(QString::number(ttl)));
    // Its value is when it was written: the refresh writes it again.
    const QByteArray written = m_redis.run({ "GET", key("live:", u"bob"_s) }).bytes;
    QTRY_VERIFY(m_redis.run({ "GET", key("live:", u"bob"_s) }).bytes != written);
    QCOMPARE(read(u"bob"_s), u"online"_s);

    // kill -9, and no gateway left to sweep: Redis itself forgets bob's liveness.
    QElapsedTimer sinceKill;
    sinceKill.start();
    dying.kill();
    QTRY_COMPARE_WITH_TIMEOUT(integerOf(m_redis.run({ "EXISTS", key("live:", u"bob"_s) })),
        qint64(0), int(kDeathDeadline.count()));
    QVERIFY2(
        sinceKill.elapsed() >= kGrace.count(), qPrintable(QString::number(sinceKill.elapsed())));
    // What the dead gateway published still says online; a reader is not fooled by it.
    QCOMPARE(m_redis.run({ "HGET", key("pub:", u"bob"_s), "status" }).bytes, "online"_ba);
    QCOMPARE(read(u"bob"_s), u"offline"_s);
}

void TestRedisPresenceStore::snapshotWaitsUntilTheChannelIsSubscribed()
{
    // A private Redis: killing every pub/sub connection would disturb the other tests.
    RedisServer redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    QVERIFY(startGateways(redis.url()));
    auto alice = login(*m_a, u"alice"_s);
    QVERIFY(alice);
    RedisClient admin;
    admin.connectTo(redis.url());
    QTRY_VERIFY(admin.state() == RedisClient::State::Ready);
    // Watching someone puts A's subscriber in pub/sub mode (which CLIENT KILL TYPE finds).
    QCOMPARE(
        subscribe(*alice, { u"carol"_s }), (QJsonArray { entry(u"carol"_s, u"offline"_s, 0) }));

    // The gateways' subscribers lose their connections and wait (at least 100 ms) before the
    // next attempt. A subscribe now must not be answered from a read made before the gateway
    // listens on bob's channel: bob's sign-in in that window would reach alice nowhere.
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"^subscriber: connection .* lost"_s));
    QCOMPARE(runCommand(admin, { "CLIENT", "KILL", "TYPE", "pubsub" }).toInteger(), 1);
    QTRY_VERIFY(redisStore(*m_a)->subscriber().state() != RedisSubscriber::State::Ready);
    alice->sendJson({ { "type"_L1, "subscribe"_L1 }, { "ids"_L1, QJsonArray { "bob"_L1 } },
        { "ref"_L1, "s1"_L1 } });
    auto bob = login(*m_b, u"bob"_s);
    QVERIFY(bob);
    const QJsonObject snapshot = answerTo(*alice, u"s1"_s, kStartTimeoutMs);
    QCOMPARE(snapshot.value("type"_L1).toString(), u"snapshot"_s);
    QVERIFY(redisStore(*m_a)->subscriber().isConfirmed(key("ch:", u"bob"_s)));
    // Whatever the order, alice ends up showing bob online.
    QTRY_COMPARE(statuses(shownAfter(*alice, 0, {})).value(u"bob"_s), u"online"_s);
}

void TestRedisPresenceStore::redisRestartedEmptyRecovers()
{
    RedisServer redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    QVERIFY(startGateways(redis.url()));
    auto alice = login(*m_a, u"alice"_s);
    QVERIFY(alice);
    QCOMPARE(subscribe(*alice, { u"bob"_s, u"carol"_s }),
        (QJsonArray { entry(u"bob"_s, u"offline"_s, 0), entry(u"carol"_s, u"offline"_s, 0) }));
    auto bob = login(*m_b, u"bob"_s);
    QVERIFY(bob);
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"bob"_s, u"online"_s, 1));
    auto carol = login(*m_a, u"carol"_s);
    QVERIFY(carol);
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"carol"_s, u"online"_s, 1));
    QCOMPARE(subscribe(*bob, { u"alice"_s, u"carol"_s }),
        (QJsonArray { entry(u"alice"_s, u"online"_s, 1), entry(u"carol"_s, u"online"_s, 1) }));
    const QMap<QString, QJsonObject> aliceHeld = shownAfter(*alice, 0, {});
    const QMap<QString, QJsonObject> bobHeld { { u"alice"_s, entry(u"alice"_s, u"online"_s, 1) },
        { u"carol"_s, entry(u"carol"_s, u"online"_s, 1) } };

    // Each gateway says once that Redis is gone, per connection and for the store.
    for (int gateway = 0; gateway < 2; ++gateway) {
        QTest::ignoreMessage(QtWarningMsg,
            QRegularExpression(u"^client: connection to redis://.* lost .*; reconnecting$"_s));
        QTest::ignoreMessage(QtWarningMsg,
            QRegularExpression(u"^subscriber: connection to redis://.* lost .*; reconnecting$"_s));
        QTest::ignoreMessage(QtWarningMsg,
            QRegularExpression(u"^Redis unavailable: .* clients stay connected; retrying$"_s));
    }
    const qsizetype aliceFrom = alice->received().size();
    const qsizetype bobFrom = bob->received().size();
    redis.stop();
    QTRY_VERIFY(!redisStore(*m_a)->isAvailable() && !redisStore(*m_b)->isAvailable());

    // Meanwhile carol leaves, and alice asks about erin: the answer waits for Redis.
    QVERIFY(closeAndWait(*m_a, *carol));
    alice->sendJson({ { "type"_L1, "subscribe"_L1 }, { "ids"_L1, QJsonArray { u"erin"_s } },
        { "ref"_L1, u"while-away"_s } });
    QCOMPARE(alice->request({ { "type"_L1, "ping"_L1 } }).value("type"_L1).toString(), u"pong"_s);
    QVERIFY(alice->pending(u"snapshot"_s).isEmpty());

    // Redis is back, empty. Nobody was disconnected, and within one refresh interval of the
    // stores reconnecting (which takes at most the reconnect backoff cap) every watcher is
    // shown the truth again: a snapshot without ref, and pushes on top of it.
    QVERIFY2(redis.restart(), qPrintable(redis.error()));
    QElapsedTimer sinceRestart;
    sinceRestart.start();
    QVERIFY(alice->isOpen());
    QVERIFY(bob->isOpen());
    const int deadline = int((kRefreshInterval + kReconnectCap).count());
    QTRY_VERIFY_WITH_TIMEOUT(
        redisStore(*m_a)->isAvailable() && redisStore(*m_b)->isAvailable(), deadline);
    const QMap<QString, QString> aliceExpected { { u"bob"_s, u"online"_s },
        { u"carol"_s, u"offline"_s }, { u"erin"_s, u"offline"_s } };
    const QMap<QString, QString> bobExpected { { u"alice"_s, u"online"_s },
        { u"carol"_s, u"offline"_s } };
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                     return statuses(shownAfter(*alice, aliceFrom, aliceHeld)) == aliceExpected
                         && statuses(shownAfter(*bob, bobFrom, bobHeld)) == bobExpected;
                 },
                 deadline),
        dump(alice->received().mid(aliceFrom)) + '\n' + dump(bob->received().mid(bobFrom)));
    qInfo("watchers shown the truth %lld ms after Redis restarted", qint64(sinceRestart.elapsed()));
    const QJsonObject erin = answerTo(*alice, u"while-away"_s);
    QCOMPARE(erin.value("users"_L1).toArray(), (QJsonArray { entry(u"erin"_s, u"offline"_s, 0) }));
    const auto isReset = [](const QJsonObject &frame) {
        return frame.value("type"_L1).toString() == u"snapshot" && !frame.contains("ref"_L1);
    };
    QVERIFY2(std::any_of(alice->received().cbegin() + aliceFrom, alice->received().cend(), isReset),
        dump(alice->received().mid(aliceFrom)).constData());
    QVERIFY2(std::any_of(bob->received().cbegin() + bobFrom, bob->received().cend(), isReset),
        dump(bob->received().mid(bobFrom)).constData());

    // Pushes flow again, across gateways both ways.
    const QMap<QString, QJsonObject> aliceNow = shownAfter(*alice, aliceFrom, aliceHeld);
    const qsizetype aliceMark = alice->received().size();
    QCOMPARE(setStatus(*bob, u"away"_s).value("type"_L1).toString(), u"ok"_s);
    QTRY_COMPARE(statuses(shownAfter(*alice, aliceMark, aliceNow)).value(u"bob"_s), u"away"_s);
    QCOMPARE(shownAfter(*alice, aliceMark, aliceNow).value(u"bob"_s).value("seq"_L1).toInteger(),
        aliceNow.value(u"bob"_s).value("seq"_L1).toInteger() + 1);
    const QMap<QString, QJsonObject> bobNow = shownAfter(*bob, bobFrom, bobHeld);
    const qsizetype bobMark = bob->received().size();
    carol = login(*m_a, u"carol"_s);
    QVERIFY(carol);
    QTRY_COMPARE(statuses(shownAfter(*bob, bobMark, bobNow)).value(u"carol"_s), u"online"_s);
    QVERIFY(alice->isOpen());
    QVERIFY(bob->isOpen());
}

void TestRedisPresenceStore::flushedRedisIsRecognisedBySeqEpoch()
{
    // FLUSHALL on a Redis the gateways stay connected to: nothing disconnects, but every
    // device and every seq is gone, and the next change of bob is seq 1 again, which alice's
    // client would drop as stale ("1 <= 4") and keep showing what it held.
    RedisServer redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    RedisClient admin;
    admin.connectTo(redis.url());
    QTRY_VERIFY(admin.state() == RedisClient::State::Ready);
    QVERIFY(startGateways(redis.url()));
    AliceAndBob both = aliceWatchingBobAway();
    QVERIFY(both.alice && both.bob);
    TestClient *alice = both.alice.get();
    TestClient *bob = both.bob.get();
    const QMap<QString, QJsonObject> held { { u"bob"_s, push(u"bob"_s, u"away"_s, 2) } };

    expectEachGatewayToRebuild();
    const qsizetype from = alice->received().size();
    QVERIFY(runCommand(admin, { "FLUSHALL" }).isOk());
    // bob comes back to online right away: published with seq 1 in the emptied store.
    QCOMPARE(setStatus(*bob, u"online"_s).value("type"_L1).toString(), u"ok"_s);

    // Within a sweep (100 ms here, 1 s by default) of the flush, each gateway sees the new
    // epoch, writes its connections again and sends its watchers a reset snapshot.
    QElapsedTimer sinceFlush;
    sinceFlush.start();
    QVERIFY2(
        QTest::qWaitFor(
            [&] { return statuses(shownAfter(*alice, from, held)).value(u"bob"_s) == u"online"; },
            int((kSweepInterval * 20).count())),
        dump(alice->received().mid(from)).constData());
    qInfo("alice shown bob online %lld ms after the flush", qint64(sinceFlush.elapsed()));
    QTRY_COMPARE(integerOf(runCommand(admin, { "ZCARD", key("dev:", u"bob"_s) })), 1);
    QTRY_COMPARE(integerOf(runCommand(admin, { "ZCARD", key("dev:", u"alice"_s) })), 1);

    // And the seq that follows is applied: bob leaves, alice sees him offline.
    const QMap<QString, QJsonObject> now = shownAfter(*alice, from, held);
    const qsizetype mark = alice->received().size();
    QVERIFY(closeAndWait(*m_b, *bob));
    QTRY_COMPARE(statuses(shownAfter(*alice, mark, now)).value(u"bob"_s), u"offline"_s);
    QVERIFY(alice->isOpen());
}

void TestRedisPresenceStore::evictedKeysAreRebuiltAsAfterARestart_data()
{
    // The keys of bob, connected, that maxmemory eviction (or a hand) may take while the epoch
    // stays: each is noticed by the refresh of the gateway holding bob's device.
    QTest::addColumn<QByteArray>("kind");
    QTest::addRow("his publication") << "pub:"_ba; // seq counts from 0 again
    QTest::addRow("his liveness") << "live:"_ba;
    QTest::addRow("his devices' statuses") << "st:"_ba;
    QTest::addRow("his devices") << "dev:"_ba;
}

void TestRedisPresenceStore::evictedKeysAreRebuiltAsAfterARestart()
{
    QFETCH(QByteArray, kind);
    QVERIFY(startGateways(m_redis.url()));
    AliceAndBob both = aliceWatchingBobAway();
    QVERIFY(both.alice && both.bob);
    TestClient *alice = both.alice.get();
    TestClient *bob = both.bob.get();
    const QByteArray epoch = m_redis.run({ "GET", m_prefix + "epoch" }).bytes;
    QVERIFY(!epoch.isEmpty());

    expectEachGatewayToRebuild();
    const qsizetype from = alice->received().size();
    QCOMPARE(integerOf(m_redis.run({ "DEL", key(kind.constData(), u"bob"_s) })), qint64(1));

    // A refresh (every TTL / 3) finds it, gives the store a new epoch, and each gateway's next
    // sweep rebuilds as after a restart: alice is sent a reset snapshot with bob as he is.
    const auto reset = [&] {
        for (qsizetype i = from; i < alice->received().size(); ++i) {
            const QJsonObject &frame = alice->received().at(i);
            if (frame.value("type"_L1).toString() == u"snapshot" && !frame.contains("ref"_L1))
                return frame;
        }
        return QJsonObject();
    };
    QTRY_VERIFY_WITH_TIMEOUT(!reset().isEmpty(), 5'000);
    QCOMPARE(reset().value("users"_L1).toArray().at(0).toObject().value("status"_L1).toString(),
        u"away"_s);
    QVERIFY(m_redis.run({ "GET", m_prefix + "epoch" }).bytes != epoch);
    // Never shown offline meanwhile, and the seq that follows is applied.
    QCOMPARE(statuses(shownAfter(*alice, from, {})).value(u"bob"_s), u"away"_s);
    for (qsizetype i = from; i < alice->received().size(); ++i)
        QVERIFY(!dump({ alice->received().at(i) }).contains("offline"));
    const QMap<QString, QJsonObject> now = shownAfter(*alice, from, {});
    const qsizetype mark = alice->received().size();
    QCOMPARE(setStatus(*bob, u"online"_s).value("type"_L1).toString(), u"ok"_s);
    QTRY_COMPARE(statuses(shownAfter(*alice, mark, now)).value(u"bob"_s), u"online"_s);
}

void TestRedisPresenceStore::unreachableRedisAtStartIsRetried()
{
    // A port where Redis will be, but is not yet.
    RedisServer redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.stop();

    // The gateway starts anyway, says so once per connection, and keeps trying.
    QTest::ignoreMessage(QtWarningMsg,
        QRegularExpression(u"^client: cannot connect to redis://127.0.0.1:%1/0 .*; retrying$"_s.arg(
            redis.port())));
    QTest::ignoreMessage(QtWarningMsg,
        QRegularExpression(
            u"^subscriber: cannot connect to redis://127.0.0.1:%1/0 .*; retrying$"_s.arg(
                redis.port())));
    GatewayConfig config = testConfig();
    config.grace = kGrace;
    m_a = startGateway(population(), config, new RedisPresenceStore(storeOptions(redis.url())));
    QVERIFY(m_a);
    RedisPresenceStore &store = *redisStore(*m_a);
    QTRY_VERIFY(store.client().state() == RedisClient::State::Backoff);

    // Clients sign in meanwhile; a subscribe is answered once Redis is there.
    auto alice = login(*m_a, u"alice"_s);
    QVERIFY(alice);
    auto bob = login(*m_a, u"bob"_s);
    QVERIFY(bob);
    alice->sendJson({ { "type"_L1, "subscribe"_L1 }, { "ids"_L1, QJsonArray { u"bob"_s } },
        { "ref"_L1, u"early"_s } });
    QCOMPARE(alice->request({ { "type"_L1, "ping"_L1 } }).value("type"_L1).toString(), u"pong"_s);
    QVERIFY(alice->pending(u"snapshot"_s).isEmpty());
    QVERIFY(!store.isAvailable());

    QVERIFY2(redis.restart(), qPrintable(redis.error()));
    const int deadline = int((kReconnectCap + 1s).count());
    const QJsonObject snapshot = answerTo(*alice, u"early"_s, deadline);
    QCOMPARE(snapshot.value("type"_L1).toString(), u"snapshot"_s);
    // bob, who signed in while Redis was away, was written before the snapshot was read.
    QCOMPARE(
        snapshot.value("users"_L1).toArray(), (QJsonArray { entry(u"bob"_s, u"online"_s, 1) }));
    // The subscriber may connect after the client: its reset snapshot (without ref) and pushes
    // follow. Either way alice is shown bob's next change.
    QCOMPARE(setStatus(*bob, u"away"_s).value("type"_L1).toString(), u"ok"_s);
    const QMap<QString, QJsonObject> held { { u"bob"_s, entry(u"bob"_s, u"online"_s, 1) } };
    QTRY_COMPARE(shownAfter(*alice, 0, held).value(u"bob"_s), entry(u"bob"_s, u"away"_s, 2));

    // The binary does the same: it listens and logs the retry rather than exiting.
    RedisServer nowhere;
    QVERIFY2(nowhere.start(), qPrintable(nowhere.error()));
    nowhere.stop();
    MockServerProcess server(QStringLiteral(PRESENCE_MOCK_SERVER));
    QVERIFY(server.start({ u"--listen"_s, u"127.0.0.1:0"_s, u"--generate"_s, u"5"_s, u"--redis"_s,
        nowhere.url().toString() }));
    QVERIFY2(server.waitListening(), server.transcript().constData());
    QVERIFY2(server.waitErrorOutput(u"cannot connect to %1"_s.arg(nowhere.url().toString())),
        server.transcript().constData());
    QCOMPARE(server.process().state(), QProcess::Running);
    server.process().terminate();
    QVERIFY2(server.waitFinished(), server.transcript().constData());
    QCOMPARE(server.process().exitStatus(), QProcess::NormalExit);
    QCOMPARE(server.process().exitCode(), 0);
}

void TestRedisPresenceStore::badRedisUrlExitsWithTwo()
{
    MockServerProcess server(QStringLiteral(PRESENCE_MOCK_SERVER));
    QVERIFY(server.start(
        { u"--listen"_s, u"127.0.0.1:0"_s, u"--generate"_s, u"5"_s, u"--redis"_s, u"nonsense"_s }));
    QVERIFY2(server.waitFinished(), server.transcript().constData());
    QCOMPARE(server.process().exitStatus(), QProcess::NormalExit);
    QCOMPARE(server.process().exitCode(), 2);
    QVERIFY2(server.errorOutput().contains(u"--redis:"_s), server.transcript().constData());
}

QTEST_GUILESS_MAIN(TestRedisPresenceStore)
#include "tst_redis_presence_store.moc"
