// Friendships that change while users are connected (issue 28 §2): through the admin API's
// PUT/DELETE /admin/users/{a}/friends/{b}, against an in-process gateway and real WebSocket
// clients on loopback. Both users' connections are told (friends_changed); one who is no
// longer a friend stops being watched at once, a new friend may be watched at once.

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
#include "TestClient.h"
#include "server-mock/admin/AdminServer.h"
#include "server-mock/admin/GatewayAdminBackend.h"
#include "server-mock/identity/JwtVerifier.h"
#include "tests/harness/HttpCall.h"

using namespace Qt::StringLiterals;
using namespace Presence::Server;
using Presence::TestSupport::JwtMinter;

char *toString(const QJsonObject &object)
{
    return qstrdup(QJsonDocument(object).toJson(QJsonDocument::Compact).constData());
}

namespace {

const QByteArray kAdmin = "Bearer admin-token-for-the-tests";

QJsonObject friendsChanged(const QJsonArray &added, const QStringList &removed, int total)
{
    return { { "type"_L1, "friends_changed"_L1 }, { "added"_L1, added },
        { "removed"_L1, QJsonArray::fromStringList(removed) }, { "total"_L1, total } };
}

QJsonObject user(const QString &id, const QString &name)
{
    return { { "id"_L1, id }, { "name"_L1, name } };
}

QJsonObject typed(const char *type)
{
    return { { "type"_L1, QLatin1StringView(type) } };
}

} // namespace

class TestGatewayFriendships : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void endedFriendshipStopsWatchingAndSaysSo();
    void newFriendIsToldAndMayBeWatched();
    void availabilityWatchEndsAndStartsAgainOnTheNewList();
    void unchangedFriendshipTellsNobody();
    void newPopulationAppliesLive();

private:
    [[nodiscard]] HttpAnswer call(const QByteArray &verb, const QString &target);
    [[nodiscard]] std::unique_ptr<TestClient> login(const QString &id);
    [[nodiscard]] static QJsonObject subscribe(TestClient &client, const QStringList &ids);
    // A round trip: whatever the gateway sent the client before the pong has arrived.
    static void roundTrip(TestClient &client);

    std::unique_ptr<QaGateway> m_gateway;
    std::unique_ptr<GatewayAdminBackend> m_backend;
    std::unique_ptr<AdminServer> m_server;
    QNetworkAccessManager m_http;
};

void TestGatewayFriendships::initTestCase()
{
    QLoggingCategory::setFilterRules(u"presence.*.info=false"_s);
}

void TestGatewayFriendships::init()
{
    m_gateway = startQaGateway(PresenceFrames::fivePeople());
    QVERIFY(m_gateway);
    m_backend = std::make_unique<GatewayAdminBackend>(*m_gateway);
    AdminServerOptions options;
    options.adminToken = QString::fromLatin1(kAdmin.mid(7));
    m_server = std::make_unique<AdminServer>(*m_backend, options);
    QString error;
    QVERIFY2(m_server->listen(&error), qPrintable(error));
}

void TestGatewayFriendships::cleanup()
{
    m_server.reset();
    m_backend.reset();
    m_gateway.reset();
}

HttpAnswer TestGatewayFriendships::call(const QByteArray &verb, const QString &target)
{
    return httpCall(m_http, verb, m_server->url().resolved(QUrl(target)), {}, kAdmin);
}

std::unique_ptr<TestClient> TestGatewayFriendships::login(const QString &id)
{
    auto client = std::make_unique<TestClient>();
    if (client->login(m_gateway->url(), tokenOf(id)).isEmpty())
        return nullptr;
    return client;
}

QJsonObject TestGatewayFriendships::subscribe(TestClient &client, const QStringList &ids)
{
    return client.request(
        { { "type"_L1, "subscribe"_L1 }, { "ids"_L1, QJsonArray::fromStringList(ids) } });
}

void TestGatewayFriendships::roundTrip(TestClient &client)
{
    QCOMPARE(client.request(typed("ping")).value("type"_L1).toString(), u"pong"_s);
}

