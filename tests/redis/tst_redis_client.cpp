// RedisClient, the gateway's client of Redis, against a real redis-server: the shared one named
// by PRESENCE_TEST_REDIS_URL when set (in database 9, flushed first), else one of its own. Tests
// that kill and restart Redis always start their own, on a free loopback port in a temporary
// directory. RedisUrl and RedisSubscriber have tests of their own.

// C++
#include <chrono>
#include <memory>
#include <optional>

// Qt
#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QHostAddress>
#include <QPointer>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>

// Presence
#include "RedisClientFixture.h"
#include "RedisTestBed.h"
#include "server-mock/redis/client/RedisClient.h"
#include "server-mock/redis/client/RedisReply.h"
#include "server-mock/redis/client/RedisUrl.h"
#include "tests/harness/RedisServer.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace Presence::Server;
using namespace RedisClientFixture;

using State = RedisLink::State;
using Command = QList<QByteArray>;

namespace {

constexpr int kTestDb = 9;

// A TCP peer that is not Redis: it answers SELECT with +OK (or not at all), and anything else
// with `answer` (or not at all), so a test can make a server garbled or silent.
class FakeRedis : public QObject {
public:
    FakeRedis(bool answerSelect, QByteArray answer)
        : m_answerSelect(answerSelect)
        , m_answer(std::move(answer))
    {
        m_server.listen(QHostAddress::LocalHost, 0);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                ++m_connections;
                connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
                    const QByteArray request = socket->readAll();
                    if (request.contains("SELECT")) {
                        if (m_answerSelect)
                            socket->write("+OK\r\n");
                    } else if (!m_answer.isEmpty()) {
                        socket->write(m_answer);
                    }
                });
                connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
    }

    [[nodiscard]] RedisUrl url() const
    {
        return RedisUrl { u"127.0.0.1"_s, m_server.serverPort(), 0 };
    }
    [[nodiscard]] int connections() const { return m_connections; }

private:
    QTcpServer m_server;
    bool m_answerSelect;
    QByteArray m_answer;
    int m_connections = 0;
};

} // namespace

class TestRedisClient : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();

    void connectsAndSelectsTheDatabase();
    void connectsByHostName();
    void binarySafeCommands();
    void pipelineIsOneRoundTrip();
    void destroyedContextIsNeverCalled();
    void scriptUnknownToRedisIsSentWhole();
    void errorRepliesAreErrors();
    void invalidCommandsAreRefused();
    void notConnectedFailsFast();
    void replyLimitsMakeErrors();
    void tooDeepForHiredisIsAnOutage();
    void badReplyIsAnOutage_data();
    void badReplyIsAnOutage();
    void silentServerTimesOut();
    void unansweredCommandTimesOut();
    void killedServerFailsOutstandingOnce();
    void unreachableAtStartRetriesWithoutBlocking();
    void closeFailsOutstandingAndStops();
    void deletingTheClientInACallbackIsSafe();

private:
    [[nodiscard]] QByteArray key(const char *name) const { return m_prefix + name; }

    RedisUrl m_url;
    std::unique_ptr<RedisServer> m_ownServer;
    // Keys of this run, apart from whatever else shares the server.
    QByteArray m_prefix;
};

void TestRedisClient::initTestCase()
{
    m_prefix = "tst_redis_client:" + QByteArray::number(QCoreApplication::applicationPid()) + ':';
    QString error;
    if (const auto shared = RedisServer::sharedFromEnvironment(&error)) {
        m_url = *shared;
        m_url.db = kTestDb;
    } else {
        QVERIFY2(error.isEmpty(), qPrintable(error));
        m_ownServer = std::make_unique<RedisServer>();
        QVERIFY2(m_ownServer->start(), qPrintable(m_ownServer->error()));
        m_url = m_ownServer->url(kTestDb);
    }
    RedisClient client;
    QSignalSpy ready(&client, &RedisClient::ready);
    client.connectTo(m_url);
    QVERIFY(ready.wait());
    QVERIFY(runCommand(client, { "FLUSHDB" }).isOk());
}

void TestRedisClient::cleanupTestCase()
{
    if (m_ownServer)
        return; // its data dies with it
    // Leave the shared server's database as found.
    RedisClient client;
    QSignalSpy ready(&client, &RedisClient::ready);
    client.connectTo(m_url);
    QVERIFY(ready.wait());
    QVERIFY(runCommand(client, { "FLUSHDB" }).isOk());
}

