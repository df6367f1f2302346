// Chaos, end to end: the real gateway binary, sharing presence through a real Redis, is killed
// with SIGKILL while clients wired as the app wires them (session -> bridge -> model) are
// connected, and started again on the same port. Every client comes back by itself, at its own
// jittered time, resubscribes and shows the right dots; nobody who came back is ever shown
// offline, and a user who did not come back is never shown online past TTL + grace. The same
// holds when one of two gateways is killed and its clients move to the other. Then Redis
// itself restarts empty under two gateways, one of them slower to come back: no connected
// user is shown offline, even briefly, and no "came online" notification follows.

// C++
#include <algorithm>
#include <chrono>
#include <csignal>
#include <memory>
#include <vector>

// Qt
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

// Presence
#include "GatewayFixture.h"
#include "RedisTestBed.h"
#include "TestClient.h"
#include "app/FriendOnlineNotifier.h"
#include "app/SessionModelBridge.h"
#include "models/FriendListModel.h"
#include "models/PresenceState.h"
#include "server-mock/directory/UsersFile.h"
#include "session/GatewaySession.h"
#include "tests/harness/MockServerProcess.h"
#include "tests/harness/RedisServer.h"
#include "tests/harness/TcpProxy.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::App::FriendOnlineNotifier;
using Presence::App::SessionModelBridge;
using Presence::Models::FriendListModel;
using Presence::Models::PresenceState;
using Presence::Server::RedisClient;
using Presence::Server::UsersFile;
using Presence::Session::GatewaySession;

namespace {

constexpr int kClients = 8; // u01 .. u08 come back; u09 does not
constexpr auto kTtl = 2000ms;
constexpr auto kGrace = 300ms;
// From a change in Redis to a watcher's dot: the sweep's timer, the push, the model's flush.
constexpr auto kSlack = 700ms;

QString idOf(int n)
{
    return u"u%1"_s.arg(n, 2, 10, QChar(u'0'));
}

// Nine users, every one a friend of every other.
QList<TestUser> population()
{
    QList<TestUser> users;
    for (int n = 1; n <= kClients + 1; ++n) {
        TestUser user { idOf(n), {} };
        for (int m = 1; m <= kClients + 1; ++m) {
            if (m != n)
                user.friends.append(idOf(m));
        }
        users.append(user);
    }
    return users;
}

// What a client's list showed for one friend, and from when (ms on the test's clock).
struct Shown {
    qint64 at = 0;
    QString id;
    PresenceState state = PresenceState::Unknown;
};

// One user's client as the app wires it, watching every friend, and what its dots showed.
struct Client {
    Client(QString id, const QElapsedTimer &clock)
        : userId(std::move(id))
    {
        QObject::connect(&session, &GatewaySession::friendsLoaded, &model,
            [this](const QList<Presence::Protocol::UserInfo> &friends) {
                QSet<QString> ids;
                for (const auto &user : friends)
                    ids.insert(user.id);
                session.setWanted(ids);
            });
        const auto record = [this, &clock](int first, int last) {
            for (int row = first; row <= last; ++row) {
                const QModelIndex index = model.index(row);
                const QString friendId = index.data(FriendListModel::IdRole).toString();
                const auto state = PresenceState(index.data(FriendListModel::StatusRole).toInt());
                shown.push_back({ clock.elapsed(), friendId, state });
                flushed.insert(friendId, state);
            }
        };
        QObject::connect(&model, &QAbstractItemModel::dataChanged, &model,
            [record](const QModelIndex &first, const QModelIndex &last, const QList<int> &roles) {
                if (roles.isEmpty() || roles.contains(FriendListModel::StatusRole))
                    record(first.row(), last.row());
            });
        QObject::connect(&model, &QAbstractItemModel::modelReset, &model,
            [this, record] { record(0, model.rowCount() - 1); });
        notifier.setSelfId(userId);
        notifier.setEnabled(true);
        notifier.setCoalescingWindow(20ms);
        QObject::connect(&notifier, &FriendOnlineNotifier::notificationReady, &notifier,
            [this](const QString &, const QString &message) { notifications.append(message); });
        QObject::connect(
            &session, &GatewaySession::presenceReceived, &session, [this] { ++presenceBatches; });
        QObject::connect(&session, &GatewaySession::retryScheduled, &session,
            [this](int attempt, std::chrono::milliseconds delay) {
                if (attempt == 1)
                    firstRetry = delay;
            });
    }

