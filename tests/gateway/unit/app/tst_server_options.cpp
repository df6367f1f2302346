// Tests for the command line of presence-mock-server (ServerOptions::parse): defaults,
// accepted forms, the help and version actions, and refusals that name the option.

// C++
#include <optional>

// Qt
#include <QFile>
#include <QHostAddress>
#include <QTemporaryDir>
#include <QTest>

// Presence
#include "JwtMinter.h"
#include "server-mock/app/ServerOptions.h"
#include "server-mock/identity/JwtVerifier.h"

using namespace Qt::StringLiterals;
using namespace Presence::Server;
using namespace std::chrono_literals;

namespace {

std::optional<ServerOptions> parseArgs(const QStringList &args, QString *error)
{
    return ServerOptions::parse(QStringList { u"presence-mock-server"_s } + args, error);
}

// The keys of the JWT tests, written once: an HS256 secret and an ES256 public key.
struct JwtKeyFiles {
    JwtKeyFiles()
    {
        write(secret, "0123456789abcdef0123456789abcdef\n");
        write(publicKey, es.publicKeyPem());
        write(shortSecret, "too short\n");
    }
    static void write(const QString &path, const QByteArray &bytes)
    {
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
            qFatal("cannot write %s", qPrintable(path));
    }
    QTemporaryDir dir;
    QString secret = dir.filePath(u"hs256.secret"_s);
    QString publicKey = dir.filePath(u"es256.pem"_s);
    QString shortSecret = dir.filePath(u"short.secret"_s);
    QString missing = dir.filePath(u"missing.pem"_s);
    Presence::TestSupport::JwtMinter hs
        = Presence::TestSupport::JwtMinter::hs256("0123456789abcdef0123456789abcdef"_ba);
    Presence::TestSupport::JwtMinter es = Presence::TestSupport::JwtMinter::generate(
        Presence::TestSupport::JwtMinter::Algorithm::ES256);
};

} // namespace

class TestServerOptions : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void defaults();
    void generateWithEveryOption();
    void listenForms_data();
    void listenForms();
    void actions_data();
    void actions();
    void allowOriginRepeats();
    void rejects_data();
    void rejects();
    void rejectsBadRedisOptions_data();
    void rejectsBadRedisOptions();
    void redisOptions();
    void nullErrorPointerIsAllowed();
    void qaOptions();
    void rejectsBadQaOptions_data();
    void rejectsBadQaOptions();
    void eventLoop_data();
    void eventLoop();
    void eventLoopBeforeTheApplication_data();
    void eventLoopBeforeTheApplication();
    void jwtKeys();
    void friendsFromRedisNeedNoUsersFile();
    void configFileGivesWhatTheCommandLineDoesNot();
    void rejectsBadJwtKeys_data();
    void rejectsBadJwtKeys();
};

void TestServerOptions::defaults()
{
    QString error;
    const auto options = parseArgs({ u"--users"_s, u"people.json"_s }, &error);
    QVERIFY2(options, qPrintable(error));
    QCOMPARE(options->action, ServerOptions::Action::Run);
    QCOMPARE(options->usersFile, u"people.json"_s);
    QCOMPARE(options->generateCount, std::nullopt);
    QCOMPARE(options->dumpUsersFile, QString());
    QCOMPARE(options->friendsPerUser, 50);
    QCOMPARE(options->seed, quint64(1));

    const GatewayConfig &config = options->config;
    QCOMPARE(config.address, QHostAddress(u"127.0.0.1"_s));
    QCOMPARE(config.port, quint16(8765));
    QCOMPARE(config.grace, 5000ms);
    QCOMPARE(config.heartbeat, 25000ms);
    QCOMPARE(config.helloTimeout, 5000ms);
    QCOMPARE(config.maxSubscriptions, 2000);
    QCOMPARE(config.maxIdsPerRequest, 500);
    QCOMPARE(config.maxFrameBytes, 65536);
    QCOMPARE(config.maxFramesPerSecond, 50);
    QCOMPARE(config.frameBurst, 100);
    QCOMPARE(config.allowedOrigins, QStringList());
    QCOMPARE(config.maxConnections, 0); // no cap but the descriptor limit
    QCOMPARE(config.maxConnectionsPerAddress, 0);
    QVERIFY(!options->redis); // presence in memory unless told otherwise
    QVERIFY(options->helpText.contains(u"--listen"_s));
}

