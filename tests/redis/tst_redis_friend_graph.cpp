// RedisFriendGraph against a real Redis: a user's name and friends as the app's backend keeps
// them ({prefix}user:ID's name, {prefix}friends:ID), checked like any input, and its notice on
// {prefix}friends-changed. The redis-server is the suite's shared one (PRESENCE_TEST_REDIS_URL)
// or a private one; every test function has a key prefix of its own, deleted afterwards.

// C++
#include <optional>

// Qt
#include <QLoggingCategory>
#include <QSignalSpy>
#include <QTest>

// Presence
#include "RedisTestBed.h"
#include "server-mock/redis/RedisFriendGraph.h"

using namespace Qt::StringLiterals;
using namespace Presence::Server;

namespace {

using Friend = FriendSource::Friend;

// One read, waited for.
std::optional<FriendSource::Entry> readNow(RedisFriendGraph &graph, const QString &userId)
{
    std::optional<FriendSource::Entry> result;
    bool done = false;
    QObject context;
    graph.read(userId, &context, [&](const std::optional<FriendSource::Entry> &entry) {
        result = entry;
        done = true;
    });
    if (!QTest::qWaitFor([&] { return done; }, 5000))
        qWarning("no answer from the friend graph");
    return result;
}

} // namespace

class TestRedisFriendGraph : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void readsNamesAndFriends();
    void badDataGivesWayToTheIds();
    void noticesNameTheUser();
    void anUnreachableRedisReadsNothing();

private:
    [[nodiscard]] bool ready(RedisFriendGraph &graph) const;

    RedisTestBed m_redis;
    QByteArray m_prefix;
};

void TestRedisFriendGraph::initTestCase()
{
    QLoggingCategory::setFilterRules(u"presence.redis.warning=false"_s);
    QString error;
    QVERIFY2(m_redis.start("tst_redis_friend_graph", &error), qPrintable(error));
}

void TestRedisFriendGraph::init()
{
    m_prefix = m_redis.prefixForCurrentTest();
}

void TestRedisFriendGraph::cleanup()
{
    QString error;
    QVERIFY2(m_redis.deleteKeys(m_prefix, &error) >= 0, qPrintable(error));
}

bool TestRedisFriendGraph::ready(RedisFriendGraph &graph) const
{
    return QTest::qWaitFor(
        [&] {
            return graph.client().state() == RedisClient::State::Ready
                && graph.subscriber().state() == RedisSubscriber::State::Ready
                && graph.subscriber().isConfirmed(graph.channel());
        },
        10000);
}

void TestRedisFriendGraph::readsNamesAndFriends()
{
    m_redis.run({ "SADD", m_prefix + "friends:ada", "bob", "cyd", "dee" });
    m_redis.run({ "HSET", m_prefix + "user:ada", "name", "Ada Lovelace" });
    m_redis.run({ "HSET", m_prefix + "user:bob", "name", "Bob \xc3\x89lise" });
    m_redis.run({ "HSET", m_prefix + "user:dee", "name", "Dee", "email", "d@example.org" });
    RedisFriendGraph graph(m_redis.url(), m_prefix);
    QVERIFY(ready(graph));

    const auto ada = readNow(graph, u"ada"_s);
    QVERIFY(ada);
    QCOMPARE(ada->name, u"Ada Lovelace"_s);
    // In id order; a friend without a name is called by the id.
    QCOMPARE(ada->friends,
        (QList<Friend> {
            { u"bob"_s, u"Bob \u00c9lise"_s }, { u"cyd"_s, u"cyd"_s }, { u"dee"_s, u"Dee"_s } }));

    // Nobody's set: a user with no friends, called by the id.
    const auto zed = readNow(graph, u"zed"_s);
    QVERIFY(zed);
    QCOMPARE(zed->name, u"zed"_s);
    QVERIFY(zed->friends.isEmpty());
}

void TestRedisFriendGraph::badDataGivesWayToTheIds()
{
    // Not ids, oneself, a name too long, a name that is not UTF-8, a hash that is a string.
    m_redis.run({ "SADD", m_prefix + "friends:ada", "bob", "not an id", "ada", "cyd", "dee",
        QByteArray(65, 'x') });
    m_redis.run({ "HSET", m_prefix + "user:bob", "name", QByteArray(129, 'B') });
    m_redis.run({ "HSET", m_prefix + "user:cyd", "name", "\xff\xfe" });
    m_redis.run({ "SET", m_prefix + "user:dee", "a string, not a hash" });
    RedisFriendGraph graph(m_redis.url(), m_prefix);
    QVERIFY(ready(graph));
    const auto ada = readNow(graph, u"ada"_s);
    QVERIFY(ada);
    QCOMPARE(ada->friends,
        (QList<Friend> { { u"bob"_s, u"bob"_s }, { u"cyd"_s, u"cyd"_s }, { u"dee"_s, u"dee"_s } }));

    // A set that is not a set: nothing can be read.
    m_redis.run({ "SET", m_prefix + "friends:eve", "a string" });
    QCOMPARE(readNow(graph, u"eve"_s).has_value(), false);
}

void TestRedisFriendGraph::noticesNameTheUser()
{
    RedisFriendGraph graph(m_redis.url(), m_prefix);
    QVERIFY(ready(graph));
    QSignalSpy changed(&graph, &FriendSource::friendsChanged);
    m_redis.run({ "PUBLISH", m_prefix + "friends-changed", "not an id!" });
    m_redis.run({ "PUBLISH", m_prefix + "friends-changed", "ada" });
    QTRY_COMPARE(changed.size(), 1);
    QCOMPARE(changed.at(0).at(0).toString(), u"ada"_s);
}

void TestRedisFriendGraph::anUnreachableRedisReadsNothing()
{
    RedisUrl nowhere = m_redis.url();
    nowhere.port = 1; // nothing listens there
    RedisFriendGraph graph(nowhere, m_prefix);
    QCOMPARE(readNow(graph, u"ada"_s).has_value(), false);
}

QTEST_GUILESS_MAIN(TestRedisFriendGraph)
#include "tst_redis_friend_graph.moc"