    // The dot the views were last told of (at the model's flush), not the pending one.
    [[nodiscard]] PresenceState statusOf(const QString &id) const
    {
        return flushed.value(id, PresenceState::Unknown);
    }
    [[nodiscard]] bool showsEveryone(PresenceState state, const QString &except = {}) const
    {
        for (int n = 1; n <= kClients + 1; ++n) {
            const QString id = idOf(n);
            if (id != userId && id != except && statusOf(id) != state)
                return false;
        }
        return true;
    }

    QString userId;
    FriendListModel model;
    GatewaySession session;
    SessionModelBridge bridge { &session, &model };
    FriendOnlineNotifier notifier { &model };
    QStringList notifications; // "… is online"
    int presenceBatches = 0; // snapshots and pushes the session took
    std::vector<Shown> shown;
    QHash<QString, PresenceState> flushed;
    std::chrono::milliseconds firstRetry { -1 };
};

// The population's users file in dir; empty when it cannot be written (said in the log).
QString writeUsersFile(const QTemporaryDir &dir)
{
    QString path = dir.filePath(u"users.json"_s);
    QString error;
    if (!UsersFile::save(makeDirectory(population()), path, &error)) {
        qWarning("%s", qPrintable(error));
        return {};
    }
    return path;
}

// After their gateway was killed, every client came back by itself, each at a time of its own
// (jittered backoff).
void verifyEveryoneCameBack(const std::vector<std::unique_ptr<Client>> &clients)
{
    for (const auto &client : clients) {
        QTRY_COMPARE_WITH_TIMEOUT(client->session.state(), GatewaySession::State::Online, 10'000);
        QVERIFY(client->firstRetry.count() >= 0);
    }
    std::vector<qint64> delays;
    delays.reserve(clients.size());
    for (const auto &client : clients)
        delays.push_back(client->firstRetry.count());
    std::sort(delays.begin(), delays.end());
    QVERIFY2(std::unique(delays.begin(), delays.end()) - delays.begin() > 1,
        "every client retried after the same delay: no jitter");
}

// After a gateway was killed at killedAt: nobody who came back was ever shown offline, the
// leaver (who did not come back) stopped being green by TTL + grace after the kill and never
// was again, and no "is online" notification came of it.
void verifyNoDotLied(
    const std::vector<std::unique_ptr<Client>> &clients, const QString &leaver, qint64 killedAt)
{
    const qint64 deadline = killedAt + (kTtl + kGrace + kSlack).count();
    qint64 latest = killedAt;
    for (const auto &client : clients) {
        for (const Shown &shown : client->shown) {
            // Nobody who came back was ever shown offline: their old device outlived the gap.
            // (Before the kill, a friend who had not signed in yet was, rightly.)
            QVERIFY2(
                shown.at < killedAt || shown.id == leaver || shown.state != PresenceState::Offline,
                qPrintable(u"%1 showed %2 offline at %3 ms"_s.arg(
                    client->userId, shown.id, QString::number(shown.at))));
        }
        // The leaver stopped being green by TTL + grace after the kill, and never was again.
        qint64 lastGreen = -1;
        qint64 greenUntil = -1;
        for (const Shown &shown : client->shown) {
            if (shown.id != leaver)
                continue;
            if (shown.state == PresenceState::Online)
                lastGreen = shown.at;
            else if (lastGreen >= 0 && greenUntil < lastGreen)
                greenUntil = shown.at;
        }
        QVERIFY2(greenUntil >= lastGreen && greenUntil <= deadline,
            qPrintable(u"%1 showed %2 online until %3 ms; killed at %4 ms, TTL + grace %5 ms"_s.arg(
                client->userId, leaver, QString::number(greenUntil), QString::number(killedAt),
                QString::number((kTtl + kGrace).count()))));
        latest = std::max(latest, greenUntil);
    }
    // Coming back is a baseline, not news: no "is online" notification.
    for (const auto &client : clients)
        QVERIFY2(client->notifications.isEmpty(), qPrintable(client->notifications.join(u'\n')));
    qInfo("the leaver shown offline everywhere %lld ms after the kill (TTL %lld ms, grace %lld ms)",
        latest - killedAt, qint64(kTtl.count()), qint64(kGrace.count()));
}

} // namespace

class TestGatewayChaos : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void killedGatewayComesBackAndNoDotLies();
    void oneOfTwoGatewaysKilledItsUsersMoveOver();
    void drainMovesUsersWithoutAFlap();
    void redisRestartedShowsNoConnectedUserOffline();

private:
    // Two gateway binaries on the shared Redis, under this test's prefix, with kTtl and the
    // arguments given; none when either does not start (its transcript is logged).
    std::vector<std::unique_ptr<MockServerProcess>> startTwoGateways(
        const QString &usersPath, const QStringList &more);