void TestGatewayFriendships::endedFriendshipStopsWatchingAndSaysSo()
{
    // alice on two devices, both watching bob; bob watches alice.
    auto alicePhone = login(u"alice"_s);
    auto aliceLaptop = login(u"alice"_s);
    auto bob = login(u"bob"_s);
    QVERIFY(alicePhone && aliceLaptop && bob);
    QCOMPARE(subscribe(*alicePhone, { u"bob"_s }).value("users"_L1).toArray().size(), 1);
    QCOMPARE(subscribe(*aliceLaptop, { u"bob"_s }).value("users"_L1).toArray().size(), 1);
    QCOMPARE(subscribe(*bob, { u"alice"_s }).value("users"_L1).toArray().size(), 1);
    QCOMPARE(m_gateway->watchersOf(u"bob"_s), QStringList { u"alice"_s });

    const HttpAnswer ended = call("DELETE", u"/admin/users/alice/friends/bob"_s);
    QCOMPARE(ended.status, 200);
    QCOMPARE(ended.json().value("changed"_L1), true);

    // Every device of both is told, with what is left.
    const QJsonObject toAlice = friendsChanged({}, { u"bob"_s }, 2);
    QCOMPARE(alicePhone->waitFor(u"friends_changed"_s), toAlice);
    QCOMPARE(aliceLaptop->waitFor(u"friends_changed"_s), toAlice);
    QCOMPARE(bob->waitFor(u"friends_changed"_s), friendsChanged({}, { u"alice"_s }, 1));
    QVERIFY(m_gateway->watchersOf(u"bob"_s).isEmpty());
    QVERIFY(m_gateway->watchersOf(u"alice"_s).isEmpty());

    // bob's changes no longer reach alice, nor hers him; neither may watch the other again.
    alicePhone->clear();
    bob->clear();
    QCOMPARE(bob->request({ { "type"_L1, "set_status"_L1 }, { "status"_L1, "away"_L1 } })
                 .value("type"_L1)
                 .toString(),
        u"ok"_s);
    QCOMPARE(aliceLaptop->request({ { "type"_L1, "set_status"_L1 }, { "status"_L1, "away"_L1 } })
                 .value("type"_L1)
                 .toString(),
        u"ok"_s);
    roundTrip(*alicePhone);
    roundTrip(*bob);
    QCOMPARE(alicePhone->pending(u"presence"_s).size(), 0);
    QCOMPARE(bob->pending(u"presence"_s).size(), 0);
    QCOMPARE(
        subscribe(*alicePhone, { u"bob"_s }).value("denied"_L1).toArray(), QJsonArray { u"bob"_s });
    const QJsonObject page = alicePhone->request(
        { { "type"_L1, "friends"_L1 }, { "offset"_L1, 0 }, { "limit"_L1, 10 } });
    QCOMPARE(page.value("items"_L1).toArray(),
        (QJsonArray { user(u"carol"_s, u"Carol"_s), user(u"erin"_s, u"Erin"_s) }));
}

void TestGatewayFriendships::newFriendIsToldAndMayBeWatched()
{
    auto alice = login(u"alice"_s);
    auto dave = login(u"dave"_s);
    QVERIFY(alice && dave);
    QCOMPARE(
        subscribe(*alice, { u"dave"_s }).value("denied"_L1).toArray(), QJsonArray { u"dave"_s });

    const HttpAnswer made = call("PUT", u"/admin/users/dave/friends/alice"_s);
    QCOMPARE(made.status, 200);
    QCOMPARE(made.json().value("changed"_L1), true);
    QCOMPARE(alice->waitFor(u"friends_changed"_s),
        friendsChanged({ user(u"dave"_s, u"Dave"_s) }, {}, 4));
    QCOMPARE(dave->waitFor(u"friends_changed"_s),
        friendsChanged({ user(u"alice"_s, u"Alice"_s) }, {}, 2));

    // The list has dave where the directory's order puts him; he may be watched now.
    const QJsonObject page
        = alice->request({ { "type"_L1, "friends"_L1 }, { "offset"_L1, 0 }, { "limit"_L1, 10 } });
    QCOMPARE(page.value("total"_L1).toInt(), 4);
    QCOMPARE(page.value("items"_L1).toArray().at(2), QJsonValue(user(u"dave"_s, u"Dave"_s)));
    const QJsonObject snapshot = subscribe(*alice, { u"dave"_s });
    QCOMPARE(snapshot.value("denied"_L1).toArray(), QJsonArray {});
    QCOMPARE(snapshot.value("users"_L1).toArray().at(0).toObject(),
        PresenceFrames::entry(u"dave"_s, u"online"_s, 1));
    QCOMPARE(dave->request({ { "type"_L1, "set_status"_L1 }, { "status"_L1, "away"_L1 } })
                 .value("type"_L1)
                 .toString(),
        u"ok"_s);
    QCOMPARE(alice->waitFor(u"presence"_s), PresenceFrames::push(u"dave"_s, u"away"_s, 2));
}

void TestGatewayFriendships::availabilityWatchEndsAndStartsAgainOnTheNewList()
{
    auto alice = login(u"alice"_s);
    auto dave = login(u"dave"_s);
    QVERIFY(alice && dave);
    const QJsonObject before = alice->request(typed("watch_availability"));
    QCOMPARE(before.value("total"_L1).toInt(), 3);
    QCOMPARE(m_gateway->availability().watcherCount(), 1);

    QCOMPARE(call("PUT", u"/admin/users/alice/friends/dave"_s).status, 200);
    QVERIFY(!alice->waitFor(u"friends_changed"_s).isEmpty());
    QCOMPARE(m_gateway->availability().watcherCount(), 0);
    // Nothing more comes of the old set: dave's change is not announced there.
    QCOMPARE(dave->request({ { "type"_L1, "set_status"_L1 }, { "status"_L1, "away"_L1 } })
                 .value("type"_L1)
                 .toString(),
        u"ok"_s);
    m_gateway->availability().flush();
    roundTrip(*alice);
    QCOMPARE(alice->pending(u"availability_changed"_s).size(), 0);

    // Watched again, the set covers the new list, dave (away now) in it.
    const QJsonObject after = alice->request(typed("watch_availability"));
    QCOMPARE(after.value("total"_L1).toInt(), 4);
    QCOMPARE(after.value("covered"_L1).toInt(), 4);
    QCOMPARE(after.value("away"_L1).toArray(), QJsonArray { u"dave"_s });
}

