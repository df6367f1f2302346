// The admin and heartbeat HTTP API against the real gateway (issue 6): an in-process Gateway
// with its GatewayAdminBackend behind an AdminServer, real HTTP and real WebSocket clients on
// loopback. Heartbeat presence mixes with WebSocket presence, the batch presence API shows
// friends only, the admin endpoints drive simulated users and faults that real clients see,
// and /metrics counts what happened.

// C++
#include <memory>

// Qt
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QTest>

// Presence
#include "GatewayFixture.h"
#include "JwtMinter.h"
#include "PresenceFrames.h"
#include "PrometheusText.h"
#include "TestClient.h"
#include "server-mock/admin/AdminServer.h"
#include "server-mock/admin/GatewayAdminBackend.h"
#include "server-mock/identity/JwtVerifier.h"
#include "tests/harness/HttpCall.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace Presence::Server;
using Presence::TestSupport::JwtMinter;
using Presence::TestSupport::PrometheusText;

char *toString(const QJsonObject &object)
{
    return qstrdup(QJsonDocument(object).toJson(QJsonDocument::Compact).constData());
}

char *toString(const QJsonArray &array)
{
    return qstrdup(QJsonDocument(array).toJson(QJsonDocument::Compact).constData());
}

namespace {

constexpr auto kHeartbeatTtl = 1500ms;
constexpr auto kGrace = 200ms;
const QByteArray kAdminToken = "admin-token-for-the-tests";
const QByteArray kJwtSecret = "the app's HS256 secret, 32 bytes or more";

QByteArray bearer(const QString &token)
{
    return "Bearer " + token.toUtf8();
}

QByteArray json(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

// A population where alice has many friends, for the 500-id bound.
QList<TestUser> population()
{
    QList<TestUser> users = PresenceFrames::fivePeople();
    for (int i = 0; i < 520; ++i) {
        const QString id = u"f%1"_s.arg(i);
        users.append({ id, {} });
        users[0].friends.append(id);
    }
    return users;
}

} // namespace

class TestAdminEndToEnd : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void heartbeatMakesAUserPresentForWatchers();
    void heartbeatAndWebSocketDevicesAddUp();
    void heartbeatIdentityComesFromTheTokenOnly();
    void jsonWebTokensWorkOverHttp();
    void batchPresenceShowsFriendsOnly();
    void batchPresenceIsBoundTo500Ids();
    void adminSimulatesPresenceAndDescribesUsers();
    void adminFaultsReachRealClients();
    void healthAndMetricsOverHttp();

private:
    [[nodiscard]] HttpAnswer call(const QByteArray &verb, const QString &target,
        const QByteArray &body = {}, const QByteArray &authorization = {});
    [[nodiscard]] std::unique_ptr<TestClient> login(const QString &id);
    [[nodiscard]] static QJsonArray subscribe(TestClient &client, const QStringList &ids);
    // alice subscribed to bob, who is signed in over a WebSocket and has set himself away (seq
    // 2), every step checked; the caller returns when QTest::currentTestFailed().
    void aliceWatchesBobAway(std::unique_ptr<TestClient> &alice, std::unique_ptr<TestClient> &bob);

    std::unique_ptr<QaGateway> m_gateway;
    std::unique_ptr<GatewayAdminBackend> m_backend;
    std::unique_ptr<AdminServer> m_server;
    QNetworkAccessManager m_http;
};

void TestAdminEndToEnd::initTestCase()
{
    QLoggingCategory::setFilterRules(u"presence.*.info=false"_s);
}

void TestAdminEndToEnd::init()
{
    GatewayConfig config = testConfig();
    config.grace = kGrace;
    QString problem;
    const auto jwtKey = JwtKey::fromSecret(kJwtSecret, {}, &problem);
    QVERIFY2(jwtKey, qPrintable(problem));
    config.jwt = std::make_shared<const JwtVerifier>(QList<JwtKey> { *jwtKey });
    m_gateway = startQaGateway(population(), config);
    QVERIFY(m_gateway);
    m_backend = std::make_unique<GatewayAdminBackend>(*m_gateway, kHeartbeatTtl);
    AdminServerOptions options;
    options.adminToken = QString::fromLatin1(kAdminToken);
    options.heartbeatTtl = kHeartbeatTtl;
    m_server = std::make_unique<AdminServer>(*m_backend, options);
    QString error;
    QVERIFY2(m_server->listen(&error), qPrintable(error));
}