void TestServerOptions::redisOptions()
{
    QString error;
    auto options = parseArgs({ u"--generate"_s, u"3"_s, u"--redis"_s, u"redis://[::1]:6390/2"_s,
                                 u"--grace-ms"_s, u"700"_s },
        &error);
    QVERIFY2(options, qPrintable(error));
    QVERIFY(options->redis);
    QCOMPARE(options->redis->url.host, u"::1"_s);
    QCOMPARE(options->redis->url.port, quint16(6390));
    QCOMPARE(options->redis->url.db, 2);
    QCOMPARE(options->redis->prefix, QByteArrayLiteral("presence:"));
    QCOMPARE(options->redis->ttl, 30000ms);
    QCOMPARE(options->redis->grace, 700ms); // the store's grace is the gateway's

    options = parseArgs({ u"--generate"_s, u"3"_s, u"--redis"_s, u"redis://cache"_s,
                            u"--redis-prefix"_s, u"qa:eu:"_s, u"--ttl-ms"_s, u"1500"_s },
        &error);
    QVERIFY2(options, qPrintable(error));
    QCOMPARE(options->redis->url.port, quint16(6379));
    QCOMPARE(options->redis->prefix, QByteArrayLiteral("qa:eu:"));
    QCOMPARE(options->redis->ttl, 1500ms);
}

void TestServerOptions::generateWithEveryOption()
{
    QString error;
    const auto options = parseArgs(
        { u"--generate"_s, u"20"_s, u"--friends"_s, u"4"_s, u"--seed"_s, u"77"_s, u"--dump-users"_s,
            u"/tmp/out.json"_s, u"--grace-ms"_s, u"0"_s, u"--heartbeat-ms"_s, u"100"_s,
            u"--hello-timeout-ms"_s, u"1500"_s, u"--max-subscriptions"_s, u"7"_s,
            u"--max-ids-per-request"_s, u"3"_s, u"--max-frame-bytes"_s, u"2048"_s,
            u"--rate-limit"_s, u"9"_s, u"--rate-burst"_s, u"11"_s, u"--listen"_s, u"127.0.0.1:0"_s,
            u"--max-connections"_s, u"900"_s, u"--max-connections-per-address"_s, u"40"_s },
        &error);
    QVERIFY2(options, qPrintable(error));
    QCOMPARE(options->action, ServerOptions::Action::Run);
    QCOMPARE(options->generateCount, std::optional<int>(20));
    QCOMPARE(options->usersFile, QString());
    QCOMPARE(options->friendsPerUser, 4);
    QCOMPARE(options->seed, quint64(77));
    QCOMPARE(options->dumpUsersFile, u"/tmp/out.json"_s);
    const GatewayConfig &config = options->config;
    QCOMPARE(config.port, quint16(0));
    QCOMPARE(config.grace, 0ms);
    QCOMPARE(config.heartbeat, 100ms);
    QCOMPARE(config.helloTimeout, 1500ms);
    QCOMPARE(config.maxSubscriptions, 7);
    QCOMPARE(config.maxIdsPerRequest, 3);
    QCOMPARE(config.maxFrameBytes, 2048);
    QCOMPARE(config.maxFramesPerSecond, 9);
    QCOMPARE(config.frameBurst, 11);
    QCOMPARE(config.maxConnections, 900);
    QCOMPARE(config.maxConnectionsPerAddress, 40);
}

void TestServerOptions::listenForms_data()
{
    QTest::addColumn<QString>("listen");
    QTest::addColumn<QHostAddress>("address");
    QTest::addColumn<int>("port");

    QTest::addRow("IPv4 port 0") << u"127.0.0.1:0"_s << QHostAddress(u"127.0.0.1"_s) << 0;
    QTest::addRow("IPv6 in brackets") << u"[::1]:9000"_s << QHostAddress(u"::1"_s) << 9000;
    QTest::addRow("localhost") << u"localhost:1234"_s << QHostAddress(u"127.0.0.1"_s) << 1234;
    QTest::addRow("any IPv4") << u"0.0.0.0:80"_s << QHostAddress(u"0.0.0.0"_s) << 80;
    QTest::addRow("highest port") << u"127.0.0.1:65535"_s << QHostAddress(u"127.0.0.1"_s) << 65535;
}

