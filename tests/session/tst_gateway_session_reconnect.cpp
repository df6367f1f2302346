// GatewaySession reconnecting to a real gateway over loopback: resubscribing after the gateway
// restarts, noticing a dead path by its heartbeat (through a stalling TcpProxy) and a
// black-holed connect by its timeout, following a proxy to a new target, retrying with growing
// jittered delays (at once when asked), a stable session starting the backoff over, a flood's
// close backing off to the cap; and closing, or opening again, which stops all of it.

// C++
#include <algorithm>
#include <chrono>
#include <memory>

// Qt
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

// Presence
#include "GatewayFixture.h"
#include "GatewaySessionFixture.h"
#include "SessionFixture.h"
#include "TestClient.h"
#include "protocol/Backoff.h"
#include "session/GatewaySession.h"
#include "tests/harness/ClosedPort.h"
#include "tests/harness/TcpProxy.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Protocol::Backoff;
using Presence::Protocol::PresenceStatus;
using Presence::Protocol::UserPresence;
using Presence::Server::Gateway;
using Presence::Server::GatewayConfig;
using Presence::Session::GatewaySession;
using State = GatewaySession::State;

namespace {

// The same population on a fixed port: a gateway "restarted" where clients expect it.
std::unique_ptr<Gateway> restartGateway(const QList<TestUser> &users, quint16 port)
{
    GatewayConfig config = testConfig();
    config.port = port;
    return startGateway(users, config);
}

} // namespace

class TestGatewaySessionReconnect : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void reconnectsAndResubscribesAfterGatewayRestart();
    void heartbeatDetectsADeadPath();
    void connectTimeoutRetriesABlackHoledConnect();
    void droppedConnectionReconnectsThroughProxyToNewTarget();
    void retriesWithGrowingJitteredDelays();
    void retryNowSkipsTheWait();
    void stableSessionResetsTheBackoff_data();
    void stableSessionResetsTheBackoff();
    void reopenWhileOnlineStartsClean();
    void dropAfterARefusedTokenStillReconnects();
    void closedForFloodingBacksOffToTheCap();
    void closeStopsForGood_data();
    void closeStopsForGood();
};

void TestGatewaySessionReconnect::reconnectsAndResubscribesAfterGatewayRestart()
{
    const QList<TestUser> users = smallPopulation();
    auto gateway = startGateway(users);
    QVERIFY(gateway);
    const quint16 port = gateway->port();
    TestClient bob;
    QVERIFY(!bob.login(gateway->url(), tokenOf(u"bob"_s)).isEmpty());

    GatewaySession session(fastOptions());
    QSignalSpy states(&session, &GatewaySession::stateChanged);
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    QSignalSpy presence(&session, &GatewaySession::presenceReceived);
    QSignalSpy lost(&session, &GatewaySession::presenceLost);
    RetryLog log(session);
    const QSet<QString> wanted { u"bob"_s, u"cat"_s, u"dan"_s };
    session.setWanted(wanted);
    session.open(gateway->url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), State::Online);
    QTRY_COMPARE(presenceIdsOf(presence), wanted);
    QCOMPARE(gateway->subscriptionsOfUser(u"alice"_s), sorted(wanted));
    const auto first = presenceOf(presence);
    const auto bobFirst = std::find_if(
        first.cbegin(), first.cend(), [](const UserPresence &p) { return p.id == u"bob"; });
    QVERIFY(bobFirst->status == PresenceStatus::Online);

    // The gateway dies: the session notices, drops what it knew and schedules a retry.
    gateway.reset();
    QVERIFY(retries.wait());
    const RetryLog::Entry firstRetry = log.entries().constFirst();
    QCOMPARE(firstRetry.attempt, 1);
    QCOMPARE(firstRetry.state, State::Reconnecting);
    QVERIFY2(firstRetry.delay >= shortBackoff().floor
            && firstRetry.delay <= Backoff::ceiling(shortBackoff(), 0),
        qPrintable(QString::number(firstRetry.delay.count())));
    QCOMPARE(firstRetry.retryAttempt, 1);
    QCOMPARE(firstRetry.retryDelay, firstRetry.delay);
    QVERIFY(!firstRetry.errorString.isEmpty());
    QCOMPARE(lost.size(), 1);
    QVERIFY(session.subscribed().isEmpty());

    // It comes back on the same port: online again with the whole wanted set resubscribed.
    const qsizetype presenceBefore = presence.size();
    states.clear();
    gateway = restartGateway(users, port);
    QVERIFY(gateway);
    QTRY_COMPARE(session.state(), State::Online);
    QTRY_COMPARE(gateway->subscriptionsOfUser(u"alice"_s), sorted(wanted));
    QTRY_COMPARE(presenceIdsOf(presence, presenceBefore), wanted);
    QCOMPARE(session.subscribed(), wanted);
    QCOMPARE(lost.size(), 1);
    // Bob is gone with the old gateway: the new snapshot says so.
    for (const UserPresence &p : presenceOf(presence, presenceBefore))
        QVERIFY2(p.status == PresenceStatus::Offline, qPrintable(p.id));
}