    RedisTestBed m_redis;
};

void TestGatewayChaos::initTestCase()
{
    QString error;
    QVERIFY2(m_redis.start("tst_gateway_chaos", &error), qPrintable(error));
}

std::vector<std::unique_ptr<MockServerProcess>> TestGatewayChaos::startTwoGateways(
    const QString &usersPath, const QStringList &more)
{
    std::vector<std::unique_ptr<MockServerProcess>> gateways;
    for (int i = 0; i < 2; ++i) {
        auto gateway = std::make_unique<MockServerProcess>(QStringLiteral(PRESENCE_MOCK_SERVER));
        gateway->disableCoreFile();
        const QStringList arguments { u"--listen"_s, u"127.0.0.1:0"_s, u"--users"_s, usersPath,
            u"--redis"_s, m_redis.url().toString(), u"--redis-prefix"_s,
            QString::fromLatin1(m_redis.prefixForCurrentTest()), u"--ttl-ms"_s,
            QString::number(kTtl.count()) };
        if (!gateway->start(arguments + more) || !gateway->waitListening()) {
            qWarning("%s", gateway->transcript().constData());
            return {};
        }
        gateways.push_back(std::move(gateway));
    }
    return gateways;
}

void TestGatewayChaos::killedGatewayComesBackAndNoDotLies()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString usersPath = writeUsersFile(dir);
    QVERIFY(!usersPath.isEmpty());
    const QByteArray prefix = m_redis.prefixForCurrentTest();
    const auto arguments = [&](quint16 port) {
        return QStringList { u"--listen"_s, u"127.0.0.1:%1"_s.arg(port), u"--users"_s, usersPath,
            u"--redis"_s, m_redis.url().toString(), u"--redis-prefix"_s,
            QString::fromLatin1(prefix), u"--ttl-ms"_s, QString::number(kTtl.count()),
            u"--grace-ms"_s, QString::number(kGrace.count()) };
    };
    auto gateway = std::make_unique<MockServerProcess>(QStringLiteral(PRESENCE_MOCK_SERVER));
    gateway->disableCoreFile();
    QVERIFY(gateway->start(arguments(0)));
    const auto port = gateway->waitListening();
    QVERIFY2(port, gateway->transcript().constData());
    const QUrl url = gateway->url();

    QElapsedTimer clock;
    clock.start();
    std::vector<std::unique_ptr<Client>> clients;
    for (int n = 1; n <= kClients; ++n) {
        clients.push_back(std::make_unique<Client>(idOf(n), clock));
        clients.back()->session.open(url, tokenOf(idOf(n)));
    }
    const QString leaver = idOf(kClients + 1);
    TestClient leaving;
    QVERIFY(!leaving.login(url, tokenOf(leaver)).isEmpty());
    for (const auto &client : clients)
        QTRY_VERIFY_WITH_TIMEOUT(client->showsEveryone(PresenceState::Online), 10'000);

    // SIGKILL: no close frame, no offline from the gateway; the clients only see the sockets go.
    const qint64 killedAt = clock.elapsed();
    gateway->kill();
    QVERIFY(gateway->waitFinished());
    QVERIFY(leaving.waitDisconnected()); // and this one never comes back
    for (const auto &client : clients) {
        QTRY_COMPARE_WITH_TIMEOUT(
            client->session.state(), GatewaySession::State::Reconnecting, 5'000);
    }
    gateway = std::make_unique<MockServerProcess>(QStringLiteral(PRESENCE_MOCK_SERVER));
    QVERIFY(gateway->start(arguments(*port)));
    QVERIFY2(gateway->waitListening() == port, gateway->transcript().constData());

    // Every client comes back by itself, at a time of its own (jittered backoff) ...
    verifyEveryoneCameBack(clients);
    QVERIFY(!QTest::currentTestFailed());
    // ... resubscribes, shows everyone who came back online, and the one who did not offline.
    for (const auto &client : clients) {
        QTRY_VERIFY_WITH_TIMEOUT(client->showsEveryone(PresenceState::Online, leaver), 10'000);
        QTRY_COMPARE_WITH_TIMEOUT(client->statusOf(leaver), PresenceState::Offline,
            int((kTtl + kGrace + kSlack).count()) + 5'000);
    }

    verifyNoDotLied(clients, leaver, killedAt);
}

void TestGatewayChaos::oneOfTwoGatewaysKilledItsUsersMoveOver()
{
    // Two gateways share one Redis. Half the clients reach the first through a load balancer
    // (a TcpProxy), the others the second directly. The first is killed and the balancer sends
    // new connections to the second: its clients come back there, and only the second gateway
    // is left to notice that the leaver's device in Redis expired.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString usersPath = writeUsersFile(dir);
    QVERIFY(!usersPath.isEmpty());
    const auto gateways
        = startTwoGateways(usersPath, { u"--grace-ms"_s, QString::number(kGrace.count()) });
    QCOMPARE(gateways.size(), std::size_t(2));
    MockServerProcess &doomed = *gateways.at(0);
    MockServerProcess &survivor = *gateways.at(1);
    TcpProxy balancer(doomed.url().port());
    QVERIFY(balancer.isListening());

    // u01, u03, ... and the leaver u09 through the balancer; u02, u04, ... on the survivor.
    const auto urlOf = [&](int n) { return n % 2 ? balancer.url() : survivor.url(); };
    QElapsedTimer clock;
    clock.start();
    std::vector<std::unique_ptr<Client>> clients;
    for (int n = 1; n <= kClients; ++n) {
        clients.push_back(std::make_unique<Client>(idOf(n), clock));
        clients.back()->session.open(urlOf(n), tokenOf(idOf(n)));
    }
    const QString leaver = idOf(kClients + 1);
    TestClient leaving;
    QVERIFY(!leaving.login(urlOf(kClients + 1), tokenOf(leaver)).isEmpty());
    for (const auto &client : clients)
        QTRY_VERIFY_WITH_TIMEOUT(client->showsEveryone(PresenceState::Online), 10'000);

    const qint64 killedAt = clock.elapsed();
    balancer.setTarget(survivor.url().port());
    doomed.kill();
    QVERIFY(doomed.waitFinished());
    QVERIFY(leaving.waitDisconnected());
    std::vector<std::unique_ptr<Client>> movers;
    for (std::size_t i = 0; i < clients.size(); i += 2)
        movers.push_back(std::move(clients[i]));
    std::erase(clients, nullptr);
    for (const auto &mover : movers) {
        QTRY_COMPARE_WITH_TIMEOUT(
            mover->session.state(), GatewaySession::State::Reconnecting, 5'000);
    }
    verifyEveryoneCameBack(movers);
    QVERIFY(!QTest::currentTestFailed());
    for (const auto &client : clients)
        QVERIFY(client->session.state() == GatewaySession::State::Online); // never disconnected
    std::move(movers.begin(), movers.end(), std::back_inserter(clients));
    QCOMPARE(balancer.connectionCount(), kClients / 2);
    for (const auto &client : clients) {
        QTRY_VERIFY_WITH_TIMEOUT(client->showsEveryone(PresenceState::Online, leaver), 10'000);
        QTRY_COMPARE_WITH_TIMEOUT(client->statusOf(leaver), PresenceState::Offline,
            int((kTtl + kGrace + kSlack).count()) + 5'000);
    }
    verifyNoDotLied(clients, leaver, killedAt);
}

void TestGatewayChaos::drainMovesUsersWithoutAFlap()
{
    // A rolling restart: the first of two gateways gets SIGTERM with a 2 s drain while the
    // balancer already sends new connections to the second. Its clients are closed a few at a
    // time (1001), come back on the second within the grace, and nobody is ever shown offline.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString usersPath = writeUsersFile(dir);
    QVERIFY(!usersPath.isEmpty());
    const auto gateways
        = startTwoGateways(usersPath, { u"--grace-ms"_s, u"3000"_s, u"--drain-ms"_s, u"2000"_s });
    QCOMPARE(gateways.size(), std::size_t(2));
    MockServerProcess &draining = *gateways.at(0);
    MockServerProcess &survivor = *gateways.at(1);
    TcpProxy balancer(draining.url().port());
    QVERIFY(balancer.isListening());

    QElapsedTimer clock;
    clock.start();
    std::vector<std::unique_ptr<Client>> clients;
    for (int n = 1; n <= kClients; ++n) {
        clients.push_back(std::make_unique<Client>(idOf(n), clock));
        clients.back()->session.open(n % 2 ? balancer.url() : survivor.url(), tokenOf(idOf(n)));
    }
    const QString absent = idOf(kClients + 1);
    for (const auto &client : clients)
        QTRY_VERIFY_WITH_TIMEOUT(client->showsEveryone(PresenceState::Online, absent), 10'000);
    std::vector<qint64> leftAt;
    for (std::size_t i = 0; i < clients.size(); i += 2) {
        QObject::connect(&clients[i]->session, &GatewaySession::stateChanged, &clients[i]->session,
            [&leftAt, &clock](GatewaySession::State state) {
                if (state == GatewaySession::State::Reconnecting)
                    leftAt.push_back(clock.elapsed());
            });
    }

    const qint64 drainedFrom = clock.elapsed();
    balancer.setTarget(survivor.url().port());
    draining.signal(SIGTERM);
    QVERIFY2(draining.waitFinished(), draining.transcript().constData());
    QCOMPARE(draining.process().exitStatus(), QProcess::NormalExit);
    QCOMPARE(draining.process().exitCode(), 0);
    // Closed a few at a time over the drain, not all at once.
    QCOMPARE(leftAt.size(), std::size_t(kClients / 2));
    std::sort(leftAt.begin(), leftAt.end());
    QVERIFY2(leftAt.back() - leftAt.front() >= 1000,
        qPrintable(u"left %1 .. %2 ms after the SIGTERM"_s.arg(leftAt.front() - drainedFrom)
                       .arg(leftAt.back() - drainedFrom)));
    for (const auto &client : clients) {
        QTRY_COMPARE_WITH_TIMEOUT(client->session.state(), GatewaySession::State::Online, 10'000);
        QTRY_VERIFY_WITH_TIMEOUT(client->showsEveryone(PresenceState::Online, absent), 10'000);
    }
    QCOMPARE(balancer.connectionCount(), kClients / 2);
    // Wait out the grace of the last to leave: a flap would have shown by then.
    QVERIFY(!QTest::qWaitFor(
        [&] {
            for (const auto &client : clients) {
                if (!client->showsEveryone(PresenceState::Online, absent))
                    return true;
            }
            return false;
        },
        3500));
    for (const auto &client : clients) {
        for (const Shown &shown : client->shown) {
            // A client that is itself reconnecting shows its friends unknown (hollow), as
            // it should; offline would be the flap. (Before the drain, a friend who had not
            // signed in yet was shown offline, rightly.)
            QVERIFY2(shown.at < drainedFrom || shown.id == absent
                    || shown.state != PresenceState::Offline,
                qPrintable(u"%1 showed %2 as %3 at %4 ms, the drain began at %5 ms"_s.arg(
                    client->userId, shown.id, QString::number(int(shown.state)),
                    QString::number(shown.at), QString::number(drainedFrom))));
        }
        QVERIFY2(client->notifications.isEmpty(), qPrintable(client->notifications.join(u'\n')));
    }
    qInfo("drained: clients left %lld .. %lld ms after the SIGTERM; nobody shown offline",
        leftAt.front() - drainedFrom, leftAt.back() - drainedFrom);
}

void TestGatewayChaos::redisRestartedShowsNoConnectedUserOffline()
{
    // A Redis of its own: it is restarted.
    RedisServer redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString usersPath = writeUsersFile(dir);
    QVERIFY(!usersPath.isEmpty());
    std::vector<std::unique_ptr<MockServerProcess>> gateways;
    for (int i = 0; i < 2; ++i) {
        gateways.push_back(
            std::make_unique<MockServerProcess>(QStringLiteral(PRESENCE_MOCK_SERVER)));
        QVERIFY(gateways.back()->start({ u"--listen"_s, u"127.0.0.1:0"_s, u"--users"_s, usersPath,
            u"--redis"_s, redis.url().toString(), u"--ttl-ms"_s, QString::number(kTtl.count()),
            u"--grace-ms"_s, QString::number(kGrace.count()) }));
        QVERIFY2(gateways.back()->waitListening(), gateways.back()->transcript().constData());
    }

    // u01 .. u08 signed in, alternately on either gateway; u09 stays offline.
    QElapsedTimer clock;
    clock.start();
    std::vector<std::unique_ptr<Client>> clients;
    for (int n = 1; n <= kClients; ++n) {
        clients.push_back(std::make_unique<Client>(idOf(n), clock));
        clients.back()->session.open(gateways.at(n % 2)->url(), tokenOf(idOf(n)));
    }
    const QString absent = idOf(kClients + 1);
    for (const auto &client : clients) {
        QTRY_VERIFY_WITH_TIMEOUT(client->showsEveryone(PresenceState::Online, absent), 10'000);
        QTRY_COMPARE(client->statusOf(absent), PresenceState::Offline);
    }

    const qint64 restartedAt = clock.elapsed();
    std::vector<int> batchesBefore;
    batchesBefore.reserve(clients.size());
    for (const auto &client : clients)
        batchesBefore.push_back(client->presenceBatches);
    // Redis dies and both gateways notice. One of them is then slower to come back (stopped
    // meanwhile, as a gateway still in its reconnect backoff is): the other, back first, must
    // not tell its watchers that the slow one's users are offline in the Redis that came back
    // empty.
    redis.kill();
    for (const auto &gateway : gateways)
        QVERIFY2(
            gateway->waitErrorOutput(u"Redis unavailable"_s), gateway->transcript().constData());
    MockServerProcess &slow = *gateways.at(0); // u02, u04, u06, u08
    slow.signal(SIGSTOP);
    QVERIFY2(redis.restart(), qPrintable(redis.error()));
    RedisClient probe;
    probe.connectTo(redis.url());
    const auto statusInRedis = [&probe](int n) {
        return runCommand(probe, { "HGET", "presence:pub:" + idOf(n).toUtf8(), "status" }).bytes;
    };
    // The fast one is back: it has written its users again.
    for (int n = 1; n <= kClients; n += 2)
        QTRY_COMPARE_WITH_TIMEOUT(statusInRedis(n), QByteArray("online"), 10'000);
    QVERIFY(statusInRedis(2).isEmpty());
    // A snapshot read now would find the slow one's users offline; one would reach the fast
    // one's clients within milliseconds. None may come while the slow one is still away.
    const auto fastClientsTold = [&] {
        for (std::size_t i = 0; i < clients.size(); i += 2) { // u01, u03, ...: the fast one's
            if (clients[i]->presenceBatches > batchesBefore[i])
                return true;
        }
        return false;
    };
    QVERIFY2(!QTest::qWaitFor(fastClientsTold, int(kTtl.count() / 2)),
        "a gateway back from a Redis outage read presence before the others could write theirs");
    slow.signal(SIGCONT);
    for (int n = 2; n <= kClients; n += 2)
        QTRY_COMPARE_WITH_TIMEOUT(statusInRedis(n), QByteArray("online"), 10'000);
    // Every client is then sent the fresh snapshot that follows Redis losing its data.
    for (std::size_t i = 0; i < clients.size(); ++i)
        QTRY_VERIFY_WITH_TIMEOUT(clients[i]->presenceBatches > batchesBefore[i], 10'000);
    for (const auto &client : clients) {
        QTRY_VERIFY(client->showsEveryone(PresenceState::Online, absent));
        QVERIFY(client->session.state() == GatewaySession::State::Online); // never disconnected
        for (const Shown &shown : client->shown) {
            QVERIFY2(shown.at < restartedAt || shown.id == absent
                    || shown.state == PresenceState::Online,
                qPrintable(u"%1 showed %2 as %3 at %4 ms, Redis restarted at %5 ms"_s.arg(
                    client->userId, shown.id, QString::number(int(shown.state)),
                    QString::number(shown.at), QString::number(restartedAt))));
        }
    }
    // Any notification would be news made up by the restart (signing in is a baseline).
    for (const auto &client : clients)
        QVERIFY2(client->notifications.isEmpty(), qPrintable(client->notifications.join(u'\n')));
}

QTEST_GUILESS_MAIN(TestGatewayChaos)
#include "tst_gateway_chaos.moc"