void TestServerOptions::listenForms()
{
    QFETCH(QString, listen);
    QFETCH(QHostAddress, address);
    QFETCH(int, port);

    QString error;
    const auto options = parseArgs({ u"--generate"_s, u"3"_s, u"--listen"_s, listen }, &error);
    QVERIFY2(options, qPrintable(error));
    QCOMPARE(options->config.address, address);
    QCOMPARE(options->config.port, quint16(port));
}

void TestServerOptions::actions_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<ServerOptions::Action>("action");

    // Help and version need neither --users nor --generate.
    QTest::addRow("--help") << QStringList { u"--help"_s } << ServerOptions::Action::ShowHelp;
    QTest::addRow("-h") << QStringList { u"-h"_s } << ServerOptions::Action::ShowHelp;
    QTest::addRow("--help with others")
        << QStringList { u"--generate"_s, u"5"_s, u"--help"_s } << ServerOptions::Action::ShowHelp;
    QTest::addRow("--version") << QStringList { u"--version"_s }
                               << ServerOptions::Action::ShowVersion;
    QTest::addRow("-v") << QStringList { u"-v"_s } << ServerOptions::Action::ShowVersion;
}

void TestServerOptions::actions()
{
    QFETCH(QStringList, args);
    QFETCH(ServerOptions::Action, action);

    QString error;
    const auto options = parseArgs(args, &error);
    QVERIFY2(options, qPrintable(error));
    QCOMPARE(options->action, action);
    // The help text documents every option a user needs to start a server.
    for (const QString &option :
        { u"--listen"_s, u"--users"_s, u"--generate"_s, u"--friends"_s, u"--dump-users"_s,
            u"--grace-ms"_s, u"--heartbeat-ms"_s, u"--allow-origin"_s, u"--event-loop"_s })
        QVERIFY2(options->helpText.contains(option), qPrintable(option));
}

void TestServerOptions::allowOriginRepeats()
{
    QString error;
    const auto options
        = parseArgs({ u"--generate"_s, u"3"_s, u"--allow-origin"_s, u"https://chat.example.org"_s,
                        u"--allow-origin"_s, u"http://localhost:8080"_s },
            &error);
    QVERIFY2(options, qPrintable(error));
    QCOMPARE(options->config.allowedOrigins,
        (QStringList { u"https://chat.example.org"_s, u"http://localhost:8080"_s }));
}