void TestGatewaySessionReconnect::heartbeatDetectsADeadPath()
{
    auto gateway = startGateway(smallPopulation());
    QVERIFY(gateway);
    TcpProxy proxy(gateway->port());
    QVERIFY(proxy.isListening());

    GatewaySession::Options options = fastOptions();
    options.heartbeatOverride = 200ms;
    options.pongTimeout = 300ms;
    GatewaySession session(options);
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    QSignalSpy lost(&session, &GatewaySession::presenceLost);
    RetryLog log(session);
    session.setWanted({ u"bob"_s });
    session.open(proxy.url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), State::Online);

    // A healthy path: several heartbeats go by and every ping gets its pong.
    QTest::qWait(700);
    QCOMPARE(session.state(), State::Online);
    QVERIFY(retries.isEmpty());

    // The path goes silent without closing: only the missing pong can tell.
    QElapsedTimer silence;
    silence.start();
    proxy.setStalled(true);
    QTRY_VERIFY_WITH_TIMEOUT(!retries.isEmpty(), 1500);
    QVERIFY2(silence.elapsed() < 1500, qPrintable(QString::number(silence.elapsed())));
    QCOMPARE(log.entries().constFirst().attempt, 1);
    QCOMPARE(log.entries().constFirst().state, State::Reconnecting);
    // The pong timeout's own reason, not a socket error.
    QCOMPARE(log.entries().constFirst().errorString, u"The gateway stopped answering."_s);
    QCOMPARE(lost.size(), 1);
    // Nothing reached the gateway: to it, the old connection is still there.
    QCOMPARE(gateway->authenticatedCount(), 1);

    // The path heals: the session gets back on its own.
    proxy.setStalled(false);
    QTRY_COMPARE(session.state(), State::Online);
    QTRY_COMPARE(gateway->subscriptionsOfUser(u"alice"_s), QStringList { u"bob"_s });
    QTRY_COMPARE(gateway->connectionCount(), 1); // the dead connection was closed at last
    QCOMPARE(lost.size(), 1);
    QCOMPARE(retries.size(), 1); // the first retry got through once the path healed
}

void TestGatewaySessionReconnect::connectTimeoutRetriesABlackHoledConnect()
{
    auto gateway = startGateway(smallPopulation());
    QVERIFY(gateway);
    TcpProxy proxy(gateway->port());
    proxy.setStalled(true); // TCP connects, the WebSocket handshake never completes

    GatewaySession::Options options = fastOptions();
    options.connectTimeout = 300ms;
    GatewaySession session(options);
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    QSignalSpy lost(&session, &GatewaySession::presenceLost);
    QElapsedTimer timer;
    timer.start();
    session.open(proxy.url(), tokenOf(u"alice"_s));
    QCOMPARE(session.state(), State::Connecting);
    QVERIFY(retries.wait(3000));
    QVERIFY2(timer.elapsed() >= 250, qPrintable(QString::number(timer.elapsed())));
    QCOMPARE(retries.at(0).at(0).toInt(), 1);
    QVERIFY(lost.isEmpty()); // never was online

    proxy.setStalled(false);
    QTRY_COMPARE(session.state(), State::Online);
}