void TestAdminEndToEnd::cleanup()
{
    m_server.reset();
    m_backend.reset();
    m_gateway.reset();
}

HttpAnswer TestAdminEndToEnd::call(const QByteArray &verb, const QString &target,
    const QByteArray &body, const QByteArray &authorization)
{
    return httpCall(m_http, verb, m_server->url().resolved(QUrl(target)), body, authorization);
}

std::unique_ptr<TestClient> TestAdminEndToEnd::login(const QString &id)
{
    auto client = std::make_unique<TestClient>();
    if (client->login(m_gateway->url(), tokenOf(id)).isEmpty())
        return nullptr;
    return client;
}

QJsonArray TestAdminEndToEnd::subscribe(TestClient &client, const QStringList &ids)
{
    return client
        .request({ { "type"_L1, "subscribe"_L1 }, { "ids"_L1, QJsonArray::fromStringList(ids) } })
        .value("users"_L1)
        .toArray();
}

void TestAdminEndToEnd::aliceWatchesBobAway(
    std::unique_ptr<TestClient> &alice, std::unique_ptr<TestClient> &bob)
{
    alice = login(u"alice"_s);
    QVERIFY(alice);
    QCOMPARE(subscribe(*alice, { u"bob"_s }).size(), 1);
    bob = login(u"bob"_s);
    QVERIFY(bob);
    QCOMPARE(alice->waitFor(u"presence"_s), PresenceFrames::push(u"bob"_s, u"online"_s, 1));
    QCOMPARE(bob->request({ { "type"_L1, "set_status"_L1 }, { "status"_L1, "away"_L1 } })
                 .value("type"_L1)
                 .toString(),
        u"ok"_s);
    QCOMPARE(alice->waitFor(u"presence"_s), PresenceFrames::push(u"bob"_s, u"away"_s, 2));
}

void TestAdminEndToEnd::heartbeatMakesAUserPresentForWatchers()
{
    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    QCOMPARE(subscribe(*alice, { u"bob"_s }).size(), 1);

    const HttpAnswer beat = call("POST", u"/api/heartbeat"_s, {}, bearer(tokenOf(u"bob"_s)));
    QCOMPARE(beat.status, 200);
    QCOMPARE(beat.json().value("user"_L1).toString(), u"bob"_s);
    QCOMPARE(beat.json().value("ttl_ms"_L1).toInteger(), kHeartbeatTtl.count());
    QCOMPARE(alice->waitFor(u"presence"_s), PresenceFrames::push(u"bob"_s, u"online"_s, 1));

    // Heartbeats within the TTL keep him there; when they stop, he goes after TTL + grace.
    for (int i = 0; i < 3; ++i) {
        QTest::qWait(int(kHeartbeatTtl.count() / 3)); // a third: slack for a busy machine
        QCOMPARE(call("POST", u"/api/heartbeat"_s, {}, bearer(tokenOf(u"bob"_s))).status, 200);
    }
    QCOMPARE(alice->pending(u"presence"_s).size(), 0);
    const QJsonObject offline = alice->waitFor(u"presence"_s, 5000);
    QCOMPARE(offline.value("status"_L1).toString(), u"offline"_s);
    QCOMPARE(offline.value("seq"_L1).toInteger(), 2);
}