void TestServerOptions::rejects_data()
{
    QTest::addColumn<QStringList>("args");
    // Text the message must contain: the option at fault (or the offending argument).
    QTest::addColumn<QStringList>("expected");

    const QStringList gen { u"--generate"_s, u"3"_s };
    QTest::addRow("--listen without port") << gen + QStringList { u"--listen"_s, u"127.0.0.1"_s }
                                           << QStringList { u"--listen"_s, u"127.0.0.1"_s };
    QTest::addRow("--listen empty port")
        << gen + QStringList { u"--listen"_s, u"127.0.0.1:"_s } << QStringList { u"--listen"_s };
    QTest::addRow("--listen hostname") << gen + QStringList { u"--listen"_s, u"example.org:80"_s }
                                       << QStringList { u"--listen"_s, u"example.org:80"_s };
    QTest::addRow("--listen port 70000")
        << gen + QStringList { u"--listen"_s, u"127.0.0.1:70000"_s }
        << QStringList { u"--listen"_s, u"70000"_s };
    QTest::addRow("--listen without value")
        << gen + QStringList { u"--listen"_s } << QStringList { u"--listen"_s };
    QTest::addRow("--generate 0") << QStringList { u"--generate"_s, u"0"_s }
                                  << QStringList { u"--generate"_s, u"\"0\""_s };
    QTest::addRow("--generate x") << QStringList { u"--generate"_s, u"x"_s }
                                  << QStringList { u"--generate"_s, u"\"x\""_s };
    QTest::addRow("--generate -1")
        << QStringList { u"--generate"_s, u"-1"_s } << QStringList { u"--generate"_s, u"\"-1\""_s };
    QTest::addRow("--friends -1") << gen + QStringList { u"--friends"_s, u"-1"_s }
                                  << QStringList { u"--friends"_s, u"\"-1\""_s };
    QTest::addRow("--grace-ms abc") << gen + QStringList { u"--grace-ms"_s, u"abc"_s }
                                    << QStringList { u"--grace-ms"_s, u"\"abc\""_s };
    QTest::addRow("--heartbeat-ms 5") << gen + QStringList { u"--heartbeat-ms"_s, u"5"_s }
                                      << QStringList { u"--heartbeat-ms"_s, u"\"5\""_s };
    QTest::addRow("neither --users nor --generate")
        << QStringList {} << QStringList { u"--users"_s, u"--generate"_s };
    QTest::addRow("only --listen") << QStringList { u"--listen"_s, u"127.0.0.1:0"_s }
                                   << QStringList { u"--users"_s, u"--generate"_s };
    QTest::addRow("both --users and --generate") << QStringList { u"--users"_s, u"u.json"_s,
        u"--generate"_s, u"3"_s } << QStringList { u"--users"_s, u"--generate"_s, u"not both"_s };
    QTest::addRow("--friends without --generate") << QStringList { u"--users"_s, u"u.json"_s,
        u"--friends"_s, u"3"_s } << QStringList { u"--friends"_s, u"--generate"_s };
    QTest::addRow("--seed without --generate") << QStringList { u"--users"_s, u"u.json"_s,
        u"--seed"_s, u"3"_s } << QStringList { u"--seed"_s, u"--generate"_s };
    QTest::addRow("unknown option") << gen + QStringList { u"--frobnicate"_s }
                                    << QStringList { u"Unknown option"_s, u"frobnicate"_s };
    QTest::addRow("positional argument")
        << gen + QStringList { u"users.json"_s }
        << QStringList { u"unexpected argument"_s, u"users.json"_s };
    QTest::addRow("--allow-origin bare host")
        << gen + QStringList { u"--allow-origin"_s, u"example.org"_s }
        << QStringList { u"--allow-origin"_s, u"example.org"_s };
    QTest::addRow("--allow-origin ws scheme")
        << gen
            + QStringList { u"--allow-origin"_s, u"https://ok.org"_s, u"--allow-origin"_s,
                  u"ws://example.org"_s }
        << QStringList { u"--allow-origin"_s, u"ws://example.org"_s };
    QTest::addRow("--event-loop poll") << gen + QStringList { u"--event-loop=poll"_s }
                                       << QStringList { u"--event-loop"_s, u"\"poll\""_s };
    QTest::addRow("--max-connections -1") << gen + QStringList { u"--max-connections"_s, u"-1"_s }
                                          << QStringList { u"--max-connections"_s, u"\"-1\""_s };
    QTest::addRow("--max-connections-per-address many")
        << gen + QStringList { u"--max-connections-per-address"_s, u"many"_s }
        << QStringList { u"--max-connections-per-address"_s, u"\"many\""_s };
    QTest::addRow("a connection cap on Qt's transport")
        << gen + QStringList { u"--transport"_s, u"qt"_s, u"--max-connections"_s, u"10"_s }
        << QStringList { u"--max-connections"_s, u"--transport own"_s };
    QTest::addRow("--event-loop without value")
        << gen + QStringList { u"--event-loop"_s } << QStringList { u"--event-loop"_s };
}

