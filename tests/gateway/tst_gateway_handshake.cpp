// Tests for a gateway session over real loopback WebSockets: hello and welcome, every way a
// hello can fail (error code, then close code), identity from the token alone, ping, friends
// paging, unknown types, Origin checks, the heartbeat and shutdown.

// C++
#include <chrono>
#include <memory>

// Qt
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>
#include <QWebSocket>

// Presence
#include "GatewayFixture.h"
#include "RawWebSocketPeer.h"
#include "TestClient.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Server::Gateway;
using Presence::Server::GatewayConfig;

namespace {

// The ids of a friends page's items, in order.
QStringList idsOf(const QJsonArray &items)
{
    QStringList ids;
    for (const QJsonValue &item : items)
        ids.append(item.toObject().value("id"_L1).toString());
    return ids;
}

QJsonObject helloFor(const QString &token)
{
    return QJsonObject { { "type"_L1, "hello"_L1 }, { "token"_L1, token }, { "protocol"_L1, 1 },
        { "client"_L1, "tests/1"_L1 } };
}

// Alice's friends in users-file order: the order every friends page must follow.
const QStringList kAliceFriends { u"zed"_s, u"bob"_s, u"kim"_s, u"amy"_s, u"lou"_s, u"ned"_s,
    u"cat"_s };

// Alice has seven friends spread around her own entry, some listed on her side (out of file
// order), some only on theirs; mia and eve are strangers placed in between.
QList<TestUser> pagingPopulation()
{
    return {
        { u"zed"_s, {} },
        { u"mia"_s, { u"zed"_s } },
        { u"bob"_s, { u"alice"_s } },
        { u"alice"_s, { u"cat"_s, u"kim"_s, u"zed"_s, u"ned"_s, u"lou"_s } },
        { u"kim"_s, {}, u"Kim Possible"_s },
        { u"amy"_s, { u"alice"_s } },
        { u"eve"_s, { u"mia"_s } },
        { u"lou"_s, {} },
        { u"ned"_s, {} },
        { u"cat"_s, {} },
        { u"solo"_s, {} },
    };
}

QString nameOf(const QString &id)
{
    return id == u"kim" ? u"Kim Possible"_s : id.left(1).toUpper() + id.mid(1);
}

// Four users, none of them friends: for tests where only connections matter.
QList<TestUser> fourPeople()
{
    return { { u"alice"_s, {} }, { u"bob"_s, {} }, { u"carol"_s, {} }, { u"dave"_s, {} } };
}

} // namespace

class TestGatewayHandshake : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void welcomeCarriesUserAndLimits_data();
    void welcomeCarriesUserAndLimits();
    void helloFailureSendsErrorThenCloses_data();
    void helloFailureSendsErrorThenCloses();
    void identityComesOnlyFromToken();
    void secondHelloIsBadRequestAndKeepsSession();
    void pingAnswersPongWithRef();

    void friendsPagesInUsersFileOrder();
    void friendsPastTheEndIsEmpty_data();
    void friendsPastTheEndIsEmpty();
    void friendsDefaultLimitIs500();
    void friendsOfFriendlessUserIsEmpty();
    void friendsBadRequestKeepsConnection_data();
    void friendsBadRequestKeepsConnection();

    void unknownTypeKeepsConnectionAndSubscriptions();
    void originIsChecked_data();
    void originIsChecked();
    void heartbeatClosesSilentPeerOnly();
    void shutdownClosesEveryClientWith1001();
    void shutdownDrainsEvenly();
    void aSecondShutdownClosesTheRestAtOnce();
    void shutdownWithNobodyFinishesAtOnce();
};

void TestGatewayHandshake::welcomeCarriesUserAndLimits_data()
{
    QTest::addColumn<QString>("ref");
    QTest::addRow("without ref") << QString();
    QTest::addRow("with ref") << u"hello-1"_s;
}