void TestGatewayFriendships::unchangedFriendshipTellsNobody()
{
    auto alice = login(u"alice"_s);
    auto bob = login(u"bob"_s);
    QVERIFY(alice && bob);
    QCOMPARE(subscribe(*alice, { u"bob"_s }).value("users"_L1).toArray().size(), 1);
    const HttpAnswer same = call("PUT", u"/admin/users/bob/friends/alice"_s);
    QCOMPARE(same.status, 200);
    QCOMPARE(same.json().value("changed"_L1), false);
    QCOMPARE(call("DELETE", u"/admin/users/bob/friends/dave"_s).json().value("changed"_L1), false);
    roundTrip(*alice);
    roundTrip(*bob);
    QCOMPARE(alice->pending(u"friends_changed"_s).size(), 0);
    QCOMPARE(bob->pending(u"friends_changed"_s).size(), 0);
    QCOMPARE(m_gateway->watchersOf(u"bob"_s), QStringList { u"alice"_s });
}

void TestGatewayFriendships::newPopulationAppliesLive()
{
    // JSON Web Tokens too, so that a users-file token's change is seen to spare them.
    const QByteArray secret = "the app's HS256 secret, 32 bytes or more";
    GatewayConfig config = testConfig();
    QString problem;
    const auto key = JwtKey::fromSecret(secret, {}, &problem);
    QVERIFY2(key, qPrintable(problem));
    config.jwt = std::make_shared<const JwtVerifier>(QList<JwtKey> { *key });
    m_server.reset(); // not needed here, and they hold init()'s gateway
    m_backend.reset();
    m_gateway = startQaGateway(PresenceFrames::fivePeople(), config);
    QVERIFY(m_gateway);

    auto alice = login(u"alice"_s);
    auto bob = login(u"bob"_s);
    auto dave = login(u"dave"_s);
    auto bobApp = std::make_unique<TestClient>();
    const QString bobJwt = JwtMinter::hs256(secret).mint(JwtMinter::claims(u"bob"_s, 600));
    QVERIFY(alice && bob && dave && !bobApp->login(m_gateway->url(), bobJwt).isEmpty());
    QCOMPARE(subscribe(*alice, { u"erin"_s, u"bob"_s }).value("users"_L1).toArray().size(), 2);

    // bob gets a new token, dave is gone, frank joins as alice's friend, alice and erin part.
    QList<TestUser> next = PresenceFrames::fivePeople();
    next[0].friends = { u"bob"_s, u"carol"_s, u"frank"_s }; // alice
    next[1].token = u"bob-new-secret"_s;
    next[2].friends.clear(); // carol's friend dave
    next.removeAt(3); // dave
    next.append({ u"frank"_s, {}, u"Frank F."_s });
    m_gateway->friendships().applyDirectoryDiff(
        DirectoryDiff::between(m_gateway->directory(), makeDirectory(next)));

    // alice hears of it all in one frame.
    QCOMPARE(alice->waitFor(u"friends_changed"_s),
        friendsChanged({ user(u"frank"_s, u"Frank F."_s) }, { u"erin"_s }, 3));
    QCOMPARE(m_gateway->subscriptionsOfUser(u"alice"_s), QStringList { u"bob"_s });
    // dave is signed out; so is bob's connection with the old token, not his app's JWT.
    QVERIFY(dave->waitDisconnected());
    QCOMPARE(dave->closeCode(), 4005);
    QCOMPARE(dave->closeReason(), u"the user was removed"_s);
    QVERIFY(bob->waitDisconnected());
    QCOMPARE(bob->closeCode(), 4005);
    roundTrip(*bobApp);
    QVERIFY(bobApp->isOpen());

    // The old tokens sign nobody in; the new ones do, frank's included.
    TestClient oldBob;
    QVERIFY(oldBob.login(m_gateway->url(), tokenOf(u"bob"_s)).isEmpty());
    QCOMPARE(oldBob.closeCode(), 4001);
    TestClient oldDave;
    QVERIFY(oldDave.login(m_gateway->url(), tokenOf(u"dave"_s)).isEmpty());
    QVERIFY(!TestClient().login(m_gateway->url(), u"bob-new-secret"_s).isEmpty());
    auto frank = login(u"frank"_s);
    QVERIFY(frank);
    QCOMPARE(subscribe(*frank, { u"alice"_s }).value("denied"_L1).toArray(), QJsonArray {});

    // The same file again changes nothing.
    const DirectoryDiff again = DirectoryDiff::between(m_gateway->directory(), makeDirectory(next));
    QVERIFY2(again.isEmpty(), qPrintable(again.summary()));
}

QTEST_MAIN(TestGatewayFriendships)
#include "tst_gateway_friendships.moc"