void TestServerOptions::rejectsBadRedisOptions_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("expected");
    const QStringList gen { u"--generate"_s, u"3"_s };
    QTest::addRow("not a URL") << gen + QStringList { u"--redis"_s, u"nonsense"_s }
                               << QStringList { u"--redis:"_s };
    QTest::addRow("password") << gen + QStringList { u"--redis"_s, u"redis://:pw@host"_s }
                              << QStringList { u"--redis:"_s };
    QTest::addRow("db 16") << gen + QStringList { u"--redis"_s, u"redis://host/16"_s }
                           << QStringList { u"--redis:"_s };
    QTest::addRow("prefix without --redis") << gen + QStringList { u"--redis-prefix"_s, u"x:"_s }
                                            << QStringList { u"--redis-prefix"_s, u"--redis"_s };
    QTest::addRow("ttl without --redis") << gen + QStringList { u"--ttl-ms"_s, u"1000"_s }
                                         << QStringList { u"--ttl-ms"_s, u"--redis"_s };
    QTest::addRow("ttl too short")
        << gen + QStringList { u"--redis"_s, u"redis://h"_s, u"--ttl-ms"_s, u"100"_s }
        << QStringList { u"--ttl-ms"_s, u"\"100\""_s };
    QTest::addRow("prefix with a space")
        << gen + QStringList { u"--redis"_s, u"redis://h"_s, u"--redis-prefix"_s, u"a b"_s }
        << QStringList { u"--redis-prefix"_s, u"a b"_s };
    QTest::addRow("friends from Redis without Redis")
        << QStringList { u"--friends-from-redis"_s }
        << QStringList { u"--friends-from-redis goes with --redis"_s };
    QTest::addRow("friends from Redis without tokens")
        << QStringList { u"--friends-from-redis"_s, u"--redis"_s, u"redis://h"_s }
        << QStringList { u"--friends-from-redis needs JSON Web Tokens"_s };
}

void TestServerOptions::rejectsBadRedisOptions()
{
    rejects();
}

void TestServerOptions::rejects()
{
    QFETCH(QStringList, args);
    QFETCH(QStringList, expected);

    QString error;
    const auto options = parseArgs(args, &error);
    QVERIFY2(!options, qPrintable(u"accepted: "_s + args.join(u' ')));
    for (const QString &piece : std::as_const(expected))
        QVERIFY2(error.contains(piece), qPrintable(u"missing \"%1\" in: %2"_s.arg(piece, error)));
}

void TestServerOptions::qaOptions()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile tokenFile(dir.filePath(u"admin.token"_s));
    QVERIFY(tokenFile.open(QIODevice::WriteOnly));
    tokenFile.write("  a-long-admin-token-0123\n");
    tokenFile.close();

    QString error;
    auto options = parseArgs(
        { u"--generate"_s, u"10"_s, u"--churn"_s, u"2.5"_s, u"--seed"_s, u"9"_s, u"--scenario"_s,
            u"qa.jsonl"_s, u"--admin"_s, u"127.0.0.1:0"_s, u"--admin-token-file"_s,
            tokenFile.fileName(), u"--heartbeat-ttl-ms"_s, u"5000"_s },
        &error);
    QVERIFY2(options, qPrintable(error));
    QCOMPARE(options->churnRate, std::optional<double>(2.5));
    QCOMPARE(options->seed, quint64(9));
    QCOMPARE(options->scenarioFile, u"qa.jsonl"_s);
    QVERIFY(options->admin);
    QCOMPARE(options->admin->address, QHostAddress(QHostAddress::LocalHost));
    QCOMPARE(options->admin->port, quint16(0));
    QCOMPARE(options->admin->adminToken, u"a-long-admin-token-0123"_s);
    QCOMPARE(options->admin->heartbeatTtl, std::chrono::milliseconds(5000));

    // --seed also seeds the churn without --generate; --admin without a token serves /api only.
    options = parseArgs({ u"--users"_s, u"u.json"_s, u"--churn"_s, u"1"_s, u"--seed"_s, u"4"_s,
                            u"--admin"_s, u"[::1]:8766"_s },
        &error);
    QVERIFY2(options, qPrintable(error));
    QCOMPARE(options->admin->adminToken, QString());
    QCOMPARE(options->admin->port, quint16(8766));
    // Off by default.
    options = parseArgs({ u"--generate"_s, u"1"_s }, &error);
    QVERIFY2(options, qPrintable(error));
    QVERIFY(!options->admin && !options->churnRate && options->scenarioFile.isEmpty());
}

