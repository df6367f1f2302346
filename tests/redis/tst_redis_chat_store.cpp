// Chat shared through a real Redis by several gateways (issue 5): in-process gateways on port 0,
// each with a RedisChatStore (and a RedisPresenceStore) of its own over one redis-server, and
// QWebSocket clients signed in on either gateway.
//
// The redis-server is the shared one named by PRESENCE_TEST_REDIS_URL when set, else a private
// one; every test function has a key prefix of its own, deleted afterwards. The test that stops
// Redis uses a private redis-server.

// C++
#include <algorithm>
#include <memory>
#include <optional>

// Qt
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

// Presence
#include "ClientSteps.h"
#include "GatewayFixture.h"
#include "PresenceFrames.h"
#include "RedisTestBed.h"
#include "TestClient.h"
#include "server-mock/redis/RedisChatStore.h"
#include "server-mock/redis/RedisPresenceStore.h"
#include "server-mock/redis/client/RedisClient.h"
#include "tests/harness/RedisServer.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace Presence::Server;

namespace {

constexpr int kReadyTimeoutMs = 10000;
// RedisAsyncConnection's longest wait between attempts, plus slack: after Redis is back, the
// stores are connected within this.
constexpr int kReconnectTimeoutMs = 5000 + 3000;

RedisChatStore *chatStore(const Gateway &gateway)
{
    return qobject_cast<RedisChatStore *>(gateway.chats());
}

QJsonObject sendMessage(TestClient &client, const QString &to, const QString &text)
{
    return client.request({ { "type"_L1, "message"_L1 }, { "to"_L1, to }, { "text"_L1, text } });
}

QJsonObject history(TestClient &client, const QString &with, int limit,
    const std::optional<QString> &before = std::nullopt)
{
    QJsonObject frame { { "type"_L1, "history"_L1 }, { "with"_L1, with }, { "limit"_L1, limit } };
    if (before)
        frame.insert("before"_L1, *before);
    return client.request(frame);
}

QJsonObject conversations(TestClient &client, int limit = 50)
{
    QJsonObject answer
        = client.request({ { "type"_L1, "conversations"_L1 }, { "limit"_L1, limit } });
    answer.remove("ref"_L1);
    return answer;
}

QJsonObject markRead(TestClient &client, const QString &with, const QString &upTo)
{
    return client.request({ { "type"_L1, "read"_L1 }, { "with"_L1, with }, { "up_to"_L1, upTo } });
}

// A message as history and conversations show it, from its ok.
QJsonObject entryOf(
    const QJsonObject &ok, const QString &from, const QString &to, const QString &text)
{
    return { { "id"_L1, ok.value("id"_L1) }, { "from"_L1, from }, { "to"_L1, to },
        { "text"_L1, text }, { "ts"_L1, ok.value("ts"_L1) } };
}

QJsonObject item(const QString &with, const QJsonObject &last, int unread,
    const std::optional<QString> &read = std::nullopt)
{
    QJsonObject object { { "with"_L1, with }, { "last"_L1, last }, { "unread"_L1, unread } };
    if (read)
        object.insert("read"_L1, *read);
    return object;
}

QJsonObject listOf(const QJsonArray &items, bool more = false)
{
    return { { "type"_L1, "conversations"_L1 }, { "items"_L1, items }, { "more"_L1, more } };
}

QJsonObject marker(const QString &with, const QString &upTo, int unread)
{
    return { { "type"_L1, "read_marker"_L1 }, { "with"_L1, with }, { "up_to"_L1, upTo },
        { "unread"_L1, unread } };
}

QStringList textsOf(const QJsonObject &page)
{
    QStringList texts;
    for (const QJsonValue &message : page.value("messages"_L1).toArray())
        texts.append(message.toObject().value("text"_L1).toString());
    return texts;
}

} // namespace