void TestGatewayHandshake::welcomeCarriesUserAndLimits()
{
    QFETCH(QString, ref);
    // Values unlike the defaults, so a welcome advertising defaults cannot pass.
    GatewayConfig config = testConfig();
    config.heartbeat = 7s;
    config.maxFrameBytes = 12345;
    config.maxSubscriptions = 77;
    config.maxIdsPerRequest = 11;
    config.maxFramesPerSecond = 33;
    config.frameBurst = 44;
    const auto gateway = startGateway(
        { { u"alice"_s, { u"bob"_s }, u"Alice Liddell"_s }, { u"bob"_s, {} } }, config);
    QVERIFY(gateway);

    TestClient client;
    QJsonObject extra;
    if (!ref.isEmpty())
        extra.insert("ref"_L1, ref);
    const QJsonObject welcome = client.login(gateway->url(), tokenOf(u"alice"_s), extra);
    QCOMPARE(welcome.value("type"_L1).toString(), u"welcome"_s);
    QCOMPARE(welcome.value("user"_L1).toObject(),
        (QJsonObject { { "id"_L1, "alice"_L1 }, { "name"_L1, "Alice Liddell"_L1 } }));
    QCOMPARE(welcome.value("heartbeat_ms"_L1).toInt(), 7000);
    QCOMPARE(welcome.value("protocol"_L1).toInt(), 1);
    QCOMPARE(welcome.value("limits"_L1).toObject(),
        (QJsonObject { { "max_frame_bytes"_L1, 12345 }, { "max_subscriptions"_L1, 77 },
            { "max_ids_per_request"_L1, 11 }, { "max_frames_per_second"_L1, 33 },
            { "frame_burst"_L1, 44 }, { "max_availability_friends"_L1, 5000 },
            { "availability_interval_ms"_L1, 1000 } }));
    if (ref.isEmpty())
        QVERIFY(!welcome.contains("ref"_L1));
    else
        QCOMPARE(welcome.value("ref"_L1).toString(), ref);
    QCOMPARE(gateway->authenticatedCount(), 1);
}

void TestGatewayHandshake::helloFailureSendsErrorThenCloses_data()
{
    QTest::addColumn<QString>("kind"); // text, binary or none (say nothing at all)
    QTest::addColumn<QByteArray>("payload");
    QTest::addColumn<QString>("errorCode"); // empty: no error frame expected
    QTest::addColumn<QString>("errorRef"); // empty: the error carries no ref
    QTest::addColumn<int>("closeCode");

    const QString text = u"text"_s;
    const QString unauthorized = u"unauthorized"_s;
    QTest::addRow("unknown token")
        << text << R"({"type":"hello","token":"mallory-secret","protocol":1,"client":"t/1"})"_ba
        << unauthorized << QString() << 4001;
    QTest::addRow("unknown token, ref echoed")
        << text
        << R"({"type":"hello","ref":"h1","token":"mallory-secret","protocol":1,"client":"t/1"})"_ba
        << unauthorized << u"h1"_s << 4001;
    QTest::addRow("protocol 2")
        << text
        << R"({"type":"hello","ref":"h2","token":"alice-secret","protocol":2,"client":"t/1"})"_ba
        << u"unsupported_protocol"_s << u"h2"_s << 4002;
    QTest::addRow("protocol 0")
        << text << R"({"type":"hello","token":"alice-secret","protocol":0,"client":"t/1"})"_ba
        << u"unsupported_protocol"_s << QString() << 4002;
    QTest::addRow("subscribe first")
        << text << R"({"type":"subscribe","ref":"s1","ids":["bob"]})"_ba << unauthorized << u"s1"_s
        << 4001;
    QTest::addRow("ping first") << text << R"({"type":"ping"})"_ba << unauthorized << QString()
                                << 4001;
    QTest::addRow("not JSON") << text << "hello, gateway"_ba << unauthorized << QString() << 4001;
    QTest::addRow("JSON array") << text << "[]"_ba << unauthorized << QString() << 4001;
    QTest::addRow("binary") << u"binary"_s
                            << R"({"type":"hello","token":"alice-secret","protocol":1})"_ba
                            << unauthorized << QString() << 4001;
    QTest::addRow("missing token")
        << text << R"({"type":"hello","ref":"h3","protocol":1,"client":"t/1"})"_ba << unauthorized
        << u"h3"_s << 4001;
    QTest::addRow("empty token") << text
                                 << R"({"type":"hello","token":"","protocol":1,"client":"t/1"})"_ba
                                 << unauthorized << QString() << 4001;
    QTest::addRow("token not a string")
        << text << R"({"type":"hello","token":42,"protocol":1,"client":"t/1"})"_ba << unauthorized
        << QString() << 4001;
    QTest::addRow("missing protocol")
        << text << R"({"type":"hello","token":"alice-secret","client":"t/1"})"_ba << unauthorized
        << QString() << 4001;
    QTest::addRow("protocol as string")
        << text << R"({"type":"hello","token":"alice-secret","protocol":"1","client":"t/1"})"_ba
        << unauthorized << QString() << 4001;
    QTest::addRow("unknown status")
        << text
        << R"({"type":"hello","token":"alice-secret","protocol":1,"client":"t/1","status":"busy"})"_ba
        << unauthorized << QString() << 4001;
    QTest::addRow("no hello in time")
        << u"none"_s << QByteArray() << QString() << QString() << 4008;
}