void TestServerOptions::rejectsBadQaOptions_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("expected");
    const QStringList gen { u"--generate"_s, u"3"_s };
    const QStringList admin { u"--admin"_s, u"127.0.0.1:0"_s };
    QTest::addRow("churn not a number")
        << gen + QStringList { u"--churn"_s, u"lots"_s } << QStringList { u"--churn"_s, u"lots"_s };
    QTest::addRow("churn zero") << gen + QStringList { u"--churn"_s, u"0"_s }
                                << QStringList { u"--churn"_s };
    QTest::addRow("churn nan") << gen + QStringList { u"--churn"_s, u"nan"_s }
                               << QStringList { u"--churn"_s };
    QTest::addRow("seed with users, no churn") << QStringList { u"--users"_s, u"u.json"_s,
        u"--seed"_s, u"3"_s } << QStringList { u"--seed"_s, u"--churn"_s };
    QTest::addRow("admin not loopback") << gen + QStringList { u"--admin"_s, u"0.0.0.0:8766"_s }
                                        << QStringList { u"--admin"_s, u"--admin-remote"_s };
    QTest::addRow("admin hostname") << gen + QStringList { u"--admin"_s, u"example.org:1"_s }
                                    << QStringList { u"--admin"_s, u"HOST:PORT"_s };
    QTest::addRow("token without admin")
        << gen + QStringList { u"--admin-token"_s, u"0123456789abcdefg"_s }
        << QStringList { u"--admin-token"_s, u"--admin"_s };
    QTest::addRow("short token") << gen + admin + QStringList { u"--admin-token"_s, u"short"_s }
                                 << QStringList { u"--admin-token"_s, u"16"_s };
    QTest::addRow("token with a space")
        << gen + admin + QStringList { u"--admin-token"_s, u"0123456789 abcdefg"_s }
        << QStringList { u"--admin-token"_s };
    QTest::addRow("token file missing")
        << gen + admin + QStringList { u"--admin-token-file"_s, u"/nonexistent/admin.token"_s }
        << QStringList { u"--admin-token-file"_s, u"/nonexistent/admin.token"_s };
    QTest::addRow("heartbeat ttl too short")
        << gen + admin + QStringList { u"--heartbeat-ttl-ms"_s, u"10"_s }
        << QStringList { u"--heartbeat-ttl-ms"_s };
}

void TestServerOptions::rejectsBadQaOptions()
{
    rejects();
}

void TestServerOptions::nullErrorPointerIsAllowed()
{
    QVERIFY(!parseArgs({ u"--generate"_s, u"0"_s }, nullptr));
    QVERIFY(parseArgs({ u"--generate"_s, u"1"_s }, nullptr));
}

void TestServerOptions::eventLoop_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<ServerOptions::EventLoop>("loop");
    QTest::addRow("default") << QStringList {} << ServerOptions::EventLoop::Epoll;
    QTest::addRow("=qt") << QStringList { u"--event-loop=qt"_s } << ServerOptions::EventLoop::Qt;
    QTest::addRow("qt") << QStringList { u"--event-loop"_s, u"qt"_s }
                        << ServerOptions::EventLoop::Qt;
    QTest::addRow("epoll") << QStringList { u"--event-loop"_s, u"epoll"_s }
                           << ServerOptions::EventLoop::Epoll;
    QTest::addRow("the last wins") << QStringList { u"--event-loop=qt"_s, u"--event-loop=epoll"_s }
                                   << ServerOptions::EventLoop::Epoll;
}

void TestServerOptions::eventLoop()
{
    QFETCH(QStringList, args);
    QFETCH(ServerOptions::EventLoop, loop);
    QString error;
    const auto options = parseArgs(QStringList { u"--generate"_s, u"3"_s } + args, &error);
    QVERIFY2(options, qPrintable(error));
    QCOMPARE(options->eventLoop, loop);
}