void TestAdminEndToEnd::heartbeatAndWebSocketDevicesAddUp()
{
    std::unique_ptr<TestClient> alice;
    std::unique_ptr<TestClient> bob;
    aliceWatchesBobAway(alice, bob);
    if (QTest::currentTestFailed())
        return;
    // An HTTP-only device of bob's is online: online wins over away.
    QCOMPARE(call("POST", u"/api/heartbeat"_s, {}, bearer(tokenOf(u"bob"_s))).status, 200);
    QCOMPARE(alice->waitFor(u"presence"_s), PresenceFrames::push(u"bob"_s, u"online"_s, 3));
    // It expires: back to away (the WebSocket is still there), never offline.
    QCOMPARE(alice->waitFor(u"presence"_s, 5000), PresenceFrames::push(u"bob"_s, u"away"_s, 4));
    QCOMPARE(m_gateway->simulatedUsers().devicesOf(u"bob"_s).size(), 0);
}

void TestAdminEndToEnd::heartbeatIdentityComesFromTheTokenOnly()
{
    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    QCOMPARE(subscribe(*alice, { u"bob"_s, u"carol"_s }).size(), 2);
    // bob's token, carol's name everywhere else: it is bob who is present.
    const HttpAnswer beat = call("POST", u"/api/heartbeat?user=carol&id=carol"_s,
        json({ { "user"_L1, "carol"_L1 } }), bearer(tokenOf(u"bob"_s)));
    QCOMPARE(beat.status, 200);
    QCOMPARE(beat.json().value("user"_L1).toString(), u"bob"_s);
    QCOMPARE(alice->waitFor(u"presence"_s).value("id"_L1).toString(), u"bob"_s);
    QVERIFY(m_gateway->simulatedUsers().devicesOf(u"carol"_s).isEmpty());
    // No token, a made-up one, or the admin token: nobody becomes present.
    QCOMPARE(call("POST", u"/api/heartbeat"_s).status, 401);
    QCOMPARE(call("POST", u"/api/heartbeat"_s, {}, "Bearer carol-secret-not").status, 401);
    QCOMPARE(call("POST", u"/api/heartbeat"_s, {}, bearer(QString::fromLatin1(kAdminToken))).status,
        401);
    QCOMPARE(m_gateway->simulatedUsers().userCount(), 1);
}

void TestAdminEndToEnd::jsonWebTokensWorkOverHttp()
{
    // A JSON Web Token is a client token over HTTP as over a WebSocket.
    const JwtMinter minter = JwtMinter::hs256(kJwtSecret);
    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    QCOMPARE(subscribe(*alice, { u"bob"_s }).size(), 1);
    const HttpAnswer beat = call(
        "POST", u"/api/heartbeat"_s, {}, bearer(minter.mint(JwtMinter::claims(u"bob"_s, 300))));
    QCOMPARE(beat.status, 200);
    QCOMPARE(beat.json().value("user"_L1).toString(), u"bob"_s);
    QCOMPARE(alice->waitFor(u"presence"_s), PresenceFrames::push(u"bob"_s, u"online"_s, 1));
    const HttpAnswer presence = call("GET", u"/api/presence?ids=bob"_s, {},
        bearer(minter.mint(JwtMinter::claims(u"alice"_s, 300))));
    QCOMPARE(presence.status, 200);
    QCOMPARE(presence.json().value("users"_L1).toArray().at(0).toObject().value("status"_L1),
        u"online"_s);
    // Expired, or signed with another secret: an unknown token.
    QCOMPARE(call("GET", u"/api/presence?ids=bob"_s, {},
                 bearer(minter.mint(JwtMinter::claims(u"alice"_s, -300))))
                 .status,
        401);
    QCOMPARE(call("GET", u"/api/presence?ids=bob"_s, {},
                 bearer(JwtMinter::hs256("another secret of thirty-two bytes"_ba)
                            .mint(JwtMinter::claims(u"alice"_s, 300))))
                 .status,
        401);
}