void TestRedisClient::connectsAndSelectsTheDatabase()
{
    RedisClient client;
    QSignalSpy ready(&client, &RedisClient::ready);
    QSignalSpy states(&client, &RedisClient::stateChanged);
    QVERIFY(ready.isValid());
    QCOMPARE(client.state(), State::Disconnected);

    client.connectTo(m_url);
    QCOMPARE(client.state(), State::Connecting);
    QVERIFY(ready.wait());
    QCOMPARE(client.state(), State::Ready);
    QCOMPARE(states.count(), 2);
    QCOMPARE(states.at(1).at(0).value<State>(), State::Ready);

    const RedisReply pong = runCommand(client, { "PING" });
    QCOMPARE(pong.type, RedisReply::Type::Status);
    QCOMPARE(pong.bytes, QByteArray("PONG"));
    // SELECT ran before Ready: this connection works in the URL's database.
    const RedisReply info = runCommand(client, { "CLIENT", "INFO" });
    QVERIFY2(
        info.bytes.contains(" db=" + QByteArray::number(kTestDb) + ' '), info.bytes.constData());
}

void TestRedisClient::connectsByHostName()
{
    if (m_url.host != u"127.0.0.1" && m_url.host != u"localhost")
        QSKIP("the shared Redis is not on this machine's loopback");
    RedisUrl byName = m_url;
    byName.host = u"localhost"_s;
    RedisClient client;
    QSignalSpy ready(&client, &RedisClient::ready);
    client.connectTo(byName);
    QVERIFY(ready.wait());
    QCOMPARE(runCommand(client, { "ECHO", "by name" }).bytes, QByteArray("by name"));
}

void TestRedisClient::binarySafeCommands()
{
    RedisClient client;
    QSignalSpy ready(&client, &RedisClient::ready);
    client.connectTo(m_url);
    QVERIFY(ready.wait());

    // Every byte value, and bytes that look like the protocol itself.
    const QByteArray binaryKey = key("bin") + QByteArray("\0\r\n key", 8);
    QByteArray value;
    for (int i = 0; i < 256; ++i)
        value.append(char(i));
    value += "\r\n$3\r\nfoo\r\n";

    QVERIFY(runCommand(client, { "SET", binaryKey, value }).isOk());
    const RedisReply got = runCommand(client, { "GET", binaryKey });
    QCOMPARE(got.type, RedisReply::Type::String);
    QCOMPARE(got.bytes, value);

    QCOMPARE(integerOf(runCommand(client, { "EXPIRE", binaryKey, "100" })), qint64(1));
    const qint64 ttl = integerOf(runCommand(client, { "TTL", binaryKey }));
    QVERIFY2(ttl > 0 && ttl <= 100, QByteArray::number(ttl).constData());
    QCOMPARE(integerOf(runCommand(client, { "DEL", binaryKey })), qint64(1));
    QVERIFY(runCommand(client, { "GET", binaryKey }).isNil());
    QCOMPARE(integerOf(runCommand(client, { "EXPIRE", binaryKey, "100" })), qint64(0));

    // An empty value is a String, not Nil.
    QVERIFY(runCommand(client, { "SET", key("empty"), QByteArray() }).isOk());
    const RedisReply empty = runCommand(client, { "GET", key("empty") });
    QCOMPARE(empty.type, RedisReply::Type::String);
    QVERIFY(empty.bytes.isEmpty());
    QCOMPARE(integerOf(runCommand(client, { "INCRBY", key("counter"), "41" })), qint64(41));
    QCOMPARE(runCommand(client, { "GET", key("counter") }).toInteger(), std::optional<qint64>(41));
}