void TestServerOptions::eventLoopBeforeTheApplication_data()
{
    QTest::addColumn<QStringList>("args");
    // nullopt: refused.
    QTest::addColumn<std::optional<ServerOptions::EventLoop>>("loop");
    using Loop = ServerOptions::EventLoop;
    const QStringList gen { u"--generate"_s, u"3"_s };
    QTest::addRow("default") << gen << std::optional(Loop::Epoll);
    QTest::addRow("=qt") << gen + QStringList { u"--event-loop=qt"_s } << std::optional(Loop::Qt);
    QTest::addRow("qt after the others")
        << gen + QStringList { u"--event-loop"_s, u"qt"_s } << std::optional(Loop::Qt);
    QTest::addRow("qt before the others")
        << QStringList { u"--event-loop"_s, u"qt"_s } + gen << std::optional(Loop::Qt);
    QTest::addRow("the last wins") << QStringList { u"--event-loop=qt"_s, u"--event-loop"_s,
        u"epoll"_s } << std::optional(Loop::Epoll);
    // Read as parse() reads it: here the value of --users, not the option.
    QTest::addRow("value of another option")
        << QStringList { u"--users"_s, u"--event-loop=qt"_s } << std::optional(Loop::Epoll);
    QTest::addRow("after --") << QStringList { u"--"_s, u"--event-loop=qt"_s }
                              << std::optional(Loop::Epoll);
    QTest::addRow("bad value") << QStringList { u"--event-loop=poll"_s } << std::optional<Loop>();
    QTest::addRow("empty value") << QStringList { u"--event-loop="_s } << std::optional<Loop>();
}

void TestServerOptions::eventLoopBeforeTheApplication()
{
    // main reads --event-loop before QCoreApplication exists; it must agree with parse().
    QFETCH(QStringList, args);
    QFETCH(std::optional<ServerOptions::EventLoop>, loop);
    QString error;
    const auto found = ServerOptions::eventLoopFromArguments(
        QStringList { u"presence-mock-server"_s } + args, &error);
    QCOMPARE(found, loop);
    if (!loop)
        QVERIFY2(error.contains(u"--event-loop must be epoll or qt"_s), qPrintable(error));
}

void TestServerOptions::jwtKeys()
{
    const JwtKeyFiles files;
    QString error;
    const auto none = parseArgs({ u"--generate"_s, u"3"_s }, &error);
    QVERIFY2(none, qPrintable(error));
    QVERIFY(!none->config.jwt);

    const auto options
        = parseArgs({ u"--generate"_s, u"3"_s, u"--jwt-hs256-secret-file"_s, files.secret,
                        u"--jwt-public-key-file"_s, u"2026-12="_s + files.publicKey },
            &error);
    QVERIFY2(options, qPrintable(error));
    QVERIFY(options->config.jwt);
    const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::system_clock::now().time_since_epoch());
    const QJsonObject claims = Presence::TestSupport::JwtMinter::claims(u"user1"_s, 60);
    // The secret without a kid, the public key only by its kid or none.
    QVERIFY(options->config.jwt->verify(files.hs.mint(claims), now).claims);
    QVERIFY(options->config.jwt->verify(files.es.mint(claims, u"2026-12"_s), now).claims);
    QVERIFY(options->config.jwt->verify(files.es.mint(claims), now).claims);
    QVERIFY(!options->config.jwt->verify(files.hs.mint(claims, u"2026-12"_s), now).claims);
}

void TestServerOptions::friendsFromRedisNeedNoUsersFile()
{
    const JwtKeyFiles files;
    QString error;
    const auto alone = parseArgs({ u"--friends-from-redis"_s, u"--redis"_s, u"redis://h"_s,
                                     u"--jwt-hs256-secret-file"_s, files.secret },
        &error);
    QVERIFY2(alone, qPrintable(error));
    QVERIFY(alone->friendsFromRedis);
    QVERIFY(alone->usersFile.isEmpty());
    QVERIFY(!alone->generateCount);
    // Beside a users file too.
    const auto both
        = parseArgs({ u"--users"_s, u"people.json"_s, u"--friends-from-redis"_s, u"--redis"_s,
                        u"redis://h"_s, u"--jwt-hs256-secret-file"_s, files.secret },
            &error);
    QVERIFY2(both, qPrintable(error));
    QCOMPARE(both->usersFile, u"people.json"_s);
    // Without it, a population is still needed.
    QVERIFY(!parseArgs(
        { u"--redis"_s, u"redis://h"_s, u"--jwt-hs256-secret-file"_s, files.secret }, &error));
    QCOMPARE(error, u"give --users FILE or --generate N"_s);
}

