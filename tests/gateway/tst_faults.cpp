// The gateway's injected faults (docs/scenarios.md) as a client meets them: raw QWebSocket
// clients against an in-process gateway see each fault exactly as documented, the real
// presence-mock-server binary crashes on cue and refuses bad scenario files, and the client
// core (GatewaySession) recovers from every fault on its own.

// C++
#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>

// Qt
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

// Presence
#include "ClientSteps.h"
#include "GatewayFixture.h"
#include "PresenceFrames.h"
#include "RawWebSocketPeer.h"
#include "SessionFixture.h"
#include "TestClient.h"
#include "protocol/Backoff.h"
#include "protocol/PresenceStatus.h"
#include "protocol/ServerMessages.h"
#include "server-mock/directory/UsersFile.h"
#include "server-mock/qa/FaultInjector.h"
#include "server-mock/qa/FaultSpec.h"
#include "server-mock/qa/FaultyTransport.h"
#include "server-mock/server/ClientConnection.h"
#include "session/GatewaySession.h"
#include "tests/harness/MockServerProcess.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Protocol::Backoff;
using Presence::Protocol::UserPresence;
using Presence::Server::ClientConnection;
using Presence::Server::FaultKind;
using Presence::Server::FaultSpec;
using Presence::Server::FaultyTransport;
using Presence::Server::GatewayConfig;
using Presence::Server::QaGateway;
using Presence::Session::GatewaySession;
using State = GatewaySession::State;
using ClientSteps::setStatus;
using ClientSteps::subscribe;
using PresenceFrames::dump;
using PresenceFrames::push;

// QCOMPARE shows frames as compact JSON when they differ.
char *toString(const QJsonObject &object)
{
    return qstrdup(QJsonDocument(object).toJson(QJsonDocument::Compact).constData());
}

namespace {

// The delay fault of these tests, and what "at least the delay" means on a busy machine.
constexpr auto kDelay = 400ms;
constexpr qint64 kDelayedAtLeastMs = 350;
// A round trip without any delay fault stays well under this (the fastest of a few tries).
constexpr qint64 kUndelayedBelowMs = 300;
// How long a test watches for something that must not happen.
constexpr int kQuietWindowMs = 300;

FaultSpec fault(FaultKind kind, const QString &user = {})
{
    FaultSpec spec;
    spec.kind = kind;
    spec.user = user;
    return spec;
}

FaultSpec closeFault(const QString &user, quint16 code, const QString &reason)
{
    FaultSpec spec = fault(FaultKind::Close, user);
    spec.code = code;
    spec.reason = reason;
    return spec;
}

FaultSpec delayFault(const QString &user, std::chrono::milliseconds delay)
{
    FaultSpec spec = fault(FaultKind::Delay, user);
    spec.delay = delay;
    return spec;
}

FaultSpec refuseFault(std::chrono::duration<double> duration)
{
    FaultSpec spec = fault(FaultKind::Refuse);
    spec.refuseFor = duration;
    return spec;
}

QJsonObject frame(const QString &type, const QString &ref)
{
    return { { "type"_L1, type }, { "ref"_L1, ref } };
}

// The refs of the frames that have one, in the order they arrived.
QStringList refsOf(const QList<QJsonObject> &frames)
{
    QStringList refs;
    for (const QJsonObject &object : frames) {
        if (object.contains("ref"_L1))
            refs.append(object.value("ref"_L1).toString());
    }
    return refs;
}

// The types of the frames, in the order they arrived.
QStringList typesOf(const QList<QJsonObject> &frames)
{
    QStringList types;
    for (const QJsonObject &object : frames)
        types.append(object.value("type"_L1).toString());
    return types;
}

// Milliseconds a ping request takes to be answered; -1 when no pong comes.
qint64 pingMs(TestClient &client, int timeoutMs = 10000)
{
    QElapsedTimer timer;
    timer.start();
    const QJsonObject pong = client.request({ { "type"_L1, "ping"_L1 } }, timeoutMs);
    return pong.value("type"_L1).toString() == u"pong" ? timer.elapsed() : -1;
}

// The fastest of a few pings: one slow scheduling slice on a busy machine does not count.
qint64 fastestPingMs(TestClient &client)
{
    qint64 fastest = -1;
    for (int i = 0; i < 3; ++i) {
        const qint64 ms = pingMs(client);
        if (ms < 0)
            return -1;
        fastest = fastest < 0 ? ms : std::min(fastest, ms);
    }
    return fastest;
}

bool answersPing(TestClient &client)
{
    return pingMs(client) >= 0;
}

// How a QWebSocket reports a connection that ended with no close frame. Qt 6.4 does not say
// 1006 (closeCode() keeps its initial 1000): the TCP connection failing under it tells.
bool endedWithoutCloseFrame(TestClient &client)
{
    return !client.isOpen() && client.closeReason().isEmpty()
        && client.socket().error() == QAbstractSocket::RemoteHostClosedError;
}

// For failure messages: how the client's connection ended.
QByteArray howItEnded(TestClient &client)
{
    return u"open %1, close code %2, reason \"%3\", socket error %4 (%5)"_s.arg(client.isOpen())
        .arg(client.closeCode())
        .arg(client.closeReason())
        .arg(int(client.socket().error()))
        .arg(client.socket().errorString())
        .toUtf8();
}

// What the session reported about `id` from emission `from` on, as "status seq".
QStringList historyOf(const QSignalSpy &spy, const QString &id, qsizetype from = 0)
{
    QStringList history;
    for (const UserPresence &presence : presenceOf(spy, from)) {
        if (presence.id == id)
            history.append(u"%1 %2"_s.arg(toString(presence.status)).arg(presence.seq));
    }
    return history;
}

bool writeFile(const QString &path, const QByteArray &contents)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(contents) == contents.size();
}

} // namespace