void TestRedisClient::pipelineIsOneRoundTrip()
{
    RedisClient client;
    QSignalSpy ready(&client, &RedisClient::ready);
    client.connectTo(m_url);
    QVERIFY(ready.wait());

    QList<Command> commands;
    for (int i = 0; i < 500; ++i)
        commands.append(i % 2 ? Command { "ECHO", QByteArray::number(i) }
                              : Command { "INCR", key("pipelined") });
    const quint64 before = client.roundTrips();
    int calls = 0;
    QList<RedisReply> replies;
    QObject context;
    client.pipeline(commands, &context, [&](const QList<RedisReply> &r) {
        ++calls;
        replies = r;
    });
    QCOMPARE(client.roundTrips(), before + 1);
    QCOMPARE(calls, 0); // never from inside pipeline()
    QTRY_COMPARE(calls, 1);
    QCOMPARE(replies.size(), 500);
    for (int i = 0; i < 500; ++i) {
        if (i % 2)
            QCOMPARE(replies.at(i).bytes, QByteArray::number(i));
        else
            QCOMPARE(replies.at(i).integer, qint64(i / 2 + 1));
    }

    // The same commands one by one: one round trip each.
    const quint64 afterPipeline = client.roundTrips();
    int answered = 0;
    for (const Command &command : std::as_const(commands))
        client.command(command, &context, [&answered](const RedisReply &) { ++answered; });
    QCOMPARE(client.roundTrips(), afterPipeline + 500);
    QTRY_COMPARE(answered, 500);
}

void TestRedisClient::scriptUnknownToRedisIsSentWhole()
{
    RedisClient client;
    QSignalSpy ready(&client, &RedisClient::ready);
    client.connectTo(m_url);
    QVERIFY(ready.wait());

    // A script no Redis has seen (this process's pid in it): EVALSHA answers NOSCRIPT, and the
    // client sends the source once; after that Redis holds it and EVALSHA is enough.
    RedisScript script;
    script.source = "return {ARGV[1], " + QByteArray::number(QCoreApplication::applicationPid())
        + ", 'loaded'}";
    script.sha1 = QCryptographicHash::hash(script.source, QCryptographicHash::Sha1).toHex();
    const auto eval = [&](const QByteArray &argument) {
        QObject context;
        std::optional<RedisReply> reply;
        client.evalScript(script, { argument }, &context, [&](const RedisReply &r) { reply = r; });
        if (!QTest::qWaitFor([&] { return reply.has_value(); }, 5000))
            return RedisReply::error("test: no reply in time");
        return *reply;
    };
    quint64 before = client.roundTrips();
    RedisReply reply = eval("first");
    QCOMPARE(client.roundTrips(), before + 2); // EVALSHA, then EVAL
    QVERIFY2(reply.isArray(), qPrintable(reply.errorMessage()));
    QCOMPARE(reply.elements.value(0).bytes, "first");
    QCOMPARE(reply.elements.value(2).bytes, "loaded");
    before = client.roundTrips();
    reply = eval("second");
    QCOMPARE(client.roundTrips(), before + 1);
    QCOMPARE(reply.elements.value(0).bytes, "second");

    // A script with an error is an error reply, not a retry loop.
    RedisScript broken;
    broken.source = "return redis.call('NO_SUCH_COMMAND')";
    broken.sha1 = QCryptographicHash::hash(broken.source, QCryptographicHash::Sha1).toHex();
    QObject context;
    std::optional<RedisReply> failed;
    client.evalScript(broken, {}, &context, [&](const RedisReply &r) { failed = r; });
    QTRY_VERIFY(failed.has_value());
    QVERIFY(failed->isError());
    QVERIFY(!failed->isConnectionError());
}

void TestRedisClient::destroyedContextIsNeverCalled()
{
    RedisClient client;
    QSignalSpy ready(&client, &RedisClient::ready);
    client.connectTo(m_url);
    QVERIFY(ready.wait());

    bool commandCalled = false;
    bool pipelineCalled = false;
    auto *context = new QObject;
    client.command({ "PING" }, context, [&](const RedisReply &) { commandCalled = true; });
    client.pipeline({ { "PING" }, { "PING" } }, context,
        [&](const QList<RedisReply> &) { pipelineCalled = true; });
    delete context;
    // Replies come in order: once this one is in, the earlier ones were too.
    QCOMPARE(runCommand(client, { "PING" }).bytes, QByteArray("PONG"));
    QVERIFY(!commandCalled);
    QVERIFY(!pipelineCalled);
}