void TestServerOptions::configFileGivesWhatTheCommandLineDoesNot()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"gateway.ini"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("generate = 5\nfriends = 3\nlisten = 127.0.0.1:0\nevent-loop = qt\n"
               "allow-origin = https://a.example, https://b.example\n");
    file.close();
    QString error;
    const auto options = parseArgs({ u"--config"_s, path, u"--friends"_s, u"2"_s }, &error);
    QVERIFY2(options, qPrintable(error));
    QCOMPARE(options->action, ServerOptions::Action::Run);
    QCOMPARE(options->generateCount, 5);
    QCOMPARE(options->friendsPerUser, 2); // the command line wins
    QCOMPARE(options->config.port, 0);
    QCOMPARE(options->config.allowedOrigins,
        (QStringList { u"https://a.example"_s, u"https://b.example"_s }));
    QCOMPARE(options->eventLoop, ServerOptions::EventLoop::Qt);
    QCOMPARE(options->config.drain, 10s); // the default
    QCOMPARE(options->logFormat, ServerOptions::LogFormat::Text);
    const auto tuned = parseArgs(
        { u"--config"_s, path, u"--drain-ms"_s, u"0"_s, u"--log-format"_s, u"json"_s }, &error);
    QVERIFY2(tuned, qPrintable(error));
    QCOMPARE(tuned->config.drain, 0ms);
    QCOMPARE(tuned->logFormat, ServerOptions::LogFormat::Json);
    QVERIFY(!parseArgs({ u"--config"_s, path, u"--log-format"_s, u"xml"_s }, &error));
    QCOMPARE(error, u"--log-format must be text or json (got \"xml\")"_s);
    // Read before the application exists, from the same file.
    QCOMPARE(ServerOptions::eventLoopFromArguments(
                 { u"presence-mock-server"_s, u"--config"_s, path }, &error),
        ServerOptions::EventLoop::Qt);
    const auto check = parseArgs({ u"--config"_s, path, u"--check-config"_s }, &error);
    QVERIFY2(check, qPrintable(error));
    QCOMPARE(check->action, ServerOptions::Action::CheckConfig);
    // A value the command line would refuse is refused alike.
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write("generate = 0\n");
    file.close();
    QVERIFY(!parseArgs({ u"--config"_s, path }, &error));
    QCOMPARE(error, u"--generate must be an integer from 1 to 1000000 (got \"0\")"_s);
}

void TestServerOptions::rejectsBadJwtKeys_data()
{
    static const JwtKeyFiles files;
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("error");
    const QStringList gen { u"--generate"_s, u"3"_s };
    QTest::addRow("missing file") << gen + QStringList { u"--jwt-public-key-file"_s, files.missing }
                                  << u"--jwt-public-key-file %1: No such file or directory"_s.arg(
                                         files.missing);
    QTest::addRow("short secret")
        << gen + QStringList { u"--jwt-hs256-secret-file"_s, files.shortSecret }
        << u"--jwt-hs256-secret-file %1: an HS256 secret must be at least 32 bytes (it has 9)"_s
               .arg(files.shortSecret);
    QTest::addRow("a secret as a public key")
        << gen + QStringList { u"--jwt-public-key-file"_s, files.secret }
        << u"--jwt-public-key-file %1: no PEM public key (-----BEGIN PUBLIC KEY-----)"_s.arg(
               files.secret);
    QTest::addRow("no file after the kid")
        << gen + QStringList { u"--jwt-public-key-file"_s, u"k1="_s }
        << u"--jwt-public-key-file needs a file (got \"k1=\")"_s;
    QTest::addRow("one kid twice") << gen
            + QStringList { u"--jwt-hs256-secret-file"_s, u"k1="_s + files.secret,
                  u"--jwt-public-key-file"_s, u"k1="_s + files.publicKey }
                                   << u"--jwt-public-key-file: kid \"k1\" is given to two keys"_s;
}

void TestServerOptions::rejectsBadJwtKeys()
{
    QFETCH(QStringList, args);
    QFETCH(QString, error);
    QString problem;
    QVERIFY(!parseArgs(args, &problem));
    QCOMPARE(problem, error);
}

QTEST_GUILESS_MAIN(TestServerOptions)
#include "tst_server_options.moc"
