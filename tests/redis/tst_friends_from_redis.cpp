// Users the users file does not know (issue 28 §1): they sign in with JSON Web Tokens from the
// app's backend, which keeps their names and friends in Redis (RedisFriendGraph) and says when
// they change. An in-process gateway with its presence in the same real Redis, and real
// WebSocket clients on loopback.

// C++
#include <memory>

// Qt
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QTemporaryDir>
#include <QTest>

// Presence
#include "GatewayFixture.h"
#include "JwtMinter.h"
#include "PresenceFrames.h"
#include "RedisTestBed.h"
#include "TestClient.h"
#include "protocol/CloseCode.h"
#include "server-mock/identity/JwtVerifier.h"
#include "server-mock/redis/RedisFriendGraph.h"
#include "tests/harness/MockServerProcess.h"

using namespace Qt::StringLiterals;
using namespace Presence::Server;
using Presence::TestSupport::JwtMinter;

namespace {

const QByteArray kSecret = "the app's HS256 secret, 32 bytes or more";

QJsonObject user(const QString &id, const QString &name)
{
    return { { "id"_L1, id }, { "name"_L1, name } };
}

} // namespace

class TestFriendsFromRedis : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void tokenUsersComeWithTheirFriends();
    void theBackendChangesFriendsLive();
    void usersFileUsersKeepTheirOwn();
    void noRedisAtFirstSignInIsTryAgainLater();
    void theBinaryNeedsNoUsersFile();

private:
    [[nodiscard]] std::unique_ptr<TestClient> login(const QString &id) const;
    void friends(const QString &a, const QString &b, bool together);

    RedisTestBed m_redis;
    QByteArray m_prefix;
    JwtMinter m_minter = JwtMinter::hs256(kSecret);
    std::unique_ptr<RedisFriendGraph> m_graph;
    std::unique_ptr<Gateway> m_gateway;
};

void TestFriendsFromRedis::initTestCase()
{
    QLoggingCategory::setFilterRules(u"presence.*.info=false\npresence.redis.warning=false"_s);
    QString error;
    QVERIFY2(m_redis.start("tst_friends_from_redis", &error), qPrintable(error));
}

void TestFriendsFromRedis::init()
{
    m_prefix = m_redis.prefixForCurrentTest();
    GatewayConfig config = testConfig();
    QString error;
    const auto key = JwtKey::fromSecret(kSecret, {}, &error);
    QVERIFY2(key, qPrintable(error));
    config.jwt = std::make_shared<const JwtVerifier>(QList<JwtKey> { *key });
    // One users-file user, erin: the file and Redis side by side.
    m_gateway = startRedisGateway({ { u"erin"_s, {} } }, m_redis.url(), m_prefix, config);
    QVERIFY(m_gateway);
    m_graph = std::make_unique<RedisFriendGraph>(m_redis.url(), m_prefix);
    QVERIFY(QTest::qWaitFor(
        [this] { return m_graph->subscriber().isConfirmed(m_graph->channel()); }, 10000));
    m_gateway->friendships().setFriendSource(m_graph.get());
}

void TestFriendsFromRedis::cleanup()
{
    m_gateway.reset();
    m_graph.reset();
    QString error;
    QVERIFY2(m_redis.deleteKeys(m_prefix, &error) >= 0, qPrintable(error));
}

std::unique_ptr<TestClient> TestFriendsFromRedis::login(const QString &id) const
{
    auto client = std::make_unique<TestClient>();
    if (client->login(m_gateway->url(), m_minter.mint(JwtMinter::claims(id, 600))).isEmpty())
        return nullptr;
    return client;
}

void TestFriendsFromRedis::friends(const QString &a, const QString &b, bool together)
{
    // As a backend writes it: both sides, then the notice for each.
    const QByteArray command = together ? "SADD" : "SREM";
    m_redis.run({ command, m_prefix + "friends:" + a.toUtf8(), b.toUtf8() });
    m_redis.run({ command, m_prefix + "friends:" + b.toUtf8(), a.toUtf8() });
    m_redis.run({ "PUBLISH", m_prefix + "friends-changed", a.toUtf8() });
    m_redis.run({ "PUBLISH", m_prefix + "friends-changed", b.toUtf8() });
}