void TestGatewayHandshake::helloFailureSendsErrorThenCloses()
{
    QFETCH(QString, kind);
    QFETCH(QByteArray, payload);
    QFETCH(QString, errorCode);
    QFETCH(QString, errorRef);
    QFETCH(int, closeCode);

    GatewayConfig config = testConfig();
    config.helloTimeout = 300ms;
    const auto gateway = startGateway({ { u"alice"_s, { u"bob"_s } }, { u"bob"_s, {} } }, config);
    QVERIFY(gateway);

    TestClient client;
    // What the client had received when the close came: the error must already be there.
    qsizetype framesAtClose = -1;
    connect(&client.socket(), &QWebSocket::disconnected, this,
        [&] { framesAtClose = client.received().size(); });
    client.open(gateway->url());
    QVERIFY(client.waitConnected());
    QElapsedTimer sinceOpen;
    sinceOpen.start();

    if (kind == u"text")
        client.sendText(QString::fromUtf8(payload));
    else if (kind == u"binary")
        client.sendBinary(payload);

    QVERIFY(client.waitDisconnected(5000));
    QCOMPARE(client.closeCode(), closeCode);
    QCOMPARE(gateway->authenticatedCount(), 0);
    if (errorCode.isEmpty()) {
        QCOMPARE(framesAtClose, 0);
        // Not before the hello timeout (300 ms; coarse timers may fire a little early).
        QVERIFY2(sinceOpen.elapsed() >= 250, qPrintable(QString::number(sinceOpen.elapsed())));
        return;
    }
    QCOMPARE(framesAtClose, 1);
    const QJsonObject error = client.received().constFirst();
    QCOMPARE(error.value("type"_L1).toString(), u"error"_s);
    QCOMPARE(error.value("code"_L1).toString(), errorCode);
    QVERIFY(error.value("message"_L1).isString());
    if (errorRef.isEmpty())
        QVERIFY(!error.contains("ref"_L1));
    else
        QCOMPARE(error.value("ref"_L1).toString(), errorRef);
}

void TestGatewayHandshake::identityComesOnlyFromToken()
{
    // alice and bob have disjoint friends, so what the session may see tells who it is.
    const auto gateway = startGateway({ { u"alice"_s, { u"carol"_s } }, { u"bob"_s, { u"dave"_s } },
        { u"carol"_s, {} }, { u"dave"_s, {} } });
    QVERIFY(gateway);

    TestClient client;
    const QJsonObject welcome = client.login(gateway->url(), tokenOf(u"alice"_s),
        QJsonObject { { "user"_L1, "bob"_L1 }, { "id"_L1, "bob"_L1 }, { "user_id"_L1, "bob"_L1 } });
    QCOMPARE(welcome.value("user"_L1).toObject().value("id"_L1).toString(), u"alice"_s);

    const QJsonObject page = client.request({ { "type"_L1, "friends"_L1 } });
    QCOMPARE(page.value("type"_L1).toString(), u"friends"_s);
    QCOMPARE(idsOf(page.value("items"_L1).toArray()), QStringList { u"carol"_s });

    const QJsonObject snapshot = client.request(
        { { "type"_L1, "subscribe"_L1 }, { "ids"_L1, QJsonArray { u"carol"_s, u"dave"_s } } });
    QCOMPARE(snapshot.value("type"_L1).toString(), u"snapshot"_s);
    QCOMPARE(snapshot.value("denied"_L1).toArray(), QJsonArray { u"dave"_s });
    QCOMPARE(gateway->subscriptionsOfUser(u"alice"_s), QStringList { u"carol"_s });
    QCOMPARE(gateway->subscriptionsOfUser(u"bob"_s), QStringList());
}