class TestFaults : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    // Seen by raw clients
    void dropCutsOneUsersConnectionsWithoutCloseFrame();
    void dropWithoutUserCutsEveryConnection();
    void closeSendsTheCodeAndReason_data();
    void closeSendsTheCodeAndReason();
    void delayHoldsFramesInOrder_data();
    void delayHoldsFramesInOrder();
    void faultLayerOnlyWhereAFaultReaches();
    void stallHoldsEverythingUntilItEnds();
    void duplicateSendsEachPushTwice();
    void reorderSendsTheNewerPushFirst();
    void simulatedUsersAreDuplicatedAndReordered();
    void refuseTurnsNewConnectionsAwayForAWhile();

    // The real binary
    void crashKillsTheProcessWithoutClosing();
    void refusesBadScenarioFile_data();
    void refusesBadScenarioFile();

    // The client core recovering
    void sessionRecoversFromLostConnection_data();
    void sessionRecoversFromLostConnection();
    void sessionNoticesAStallAndReconnects();
    void sessionRetriesWhileRefused();
    void sessionKeepsTheNewestPresence_data();
    void sessionKeepsTheNewestPresence();
    void sessionStaysOnlineThroughADelay();

private:
    [[nodiscard]] std::unique_ptr<TestClient> login(const QString &id);
    // Presence frames that arrived before the answer to a ping sent now (and not taken yet);
    // takes them.
    [[nodiscard]] static QList<QJsonObject> presenceAfterRoundTrip(TestClient &client);
    // A session for alice watching bob and carol, both signed in by the caller; Online.
    [[nodiscard]] bool openSession(GatewaySession &session);

    std::unique_ptr<QaGateway> m_gateway;
};

void TestFaults::initTestCase()
{
    // Sign-ins, faults and reconnects are logged at info level; these tests make many.
    QLoggingCategory::setFilterRules(u"presence.*.info=false"_s);
    QVERIFY2(QFile::exists(QStringLiteral(PRESENCE_MOCK_SERVER)), PRESENCE_MOCK_SERVER);
}

void TestFaults::init()
{
    m_gateway = startQaGateway(PresenceFrames::fivePeople());
    QVERIFY(m_gateway);
}

void TestFaults::cleanup()
{
    m_gateway.reset();
}

std::unique_ptr<TestClient> TestFaults::login(const QString &id)
{
    return ClientSteps::signIn(m_gateway->url(), id);
}

QList<QJsonObject> TestFaults::presenceAfterRoundTrip(TestClient &client)
{
    ClientSteps::roundTrip(client);
    QList<QJsonObject> pushes;
    while (!client.pending(u"presence"_s).isEmpty())
        pushes.append(client.waitFor(u"presence"_s, 0));
    return pushes;
}

bool TestFaults::openSession(GatewaySession &session)
{
    QSignalSpy presence(&session, &GatewaySession::presenceReceived);
    const QSet<QString> wanted { u"bob"_s, u"carol"_s };
    session.setWanted(wanted);
    session.open(m_gateway->url(), tokenOf(u"alice"_s));
    return QTest::qWaitFor([&] { return session.state() == State::Online; }, 10000)
        && QTest::qWaitFor([&] { return presenceIdsOf(presence) == wanted; }, 10000);
}

// ---- drop --------------------------------------------------------------------------------

void TestFaults::dropCutsOneUsersConnectionsWithoutCloseFrame()
{
    auto alice = login(u"alice"_s);
    auto bob = login(u"bob"_s);
    QVERIFY(alice && bob);
    // A second device of alice's that shows the bytes on the wire: no close frame may come.
    RawWebSocketPeer aliceTablet;
    QVERIFY(aliceTablet.connectAndHandshake(m_gateway->port()));
    aliceTablet.sendText(
        QJsonDocument(QJsonObject { { "type"_L1, "hello"_L1 }, { "token"_L1, tokenOf(u"alice"_s) },
                          { "protocol"_L1, 1 }, { "client"_L1, "raw/1"_L1 } })
            .toJson(QJsonDocument::Compact));
    QTRY_VERIFY(aliceTablet.texts().size() == 1);
    QVERIFY(aliceTablet.texts().constFirst().contains("\"welcome\""));
    QCOMPARE(m_gateway->connectionCount(), 3);

    QCOMPARE(m_gateway->faults().start(fault(FaultKind::Drop, u"alice"_s), u"cut-alice"_s),
        u"cut-alice"_s);

    QVERIFY(alice->waitDisconnected());
    QVERIFY2(endedWithoutCloseFrame(*alice), howItEnded(*alice).constData());
    QVERIFY(aliceTablet.waitForCloseOrDrop(5000));
    QVERIFY(aliceTablet.dropped());
    QVERIFY(!aliceTablet.closeCode()); // no close frame came before the drop
    QTRY_COMPARE(m_gateway->connectionCount(), 1);

    // Bob was not concerned.
    QVERIFY(bob->isOpen());
    QVERIFY(answersPing(*bob));

    // A drop acts once and is not kept: alice can come back at once.
    QVERIFY(m_gateway->faults().running().isEmpty());
    QVERIFY(!m_gateway->faults().end(u"cut-alice"_s));
    auto aliceAgain = login(u"alice"_s);
    QVERIFY(aliceAgain);
    QVERIFY(answersPing(*aliceAgain));
}