void TestGatewaySessionReconnect::droppedConnectionReconnectsThroughProxyToNewTarget()
{
    const QList<TestUser> users = smallPopulation();
    auto oldGateway = startGateway(users);
    auto newGateway = startGateway(users);
    QVERIFY(oldGateway && newGateway);
    TcpProxy proxy(oldGateway->port());

    GatewaySession session(fastOptions());
    QSignalSpy lost(&session, &GatewaySession::presenceLost);
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    const QSet<QString> wanted { u"cat"_s, u"dan"_s };
    session.setWanted(wanted);
    session.open(proxy.url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), State::Online);
    QTRY_COMPARE(oldGateway->subscriptionsOfUser(u"alice"_s), sorted(wanted));
    QCOMPARE(proxy.connectionCount(), 1);

    // The route moves to another gateway and every connection is cut without a close frame.
    proxy.setTarget(newGateway->port());
    QCOMPARE(proxy.target(), newGateway->port());
    proxy.dropAll();
    QCOMPARE(proxy.connectionCount(), 0);
    QTRY_VERIFY(!retries.isEmpty());
    QCOMPARE(retries.at(0).at(0).toInt(), 1);
    QCOMPARE(lost.size(), 1);
    QTRY_COMPARE(oldGateway->connectionCount(), 0);

    QTRY_COMPARE(session.state(), State::Online);
    QTRY_COMPARE(newGateway->subscriptionsOfUser(u"alice"_s), sorted(wanted));
    QCOMPARE(newGateway->authenticatedCount(), 1);
    QCOMPARE(oldGateway->connectionCount(), 0);
    QCOMPARE(retries.size(), 1);
    QCOMPARE(lost.size(), 1);
}

void TestGatewaySessionReconnect::retriesWithGrowingJitteredDelays()
{
    GatewaySession::Options options;
    options.backoff.floor = 20ms;
    options.backoff.base = 40ms;
    options.backoff.cap = 640ms;
    GatewaySession session(options);

    // When each retry was scheduled, and how long until the attempt it announced began.
    QList<int> attempts;
    QList<std::chrono::milliseconds> delays;
    QList<qint64> waited;
    QElapsedTimer sinceSchedule;
    connect(&session, &GatewaySession::retryScheduled, this,
        [&](int attempt, std::chrono::milliseconds delay) {
            attempts.append(attempt);
            delays.append(delay);
            sinceSchedule.start();
        });
    connect(&session, &GatewaySession::stateChanged, this, [&](State state) {
        if (state == State::Connecting && sinceSchedule.isValid())
            waited.append(sinceSchedule.elapsed());
    });

    const ClosedPort closed;
    session.open(closed.url(), tokenOf(u"alice"_s));
    QTRY_VERIFY_WITH_TIMEOUT(attempts.size() >= 6, 5000);
    QCOMPARE(attempts.mid(0, 6), (QList<int> { 1, 2, 3, 4, 5, 6 }));
    for (qsizetype i = 0; i < 6; ++i) {
        const auto ceiling = Backoff::ceiling(options.backoff, attempts.at(i) - 1);
        QVERIFY2(delays.at(i) >= options.backoff.floor && delays.at(i) <= ceiling,
            qPrintable(u"attempt %1 waits %2 ms, outside [%3, %4]"_s.arg(attempts.at(i))
                           .arg(delays.at(i).count())
                           .arg(options.backoff.floor.count())
                           .arg(ceiling.count())));
    }
    QVERIFY(std::any_of(delays.cbegin() + 1, delays.cbegin() + 6,
        [&](std::chrono::milliseconds d) { return d != delays.constFirst(); }));
    // Jittered, not simply the ceilings (which differ from each other anyway).
    bool belowCeiling = false;
    for (qsizetype i = 0; i < 6; ++i)
        belowCeiling |= delays.at(i) < Backoff::ceiling(options.backoff, attempts.at(i) - 1);
    QVERIFY(belowCeiling);
    // The session really waits the delay it announced (coarse timers may fire 5 % early).
    QVERIFY(waited.size() >= 5);
    for (qsizetype i = 0; i < 5; ++i) {
        QVERIFY2(double(waited.at(i)) >= double(delays.at(i).count()) * 0.95 - 2,
            qPrintable(u"attempt %1 announced %2 ms, waited %3 ms"_s.arg(attempts.at(i))
                           .arg(delays.at(i).count())
                           .arg(waited.at(i))));
    }
    QCOMPARE(session.retryAttempt(), attempts.constLast());
    session.close();
}

