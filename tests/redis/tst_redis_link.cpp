// RedisLink over a real RedisAsyncConnection and a redis-server of the test's own: the
// connection's signals, said again as the link's (ready() only when the link relays it), while
// the server comes, goes and comes back.
// C++
#include <chrono>
#include <memory>

// Qt
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

// Presence
#include "server-mock/redis/client/RedisAsyncConnection.h"
#include "server-mock/redis/client/RedisLink.h"
#include "tests/harness/RedisServer.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Server::RedisAsyncConnection;
using Presence::Server::RedisLink;

namespace {

using State = RedisLink::State;

// A link over a connection of its own, as RedisClient and RedisSubscriber are.
class Link : public RedisLink {
public:
    explicit Link(Ready ready)
        : connection(u"link"_s, options())
    {
        relay(&connection, ready);
    }
    static constexpr Ready kRelayed = Ready::Relayed;
    static constexpr Ready kOwnersToSay = Ready::OwnersToSay;

    RedisAsyncConnection connection;

private:
    static RedisAsyncConnection::Options options()
    {
        RedisAsyncConnection::Options quick;
        quick.retryMin = 20ms;
        quick.retryMax = 80ms;
        quick.connectTimeout = 2s;
        return quick;
    }
};

} // namespace

class TestRedisLink : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void relaysEverySignalOfTheConnection();
    void readyIsTheOwnersToSayWhenAsked();

private:
    std::unique_ptr<RedisServer> m_server; // each case's own, so one's stop is not another's
};

void TestRedisLink::init()
{
    m_server = std::make_unique<RedisServer>();
    QVERIFY2(m_server->start(), qPrintable(m_server->error()));
}

void TestRedisLink::cleanup()
{
    m_server.reset();
}

void TestRedisLink::relaysEverySignalOfTheConnection()
{
    RedisServer &server = *m_server;
    Link link(Link::kRelayed);
    QSignalSpy states(&link, &RedisLink::stateChanged);
    QSignalSpy ready(&link, &RedisLink::ready);
    QSignalSpy lost(&link, &RedisLink::connectionLost);
    QSignalSpy failed(&link, &RedisLink::connectFailed);
    QSignalSpy retries(&link, &RedisLink::retryScheduled);
    QSignalSpy connectionStates(&link.connection, &RedisAsyncConnection::stateChanged);

    link.connection.connectTo(server.url());
    QVERIFY(ready.wait());
    QCOMPARE(states.constLast().at(0).value<State>(), State::Ready);

    // The server goes: lost, then attempts that fail and are retried.
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"link: connection to .* lost"_s));
    server.stop();
    QTRY_COMPARE(lost.size(), 1);
    QTRY_VERIFY(!failed.isEmpty() && retries.size() >= 2);
    QCOMPARE(retries.constFirst().at(0).toInt(), 1);

    // It comes back: ready again, and every state the connection went through was told.
    QVERIFY2(server.restart(), qPrintable(server.error()));
    QTRY_COMPARE(ready.size(), 2);
    QCOMPARE(states.size(), connectionStates.size());
    for (qsizetype i = 0; i < states.size(); ++i)
        QCOMPARE(states.at(i).at(0).value<State>(), connectionStates.at(i).at(0).value<State>());
}

void TestRedisLink::readyIsTheOwnersToSayWhenAsked()
{
    RedisServer &server = *m_server;
    Link link(Link::kOwnersToSay);
    QSignalSpy linkReady(&link, &RedisLink::ready);
    QSignalSpy states(&link, &RedisLink::stateChanged);
    QSignalSpy connectionReady(&link.connection, &RedisAsyncConnection::ready);
    link.connection.connectTo(server.url());
    QVERIFY(connectionReady.wait());
    QCOMPARE(states.constLast().at(0).value<State>(), State::Ready); // the rest is relayed
    QCOMPARE(linkReady.size(), 0);
}

QTEST_GUILESS_MAIN(TestRedisLink)
#include "tst_redis_link.moc"