void TestFaults::dropWithoutUserCutsEveryConnection()
{
    auto alice = login(u"alice"_s);
    auto bob = login(u"bob"_s);
    QVERIFY(alice && bob);
    TestClient stranger; // connected, not signed in yet: dropped all the same
    stranger.open(m_gateway->url());
    QVERIFY(stranger.waitConnected());
    QTRY_COMPARE(m_gateway->connectionCount(), 3);

    m_gateway->faults().start(fault(FaultKind::Drop));

    for (TestClient *client : { alice.get(), bob.get(), &stranger }) {
        QVERIFY(client->waitDisconnected());
        QVERIFY2(endedWithoutCloseFrame(*client), howItEnded(*client).constData());
    }
    QTRY_COMPARE(m_gateway->connectionCount(), 0);

    auto bobAgain = login(u"bob"_s);
    QVERIFY(bobAgain);
    QVERIFY(answersPing(*bobAgain));
}

// ---- close -------------------------------------------------------------------------------

void TestFaults::closeSendsTheCodeAndReason_data()
{
    QTest::addColumn<QString>("user"); // empty: everybody
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("reason");

    QTest::addRow("bob, 4321") << u"bob"_s << 4321 << u"scenario: kicked"_s;
    QTest::addRow("everybody, 1011") << QString() << 1011 << u"scenario: internal error"_s;
    QTest::addRow("bob, no reason") << u"bob"_s << 1001 << QString();
}

void TestFaults::closeSendsTheCodeAndReason()
{
    QFETCH(QString, user);
    QFETCH(int, code);
    QFETCH(QString, reason);

    auto alice = login(u"alice"_s);
    auto bob = login(u"bob"_s);
    QVERIFY(alice && bob);

    m_gateway->faults().start(closeFault(user, quint16(code), reason));

    QVERIFY(bob->waitDisconnected());
    QVERIFY2(!endedWithoutCloseFrame(*bob), howItEnded(*bob).constData());
    QCOMPARE(bob->closeCode(), code);
    QCOMPARE(bob->closeReason(), reason);
    if (user.isEmpty()) {
        QVERIFY(alice->waitDisconnected());
        QCOMPARE(alice->closeCode(), code);
        QCOMPARE(alice->closeReason(), reason);
        QTRY_COMPARE(m_gateway->connectionCount(), 0);
    } else {
        QVERIFY(answersPing(*alice));
        QVERIFY(alice->isOpen());
        QTRY_COMPARE(m_gateway->connectionCount(), 1);
    }
    QVERIFY(m_gateway->faults().running().isEmpty()); // acts once
}

// ---- delay -------------------------------------------------------------------------------

void TestFaults::delayHoldsFramesInOrder_data()
{
    QTest::addColumn<QString>("user"); // empty: everybody

    QTest::addRow("everybody") << QString();
    QTest::addRow("alice only") << u"alice"_s;
}

void TestFaults::faultLayerOnlyWhereAFaultReaches()
{
    // The delay and stall layer costs memory: a connection gets it when a fault reaches it.
    const auto faulty = [this](const QString &user) {
        const QList<Presence::Server::ConnectionId> ids = m_gateway->connections().ids(user);
        const ClientConnection *connection
            = ids.size() == 1 ? m_gateway->connections().find(ids.front()) : nullptr;
        return connection && dynamic_cast<FaultyTransport *>(connection->transport());
    };
    auto alice = login(u"alice"_s);
    auto bob = login(u"bob"_s);
    QVERIFY(alice && bob);
    QVERIFY(!faulty(u"alice"_s));
    QVERIFY(!faulty(u"bob"_s));

    m_gateway->faults().start(delayFault(u"alice"_s, kDelay));
    QVERIFY(faulty(u"alice"_s));
    QVERIFY(!faulty(u"bob"_s));
    const qint64 aliceMs = pingMs(*alice);
    QVERIFY2(aliceMs >= kDelayedAtLeastMs, qPrintable(QString::number(aliceMs)));
}