class TestRedisChatStore : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void messagesReachEveryDeviceOnEveryGateway();
    void historyIsSharedAndPaged();
    void offlineFriendReadsItOnAnotherGateway();
    void conversationIsCappedInRedis();
    void channelSubscribedOnlyWhileUserConnected();
    void idsDoNotRepeatAfterRedisLostTheKeys();
    void garbageInRedisIsDroppedOrSkipped();
    void forgedChannelMessagesAreIgnored();
    void redisAwayRefusesThenRecovers();
    void conversationsAreOneListForEveryGateway();
    void readMarkerReachesEveryDeviceOnEveryGateway();
    void markersAndConversationsSurviveARestart();
    void badReadsAreRefusedAsOnOneGateway();

private:
    // Starts m_a and m_b over the Redis at url and waits until their stores are ready.
    [[nodiscard]] bool startGateways(const RedisUrl &url, qsizetype capacity = 1000);
    [[nodiscard]] static std::unique_ptr<TestClient> login(
        const Gateway &gateway, const QString &id);
    [[nodiscard]] QByteArray key(const QByteArray &rest) const { return m_prefix + rest; }
    [[nodiscard]] QList<QByteArray> messageChannels();
    // How many gateways listen on each user's message channel.
    [[nodiscard]] QList<qint64> subscribers(const QList<QByteArray> &users);

    RedisTestBed m_redis; // the shared or private Redis and the test's own look at it
    QByteArray m_prefix; // of the current test function
    std::unique_ptr<Gateway> m_a;
    std::unique_ptr<Gateway> m_b;
};

void TestRedisChatStore::initTestCase()
{
    QLoggingCategory::setFilterRules(u"presence.*.info=false"_s);
    QString error;
    QVERIFY2(m_redis.start("chat_store", &error), qPrintable(error));
}

void TestRedisChatStore::init()
{
    m_prefix = m_redis.prefixForCurrentTest();
}

void TestRedisChatStore::cleanup()
{
    m_a.reset();
    m_b.reset();
    // Leave a shared server as found.
    QString error;
    QVERIFY2(m_redis.deleteKeys(m_prefix, &error) >= 0, qPrintable(error));
}

bool TestRedisChatStore::startGateways(const RedisUrl &url, qsizetype capacity)
{
    const auto start = [&] {
        RedisStoreOptions presence;
        presence.url = url;
        presence.prefix = m_prefix;
        return startGateway(PresenceFrames::fivePeople(), testConfig(),
            new RedisPresenceStore(presence), new RedisChatStore({ url, m_prefix, capacity }));
    };
    m_a = start();
    m_b = start();
    const auto ready = [](const Gateway &gateway) {
        const RedisChatStore *chats = chatStore(gateway);
        return chats->client().state() == RedisClient::State::Ready
            && chats->subscriber().state() == RedisSubscriber::State::Ready;
    };
    return m_a && m_b
        && QTest::qWaitFor([&] { return ready(*m_a) && ready(*m_b); }, kReadyTimeoutMs);
}

std::unique_ptr<TestClient> TestRedisChatStore::login(const Gateway &gateway, const QString &id)
{
    return ClientSteps::signIn(gateway.url(), id);
}

QList<QByteArray> TestRedisChatStore::messageChannels()
{
    QList<QByteArray> names;
    for (const RedisReply &channel :
        m_redis.run({ "PUBSUB", "CHANNELS", m_prefix + "msg:*" }).elements)
        names.append(channel.bytes);
    std::sort(names.begin(), names.end());
    return names;
}

QList<qint64> TestRedisChatStore::subscribers(const QList<QByteArray> &users)
{
    RedisClient::Command numsub { "PUBSUB", "NUMSUB" };
    for (const QByteArray &user : users)
        numsub.append(key("msg:" + user));
    const RedisReply reply = m_redis.run(numsub);
    QList<qint64> counts;
    for (qsizetype i = 1; i < reply.elements.size(); i += 2)
        counts.append(reply.elements.at(i).toInteger().value_or(-1));
    return counts;
}