void TestGatewayHandshake::secondHelloIsBadRequestAndKeepsSession()
{
    const auto gateway = startGateway({ { u"alice"_s, { u"carol"_s } }, { u"bob"_s, { u"dave"_s } },
        { u"carol"_s, {} }, { u"dave"_s, {} } });
    QVERIFY(gateway);

    TestClient client;
    QVERIFY(!client.login(gateway->url(), tokenOf(u"alice"_s)).isEmpty());

    for (const QString &token : { tokenOf(u"alice"_s), tokenOf(u"bob"_s) }) {
        const QJsonObject error = client.request(helloFor(token));
        QCOMPARE(error.value("type"_L1).toString(), u"error"_s);
        QCOMPARE(error.value("code"_L1).toString(), u"bad_request"_s);
        QVERIFY(client.isOpen());
    }

    QCOMPARE(client.request({ { "type"_L1, "ping"_L1 } }).value("type"_L1).toString(), u"pong"_s);
    QVERIFY(client.pending(u"welcome"_s).isEmpty());
    QCOMPARE(gateway->authenticatedCount(), 1);
    // Still alice: the second hello (with bob's token) changed nothing.
    const QJsonObject page = client.request({ { "type"_L1, "friends"_L1 } });
    QCOMPARE(idsOf(page.value("items"_L1).toArray()), QStringList { u"carol"_s });
}

void TestGatewayHandshake::pingAnswersPongWithRef()
{
    const auto gateway = startGateway({ { u"alice"_s, {} } });
    QVERIFY(gateway);
    TestClient client;
    QVERIFY(!client.login(gateway->url(), tokenOf(u"alice"_s)).isEmpty());

    client.sendJson({ { "type"_L1, "ping"_L1 }, { "ref"_L1, "p-42"_L1 } });
    const QJsonObject pong = client.waitFor(u"pong"_s);
    QCOMPARE(pong, (QJsonObject { { "type"_L1, "pong"_L1 }, { "ref"_L1, "p-42"_L1 } }));

    client.sendJson({ { "type"_L1, "ping"_L1 }, { "extra"_L1, "ignored"_L1 } });
    QCOMPARE(client.waitFor(u"pong"_s), (QJsonObject { { "type"_L1, "pong"_L1 } }));
    QVERIFY(client.pending(u"error"_s).isEmpty());
}

void TestGatewayHandshake::friendsPagesInUsersFileOrder()
{
    const auto gateway = startGateway(pagingPopulation());
    QVERIFY(gateway);
    TestClient client;
    QVERIFY(!client.login(gateway->url(), tokenOf(u"alice"_s)).isEmpty());

    QJsonArray expected;
    for (const QString &id : kAliceFriends)
        expected.append(QJsonObject { { "id"_L1, id }, { "name"_L1, nameOf(id) } });

    QJsonArray collected;
    for (const int offset : { 0, 3, 6 }) {
        const QJsonObject page = client.request(
            { { "type"_L1, "friends"_L1 }, { "offset"_L1, offset }, { "limit"_L1, 3 } });
        QCOMPARE(page.value("type"_L1).toString(), u"friends"_s);
        QCOMPARE(page.value("offset"_L1).toInt(-1), offset);
        QCOMPARE(page.value("total"_L1).toInt(-1), 7);
        const QJsonArray items = page.value("items"_L1).toArray();
        QCOMPARE(items.size(), std::min(3, 7 - offset));
        for (const QJsonValue &item : items)
            collected.append(item);
    }
    QCOMPARE(collected, expected);

    // The same order again, whole: limit at its maximum, and offset defaulting to 0.
    const QJsonObject all = client.request({ { "type"_L1, "friends"_L1 }, { "limit"_L1, 1000 } });
    QCOMPARE(all.value("offset"_L1).toInt(-1), 0);
    QCOMPARE(all.value("items"_L1).toArray(), expected);
    const QJsonObject firstTwo = client.request({ { "type"_L1, "friends"_L1 }, { "limit"_L1, 2 } });
    QCOMPARE(idsOf(firstTwo.value("items"_L1).toArray()), kAliceFriends.first(2));
}