void TestFaults::delayHoldsFramesInOrder()
{
    QFETCH(QString, user);
    const bool bobDelayed = user.isEmpty();

    auto alice = login(u"alice"_s);
    auto bob = login(u"bob"_s);
    auto carol = login(u"carol"_s);
    QVERIFY(alice && bob && carol);
    QCOMPARE(subscribe(*alice, { u"bob"_s }).value("type"_L1).toString(), u"snapshot"_s);

    const QString id = m_gateway->faults().start(delayFault(user, kDelay));

    // A reply waits for the delay.
    const qint64 aliceMs = pingMs(*alice);
    QVERIFY2(aliceMs >= kDelayedAtLeastMs, qPrintable(QString::number(aliceMs)));
    // Bob: waits too when the delay is everybody's, else is as quick as ever.
    if (bobDelayed) {
        const qint64 bobMs = pingMs(*bob);
        QVERIFY2(bobMs >= kDelayedAtLeastMs, qPrintable(QString::number(bobMs)));
    } else {
        const qint64 bobMs = fastestPingMs(*bob);
        QVERIFY2(bobMs >= 0 && bobMs < kUndelayedBelowMs, qPrintable(QString::number(bobMs)));
    }

    // A presence push waits as well.
    QElapsedTimer sinceChange;
    sinceChange.start();
    QCOMPARE(setStatus(*bob, u"away"_s).value("type"_L1).toString(), u"ok"_s);
    const QJsonObject pushed = alice->waitFor(u"presence"_s, 10000);
    QCOMPARE(pushed, push(u"bob"_s, u"away"_s, 2));
    QVERIFY2(sinceChange.elapsed() >= kDelayedAtLeastMs,
        qPrintable(QString::number(sinceChange.elapsed())));

    // Several requests in a row: every answer late, all in the order asked.
    alice->clear();
    QElapsedTimer sinceBurst;
    sinceBurst.start();
    alice->sendJson(frame(u"ping"_s, u"o1"_s));
    alice->sendJson(QJsonObject {
        { "type"_L1, "set_status"_L1 }, { "status"_L1, "away"_L1 }, { "ref"_L1, "o2"_L1 } });
    alice->sendJson(QJsonObject { { "type"_L1, "subscribe"_L1 },
        { "ids"_L1, QJsonArray { u"carol"_s } }, { "ref"_L1, "o3"_L1 } });
    alice->sendJson(frame(u"ping"_s, u"o4"_s));
    alice->sendJson(QJsonObject { { "type"_L1, "friends"_L1 }, { "ref"_L1, "o5"_L1 } });
    QTRY_COMPARE_WITH_TIMEOUT(refsOf(alice->received()).size(), 5, 10000);
    QVERIFY2(sinceBurst.elapsed() >= kDelayedAtLeastMs,
        qPrintable(QString::number(sinceBurst.elapsed())));
    QCOMPARE(
        refsOf(alice->received()), (QStringList { u"o1"_s, u"o2"_s, u"o3"_s, u"o4"_s, u"o5"_s }));
    QCOMPARE(typesOf(alice->received()),
        (QStringList { u"pong"_s, u"ok"_s, u"snapshot"_s, u"pong"_s, u"friends"_s }));

    // Once it ends, answers are quick again.
    QVERIFY(m_gateway->faults().end(id));
    const qint64 afterMs = fastestPingMs(*alice);
    QVERIFY2(afterMs >= 0 && afterMs < kUndelayedBelowMs, qPrintable(QString::number(afterMs)));
    QVERIFY(alice->isOpen() && bob->isOpen() && carol->isOpen());
}

// ---- stall -------------------------------------------------------------------------------

void TestFaults::stallHoldsEverythingUntilItEnds()
{
    // A heartbeat short enough that a silence the gateway did not cause would close alice
    // well within the quiet window below.
    GatewayConfig config = testConfig();
    config.heartbeat = 100ms;
    config.heartbeatSlack = 150ms;
    m_gateway = startQaGateway(PresenceFrames::fivePeople(), config);
    QVERIFY(m_gateway);
    auto alice = login(u"alice"_s);
    auto bob = login(u"bob"_s);
    QVERIFY(alice && bob);
    QCOMPARE(subscribe(*alice, { u"bob"_s }).value("type"_L1).toString(), u"snapshot"_s);

    const QString id = m_gateway->faults().start(fault(FaultKind::Stall, u"alice"_s));
    alice->clear();
    // Not even a WebSocket ping is answered: a client's heartbeat is what notices a stall.
    QSignalSpy pongs(&alice->socket(), &QWebSocket::pong);
    alice->socket().ping();
    alice->sendJson(frame(u"ping"_s, u"s1"_s));
    alice->sendJson(QJsonObject { { "type"_L1, "subscribe"_L1 },
        { "ids"_L1, QJsonArray { u"carol"_s } }, { "ref"_L1, "s2"_L1 } });
    alice->sendJson(frame(u"ping"_s, u"s3"_s));
    // Bob is not stalled; his change reaches alice's connection while it is.
    QCOMPARE(setStatus(*bob, u"away"_s).value("type"_L1).toString(), u"ok"_s);
    // A stall applies to alice's new connections too: signing in gets no welcome yet.
    TestClient aliceTablet;
    aliceTablet.open(m_gateway->url());
    QVERIFY(aliceTablet.waitConnected());
    aliceTablet.sendJson({ { "type"_L1, "hello"_L1 }, { "token"_L1, tokenOf(u"alice"_s) },
        { "protocol"_L1, 1 }, { "client"_L1, "tests/1"_L1 }, { "ref"_L1, "t1"_L1 } });

    QTest::qWait(2 * kQuietWindowMs); // > heartbeat + slack: nothing answered, nothing closed
    QVERIFY2(alice->received().isEmpty(), dump(alice->received()).constData());
    QVERIFY2(aliceTablet.received().isEmpty(), dump(aliceTablet.received()).constData());
    QVERIFY(pongs.isEmpty());
    QVERIFY(alice->isOpen() && aliceTablet.isOpen());
    QCOMPARE(m_gateway->connectionCount(), 3);
    QVERIFY(answersPing(*bob));

    // Released: everything held comes out in order, what was sent to alice first.
    QVERIFY(m_gateway->faults().end(id));
    QTRY_COMPARE_WITH_TIMEOUT(alice->received().size(), 4, 10000);
    QCOMPARE(typesOf(alice->received()),
        (QStringList { u"presence"_s, u"pong"_s, u"snapshot"_s, u"pong"_s }));
    QCOMPARE(alice->received().constFirst(), push(u"bob"_s, u"away"_s, 2));
    QCOMPARE(refsOf(alice->received()), (QStringList { u"s1"_s, u"s2"_s, u"s3"_s }));
    QTRY_COMPARE_WITH_TIMEOUT(pongs.size(), 1, 10000);
    const QJsonObject welcome = aliceTablet.waitFor(u"welcome"_s, 10000);
    QCOMPARE(welcome.value("ref"_L1).toString(), u"t1"_s);
    QVERIFY(answersPing(*alice));
    QVERIFY(answersPing(aliceTablet));
}