void TestFriendsFromRedis::tokenUsersComeWithTheirFriends()
{
    m_redis.run({ "SADD", m_prefix + "friends:ada", "bob", "cyd" });
    m_redis.run({ "SADD", m_prefix + "friends:bob", "ada" });
    m_redis.run({ "HSET", m_prefix + "user:ada", "name", "Ada L." });
    m_redis.run({ "HSET", m_prefix + "user:bob", "name", "Bob B." });

    auto ada = std::make_unique<TestClient>();
    const QJsonObject welcome
        = ada->login(m_gateway->url(), m_minter.mint(JwtMinter::claims(u"ada"_s, 600)));
    QCOMPARE(welcome.value("user"_L1).toObject(), user(u"ada"_s, u"Ada L."_s));
    const QJsonObject page
        = ada->request({ { "type"_L1, "friends"_L1 }, { "offset"_L1, 0 }, { "limit"_L1, 10 } });
    QCOMPARE(page.value("items"_L1).toArray(),
        (QJsonArray { user(u"bob"_s, u"Bob B."_s), user(u"cyd"_s, u"cyd"_s) }));

    // bob signs in; ada watches him go online, as with users of the file.
    QCOMPARE(ada->request({ { "type"_L1, "subscribe"_L1 }, { "ids"_L1, QJsonArray { u"bob"_s } } })
                 .value("users"_L1)
                 .toArray()
                 .size(),
        1);
    auto bob = login(u"bob"_s);
    QVERIFY(bob);
    QCOMPARE(ada->waitFor(u"presence"_s), PresenceFrames::push(u"bob"_s, u"online"_s, 1));
    // Strangers stay strangers, and a token for someone with no set signs in with no friends.
    auto zed = login(u"zed"_s);
    QVERIFY(zed);
    QCOMPARE(zed->request({ { "type"_L1, "subscribe"_L1 }, { "ids"_L1, QJsonArray { u"ada"_s } } })
                 .value("denied"_L1)
                 .toArray(),
        QJsonArray { u"ada"_s });
}

void TestFriendsFromRedis::theBackendChangesFriendsLive()
{
    friends(u"ada"_s, u"bob"_s, true);
    auto ada = login(u"ada"_s);
    auto bob = login(u"bob"_s);
    QVERIFY(ada && bob);
    QCOMPARE(ada->request({ { "type"_L1, "subscribe"_L1 }, { "ids"_L1, QJsonArray { u"bob"_s } } })
                 .value("users"_L1)
                 .toArray()
                 .size(),
        1);

    // cyd joins ada's friends; then ada and bob part.
    m_redis.run({ "HSET", m_prefix + "user:cyd", "name", "Cyd" });
    friends(u"ada"_s, u"cyd"_s, true);
    QCOMPARE(ada->waitFor(u"friends_changed"_s),
        (QJsonObject { { "type"_L1, "friends_changed"_L1 },
            { "added"_L1, QJsonArray { user(u"cyd"_s, u"Cyd"_s) } },
            { "removed"_L1, QJsonArray {} }, { "total"_L1, 2 } }));
    friends(u"ada"_s, u"bob"_s, false);
    const QJsonObject toAda = ada->waitFor(u"friends_changed"_s);
    QCOMPARE(toAda.value("removed"_L1).toArray(), QJsonArray { u"bob"_s });
    QCOMPARE(
        bob->waitFor(u"friends_changed"_s).value("removed"_L1).toArray(), QJsonArray { u"ada"_s });
    QVERIFY(m_gateway->watchersOf(u"bob"_s).isEmpty());
}