void TestRedisClient::errorRepliesAreErrors()
{
    RedisClient client;
    QSignalSpy ready(&client, &RedisClient::ready);
    QSignalSpy lost(&client, &RedisClient::connectionLost);
    client.connectTo(m_url);
    QVERIFY(ready.wait());

    QVERIFY(runCommand(client, { "SET", key("text"), "abc" }).isOk());
    const RedisReply notInteger = runCommand(client, { "INCR", key("text") });
    QVERIFY(notInteger.isError());
    QVERIFY(!notInteger.isConnectionError());
    QVERIFY2(
        notInteger.bytes.startsWith("ERR value is not an integer"), notInteger.bytes.constData());
    const RedisReply wrongType = runCommand(client, { "LPUSH", key("text"), "x" });
    QVERIFY(wrongType.isError());
    QVERIFY2(wrongType.bytes.startsWith("WRONGTYPE"), wrongType.bytes.constData());
    QVERIFY(runCommand(client, { "NO-SUCH-COMMAND" }).bytes.startsWith("ERR unknown command"));

    // An error inside a pipeline leaves the other replies alone.
    QList<RedisReply> replies;
    QObject context;
    client.pipeline({ { "SET", key("one"), "1" }, { "INCR", key("text") }, { "GET", key("one") } },
        &context, [&](const QList<RedisReply> &r) { replies = r; });
    QTRY_COMPARE(replies.size(), 3);
    QVERIFY(replies.at(0).isOk());
    QVERIFY(replies.at(1).isError());
    QCOMPARE(replies.at(2).bytes, QByteArray("1"));
    QCOMPARE(lost.count(), 0);
}

void TestRedisClient::invalidCommandsAreRefused()
{
    RedisClient client;
    QSignalSpy ready(&client, &RedisClient::ready);
    client.connectTo(m_url);
    QVERIFY(ready.wait());
    const quint64 before = client.roundTrips();

    QCOMPARE(runCommand(client, {}).bytes, QByteArray("refused: empty command"));
    QCOMPARE(runCommand(client, { "subscribe", "x" }).bytes,
        QByteArray("refused: SUBSCRIBE needs a connection of its own (RedisSubscriber)"));
    QCOMPARE(runCommand(client, { "SELECT", "0" }).bytes,
        QByteArray("refused: SELECT would change the connection behind the client's back"));
    QCOMPARE(runCommand(client, { "client", "reply", "off" }).bytes,
        QByteArray("refused: CLIENT REPLY would pair replies with the wrong commands"));

    // One bad command refuses the whole pipeline, with one reply per command.
    QList<RedisReply> replies;
    QObject context;
    client.pipeline({ { "PING" }, { "MONITOR" }, { "PING" } }, &context,
        [&](const QList<RedisReply> &r) { replies = r; });
    QTRY_COMPARE(replies.size(), 3);
    for (const RedisReply &reply : std::as_const(replies))
        QCOMPARE(reply.bytes,
            QByteArray("refused: MONITOR needs a connection of its own (RedisSubscriber)"));
    QCOMPARE(client.roundTrips(), before);
    QCOMPARE(runCommand(client, { "PING" }).bytes, QByteArray("PONG"));
}

void TestRedisClient::notConnectedFailsFast()
{
    RedisClient client;
    int calls = 0;
    RedisReply reply;
    QList<RedisReply> replies;
    QObject context;
    client.command({ "PING" }, &context, [&](const RedisReply &r) {
        ++calls;
        reply = r;
    });
    client.pipeline({ { "PING" }, { "PING" } }, &context, [&](const QList<RedisReply> &r) {
        ++calls;
        replies = r;
    });
    QCOMPARE(calls, 0); // from the event loop, never inside the call
    QTRY_COMPARE(calls, 2);
    QCOMPARE(reply.bytes, QByteArray(RedisReply::kNotConnected));
    QVERIFY(reply.isConnectionError());
    QCOMPARE(replies.size(), 2);
    QCOMPARE(replies.at(1).bytes, QByteArray(RedisReply::kNotConnected));
    QCOMPARE(client.roundTrips(), quint64(0));
}