void TestGatewayHandshake::friendsPastTheEndIsEmpty_data()
{
    QTest::addColumn<int>("offset");
    QTest::addRow("offset == total") << 7;
    QTest::addRow("offset far past") << 100000;
}

void TestGatewayHandshake::friendsPastTheEndIsEmpty()
{
    QFETCH(int, offset);
    const auto gateway = startGateway(pagingPopulation());
    QVERIFY(gateway);
    TestClient client;
    QVERIFY(!client.login(gateway->url(), tokenOf(u"alice"_s)).isEmpty());

    const QJsonObject page = client.request(
        { { "type"_L1, "friends"_L1 }, { "offset"_L1, offset }, { "limit"_L1, 3 } });
    QCOMPARE(page.value("type"_L1).toString(), u"friends"_s);
    QCOMPARE(page.value("offset"_L1).toInt(-1), offset);
    QCOMPARE(page.value("total"_L1).toInt(-1), 7);
    QVERIFY(page.value("items"_L1).isArray());
    QCOMPARE(page.value("items"_L1).toArray().size(), 0);
}

void TestGatewayHandshake::friendsDefaultLimitIs500()
{
    // "hub" has 501 friends: one more than the default page.
    QList<TestUser> users { { u"hub"_s, {} } };
    QStringList expected;
    for (int i = 0; i < 501; ++i) {
        const QString id = u"u%1"_s.arg(i, 3, 10, QChar(u'0'));
        users.append({ id, { u"hub"_s } });
        expected.append(id);
    }
    const auto gateway = startGateway(users);
    QVERIFY(gateway);
    TestClient client;
    QVERIFY(!client.login(gateway->url(), tokenOf(u"hub"_s)).isEmpty());

    const QJsonObject first = client.request({ { "type"_L1, "friends"_L1 } });
    QCOMPARE(first.value("offset"_L1).toInt(-1), 0);
    QCOMPARE(first.value("total"_L1).toInt(-1), 501);
    QCOMPARE(idsOf(first.value("items"_L1).toArray()), expected.first(500));

    const QJsonObject rest = client.request({ { "type"_L1, "friends"_L1 }, { "offset"_L1, 500 } });
    QCOMPARE(idsOf(rest.value("items"_L1).toArray()), expected.mid(500));
}

void TestGatewayHandshake::friendsOfFriendlessUserIsEmpty()
{
    const auto gateway = startGateway(pagingPopulation());
    QVERIFY(gateway);
    TestClient client;
    QVERIFY(!client.login(gateway->url(), tokenOf(u"solo"_s)).isEmpty());
    const QJsonObject page = client.request({ { "type"_L1, "friends"_L1 } });
    QCOMPARE(page.value("type"_L1).toString(), u"friends"_s);
    QCOMPARE(page.value("total"_L1).toInt(-1), 0);
    QVERIFY(page.value("items"_L1).isArray());
    QCOMPARE(page.value("items"_L1).toArray().size(), 0);
}

void TestGatewayHandshake::friendsBadRequestKeepsConnection_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QJsonValue>("value");
    QTest::addRow("limit 1001") << u"limit"_s << QJsonValue(1001);
    QTest::addRow("limit 0") << u"limit"_s << QJsonValue(0);
    QTest::addRow("limit -1") << u"limit"_s << QJsonValue(-1);
    QTest::addRow("limit 2.5") << u"limit"_s << QJsonValue(2.5);
    QTest::addRow("limit as string") << u"limit"_s << QJsonValue(u"3"_s);
    QTest::addRow("offset -1") << u"offset"_s << QJsonValue(-1);
    QTest::addRow("offset null") << u"offset"_s << QJsonValue(QJsonValue::Null);
}