void TestRedisChatStore::messagesReachEveryDeviceOnEveryGateway()
{
    QVERIFY(startGateways(m_redis.url()));
    auto aliceLaptop = login(*m_a, u"alice"_s);
    auto alicePhone = login(*m_b, u"alice"_s);
    auto bobLaptop = login(*m_b, u"bob"_s);
    auto bobPhone = login(*m_a, u"bob"_s);
    auto carol = login(*m_b, u"carol"_s);
    QVERIFY(aliceLaptop && alicePhone && bobLaptop && bobPhone && carol);
    // A message published before a gateway's SUBSCRIBE took effect would reach that gateway's
    // devices only through history: wait until every gateway listens for its users.
    QTRY_COMPARE(subscribers({ "alice", "bob", "carol" }), (QList<qint64> { 2, 2, 1 }));

    const QJsonObject ok = sendMessage(*aliceLaptop, u"bob"_s, u"  hello from A  "_s);
    QCOMPARE(ok.value("type"_L1).toString(), u"ok"_s);
    const QString id = ok.value("id"_L1).toString();
    QVERIFY(id.startsWith(u'm'));
    const QJsonObject expected { { "type"_L1, "message"_L1 }, { "id"_L1, id },
        { "from"_L1, "alice"_L1 }, { "to"_L1, "bob"_L1 }, { "text"_L1, "hello from A"_L1 },
        { "ts"_L1, ok.value("ts"_L1) } };
    // Both of bob's devices and alice's other one, whichever gateway holds them.
    for (TestClient *device : { bobLaptop.get(), bobPhone.get(), alicePhone.get() })
        QCOMPARE(device->waitFor(u"message"_s), expected);

    // And back, from gateway B: every device once, the sender none.
    const QJsonObject reply = sendMessage(*bobLaptop, u"alice"_s, u"hi from B"_s);
    QCOMPARE(reply.value("type"_L1).toString(), u"ok"_s);
    for (TestClient *device : { aliceLaptop.get(), alicePhone.get(), bobPhone.get() }) {
        const QJsonObject pushed = device->waitFor(u"message"_s);
        QCOMPARE(pushed.value("id"_L1), reply.value("id"_L1));
    }
    QVERIFY(reply.value("ts"_L1).toInteger() >= ok.value("ts"_L1).toInteger());

    // Nothing twice, nothing to the sender's own connection, nothing to carol.
    const QJsonObject ping = sendMessage(*carol, u"bob"_s, u"marker"_s);
    QCOMPARE(ping.value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(bobPhone->waitFor(u"message"_s).value("text"_L1), u"marker"_s);
    QCOMPARE(bobLaptop->waitFor(u"message"_s).value("text"_L1), u"marker"_s);
    QCOMPARE(aliceLaptop->pending(u"message"_s).size(), 0);
    QCOMPARE(bobLaptop->pending(u"message"_s).size(), 0);
    QCOMPARE(bobPhone->pending(u"message"_s).size(), 0);
    QCOMPARE(alicePhone->pending(u"message"_s).size(), 0);
    QCOMPARE(carol->pending(u"message"_s).size(), 0);
}

void TestRedisChatStore::historyIsSharedAndPaged()
{
    QVERIFY(startGateways(m_redis.url()));
    auto alice = login(*m_a, u"alice"_s);
    auto bob = login(*m_b, u"bob"_s);
    QVERIFY(alice && bob);
    QStringList sent;
    QSet<QString> ids;
    for (int i = 0; i < 7; ++i) {
        TestClient &from = i % 2 == 0 ? *alice : *bob;
        const QString text = u"message %1"_s.arg(i);
        const QJsonObject ok = sendMessage(from, i % 2 == 0 ? u"bob"_s : u"alice"_s, text);
        QCOMPARE(ok.value("type"_L1).toString(), u"ok"_s);
        ids.insert(ok.value("id"_L1).toString());
        sent.append(text);
    }
    QCOMPARE(ids.size(), 7);

    // Latest three, from either side and either gateway alike.
    const QJsonObject latest = history(*alice, u"bob"_s, 3);
    QCOMPARE(latest.value("type"_L1).toString(), u"history"_s);
    QCOMPARE(textsOf(latest), sent.mid(4));
    QCOMPARE(latest.value("more"_L1).toBool(), true);
    QJsonObject fromB = history(*bob, u"alice"_s, 3);
    fromB.remove("ref"_L1);
    QJsonObject fromA = latest;
    fromA.remove("ref"_L1);
    fromA.insert("with"_L1, "alice"_L1);
    QCOMPARE(fromB, fromA);

    // Back through the pages by `before`, with ts never decreasing.
    QStringList collected = textsOf(latest);
    QString before
        = latest.value("messages"_L1).toArray().first().toObject().value("id"_L1).toString();
    bool more = true;
    while (more) {
        const QJsonObject page = history(*bob, u"alice"_s, 3, before);
        QCOMPARE(page.value("type"_L1).toString(), u"history"_s);
        collected = textsOf(page) + collected;
        more = page.value("more"_L1).toBool();
        before = page.value("messages"_L1).toArray().first().toObject().value("id"_L1).toString();
    }
    QCOMPARE(collected, sent);
    const QJsonArray all = history(*alice, u"bob"_s, 50).value("messages"_L1).toArray();
    QCOMPARE(all.size(), 7);
    for (qsizetype i = 1; i < all.size(); ++i)
        QVERIFY(all.at(i).toObject().value("ts"_L1).toInteger()
            >= all.at(i - 1).toObject().value("ts"_L1).toInteger());

    // An id that is not of this conversation is refused as on one gateway.
    auto carol = login(*m_a, u"carol"_s);
    QVERIFY(carol);
    const QJsonObject foreign = history(*carol, u"bob"_s, 3, before);
    QCOMPARE(foreign.value("type"_L1).toString(), u"error"_s);
    QCOMPARE(foreign.value("code"_L1).toString(), u"bad_request"_s);
    for (const QString &bogus : { u"m"_s, u"mabc.0"_s, u"x1.2"_s, u"mzzzzzzzz.999999"_s }) {
        const QJsonObject refused = history(*alice, u"bob"_s, 3, bogus);
        QCOMPARE(refused.value("code"_L1).toString(), u"bad_request"_s);
    }
}

void TestRedisChatStore::offlineFriendReadsItOnAnotherGateway()
{
    QVERIFY(startGateways(m_redis.url()));
    auto carol = login(*m_a, u"carol"_s);
    QVERIFY(carol);
    QCOMPARE(
        sendMessage(*carol, u"dave"_s, u"are you there?"_s).value("type"_L1).toString(), u"ok"_s);
    auto dave = login(*m_b, u"dave"_s);
    QVERIFY(dave);
    QCOMPARE(textsOf(history(*dave, u"carol"_s, 10)), QStringList { u"are you there?"_s });
    QCOMPARE(dave->pending(u"message"_s).size(), 0); // stored, not pushed later
}

void TestRedisChatStore::conversationIsCappedInRedis()
{
    QVERIFY(startGateways(m_redis.url(), 3));
    auto alice = login(*m_a, u"alice"_s);
    QVERIFY(alice);
    QString first;
    for (int i = 0; i < 5; ++i) {
        const QJsonObject ok = sendMessage(*alice, u"erin"_s, u"n%1"_s.arg(i));
        QCOMPARE(ok.value("type"_L1).toString(), u"ok"_s);
        if (i == 0)
            first = ok.value("id"_L1).toString();
    }
    QCOMPARE(m_redis.run({ "ZCARD", key("chat:alice|erin") }).toInteger(), 3);
    const QJsonObject page = history(*alice, u"erin"_s, 10);
    QCOMPARE(textsOf(page), (QStringList { u"n2"_s, u"n3"_s, u"n4"_s }));
    QCOMPARE(page.value("more"_L1).toBool(), false);
    // The dropped message's id is unknown to `before` now.
    QCOMPARE(history(*alice, u"erin"_s, 10, first).value("code"_L1).toString(), u"bad_request"_s);
}

void TestRedisChatStore::channelSubscribedOnlyWhileUserConnected()
{
    QVERIFY(startGateways(m_redis.url()));
    QCOMPARE(messageChannels(), QList<QByteArray> {});
    auto phone = login(*m_a, u"alice"_s);
    auto laptop = login(*m_a, u"alice"_s);
    QVERIFY(phone && laptop);
    QTRY_COMPARE(messageChannels(), QList<QByteArray> { key("msg:alice") });
    // One subscription per gateway, not per connection.
    const RedisReply numsub = m_redis.run({ "PUBSUB", "NUMSUB", key("msg:alice") });
    QCOMPARE(numsub.elements.value(1).toInteger(), 1);

    phone->socket().close();
    QVERIFY(phone->waitDisconnected());
    QTRY_COMPARE(m_a->connectionCount(), 1);
    QCOMPARE(messageChannels(), QList<QByteArray> { key("msg:alice") });
    laptop->socket().close();
    QVERIFY(laptop->waitDisconnected());
    QTRY_COMPARE(messageChannels(), QList<QByteArray> {});
}

void TestRedisChatStore::idsDoNotRepeatAfterRedisLostTheKeys()
{
    QVERIFY(startGateways(m_redis.url()));
    auto alice = login(*m_a, u"alice"_s);
    QVERIFY(alice);
    const QString before = sendMessage(*alice, u"bob"_s, u"one"_s).value("id"_L1).toString();
    QVERIFY(!before.isEmpty());
    // Redis lost everything (a restart without persistence, FLUSHDB): a new epoch.
    QCOMPARE(m_redis.run({ "DEL", key("chat:ids"), key("chat:alice|bob") }).toInteger(), 2);
    const QString after = sendMessage(*alice, u"bob"_s, u"two"_s).value("id"_L1).toString();
    QVERIFY(!after.isEmpty());
    QVERIFY2(after != before, qPrintable(after));

    // Only the counter lost: the conversation still orders the new message last.
    QCOMPARE(m_redis.run({ "HDEL", key("chat:ids"), "next" }).toInteger(), 1);
    QCOMPARE(sendMessage(*alice, u"bob"_s, u"three"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(textsOf(history(*alice, u"bob"_s, 10)), (QStringList { u"two"_s, u"three"_s }));
}

void TestRedisChatStore::garbageInRedisIsDroppedOrSkipped()
{
    QVERIFY(startGateways(m_redis.url()));
    auto alice = login(*m_a, u"alice"_s);
    QVERIFY(alice);
    // A conversation key of the wrong type and an ids hash that is a list: the script drops
    // them and starts afresh.
    QVERIFY(m_redis.run({ "SET", key("chat:alice|bob"), "junk" }).isOk());
    QCOMPARE(m_redis.run({ "RPUSH", key("chat:ids"), "junk" }).toInteger(), 1);
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"reading a conversation"_s));
    QCOMPARE(history(*alice, u"bob"_s, 10).value("code"_L1).toString(), u"unavailable"_s);
    const QJsonObject ok = sendMessage(*alice, u"bob"_s, u"fresh"_s);
    QCOMPARE(ok.value("type"_L1).toString(), u"ok"_s);
    // A member that is not a message frame is skipped when read, with a warning.
    QCOMPARE(m_redis.run({ "ZADD", key("chat:alice|bob"), "0", "{not a frame" }).toInteger(), 1);
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"not one"_s));
    QCOMPARE(textsOf(history(*alice, u"bob"_s, 10)), QStringList { u"fresh"_s });
}

