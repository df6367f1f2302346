// RedisSubscriber against a real redis-server: channels subscribed, confirmed, received from
// and left (the shared redis-server named by PRESENCE_TEST_REDIS_URL when set, else one of its
// own: RedisTestBed), and every channel subscribed again after the server restarts (always a
// server of the test's own, on a free loopback port in a temporary directory).

// Qt
#include <QSet>
#include <QSignalSpy>
#include <QTest>

// Presence
#include "RedisClientFixture.h"
#include "RedisTestBed.h"
#include "server-mock/redis/client/RedisClient.h"
#include "server-mock/redis/client/RedisSubscriber.h"
#include "server-mock/redis/client/RedisUrl.h"
#include "tests/harness/RedisServer.h"

using namespace Qt::StringLiterals;
using namespace Presence::Server;
using namespace RedisClientFixture;

using State = RedisLink::State;

namespace {

constexpr int kTestDb = 9;

} // namespace

class TestRedisSubscriber : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();

    void subscriberReceivesAndUnsubscribes();
    void subscriberResubscribesAfterRestart();

private:
    // The test's channels on the server, whoever else uses it.
    QList<QByteArray> pubsubChannels(RedisClient &client) const
    {
        return stringsOf(runCommand(client, { "PUBSUB", "CHANNELS", m_prefix + '*' }));
    }

    RedisTestBed m_redis;
    // Channels of this test function, apart from whatever else shares the server.
    QByteArray m_prefix;
};

void TestRedisSubscriber::initTestCase()
{
    QString error;
    QVERIFY2(m_redis.start("tst_redis_subscriber", &error), qPrintable(error));
}

void TestRedisSubscriber::init()
{
    m_prefix = m_redis.prefixForCurrentTest();
}

void TestRedisSubscriber::subscriberReceivesAndUnsubscribes()
{
    RedisClient client;
    RedisSubscriber subscriber;
    QSignalSpy clientReady(&client, &RedisClient::ready);
    QSignalSpy resubscribed(&subscriber, &RedisSubscriber::resubscribed);
    QSignalSpy subscribed(&subscriber, &RedisSubscriber::channelSubscribed);
    QSignalSpy messages(&subscriber, &RedisSubscriber::messageReceived);
    client.connectTo(m_redis.url());
    subscriber.connectTo(m_redis.url());
    QVERIFY(clientReady.wait());
    QTRY_COMPARE(resubscribed.count(), 1); // with no channel, at once
    QCOMPARE(subscriber.state(), State::Ready);

    const QByteArray a = m_prefix + "chan:a";
    const QByteArray b = m_prefix + QByteArray("chan:\xff\0b", 8);
    subscriber.subscribe(a);
    subscriber.subscribe(b);
    subscriber.subscribe(a); // already subscribed: nothing happens
    QCOMPARE(subscriber.channels(), (QSet<QByteArray> { a, b }));
    QVERIFY(!subscriber.isConfirmed(a)); // asked, not answered yet
    QTRY_COMPARE(subscribed.count(), 2);
    QVERIFY(subscriber.isConfirmed(a) && subscriber.isConfirmed(b));
    QCOMPARE(sorted({ subscribed.at(0).at(0).toByteArray(), subscribed.at(1).at(0).toByteArray() }),
        sorted({ a, b }));
    QCOMPARE(pubsubChannels(client), sorted({ a, b }));

    const QByteArray payload("{\"user\":\"u1\",\0\xff}", 17);
    QCOMPARE(integerOf(runCommand(client, { "PUBLISH", a, payload })), qint64(1));
    QTRY_COMPARE(messages.count(), 1);
    QCOMPARE(messages.at(0).at(0).toByteArray(), a);
    QCOMPARE(messages.at(0).at(1).toByteArray(), payload);

    subscriber.unsubscribe(a);
    QCOMPARE(subscriber.channels(), (QSet<QByteArray> { b }));
    QVERIFY(!subscriber.isConfirmed(a));
    QTRY_COMPARE(pubsubChannels(client), QList<QByteArray> { b });
    QCOMPARE(integerOf(runCommand(client, { "PUBLISH", a, "nobody listens" })), qint64(0));
    QCOMPARE(integerOf(runCommand(client, { "PUBLISH", b, "to b" })), qint64(1));
    QTRY_COMPARE(messages.count(), 2);
    QCOMPARE(messages.at(1).at(0).toByteArray(), b);
    QCOMPARE(messages.at(1).at(1).toByteArray(), QByteArray("to b"));

    // Unsubscribed and subscribed again before either answer: only the second SUBSCRIBE's
    // answer confirms it (the first one's is followed by the UNSUBSCRIBE).
    subscriber.unsubscribe(b);
    subscriber.subscribe(b);
    QVERIFY(!subscriber.isConfirmed(b));
    QTRY_COMPARE(subscribed.count(), 3);
    QVERIFY(subscriber.isConfirmed(b));
    QCOMPARE(pubsubChannels(client), QList<QByteArray> { b });

    subscriber.unsubscribe(b);
    QTRY_COMPARE(pubsubChannels(client), QList<QByteArray> {});
    QCOMPARE(messages.count(), 2);
    QCOMPARE(resubscribed.count(), 1);
}

void TestRedisSubscriber::subscriberResubscribesAfterRestart()
{
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));
    RedisClient client(fastOptions());
    RedisSubscriber subscriber(fastOptions());
    QSignalSpy clientReady(&client, &RedisClient::ready);
    QSignalSpy resubscribed(&subscriber, &RedisSubscriber::resubscribed);
    QSignalSpy lost(&subscriber, &RedisSubscriber::connectionLost);
    QSignalSpy messages(&subscriber, &RedisSubscriber::messageReceived);

    // Asked before connecting: subscribed once Ready, and resubscribed() says when.
    const QByteArray channel = m_prefix + "chan:restart";
    subscriber.subscribe(channel);
    client.connectTo(server.url(kTestDb));
    subscriber.connectTo(server.url(kTestDb));
    QVERIFY(clientReady.wait());
    QTRY_COMPARE(resubscribed.count(), 1);
    QCOMPARE(pubsubChannels(client), QList<QByteArray> { channel });

    expectWarning(u"client: connection to .* lost"_s);
    expectWarning(u"subscriber: connection to .* lost"_s);
    server.kill();
    QTRY_COMPARE(lost.count(), 1);
    QCOMPARE(subscriber.channels(), QSet<QByteArray> { channel });
    QVERIFY2(server.restart(), qPrintable(server.error()));
    QTRY_COMPARE(resubscribed.count(), 2);
    QTRY_COMPARE(clientReady.count(), 2);
    QCOMPARE(pubsubChannels(client), QList<QByteArray> { channel });
    QCOMPARE(integerOf(runCommand(client, { "PUBLISH", channel, "after restart" })), qint64(1));
    QTRY_COMPARE(messages.count(), 1);
    QCOMPARE(messages.at(0).at(1).toByteArray(), QByteArray("after restart"));
}

QTEST_GUILESS_MAIN(TestRedisSubscriber)
#include "tst_redis_subscriber.moc"