void TestGatewayHandshake::friendsBadRequestKeepsConnection()
{
    QFETCH(QString, field);
    QFETCH(QJsonValue, value);
    const auto gateway = startGateway(pagingPopulation());
    QVERIFY(gateway);
    TestClient client;
    QVERIFY(!client.login(gateway->url(), tokenOf(u"alice"_s)).isEmpty());

    const QJsonObject error = client.request({ { "type"_L1, "friends"_L1 }, { field, value } });
    QCOMPARE(error.value("type"_L1).toString(), u"error"_s);
    QCOMPARE(error.value("code"_L1).toString(), u"bad_request"_s);
    QVERIFY(client.isOpen());
    QCOMPARE(client.request({ { "type"_L1, "ping"_L1 } }).value("type"_L1).toString(), u"pong"_s);
    QVERIFY(client.pending(u"friends"_s).isEmpty());
}

void TestGatewayHandshake::unknownTypeKeepsConnectionAndSubscriptions()
{
    const auto gateway = startGateway({ { u"alice"_s, { u"bob"_s } }, { u"bob"_s, {} } });
    QVERIFY(gateway);
    TestClient alice;
    QVERIFY(!alice.login(gateway->url(), tokenOf(u"alice"_s)).isEmpty());
    const QJsonObject snapshot
        = alice.request({ { "type"_L1, "subscribe"_L1 }, { "ids"_L1, QJsonArray { u"bob"_s } } });
    QCOMPARE(snapshot.value("type"_L1).toString(), u"snapshot"_s);

    const QJsonObject error = alice.request({ { "type"_L1, "dance"_L1 } });
    QCOMPARE(error.value("type"_L1).toString(), u"error"_s);
    QCOMPARE(error.value("code"_L1).toString(), u"unknown_type"_s);
    QVERIFY(alice.isOpen());
    QCOMPARE(gateway->subscriptionsOfUser(u"alice"_s), QStringList { u"bob"_s });

    TestClient bob;
    QVERIFY(!bob.login(gateway->url(), tokenOf(u"bob"_s)).isEmpty());
    const QJsonObject presence = alice.waitFor(u"presence"_s);
    QCOMPARE(presence.value("id"_L1).toString(), u"bob"_s);
    QCOMPARE(presence.value("status"_L1).toString(), u"online"_s);
    QCOMPARE(presence.value("seq"_L1).toInteger(), 1);
}

void TestGatewayHandshake::originIsChecked_data()
{
    QTest::addColumn<QString>("origin");
    QTest::addColumn<QStringList>("allowed");
    QTest::addColumn<bool>("accepted");
    const QStringList good { u"http://good.example"_s };
    QTest::addRow("no origin, no list") << QString() << QStringList() << true;
    QTest::addRow("no origin, list") << QString() << good << true;
    QTest::addRow("listed origin") << u"http://good.example"_s << good << true;
    QTest::addRow("foreign origin, no list") << u"http://evil.example"_s << QStringList() << false;
    QTest::addRow("foreign origin, list") << u"http://evil.example"_s << good << false;
    QTest::addRow("listed host, other scheme") << u"https://good.example"_s << good << false;
}

void TestGatewayHandshake::originIsChecked()
{
    QFETCH(QString, origin);
    QFETCH(QStringList, allowed);
    QFETCH(bool, accepted);
    GatewayConfig config = testConfig();
    config.allowedOrigins = allowed;
    const auto gateway = startGateway({ { u"alice"_s, {} } }, config);
    QVERIFY(gateway);

    TestClient client;
    QSignalSpy connected(&client.socket(), &QWebSocket::connected);
    QSignalSpy disconnected(&client.socket(), &QWebSocket::disconnected);
    QVERIFY(connected.isValid());
    QVERIFY(disconnected.isValid());
    client.open(gateway->url(), origin);
    if (accepted) {
        QVERIFY(client.waitConnected());
        client.sendJson(helloFor(tokenOf(u"alice"_s)));
        QCOMPARE(client.waitFor(u"welcome"_s).value("type"_L1).toString(), u"welcome"_s);
        QCOMPARE(gateway->authenticatedCount(), 1);
        return;
    }
    QTRY_COMPARE(disconnected.count(), 1);
    QCOMPARE(connected.count(), 0);
    // Refused with HTTP 403 (Qt names the status in its error string).
    QVERIFY2(
        client.socket().errorString().contains(u"403"), qPrintable(client.socket().errorString()));
    QVERIFY(!client.isOpen());
    QCOMPARE(gateway->connectionCount(), 0);
}