void TestAdminEndToEnd::batchPresenceShowsFriendsOnly()
{
    auto bob = login(u"bob"_s);
    QVERIFY(bob);
    m_gateway->simulatedUsers().setStatus(u"carol"_s, Presence::Protocol::ChosenStatus::Away);
    // alice asks about friends (bob, carol, erin) and others (dave, nobody).
    const HttpAnswer answer = call(
        "GET", u"/api/presence?ids=bob,carol,erin,dave,nobody"_s, {}, bearer(tokenOf(u"alice"_s)));
    QCOMPARE(answer.status, 200);
    QCOMPARE(answer.json().value("users"_L1).toArray(),
        (QJsonArray { PresenceFrames::entry(u"bob"_s, u"online"_s, 1),
            PresenceFrames::entry(u"carol"_s, u"away"_s, 1),
            PresenceFrames::entry(u"erin"_s, u"offline"_s, 0) }));
    QCOMPARE(answer.json().value("denied"_L1).toArray(), (QJsonArray { "dave"_L1, "nobody"_L1 }));
    // A user cannot ask about themselves, and a bad id is a 400.
    QCOMPARE(call("GET", u"/api/presence?ids=alice"_s, {}, bearer(tokenOf(u"alice"_s)))
                 .json()
                 .value("denied"_L1)
                 .toArray(),
        QJsonArray { "alice"_L1 });
    QCOMPARE(
        call("GET", u"/api/presence?ids=bob,b%20d"_s, {}, bearer(tokenOf(u"alice"_s))).status, 400);
}

void TestAdminEndToEnd::batchPresenceIsBoundTo500Ids()
{
    QStringList ids;
    for (int i = 0; i < 500; ++i)
        ids.append(u"f%1"_s.arg(i));
    const HttpAnswer ok
        = call("GET", u"/api/presence?ids="_s + ids.join(u','), {}, bearer(tokenOf(u"alice"_s)));
    QCOMPARE(ok.status, 200);
    QCOMPARE(ok.json().value("users"_L1).toArray().size(), 500);
    ids.append(u"f500"_s);
    const HttpAnswer refused
        = call("GET", u"/api/presence?ids="_s + ids.join(u','), {}, bearer(tokenOf(u"alice"_s)));
    QCOMPARE(refused.status, 413);
    QCOMPARE(refused.errorCode(), u"too_many_ids"_s);
}

void TestAdminEndToEnd::adminSimulatesPresenceAndDescribesUsers()
{
    std::unique_ptr<TestClient> alice;
    std::unique_ptr<TestClient> bob;
    aliceWatchesBobAway(alice, bob);
    if (QTest::currentTestFailed())
        return;

    // A simulated device of bob's, online.
    QCOMPARE(call("POST", u"/admin/users/bob/presence"_s, json({ { "status"_L1, "online"_L1 } }),
                 bearer(QString::fromLatin1(kAdminToken)))
                 .status,
        204);
    QCOMPARE(alice->waitFor(u"presence"_s), PresenceFrames::push(u"bob"_s, u"online"_s, 3));

    const HttpAnswer described
        = call("GET", u"/admin/users/bob"_s, {}, bearer(QString::fromLatin1(kAdminToken)));
    QCOMPARE(described.status, 200);
    const QJsonObject user = described.json();
    QCOMPARE(user.value("id"_L1).toString(), u"bob"_s);
    QCOMPARE(user.value("status"_L1).toString(), u"online"_s);
    QCOMPARE(user.value("seq"_L1).toInteger(), 3);
    QCOMPARE(user.value("watchers"_L1).toArray(), QJsonArray { "alice"_L1 });
    const QJsonArray devices = user.value("devices"_L1).toArray();
    QCOMPARE(devices.size(), 2);
    QCOMPARE(devices.at(0).toObject().value("kind"_L1).toString(), u"websocket"_s);
    QCOMPARE(devices.at(0).toObject().value("status"_L1).toString(), u"away"_s);
    QCOMPARE(devices.at(1).toObject().value("kind"_L1).toString(), u"simulated"_s);
    QCOMPARE(devices.at(1).toObject().value("status"_L1).toString(), u"online"_s);

    // Offline removes the simulated device; bob's own connection stays: away again.
    QCOMPARE(call("POST", u"/admin/users/bob/presence"_s, json({ { "status"_L1, "offline"_L1 } }),
                 bearer(QString::fromLatin1(kAdminToken)))
                 .status,
        204);
    QCOMPARE(alice->waitFor(u"presence"_s), PresenceFrames::push(u"bob"_s, u"away"_s, 4));
    // A client's token is no admin token; unknown users are 404.
    QCOMPARE(call("POST", u"/admin/users/bob/presence"_s, json({ { "status"_L1, "online"_L1 } }),
                 bearer(tokenOf(u"bob"_s)))
                 .status,
        403);
    QCOMPARE(
        call("GET", u"/admin/users/nobody"_s, {}, bearer(QString::fromLatin1(kAdminToken))).status,
        404);
}