void TestGatewaySessionReconnect::retryNowSkipsTheWait()
{
    GatewaySession::Options options;
    options.backoff.floor = 10s;
    options.backoff.base = 10s;
    options.backoff.cap = 10s; // every wait is exactly 10 s unless skipped
    GatewaySession session(options);
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    QSignalSpy states(&session, &GatewaySession::stateChanged);

    const ClosedPort closed;
    session.open(closed.url(), tokenOf(u"alice"_s));
    QVERIFY(retries.wait());
    QCOMPARE(session.state(), State::Reconnecting);
    QCOMPARE(retries.at(0).at(1).value<std::chrono::milliseconds>(), 10s);

    states.clear();
    session.retryNow();
    QCOMPARE(session.state(), State::Connecting);
    QCOMPARE(statesOf(states), QList<State> { State::Connecting });
    QVERIFY(retries.wait(2000)); // long before the 10 s were up
    QCOMPARE(retries.size(), 2);
    QCOMPARE(retries.at(1).at(0).toInt(), 2);
    session.close();
}

void TestGatewaySessionReconnect::stableSessionResetsTheBackoff_data()
{
    QTest::addColumn<std::chrono::milliseconds>("stableAfter");
    QTest::addColumn<bool>("resets");
    QTest::addRow("online past stableAfter") << std::chrono::milliseconds(200ms) << true;
    QTest::addRow("not stable yet") << std::chrono::milliseconds(30s) << false;
}

void TestGatewaySessionReconnect::stableSessionResetsTheBackoff()
{
    QFETCH(std::chrono::milliseconds, stableAfter);
    QFETCH(bool, resets);
    const QList<TestUser> users = smallPopulation();
    auto gateway = startGateway(users);
    QVERIFY(gateway);
    const quint16 port = gateway->port();

    GatewaySession::Options options = fastOptions();
    options.stableAfter = stableAfter;
    GatewaySession session(options);
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    session.open(gateway->url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), State::Online);

    // Three failed attempts while the gateway is away, then it is back.
    gateway.reset();
    QTRY_VERIFY(retries.size() >= 3);
    gateway = restartGateway(users, port);
    QVERIFY(gateway);
    QTRY_COMPARE(session.state(), State::Online);
    const int attemptsBefore = session.retryAttempt();
    QVERIFY(attemptsBefore >= 3);

    // Online for longer than the short stableAfter: the time online is what is tested.
    QTest::qWait(400);
    QCOMPARE(session.state(), State::Online);
    retries.clear();
    gateway.reset();
    QVERIFY(retries.wait());
    QCOMPARE(retries.at(0).at(0).toInt(), resets ? 1 : attemptsBefore + 1);
    const auto delay = retries.at(0).at(1).value<std::chrono::milliseconds>();
    QVERIFY(delay <= Backoff::ceiling(options.backoff, retries.at(0).at(0).toInt() - 1));
    session.close();
}

void TestGatewaySessionReconnect::reopenWhileOnlineStartsClean()
{
    auto gateway = startGateway(smallPopulation());
    QVERIFY(gateway);
    TcpProxy proxy(gateway->port());
    GatewaySession::Options options = fastOptions();
    options.heartbeatOverride = 200ms;
    options.pongTimeout = 300ms;
    options.connectTimeout = 5s;
    GatewaySession session(options);
    QSignalSpy lost(&session, &GatewaySession::presenceLost);
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    session.setWanted({ u"bob"_s });
    session.open(gateway->url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), State::Online);
    QTRY_COMPARE(session.subscribed(), QSet<QString> { u"bob"_s });
    QTest::qWait(250); // at least one heartbeat ping has gone out

    // Opened again (another address, or another token): the first connection is gone, and
    // everything tied to it with it, timers included.
    proxy.setStalled(true); // the new attempt hangs in the handshake
    session.open(proxy.url(), tokenOf(u"alice"_s));
    QCOMPARE(session.state(), State::Connecting);
    QCOMPARE(lost.size(), 1);
    QVERIFY(session.subscribed().isEmpty());

    // Only connectTimeout (5 s) may end this attempt: no leftover ping or pong timer does.
    QTest::qWait(800);
    QCOMPARE(session.state(), State::Connecting);
    QVERIFY2(retries.isEmpty(), qPrintable(session.errorString()));

    proxy.setStalled(false);
    QTRY_COMPARE(session.state(), State::Online);
    QTRY_COMPARE(gateway->subscriptionsOfUser(u"alice"_s), QStringList { u"bob"_s });
    QTRY_COMPARE(gateway->authenticatedCount(), 1);
}