// ---- duplicate and reorder ---------------------------------------------------------------

void TestFaults::duplicateSendsEachPushTwice()
{
    auto alice = login(u"alice"_s);
    auto bob = login(u"bob"_s);
    auto carol = login(u"carol"_s);
    QVERIFY(alice && bob && carol);
    QCOMPARE(
        subscribe(*alice, { u"bob"_s, u"carol"_s }).value("type"_L1).toString(), u"snapshot"_s);

    const QString id = m_gateway->faults().start(fault(FaultKind::Duplicate, u"bob"_s));
    QCOMPARE(setStatus(*bob, u"away"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(presenceAfterRoundTrip(*alice),
        (QList<QJsonObject> { push(u"bob"_s, u"away"_s, 2), push(u"bob"_s, u"away"_s, 2) }));
    // Only bob's pushes are doubled.
    QCOMPARE(setStatus(*carol, u"away"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(presenceAfterRoundTrip(*alice), QList<QJsonObject> { push(u"carol"_s, u"away"_s, 2) });

    QVERIFY(m_gateway->faults().end(id));
    QCOMPARE(setStatus(*bob, u"online"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(presenceAfterRoundTrip(*alice), QList<QJsonObject> { push(u"bob"_s, u"online"_s, 3) });
}

void TestFaults::reorderSendsTheNewerPushFirst()
{
    auto alice = login(u"alice"_s);
    auto bob = login(u"bob"_s);
    auto carol = login(u"carol"_s);
    QVERIFY(alice && bob && carol);
    QCOMPARE(
        subscribe(*alice, { u"bob"_s, u"carol"_s }).value("type"_L1).toString(), u"snapshot"_s);

    const QString id = m_gateway->faults().start(fault(FaultKind::Reorder, u"bob"_s));
    // The first change is held ...
    QCOMPARE(setStatus(*bob, u"away"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(presenceAfterRoundTrip(*alice), QList<QJsonObject> {});
    // ... and goes out right after the next one.
    QCOMPARE(setStatus(*bob, u"online"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(presenceAfterRoundTrip(*alice),
        (QList<QJsonObject> { push(u"bob"_s, u"online"_s, 3), push(u"bob"_s, u"away"_s, 2) }));
    // Carol's pushes are not held.
    QCOMPARE(setStatus(*carol, u"away"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(presenceAfterRoundTrip(*alice), QList<QJsonObject> { push(u"carol"_s, u"away"_s, 2) });

    // A change with no successor is not lost: ending the fault sends it at once.
    QCOMPARE(setStatus(*bob, u"away"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(presenceAfterRoundTrip(*alice), QList<QJsonObject> {});
    QVERIFY(m_gateway->faults().end(id));
    QCOMPARE(presenceAfterRoundTrip(*alice), QList<QJsonObject> { push(u"bob"_s, u"away"_s, 4) });

    // Over: pushed as they happen.
    QCOMPARE(setStatus(*bob, u"online"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(presenceAfterRoundTrip(*alice), QList<QJsonObject> { push(u"bob"_s, u"online"_s, 5) });
}

void TestFaults::simulatedUsersAreDuplicatedAndReordered()
{
    using Presence::Protocol::ChosenStatus;
    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    QCOMPARE(subscribe(*alice, { u"erin"_s }).value("type"_L1).toString(), u"snapshot"_s);
    auto &simulated = m_gateway->simulatedUsers();

    const QString duplicate = m_gateway->faults().start(fault(FaultKind::Duplicate, u"erin"_s));
    simulated.setStatus(u"erin"_s, ChosenStatus::Online);
    QCOMPARE(presenceAfterRoundTrip(*alice),
        (QList<QJsonObject> { push(u"erin"_s, u"online"_s, 1), push(u"erin"_s, u"online"_s, 1) }));
    simulated.setStatus(u"erin"_s, ChosenStatus::Away);
    QCOMPARE(presenceAfterRoundTrip(*alice),
        (QList<QJsonObject> { push(u"erin"_s, u"away"_s, 2), push(u"erin"_s, u"away"_s, 2) }));
    QVERIFY(m_gateway->faults().end(duplicate));

    const QString reorder = m_gateway->faults().start(fault(FaultKind::Reorder, u"erin"_s));
    simulated.setStatus(u"erin"_s, ChosenStatus::Online);
    QCOMPARE(presenceAfterRoundTrip(*alice), QList<QJsonObject> {});
    simulated.connectDevice(u"erin"_s, u"phone"_s, ChosenStatus::Away); // no change: no push
    simulated.setStatus(u"erin"_s, ChosenStatus::Away);
    QCOMPARE(presenceAfterRoundTrip(*alice),
        (QList<QJsonObject> { push(u"erin"_s, u"away"_s, 4), push(u"erin"_s, u"online"_s, 3) }));
    QVERIFY(m_gateway->faults().end(reorder));
    simulated.setStatus(u"erin"_s, ChosenStatus::Online);
    QCOMPARE(
        presenceAfterRoundTrip(*alice), QList<QJsonObject> { push(u"erin"_s, u"online"_s, 5) });
}

// ---- refuse ------------------------------------------------------------------------------

void TestFaults::refuseTurnsNewConnectionsAwayForAWhile()
{
    auto alice = login(u"alice"_s);
    QVERIFY(alice);

    QElapsedTimer sinceStart;
    sinceStart.start();
    m_gateway->faults().start(refuseFault(1s));
    QVERIFY(m_gateway->faults().refusesConnections());

    TestClient bob;
    QSignalSpy connected(&bob.socket(), &QWebSocket::connected);
    QSignalSpy errors(&bob.socket(), qOverload<QAbstractSocket::SocketError>(&QWebSocket::error));
    bob.open(m_gateway->url());
    QTRY_VERIFY_WITH_TIMEOUT(!errors.isEmpty(), 5000);
    QVERIFY(bob.waitDisconnected());
    QVERIFY(connected.isEmpty());
    QVERIFY(!bob.isOpen());
    // QWebSocket reads the 503 and reports the handshake refused; had the gateway's close
    // overtaken the answer, the connection would read as cut instead. Never connected, either way.
    const auto error = errors.constFirst().at(0).value<QAbstractSocket::SocketError>();
    if (error == QAbstractSocket::ConnectionRefusedError)
        QVERIFY2(
            bob.socket().errorString().contains(u"503"_s), qPrintable(bob.socket().errorString()));
    else
        QCOMPARE(error, QAbstractSocket::RemoteHostClosedError);

    // The connection that was open carries on; the refused one never counted.
    QVERIFY(answersPing(*alice));
    QCOMPARE(m_gateway->connectionCount(), 1);

    // It ends by itself, after about its second.
    QTRY_VERIFY_WITH_TIMEOUT(!m_gateway->faults().refusesConnections(), 10000);
    QVERIFY2(sinceStart.elapsed() >= 900, qPrintable(QString::number(sinceStart.elapsed())));
    QVERIFY(m_gateway->faults().running().isEmpty());
    auto bobAgain = login(u"bob"_s);
    QVERIFY(bobAgain);
    QVERIFY(answersPing(*bobAgain));
}

// ---- the real binary ---------------------------------------------------------------------

void TestFaults::crashKillsTheProcessWithoutClosing()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString scenario = dir.filePath(u"crash.jsonl"_s);
    const QString usersFile = dir.filePath(u"users.json"_s);
    // Late enough for a client to sign in first, even on a busy machine.
    QVERIFY(writeFile(scenario,
        "# the gateway dies on cue\n"
        R"({"at": 0, "do": "online", "user": "user2"})"
        "\n"
        R"({"at": "1500ms", "do": "fault", "id": "boom", "fault": {"kind": "crash"}})"
        "\n"_ba));

    MockServerProcess server(QStringLiteral(PRESENCE_MOCK_SERVER));
    server.disableCoreFile();
    QVERIFY(server.start({ u"--generate"_s, u"10"_s, u"--listen"_s, u"127.0.0.1:0"_s,
        u"--scenario"_s, scenario, u"--dump-users"_s, usersFile }));
    const auto port = server.waitListening();
    QVERIFY2(port, server.transcript().constData());
    QString error;
    const auto users = Presence::Server::UsersFile::load(usersFile, &error);
    QVERIFY2(users, qPrintable(error));

    TestClient client;
    const QJsonObject welcome = client.login(server.url(), users->user(1).token);
    QVERIFY2(!welcome.isEmpty(), "no sign-in before the crash:\n" + server.transcript());

    QVERIFY2(server.waitFinished(), server.transcript().constData());
    QCOMPARE(server.process().exitStatus(), QProcess::CrashExit);
    QVERIFY(client.waitDisconnected());
    QVERIFY2(endedWithoutCloseFrame(client), howItEnded(client).constData());
    QVERIFY2(server.errorOutput().contains(u"crash"_s), server.transcript().constData());
}

void TestFaults::refusesBadScenarioFile_data()
{
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<QStringList>("expected"); // "FILE" stands for the file's path

    QTest::addRow("malformed JSON")
        << "# morning\n{\"at\": 0, \"do\": \"log\", \"text\": \"fine\"}\n"
           "{\"at\": \"1s\", \"do\": \"online\", \"user\": \"user1\"\n"_ba
        << QStringList { u"FILE:3:"_s, u"not valid JSON"_s };
    QTest::addRow("unknown fault kind")
        << "\n{\"at\": 0, \"do\": \"fault\", \"id\": \"x\", \"fault\": {\"kind\": \"explode\"}}\n"_ba
        << QStringList { u"FILE:2:"_s, u"kind"_s };
    QTest::addRow("user not in the population")
        << "{\"at\": 0, \"do\": \"online\", \"user\": \"user1\"}\n"
           "{\"at\": 5, \"do\": \"away\", \"user\": \"mallory\"}\n"_ba
        << QStringList { u"FILE"_s, u"user \"mallory\" is not in the population"_s };
    QTest::addRow("fault on a user not in the population")
        << "{\"at\": 0, \"do\": \"fault\", \"id\": \"s\", \"fault\": {\"kind\": \"stall\", "
           "\"user\": \"ghost\"}}\n"_ba
        << QStringList { u"FILE"_s, u"user \"ghost\" is not in the population"_s };
}

void TestFaults::refusesBadScenarioFile()
{
    QFETCH(QByteArray, contents);
    QFETCH(QStringList, expected);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"qa.jsonl"_s);
    QVERIFY(writeFile(path, contents));

    MockServerProcess server(QStringLiteral(PRESENCE_MOCK_SERVER));
    QVERIFY(server.start(
        { u"--generate"_s, u"10"_s, u"--listen"_s, u"127.0.0.1:0"_s, u"--scenario"_s, path }));
    QVERIFY2(server.waitFinished(), server.transcript().constData());
    QCOMPARE(server.process().exitStatus(), QProcess::NormalExit);
    QVERIFY(server.process().exitCode() != 0);
    for (QString piece : std::as_const(expected)) {
        piece.replace(u"FILE"_s, path);
        QVERIFY2(server.errorOutput().contains(piece),
            qPrintable(piece + u"\n"_s + QString::fromUtf8(server.transcript())));
    }
    QVERIFY2(!server.output().contains(u"listening on"_s), server.transcript().constData());
}

// ---- the client core ---------------------------------------------------------------------

void TestFaults::sessionRecoversFromLostConnection_data()
{
    QTest::addColumn<FaultSpec>("spec");
    QTest::addColumn<QString>("reason"); // what the session gives as the error; empty: any

    QTest::addRow("drop") << fault(FaultKind::Drop, u"alice"_s) << QString();
    QTest::addRow("close 1011") << closeFault(u"alice"_s, 1011, u"scenario: internal error"_s)
                                << u"scenario: internal error"_s;
    QTest::addRow("close 1001, everybody")
        << closeFault({}, 1001, u"scenario: restart"_s) << u"scenario: restart"_s;
}

void TestFaults::sessionRecoversFromLostConnection()
{
    QFETCH(FaultSpec, spec);
    QFETCH(QString, reason);

    auto bob = login(u"bob"_s);
    auto carol = login(u"carol"_s);
    QVERIFY(bob && carol);
    GatewaySession session(quickSessionOptions());
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    QSignalSpy lost(&session, &GatewaySession::presenceLost);
    QSignalSpy presence(&session, &GatewaySession::presenceReceived);
    RetryLog log(session);
    QVERIFY(openSession(session));
    const QStringList subscriptions { u"bob"_s, u"carol"_s };
    QTRY_COMPARE(m_gateway->subscriptionsOfUser(u"alice"_s), subscriptions);
    QVERIFY(retries.isEmpty());

    const qsizetype presenceBefore = presence.size();
    m_gateway->faults().start(spec);
    QTRY_VERIFY_WITH_TIMEOUT(!retries.isEmpty(), 5000);
    QCOMPARE(log.entries().constFirst().attempt, 1);
    if (reason.isEmpty())
        QVERIFY(!log.entries().constFirst().errorString.isEmpty());
    else
        QCOMPARE(log.entries().constFirst().errorString, reason);
    QCOMPARE(lost.size(), 1);

    // Back by itself, with everything it watched watched again.
    QTRY_COMPARE_WITH_TIMEOUT(session.state(), State::Online, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(m_gateway->subscriptionsOfUser(u"alice"_s), subscriptions, 10000);
    QCOMPARE(session.subscribed(), (QSet<QString> { u"bob"_s, u"carol"_s }));
    QTRY_COMPARE_WITH_TIMEOUT(
        presenceIdsOf(presence, presenceBefore), (QSet<QString> { u"bob"_s, u"carol"_s }), 10000);
    QCOMPARE(m_gateway->authenticatedCount(), spec.user.isEmpty() ? 1 : 3);
    QCOMPARE(lost.size(), 1);
}

void TestFaults::sessionNoticesAStallAndReconnects()
{
    auto bob = login(u"bob"_s);
    auto carol = login(u"carol"_s);
    QVERIFY(bob && carol);
    GatewaySession::Options options = quickSessionOptions();
    options.heartbeatOverride = 200ms;
    options.pongTimeout = 400ms;
    GatewaySession session(options);
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    QSignalSpy lost(&session, &GatewaySession::presenceLost);
    RetryLog log(session);
    QVERIFY(openSession(session));

    const QString id = m_gateway->faults().start(fault(FaultKind::Stall, u"alice"_s));
    // Nothing closes: only the missing pong tells.
    QTRY_VERIFY_WITH_TIMEOUT(!retries.isEmpty(), 5000);
    QCOMPARE(log.entries().constFirst().errorString, u"The gateway stopped answering."_s);
    QCOMPARE(lost.size(), 1);
    // The stall holds alice's new connections too: no welcome while it runs.
    QVERIFY(!QTest::qWaitFor([&] { return session.state() == State::Online; }, kQuietWindowMs));

    QVERIFY(m_gateway->faults().end(id));
    QTRY_COMPARE_WITH_TIMEOUT(session.state(), State::Online, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(
        m_gateway->subscriptionsOfUser(u"alice"_s), (QStringList { u"bob"_s, u"carol"_s }), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(m_gateway->connectionCount(), 3, 10000); // the stalled one is gone
    QCOMPARE(lost.size(), 1);
}

void TestFaults::sessionRetriesWhileRefused()
{
    QElapsedTimer sinceStart;
    sinceStart.start();
    m_gateway->faults().start(refuseFault(1s));

    GatewaySession session(quickSessionOptions());
    QSignalSpy states(&session, &GatewaySession::stateChanged);
    RetryLog log(session);
    session.setWanted({ u"bob"_s });
    session.open(m_gateway->url(), tokenOf(u"alice"_s));
    QTRY_VERIFY_WITH_TIMEOUT(log.entries().size() >= 2, 5000);
    // Backing off: attempt n waits within its own window of the policy.
    const Backoff::Policy policy = quickSessionOptions().backoff;
    for (int i = 0; i < 2; ++i) {
        const RetryLog::Entry &entry = log.entries().at(i);
        QCOMPARE(entry.attempt, i + 1);
        QVERIFY2(entry.delay >= policy.floor && entry.delay <= Backoff::ceiling(policy, i),
            qPrintable(QString::number(entry.delay.count())));
        QVERIFY(!entry.errorString.isEmpty());
    }

    QTRY_COMPARE_WITH_TIMEOUT(session.state(), State::Online, 10000);
    // Not before the gateway took connections again.
    QVERIFY2(sinceStart.elapsed() >= 900, qPrintable(QString::number(sinceStart.elapsed())));
    QVERIFY(!m_gateway->faults().refusesConnections());
    const auto onlineCount = std::count_if(states.cbegin(), states.cend(),
        [](const QList<QVariant> &args) { return args.at(0).value<State>() == State::Online; });
    QCOMPARE(onlineCount, 1);
    QTRY_COMPARE(m_gateway->subscriptionsOfUser(u"alice"_s), QStringList { u"bob"_s });
}

void TestFaults::sessionKeepsTheNewestPresence_data()
{
    QTest::addColumn<FaultKind>("kind");
    // Bob goes away (seq 2), then online (seq 3): what the session reports about him.
    QTest::addColumn<QStringList>("expected");

    // Each push twice: the second of each is no news.
    QTest::addRow("duplicate") << FaultKind::Duplicate
                               << QStringList { u"away 2"_s, u"online 3"_s };
    // Seq 3 arrives first; seq 2 after it is stale.
    QTest::addRow("reorder") << FaultKind::Reorder << QStringList { u"online 3"_s };
}

void TestFaults::sessionKeepsTheNewestPresence()
{
    QFETCH(FaultKind, kind);
    QFETCH(QStringList, expected);

    auto bob = login(u"bob"_s);
    auto carol = login(u"carol"_s);
    QVERIFY(bob && carol);
    GatewaySession session(quickSessionOptions());
    QSignalSpy presence(&session, &GatewaySession::presenceReceived);
    QVERIFY(openSession(session));
    QCOMPARE(historyOf(presence, u"bob"_s), QStringList { u"online 1"_s });

    const qsizetype before = presence.size();
    m_gateway->faults().start(fault(kind, u"bob"_s));
    QCOMPARE(setStatus(*bob, u"away"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(setStatus(*bob, u"online"_s).value("type"_L1).toString(), u"ok"_s);
    // Carol's push travels behind bob's on the same connection: once it is in, so are his.
    QCOMPARE(setStatus(*carol, u"away"_s).value("type"_L1).toString(), u"ok"_s);
    QTRY_COMPARE_WITH_TIMEOUT(
        historyOf(presence, u"carol"_s, before), QStringList { u"away 2"_s }, 10000);

    QCOMPARE(historyOf(presence, u"bob"_s, before), expected);
    QCOMPARE(historyOf(presence, u"bob"_s).constLast(), u"online 3"_s);
    QCOMPARE(session.state(), State::Online);
}

void TestFaults::sessionStaysOnlineThroughADelay()
{
    auto bob = login(u"bob"_s);
    auto carol = login(u"carol"_s);
    QVERIFY(bob && carol);
    const QString id = m_gateway->faults().start(delayFault({}, kDelay));

    GatewaySession::Options options = quickSessionOptions();
    options.heartbeatOverride = 200ms;
    options.pongTimeout = 1s;
    GatewaySession session(options);
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    QSignalSpy presence(&session, &GatewaySession::presenceReceived);
    QVERIFY(openSession(session));

    QElapsedTimer sinceChange;
    sinceChange.start();
    const qsizetype before = presence.size();
    QCOMPARE(setStatus(*bob, u"away"_s).value("type"_L1).toString(), u"ok"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!historyOf(presence, u"bob"_s, before).isEmpty(), 10000);
    QVERIFY2(sinceChange.elapsed() >= kDelayedAtLeastMs,
        qPrintable(QString::number(sinceChange.elapsed())));
    QCOMPARE(historyOf(presence, u"bob"_s, before), QStringList { u"away 2"_s });
    QCOMPARE(session.state(), State::Online);
    QVERIFY(retries.isEmpty());
    QVERIFY(m_gateway->faults().end(id));
}

QTEST_GUILESS_MAIN(TestFaults)
#include "tst_faults.moc"