void TestRedisChatStore::forgedChannelMessagesAreIgnored()
{
    QVERIFY(startGateways(m_redis.url()));
    auto bob = login(*m_b, u"bob"_s);
    QVERIFY(bob);
    QTRY_COMPARE(subscribers({ "bob" }), QList<qint64> { 1 });
    const QByteArray channel = key("msg:bob");
    const QByteArray otherUsers = R"({"type":"message","id":"m1.1","from":"carol",)"
                                  R"("to":"dave","text":"not for bob","ts":1})";
    const QByteArray valid = R"({"type":"message","id":"m1.2","from":"carol",)"
                             R"("to":"bob","text":"forged but well formed","ts":1})";
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"malformed chat message"_s));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"not one"_s));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"for other users"_s));
    for (const QByteArray &payload :
        { QByteArray("no newline at all"), QByteArray("someone\n{\"type\":\"pong\"}"),
            "someone\n" + otherUsers, "someone\n" + valid }) {
        QCOMPARE(m_redis.run({ "PUBLISH", channel, payload }).toInteger(), 1);
    }
    // Only the well-formed message for bob arrives (anyone who can PUBLISH is trusted as much
    // as a gateway: Redis is inside the trust boundary).
    const QJsonObject pushed = bob->waitFor(u"message"_s);
    QCOMPARE(pushed.value("text"_L1), u"forged but well formed"_s);
    QCOMPARE(bob->pending(u"message"_s).size(), 0);
    QVERIFY(bob->isOpen());
}