void TestRedisClient::replyLimitsMakeErrors()
{
    RedisClient::Options options = fastOptions();
    options.replyLimits.maxDepth = 3;
    options.replyLimits.maxElements = 10;
    RedisClient client(options);
    QSignalSpy ready(&client, &RedisClient::ready);
    QSignalSpy lost(&client, &RedisClient::connectionLost);
    client.connectTo(m_url);
    QVERIFY(ready.wait());

    const RedisReply threeLevels = runCommand(client, { "EVAL", "return {1, {2, 3}}", "0" });
    QCOMPARE(threeLevels.elements.size(), 2);
    QCOMPARE(threeLevels.elements.at(1).elements.at(1).integer, qint64(3));
    QCOMPARE(runCommand(client, { "EVAL", "return {1, {2, {3}}}", "0" }).bytes,
        QByteArray(RedisReply::kTooDeep));

    const QByteArray upTo = "local t = {} for i = 1, ARGV[1] do t[i] = i end return t";
    QCOMPARE(runCommand(client, { "EVAL", upTo, "0", "10" }).elements.size(), 10);
    QCOMPARE(
        runCommand(client, { "EVAL", upTo, "0", "11" }).bytes, QByteArray(RedisReply::kTooLarge));
    // The limit counts elements at every level.
    QCOMPARE(
        runCommand(client, { "EVAL", "return {1, 2, 3, 4, 5, {1, 2, 3, 4, 5, 6}}", "0" }).bytes,
        QByteArray(RedisReply::kTooLarge));

    // A refused reply costs that command only.
    QCOMPARE(runCommand(client, { "PING" }).bytes, QByteArray("PONG"));
    QCOMPARE(lost.count(), 0);
}

void TestRedisClient::tooDeepForHiredisIsAnOutage()
{
    // hiredis 0.14 cannot parse arrays nested 9 deep: a protocol error, which must cost the
    // connection (rebuilt at once), not the process.
    RedisClient client(fastOptions());
    QSignalSpy ready(&client, &RedisClient::ready);
    QSignalSpy lost(&client, &RedisClient::connectionLost);
    client.connectTo(m_url);
    QVERIFY(ready.wait());

    expectWarning(u"client: connection to .* lost \\(No support for nested multi bulk"_s);
    const RedisReply reply = runCommand(client, { "EVAL", "return {{{{{{{{{1}}}}}}}}}", "0" });
    QCOMPARE(reply.bytes, QByteArray(RedisReply::kConnectionLost));
    QCOMPARE(lost.count(), 1);
    QVERIFY2(
        lost.at(0).at(0).toString().contains(u"depth"), qPrintable(lost.at(0).at(0).toString()));
    QTRY_COMPARE(ready.count(), 2);
    QCOMPARE(runCommand(client, { "PING" }).bytes, QByteArray("PONG"));
}

void TestRedisClient::badReplyIsAnOutage_data()
{
    QTest::addColumn<QByteArray>("answer");
    QTest::addColumn<QString>("why"); // how hiredis names it
    QTest::newRow("garbage") << QByteArray("?garbage\r\n") << u"Protocol error"_s;
    // An array that declares 1,444,444,444 elements and sends none (found by fuzz_redis_reply):
    // refused before hiredis allocates its 11 GB table.
    QTest::newRow("a huge declared array") << QByteArray("*1444444444\r\n") << u"Out of memory"_s;
}

void TestRedisClient::badReplyIsAnOutage()
{
    QFETCH(QByteArray, answer);
    QFETCH(QString, why);
    FakeRedis fake(true, answer);
    RedisClient client(fastOptions());
    QSignalSpy ready(&client, &RedisClient::ready);
    QSignalSpy lost(&client, &RedisClient::connectionLost);
    client.connectTo(fake.url());
    QVERIFY(ready.wait());

    expectWarning(u"client: connection to .* lost \\("_s + why);
    QCOMPARE(runCommand(client, { "PING" }).bytes, QByteArray(RedisReply::kConnectionLost));
    QCOMPARE(lost.count(), 1);
    QVERIFY2(lost.at(0).at(0).toString().contains(why), qPrintable(lost.at(0).at(0).toString()));
    // And it keeps trying, as for any outage.
    QTRY_VERIFY(fake.connections() >= 2);
    client.close();
}

void TestRedisClient::silentServerTimesOut()
{
    // Accepts the connection, never answers SELECT: the attempt must end by itself.
    FakeRedis fake(false, {});
    RedisClient::Options options = fastOptions();
    options.connectTimeout = 100ms;
    RedisClient client(options);
    QSignalSpy ready(&client, &RedisClient::ready);
    QSignalSpy failed(&client, &RedisClient::connectFailed);
    // One warning per outage, however many attempts it takes.
    expectWarning(u"client: cannot connect to .* \\(no answer within 100 ms\\); retrying"_s);
    client.connectTo(fake.url());
    QTRY_VERIFY(failed.count() >= 2);
    QCOMPARE(failed.at(0).at(0).toString(), u"no answer within 100 ms"_s);
    QCOMPARE(ready.count(), 0);
    QVERIFY(fake.connections() >= 2);
    client.close();
    QCOMPARE(client.state(), State::Disconnected);
}