void TestGatewaySessionReconnect::dropAfterARefusedTokenStillReconnects()
{
    // QWebSocket keeps the close code of an earlier connection: a refused token once must not
    // turn every later ordinary drop into "token refused".
    const QList<TestUser> users = smallPopulation();
    auto gateway = startGateway(users);
    QVERIFY(gateway);
    const quint16 port = gateway->port();
    GatewaySession session(fastOptions());
    session.open(gateway->url(), u"wrong-token"_s);
    QTRY_COMPARE(session.state(), GatewaySession::State::Failed);
    session.open(gateway->url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), GatewaySession::State::Online);

    gateway.reset();
    QTRY_COMPARE(session.state(), GatewaySession::State::Reconnecting);
    gateway = restartGateway(users, port);
    QVERIFY(gateway);
    QTRY_COMPARE(session.state(), GatewaySession::State::Online);
}

void TestGatewaySessionReconnect::closedForFloodingBacksOffToTheCap()
{
    // 4029 means "you flooded us": coming back within 100 ms would flood again.
    ScriptedGateway peer;
    GatewaySession session(fastOptions());
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    session.open(peer.url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), GatewaySession::State::Online);
    peer.closePeer(4029);
    QVERIFY(retries.wait());
    const auto delay = retries.constFirst().at(1).value<std::chrono::milliseconds>();
    // An ordinary drop retries as attempt 1; after a 4029 the attempts jump to the cap's.
    QVERIFY2(retries.constFirst().at(0).toInt() > 1,
        qPrintable(QString::number(retries.constFirst().at(0).toInt())));
    QVERIFY(delay <= shortBackoff().cap);
}

void TestGatewaySessionReconnect::closeStopsForGood_data()
{
    QTest::addColumn<State>("closeIn");
    QTest::addRow("online") << State::Online;
    QTest::addRow("reconnecting") << State::Reconnecting;
    QTest::addRow("connecting") << State::Connecting;
}

void TestGatewaySessionReconnect::closeStopsForGood()
{
    QFETCH(State, closeIn);
    auto gateway = startGateway(smallPopulation());
    QVERIFY(gateway);
    TcpProxy proxy(gateway->port());
    GatewaySession::Options options;
    options.backoff.floor = 100ms;
    options.backoff.base = 100ms;
    options.backoff.cap = 100ms; // every retry waits exactly 100 ms
    GatewaySession session(options);
    QSignalSpy states(&session, &GatewaySession::stateChanged);
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    QSignalSpy lost(&session, &GatewaySession::presenceLost);
    const ClosedPort closed;

    switch (closeIn) {
    case State::Online:
        session.setWanted({ u"bob"_s });
        session.open(gateway->url(), tokenOf(u"alice"_s));
        QTRY_COMPARE(session.state(), State::Online);
        QTRY_COMPARE(gateway->subscriptionsOfUser(u"alice"_s), QStringList { u"bob"_s });
        break;
    case State::Reconnecting:
        session.open(closed.url(), tokenOf(u"alice"_s));
        QVERIFY(retries.wait());
        QCOMPARE(session.state(), State::Reconnecting); // for 100 ms
        break;
    case State::Connecting:
        proxy.setStalled(true); // the handshake hangs until the proxy lets it through
        session.open(proxy.url(), tokenOf(u"alice"_s));
        QTRY_COMPARE(proxy.connectionCount(), 1);
        QCOMPARE(session.state(), State::Connecting);
        break;
    default:
        QFAIL("no such case");
    }

    states.clear();
    retries.clear();
    session.close();
    QCOMPARE(session.state(), State::Disconnected);
    QCOMPARE(lost.size(), closeIn == State::Online ? 1 : 0);
    QVERIFY(session.subscribed().isEmpty());
    proxy.setStalled(false); // lets a closed half-made connection reach the gateway

    // Three times the backoff delay: nothing was tried again.
    QTest::qWait(300);
    QCOMPARE(session.state(), State::Disconnected);
    QCOMPARE(statesOf(states), QList<State> { State::Disconnected });
    QVERIFY(retries.isEmpty());
    QCOMPARE(proxy.connectionCount(), 0);

    // The gateway lets go of the connection too; one that never said hello at the latest
    // when its hello timeout (1 s) has closed it.
    QTRY_COMPARE_WITH_TIMEOUT(gateway->connectionCount(), 0, 1500);
}

QTEST_MAIN(TestGatewaySessionReconnect)
#include "tst_gateway_session_reconnect.moc"