void TestGatewayHandshake::heartbeatClosesSilentPeerOnly()
{
    GatewayConfig config = testConfig();
    config.heartbeat = 200ms;
    config.heartbeatSlack = 300ms;
    const auto gateway = startGateway({ { u"alice"_s, { u"bob"_s } }, { u"bob"_s, {} } }, config);
    QVERIFY(gateway);

    TestClient alice; // QWebSocket answers every ping on its own
    QVERIFY(!alice.login(gateway->url(), tokenOf(u"alice"_s)).isEmpty());
    QElapsedTimer aliceTime;
    aliceTime.start();

    RawWebSocketPeer bob; // signs in, then never answers a ping
    QVERIFY(bob.connectAndHandshake(gateway->port()));
    QElapsedTimer bobTime;
    bob.sendText(QJsonDocument(helloFor(tokenOf(u"bob"_s))).toJson(QJsonDocument::Compact));
    bobTime.start();
    QVERIFY(QTest::qWaitFor([&] { return !bob.texts().isEmpty(); }, 5000));
    QCOMPARE(QJsonDocument::fromJson(bob.texts().constFirst()).object().value("type"_L1).toString(),
        u"welcome"_s);

    QVERIFY(bob.waitForCloseOrDrop(2000));
    // Not before heartbeat + slack (500 ms), give or take a coarse timer.
    QVERIFY2(bobTime.elapsed() >= 400, qPrintable(QString::number(bobTime.elapsed())));
    QVERIFY(bob.pingsReceived() >= 1);
    QCOMPARE(bob.closeCode(), std::optional<int>(4003));
    // The dead peer does not answer the close either: the gateway lets it go anyway.
    QTRY_VERIFY_WITH_TIMEOUT(bob.dropped(), 3000);
    QTRY_COMPARE(gateway->connectionCount(), 1);

    // alice, silent apart from her automatic pongs, survived more than twice the limit.
    if (aliceTime.elapsed() < 1200)
        QTest::qWait(int(1200 - aliceTime.elapsed()));
    QVERIFY(alice.isOpen());
    QCOMPARE(alice.request({ { "type"_L1, "ping"_L1 } }).value("type"_L1).toString(), u"pong"_s);
    QCOMPARE(gateway->authenticatedCount(), 1);
}

void TestGatewayHandshake::shutdownClosesEveryClientWith1001()
{
    // A hello timeout far longer than the test, so the anonymous client is still waiting
    // for its hello when the shutdown comes, however slow the machine.
    GatewayConfig config = testConfig();
    config.helloTimeout = 30s;
    const auto gateway = startGateway({ { u"alice"_s, { u"bob"_s } }, { u"bob"_s, {} } }, config);
    QVERIFY(gateway);
    TestClient alice;
    TestClient bob;
    TestClient anonymous; // connected, no hello yet
    QVERIFY(!alice.login(gateway->url(), tokenOf(u"alice"_s)).isEmpty());
    QVERIFY(!bob.login(gateway->url(), tokenOf(u"bob"_s)).isEmpty());
    anonymous.open(gateway->url());
    QVERIFY(anonymous.waitConnected());
    QTRY_COMPARE(gateway->connectionCount(), 3);

    QSignalSpy finished(gateway.get(), &Gateway::shutdownFinished);
    QVERIFY(finished.isValid());
    gateway->shutdown();

    for (TestClient *client : { &alice, &bob, &anonymous }) {
        QVERIFY(client->waitDisconnected(3000));
        QCOMPARE(client->closeCode(), 1001);
    }
    QTRY_COMPARE(finished.count(), 1);
    QCOMPARE(gateway->connectionCount(), 0);

    // No longer accepting.
    TestClient late;
    QSignalSpy lateConnected(&late.socket(), &QWebSocket::connected);
    late.open(gateway->url());
    QVERIFY(!late.waitConnected(1000));
    QCOMPARE(lateConnected.count(), 0);
}