void TestRedisClient::unansweredCommandTimesOut()
{
    // Answers SELECT, then nothing: a stuck server. Commands must not wait forever.
    FakeRedis fake(true, {});
    RedisClient::Options options = fastOptions();
    options.replyTimeout = 150ms;
    RedisClient client(options);
    QSignalSpy ready(&client, &RedisClient::ready);
    QSignalSpy lost(&client, &RedisClient::connectionLost);
    client.connectTo(fake.url());
    QVERIFY(ready.wait());

    expectWarning(u"client: connection to .* lost \\(no reply within 150 ms\\)"_s);
    QElapsedTimer clock;
    clock.start();
    QCOMPARE(runCommand(client, { "PING" }).bytes, QByteArray(RedisReply::kConnectionLost));
    QVERIFY(clock.elapsed() >= 140);
    QCOMPARE(lost.count(), 1);
    QCOMPARE(lost.at(0).at(0).toString(), u"no reply within 150 ms"_s);
    QTRY_COMPARE(ready.count(), 2);
    client.close();
}

void TestRedisClient::killedServerFailsOutstandingOnce()
{
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));
    RedisClient client(fastOptions());
    RedisClient observer(fastOptions());
    QSignalSpy ready(&client, &RedisClient::ready);
    QSignalSpy lost(&client, &RedisClient::connectionLost);
    QSignalSpy observerReady(&observer, &RedisClient::ready);
    client.connectTo(server.url(kTestDb));
    observer.connectTo(server.url(kTestDb));
    QVERIFY(ready.wait());
    QVERIFY(observerReady.count() == 1 || observerReady.wait());

    // BLPOP without a timeout never answers, and Redis runs nothing after it on that
    // connection: everything from the BLPOP on stays outstanding until the connection dies.
    QObject context;
    QList<RedisReply> first, second;
    QList<QList<RedisReply>> piped;
    client.pipeline({ { "PING" }, { "BLPOP", key("never"), "0" }, { "PING" } }, &context,
        [&](const QList<RedisReply> &r) { piped.append(r); });
    client.command({ "PING" }, &context, [&](const RedisReply &r) { first.append(r); });
    client.command(
        { "BLPOP", key("never"), "0" }, &context, [&](const RedisReply &r) { second.append(r); });
    // Make sure Redis holds them (one blocked client) before it dies.
    QTRY_COMPARE(
        runCommand(observer, { "INFO", "clients" }).bytes.contains("blocked_clients:1"), true);

    expectWarning(u"client: connection to .* lost \\(Server closed the connection\\)"_s);
    expectWarning(u"client: connection to .* lost \\(Server closed the connection\\)"_s);
    server.kill();
    QTRY_COMPARE(lost.count(), 1);
    QVERIFY(client.state() != State::Ready);
    QVERIFY(!lost.at(0).at(0).toString().isEmpty());
    QTRY_COMPARE(first.size(), 1);
    QTRY_COMPARE(second.size(), 1);
    QTRY_COMPARE(piped.size(), 1);
    QCOMPARE(first.at(0).bytes, QByteArray(RedisReply::kConnectionLost));
    QCOMPARE(second.at(0).bytes, QByteArray(RedisReply::kConnectionLost));
    // The PING answered before BLPOP blocked stays; the rest were lost.
    QCOMPARE(piped.at(0).size(), 3);
    QCOMPARE(piped.at(0).at(0).bytes, QByteArray("PONG"));
    QCOMPARE(piped.at(0).at(1).bytes, QByteArray(RedisReply::kConnectionLost));
    QCOMPARE(piped.at(0).at(2).bytes, QByteArray(RedisReply::kConnectionLost));

    // Back on the same port: Ready again without anyone asking, and commands work.
    QVERIFY2(server.restart(), qPrintable(server.error()));
    QTRY_COMPARE(ready.count(), 2);
    QCOMPARE(client.state(), State::Ready);
    QCOMPARE(runCommand(client, { "PING" }).bytes, QByteArray("PONG"));
    // Never twice.
    QCOMPARE(first.size(), 1);
    QCOMPARE(second.size(), 1);
    QCOMPARE(piped.size(), 1);
    QCOMPARE(lost.count(), 1);
}