void TestAdminEndToEnd::adminFaultsReachRealClients()
{
    auto alice = login(u"alice"_s);
    auto bob = login(u"bob"_s);
    QVERIFY(alice && bob);
    const QByteArray admin = bearer(QString::fromLatin1(kAdminToken));
    const HttpAnswer started = call("POST", u"/admin/faults"_s,
        json({ { "kind"_L1, "close"_L1 }, { "user"_L1, "alice"_L1 }, { "code"_L1, 4321 },
            { "reason"_L1, "QA says so"_L1 } }),
        admin);
    QCOMPARE(started.status, 201);
    QVERIFY(alice->waitDisconnected());
    QCOMPARE(alice->closeCode(), 4321);
    QCOMPARE(alice->closeReason(), u"QA says so"_s);
    QVERIFY(bob->isOpen());

    // A lasting fault is listed until deleted.
    const HttpAnswer duplicate = call("POST", u"/admin/faults"_s,
        json({ { "kind"_L1, "duplicate"_L1 }, { "user"_L1, "carol"_L1 } }), admin);
    QCOMPARE(duplicate.status, 201);
    const QString id = duplicate.json().value("id"_L1).toString();
    QVERIFY(!id.isEmpty());
    const QJsonArray running
        = call("GET", u"/admin/faults"_s, {}, admin).json().value("faults"_L1).toArray();
    QCOMPARE(running.size(), 1);
    QCOMPARE(running.at(0).toObject().value("id"_L1).toString(), id);
    QCOMPARE(call("DELETE", u"/admin/faults/"_s + id, {}, admin).status, 204);
    QCOMPARE(call("DELETE", u"/admin/faults/"_s + id, {}, admin).status, 404);
    // A fault about a user who does not exist is refused.
    QCOMPARE(call("POST", u"/admin/faults"_s,
                 json({ { "kind"_L1, "stall"_L1 }, { "user"_L1, "nobody"_L1 } }), admin)
                 .status,
        409);
}

void TestAdminEndToEnd::healthAndMetricsOverHttp()
{
    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    QCOMPARE(subscribe(*alice, { u"bob"_s, u"carol"_s }).size(), 2);
    const HttpAnswer health = call("GET", u"/healthz"_s);
    QCOMPARE(health.status, 200);
    QCOMPARE(health.json().value("status"_L1).toString(), u"ok"_s);
    QCOMPARE(health.json().value("store"_L1).toString(), u"memory"_s);
    QCOMPARE(health.json().value("connections"_L1).toInt(), 1);

    const HttpAnswer metrics = call("GET", u"/metrics"_s);
    QCOMPARE(metrics.status, 200);
    QVERIFY(metrics.header("content-type").startsWith("text/plain; version=0.0.4"));
    QString error;
    const auto text = PrometheusText::parse(metrics.body, &error);
    QVERIFY2(text, qPrintable(error));
    QCOMPARE(text->value("presence_connections"), 1.0);
    QCOMPARE(text->value("presence_subscriptions"), 2.0);
    QCOMPARE(text->value("presence_frames_in_total", { { "type", u"subscribe"_s } }), 1.0);
}

QTEST_GUILESS_MAIN(TestAdminEndToEnd)
#include "tst_admin_end_to_end.moc"