void TestGatewayHandshake::shutdownDrainsEvenly()
{
    // Four signed in, one not: the one with no presence goes at once, the four at 0, 1/4, 2/4
    // and 3/4 of the drain, so that their clients come back elsewhere a few at a time.
    GatewayConfig config = testConfig();
    config.drain = 800ms;
    config.helloTimeout = 30s; // the anonymous one waits for its hello all along
    const auto gateway = startGateway(fourPeople(), config);
    QVERIFY(gateway);
    std::vector<std::unique_ptr<TestClient>> clients;
    for (const QString &id : { u"alice"_s, u"bob"_s, u"carol"_s, u"dave"_s }) {
        clients.push_back(std::make_unique<TestClient>());
        QVERIFY(!clients.back()->login(gateway->url(), tokenOf(id)).isEmpty());
    }
    TestClient anonymous;
    anonymous.open(gateway->url());
    QVERIFY(anonymous.waitConnected());
    QTRY_COMPARE(gateway->connectionCount(), 5);

    QElapsedTimer clock;
    std::vector<qint64> closedAt(clients.size(), -1);
    for (std::size_t i = 0; i < clients.size(); ++i) {
        connect(&clients[i]->socket(), &QWebSocket::disconnected, this,
            [&closedAt, &clock, i] { closedAt[i] = clock.elapsed(); });
    }
    QSignalSpy finished(gateway.get(), &Gateway::shutdownFinished);
    clock.start();
    gateway->shutdown();
    QVERIFY(gateway->isDraining());
    QVERIFY(anonymous.waitDisconnected(1000));
    QCOMPARE(anonymous.closeCode(), 1001);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
    for (std::size_t i = 0; i < clients.size(); ++i) {
        QTRY_VERIFY(closedAt[i] >= 0);
        QCOMPARE(clients[i]->closeCode(), 1001);
        QCOMPARE(clients[i]->closeReason(), u"going away, reconnect"_s);
    }
    std::sort(closedAt.begin(), closedAt.end());
    QVERIFY2(closedAt.front() < 300 && closedAt.back() >= 500 && closedAt.back() < 2000,
        qPrintable(u"closed at %1 .. %2 ms"_s.arg(closedAt.front()).arg(closedAt.back())));
    QVERIFY(!gateway->isDraining());
}

void TestGatewayHandshake::aSecondShutdownClosesTheRestAtOnce()
{
    GatewayConfig config = testConfig();
    config.drain = 60s;
    const auto gateway = startGateway(fourPeople(), config);
    QVERIFY(gateway);
    TestClient alice;
    TestClient bob;
    TestClient carol;
    for (auto [client, id] : { std::pair { &alice, u"alice"_s }, std::pair { &bob, u"bob"_s },
             std::pair { &carol, u"carol"_s } })
        QVERIFY(!client->login(gateway->url(), tokenOf(id)).isEmpty());
    QSignalSpy finished(gateway.get(), &Gateway::shutdownFinished);
    gateway->shutdown(); // the first closes at once, the others would wait 20 and 40 s
    QTRY_COMPARE(gateway->connectionCount(), 2);
    gateway->shutdown();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000); // maybe within the call
    for (TestClient *client : { &alice, &bob, &carol }) {
        QVERIFY(client->waitDisconnected(3000));
        QCOMPARE(client->closeCode(), 1001);
    }
}

void TestGatewayHandshake::shutdownWithNobodyFinishesAtOnce()
{
    // Nothing to drain: finished without waiting for the drain's period.
    GatewayConfig config = testConfig();
    config.drain = 60s;
    const auto gateway = startGateway(fourPeople(), config);
    QVERIFY(gateway);
    QSignalSpy finished(gateway.get(), &Gateway::shutdownFinished);
    gateway->shutdown();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 3000);
    QVERIFY(!gateway->isDraining());
}

QTEST_GUILESS_MAIN(TestGatewayHandshake)
#include "tst_gateway_handshake.moc"