void TestRedisClient::unreachableAtStartRetriesWithoutBlocking()
{
    // A port nothing listens on now, where Redis comes back later.
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));
    server.stop();
    const quint16 port = server.port();
    RedisClient::Options options = fastOptions();
    options.retryMin = 20ms;
    options.retryMax = 80ms;
    RedisClient client(options);
    QSignalSpy ready(&client, &RedisClient::ready);
    QSignalSpy failed(&client, &RedisClient::connectFailed);
    QSignalSpy retries(&client, &RedisClient::retryScheduled);
    QSignalSpy lost(&client, &RedisClient::connectionLost);
    // The event loop must keep running between and during attempts.
    int ticks = 0;
    QTimer ticker;
    ticker.setInterval(5);
    connect(&ticker, &QTimer::timeout, this, [&ticks] { ++ticks; });
    ticker.start();

    expectWarning(u"client: cannot connect to redis://localhost:\\d+/9 \\(Connection refused\\)"_s);
    QElapsedTimer clock;
    clock.start();
    client.connectTo(RedisUrl { u"localhost"_s, port, kTestDb });
    QVERIFY(clock.elapsed() < 200); // returns at once: no connect, no DNS on this thread
    QTRY_VERIFY(retries.count() >= 4);
    QVERIFY(ticks >= 4);
    QVERIFY(client.state() == State::Backoff || client.state() == State::Connecting);
    QCOMPARE(lost.count(), 0); // never connected, so nothing was lost
    QVERIFY(failed.count() >= 4);
    for (int i = 0; i < retries.count(); ++i) {
        QCOMPARE(retries.at(i).at(0).toInt(), i + 1);
        const auto delay = retries.at(i).at(1).value<std::chrono::milliseconds>();
        QVERIFY2(
            delay >= 20ms && delay <= 80ms, QByteArray::number(qint64(delay.count())).constData());
    }

    // Redis appears: the next attempt gets it.
    QVERIFY2(server.restart(), qPrintable(server.error()));
    QTRY_COMPARE(ready.count(), 1);
    QCOMPARE(runCommand(client, { "PING" }).bytes, QByteArray("PONG"));
}

void TestRedisClient::closeFailsOutstandingAndStops()
{
    RedisClient client(fastOptions());
    QSignalSpy ready(&client, &RedisClient::ready);
    QSignalSpy retries(&client, &RedisClient::retryScheduled);
    client.connectTo(m_url);
    QVERIFY(ready.wait());

    QList<RedisReply> replies;
    QObject context;
    client.command({ "BLPOP", key("closing"), "0" }, &context,
        [&](const RedisReply &r) { replies.append(r); });
    client.close();
    QCOMPARE(client.state(), State::Disconnected);
    QCOMPARE(replies.size(), 0); // from the event loop, never inside close()
    QTRY_COMPARE(replies.size(), 1);
    QCOMPARE(replies.at(0).bytes, QByteArray(RedisReply::kClosed));
    // Closed on purpose: no retry (one would have come within retryMax).
    QVERIFY(!retries.wait(200));
    QCOMPARE(client.state(), State::Disconnected);

    client.connectTo(m_url);
    QVERIFY(ready.wait());
    QCOMPARE(runCommand(client, { "PING" }).bytes, QByteArray("PONG"));
}

void TestRedisClient::deletingTheClientInACallbackIsSafe()
{
    auto *client = new RedisClient;
    QSignalSpy ready(client, &RedisClient::ready);
    client->connectTo(m_url);
    QVERIFY(ready.wait());

    // All three replies arrive in one read; the first callback deletes the client, and with
    // it the hiredis context, while the others wait to be delivered.
    QPointer<RedisClient> alive(client);
    int later = 0;
    QObject context;
    client->command({ "PING" }, &context, [&](const RedisReply &) { delete client; });
    client->command({ "PING" }, &context, [&](const RedisReply &) { ++later; });
    client->pipeline({ { "PING" } }, &context, [&](const QList<RedisReply> &) { ++later; });
    QTRY_VERIFY(!alive);
    QCOMPARE(later, 0);
}

QTEST_GUILESS_MAIN(TestRedisClient)
#include "tst_redis_client.moc"