void TestFriendsFromRedis::usersFileUsersKeepTheirOwn()
{
    // erin is the file's: a token for her signs her in without Redis having a word.
    m_redis.run({ "SADD", m_prefix + "friends:erin", "ada" });
    auto erin = login(u"erin"_s);
    QVERIFY(erin);
    QCOMPARE(erin->request({ { "type"_L1, "friends"_L1 }, { "offset"_L1, 0 }, { "limit"_L1, 10 } })
                 .value("total"_L1)
                 .toInt(),
        0);
    QVERIFY(!TestClient().login(m_gateway->url(), tokenOf(u"erin"_s)).isEmpty());

    // A reload of the users file leaves the users of Redis alone.
    friends(u"ada"_s, u"bob"_s, true);
    auto ada = login(u"ada"_s);
    QVERIFY(ada);
    const DirectoryDiff diff
        = m_gateway->friendships().diffTo(makeDirectory({ { u"erin"_s, {} } }));
    QVERIFY2(diff.isEmpty(), qPrintable(diff.summary()));
    m_gateway->friendships().applyDirectoryDiff(diff);
    QCOMPARE(ada->request({ { "type"_L1, "ping"_L1 } }).value("type"_L1).toString(), u"pong"_s);
    QVERIFY(ada->pending(u"friends_changed"_s).isEmpty());
}

void TestFriendsFromRedis::noRedisAtFirstSignInIsTryAgainLater()
{
    RedisUrl nowhere = m_redis.url();
    nowhere.port = 1;
    RedisFriendGraph away(nowhere, m_prefix);
    m_gateway->friendships().setFriendSource(&away);
    TestClient ada;
    QVERIFY(ada.login(m_gateway->url(), m_minter.mint(JwtMinter::claims(u"ada"_s, 600))).isEmpty());
    QVERIFY(ada.waitDisconnected());
    QCOMPARE(ada.closeCode(), int(Presence::Protocol::CloseCode::TryAgainLater));
    m_gateway->friendships().setFriendSource(m_graph.get());
}

void TestFriendsFromRedis::theBinaryNeedsNoUsersFile()
{
    // presence-mock-server as a JWT-only deployment runs it: no users file at all.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile secret(dir.filePath(u"jwt.secret"_s));
    QVERIFY(secret.open(QIODevice::WriteOnly));
    secret.write(kSecret);
    secret.close();
    m_redis.run({ "SADD", m_prefix + "friends:ada", "bob" });
    m_redis.run({ "HSET", m_prefix + "user:bob", "name", "Bob B." });

    MockServerProcess server(QStringLiteral(PRESENCE_MOCK_SERVER));
    QVERIFY(server.start({ u"--listen"_s, u"127.0.0.1:0"_s, u"--redis"_s, m_redis.url().toString(),
        u"--redis-prefix"_s, QString::fromLatin1(m_prefix), u"--friends-from-redis"_s,
        u"--jwt-hs256-secret-file"_s, secret.fileName() }));
    QVERIFY2(server.waitListening(), server.transcript().constData());
    TestClient ada;
    QVERIFY2(!ada.login(server.url(), m_minter.mint(JwtMinter::claims(u"ada"_s, 600))).isEmpty(),
        server.transcript().constData());
    QCOMPARE(ada.request({ { "type"_L1, "friends"_L1 }, { "offset"_L1, 0 }, { "limit"_L1, 10 } })
                 .value("items"_L1)
                 .toArray(),
        QJsonArray { user(u"bob"_s, u"Bob B."_s) });
    m_redis.run({ "SADD", m_prefix + "friends:ada", "cyd" });
    m_redis.run({ "PUBLISH", m_prefix + "friends-changed", "ada" });
    QCOMPARE(ada.waitFor(u"friends_changed"_s).value("added"_L1).toArray(),
        QJsonArray { user(u"cyd"_s, u"cyd"_s) });
}

QTEST_MAIN(TestFriendsFromRedis)
#include "tst_friends_from_redis.moc"