void TestRedisChatStore::redisAwayRefusesThenRecovers()
{
    RedisServer redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    QVERIFY(startGateways(redis.url()));
    auto alice = login(*m_a, u"alice"_s);
    auto bob = login(*m_b, u"bob"_s);
    QVERIFY(alice && bob);
    QCOMPARE(sendMessage(*alice, u"bob"_s, u"before"_s).value("type"_L1).toString(), u"ok"_s);
    QVERIFY(bob->waitFor(u"message"_s).contains("id"_L1));

    redis.stop();
    QTRY_VERIFY(chatStore(*m_a)->client().state() != RedisClient::State::Ready);
    const QJsonObject refused = sendMessage(*alice, u"bob"_s, u"during"_s);
    QCOMPARE(refused.value("type"_L1).toString(), u"error"_s);
    QCOMPARE(refused.value("code"_L1).toString(), u"unavailable"_s);
    QCOMPARE(history(*alice, u"bob"_s, 10).value("code"_L1).toString(), u"unavailable"_s);
    QVERIFY(alice->isOpen() && bob->isOpen());

    // Back, empty: messages flow again once the stores have reconnected and resubscribed.
    QVERIFY2(redis.restart(), qPrintable(redis.error()));
    const auto ready = [](const Gateway &gateway) {
        return chatStore(gateway)->client().state() == RedisClient::State::Ready
            && chatStore(gateway)->subscriber().state() == RedisSubscriber::State::Ready;
    };
    QTRY_VERIFY_WITH_TIMEOUT(ready(*m_a) && ready(*m_b), kReconnectTimeoutMs);
    QCOMPARE(sendMessage(*alice, u"bob"_s, u"after"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(bob->waitFor(u"message"_s).value("text"_L1), u"after"_s);
    QCOMPARE(textsOf(history(*bob, u"alice"_s, 10)), QStringList { u"after"_s });
    // The private Redis goes with this function: nothing to clean up there.
    m_a.reset();
    m_b.reset();
}

void TestRedisChatStore::conversationsAreOneListForEveryGateway()
{
    QVERIFY(startGateways(m_redis.url()));
    auto alice = login(*m_a, u"alice"_s);
    auto bob = login(*m_b, u"bob"_s);
    auto carol = login(*m_a, u"carol"_s);
    auto erin = login(*m_b, u"erin"_s);
    QVERIFY(alice && bob && carol && erin);

    QCOMPARE(conversations(*alice), listOf({}));
    const QJsonObject one = sendMessage(*alice, u"bob"_s, u"one"_s);
    const QJsonObject two = sendMessage(*erin, u"alice"_s, u"two"_s);
    const QJsonObject three = sendMessage(*carol, u"alice"_s, u"three"_s);
    const QJsonObject four = sendMessage(*bob, u"alice"_s, u"four"_s);
    for (const QJsonObject &ok : { one, two, three, four })
        QCOMPARE(ok.value("type"_L1).toString(), u"ok"_s);

    const QJsonObject expected
        = listOf({ item(u"bob"_s, entryOf(four, u"bob"_s, u"alice"_s, u"four"_s), 1),
            item(u"carol"_s, entryOf(three, u"carol"_s, u"alice"_s, u"three"_s), 1),
            item(u"erin"_s, entryOf(two, u"erin"_s, u"alice"_s, u"two"_s), 1) });
    QCOMPARE(conversations(*alice), expected);
    // The same from the other gateway.
    auto alicePhone = login(*m_b, u"alice"_s);
    QVERIFY(alicePhone);
    QCOMPARE(conversations(*alicePhone), expected);
    QCOMPARE(conversations(*alicePhone, 2),
        listOf({ expected.value("items"_L1).toArray().at(0),
                   expected.value("items"_L1).toArray().at(1) },
            true));
    QCOMPARE(conversations(*bob),
        listOf({ item(u"alice"_s, entryOf(four, u"bob"_s, u"alice"_s, u"four"_s), 1) }));

    // The list is kept by the append script, one sorted set per user, scored by n.
    const RedisReply scores = m_redis.run({ "ZRANGE", key("convs:alice"), "0", "-1" });
    QCOMPARE(scores.elements.size(), 3);
    QCOMPARE(scores.elements.at(2).bytes, "bob"_ba);
    // A user who is not a friend any more (a conversation from another users file) is not
    // listed: dave never talked to alice, yet a conversation names him.
    QCOMPARE(m_redis.run({ "ZADD", key("convs:alice"), "999999", "dave" }).toInteger(), 1);
    QCOMPARE(conversations(*alice), expected);
}

void TestRedisChatStore::readMarkerReachesEveryDeviceOnEveryGateway()
{
    QVERIFY(startGateways(m_redis.url()));
    auto laptop = login(*m_a, u"alice"_s);
    auto phone = login(*m_b, u"alice"_s);
    auto bob = login(*m_b, u"bob"_s);
    auto bobOnA = login(*m_a, u"bob"_s);
    QVERIFY(laptop && phone && bob && bobOnA);
    QTRY_COMPARE(subscribers({ "alice", "bob" }), (QList<qint64> { 2, 2 }));

    QStringList ids;
    for (int i = 0; i < 3; ++i) {
        const QJsonObject ok = sendMessage(*bob, u"alice"_s, u"b%1"_s.arg(i));
        QCOMPARE(ok.value("type"_L1).toString(), u"ok"_s);
        ids.append(ok.value("id"_L1).toString());
    }
    QCOMPARE(markRead(*laptop, u"bob"_s, ids[1]).value("type"_L1).toString(), u"ok"_s);
    // Both of alice's devices, on both gateways, the sender's included; bob on neither.
    QCOMPARE(laptop->waitFor(u"read_marker"_s), marker(u"bob"_s, ids[1], 1));
    QCOMPARE(phone->waitFor(u"read_marker"_s), marker(u"bob"_s, ids[1], 1));
    QCOMPARE(m_redis.run({ "HGET", key("read:alice"), "bob" }).bytes, ids[1].toUtf8());

    // An older id is ok and moves nothing: the next marker anyone gets is the later one.
    QCOMPARE(markRead(*phone, u"bob"_s, ids[0]).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(markRead(*phone, u"bob"_s, ids[1]).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(m_redis.run({ "HGET", key("read:alice"), "bob" }).bytes, ids[1].toUtf8());
    QCOMPARE(markRead(*phone, u"bob"_s, ids[2]).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(laptop->waitFor(u"read_marker"_s), marker(u"bob"_s, ids[2], 0));
    QCOMPARE(phone->waitFor(u"read_marker"_s), marker(u"bob"_s, ids[2], 0));

    // A message after a marker, pushed in order with it on the other gateway: the client's
    // count (the marker's, plus one per message from the friend after it) is the truth.
    const QJsonObject later = sendMessage(*bobOnA, u"alice"_s, u"later"_s);
    QTRY_COMPARE(phone->pending(u"message"_s).value(3).value("id"_L1), later.value("id"_L1));
    QCOMPARE(conversations(*phone),
        listOf({ item(u"bob"_s, entryOf(later, u"bob"_s, u"alice"_s, u"later"_s), 1, ids[2]) }));

    // The friend was told nothing, on either gateway.
    ClientSteps::roundTrip(*bob);
    ClientSteps::roundTrip(*bobOnA);
    QCOMPARE(bob->pending(u"read_marker"_s).size(), 0);
    QCOMPARE(bobOnA->pending(u"read_marker"_s).size(), 0);
    QCOMPARE(laptop->pending(u"read_marker"_s).size(), 0);
    QCOMPARE(phone->pending(u"read_marker"_s).size(), 0);
}

void TestRedisChatStore::markersAndConversationsSurviveARestart()
{
    QVERIFY(startGateways(m_redis.url()));
    QJsonObject expected;
    {
        auto alice = login(*m_a, u"alice"_s);
        auto bob = login(*m_b, u"bob"_s);
        auto carol = login(*m_b, u"carol"_s);
        QVERIFY(alice && bob && carol);
        const QJsonObject first = sendMessage(*bob, u"alice"_s, u"first"_s);
        const QJsonObject second = sendMessage(*bob, u"alice"_s, u"second"_s);
        const QJsonObject third = sendMessage(*carol, u"alice"_s, u"third"_s);
        QCOMPARE(
            markRead(*alice, u"bob"_s, first.value("id"_L1).toString()).value("type"_L1).toString(),
            u"ok"_s);
        expected = listOf({ item(u"carol"_s, entryOf(third, u"carol"_s, u"alice"_s, u"third"_s), 1),
            item(u"bob"_s, entryOf(second, u"bob"_s, u"alice"_s, u"second"_s), 1,
                first.value("id"_L1).toString()) });
        QCOMPARE(conversations(*alice), expected);
    }
    // Both gateways go; new ones over the same Redis know it all.
    m_a.reset();
    m_b.reset();
    QVERIFY(startGateways(m_redis.url()));
    auto alice = login(*m_b, u"alice"_s);
    QVERIFY(alice);
    QCOMPARE(conversations(*alice), expected);
}

void TestRedisChatStore::badReadsAreRefusedAsOnOneGateway()
{
    QVERIFY(startGateways(m_redis.url()));
    auto alice = login(*m_a, u"alice"_s);
    auto phone = login(*m_b, u"alice"_s);
    auto dave = login(*m_b, u"dave"_s);
    QVERIFY(alice && phone && dave);
    QTRY_COMPARE(subscribers({ "alice" }), (QList<qint64> { 2 }));
    const QString toBob = sendMessage(*alice, u"bob"_s, u"b"_s).value("id"_L1).toString();
    const QString toCarol = sendMessage(*alice, u"carol"_s, u"c"_s).value("id"_L1).toString();
    QVERIFY(!toBob.isEmpty() && !toCarol.isEmpty());

    QCOMPARE(markRead(*dave, u"alice"_s, toBob).value("code"_L1).toString(), u"forbidden"_s);
    QCOMPARE(conversations(*dave), listOf({}));
    for (const QString &bogus :
        { toCarol, u"m"_s, u"mabc.0"_s, u"x1.2"_s, u"mzzzzzzzz.999999"_s, toBob + u"0"_s }) {
        const QJsonObject refused = markRead(*alice, u"bob"_s, bogus);
        QCOMPARE(refused.value("code"_L1).toString(), u"bad_request"_s);
        QVERIFY2(refused.value("message"_L1).toString().contains(u"unknown message"_s),
            qPrintable(refused.value("message"_L1).toString()));
    }
    QCOMPARE(m_redis.run({ "EXISTS", key("read:alice") }).toInteger(), 0);
    // Then a good one: the first marker the other device sees is this one.
    QCOMPARE(markRead(*alice, u"bob"_s, toBob).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(phone->waitFor(u"read_marker"_s), marker(u"bob"_s, toBob, 0));
    QCOMPARE(phone->pending(u"read_marker"_s).size(), 0);
}

QTEST_GUILESS_MAIN(TestRedisChatStore)
#include "tst_redis_chat_store.moc"
