// RedisOptions: presence, chats and friends in a shared Redis, read from a real command line:
// the URL, the key prefix, the liveness TTL, the store's grace taken from the connections'
// options, and the options that make sense only with --redis.

// C++
#include <optional>

// Qt
#include <QTest>

// Presence
#include "server-mock/app/RedisOptions.h"
#include "server-mock/app/ServerCommandLine.h"
#include "server-mock/app/ServerOptions.h"

using namespace Qt::StringLiterals;
using namespace Presence::Server;
using namespace std::chrono_literals;

namespace {

std::optional<ServerOptions> read(const QStringList &args, QString *error)
{
    ServerCommandLine line;
    if (!line.parse(QStringList { u"presence-mock-server"_s } + args, error))
        return std::nullopt;
    ServerOptions options;
    options.config.grace = 1234ms; // as ConnectionOptions read it
    if (!RedisOptions::read(line, options, error))
        return std::nullopt;
    return options;
}

} // namespace

class TestRedisOptions : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void inMemoryWithoutRedis();
    void everyOptionIsRead();
    void refusals_data();
    void refusals();
};

void TestRedisOptions::inMemoryWithoutRedis()
{
    QString error;
    const auto options = read({}, &error);
    QVERIFY2(options, qPrintable(error));
    QVERIFY(!options->redis);
    QVERIFY(!options->friendsFromRedis);
}

void TestRedisOptions::everyOptionIsRead()
{
    QString error;
    const auto options = read({ u"--redis=redis://10.0.0.2:6380/3"_s, u"--redis-prefix=gw:"_s,
                                  u"--ttl-ms=9000"_s, u"--friends-from-redis"_s },
        &error);
    QVERIFY2(options, qPrintable(error));
    QVERIFY(options->redis);
    QCOMPARE(options->redis->url.host, u"10.0.0.2"_s);
    QCOMPARE(options->redis->url.port, quint16(6380));
    QCOMPARE(options->redis->url.db, 3);
    QCOMPARE(options->redis->prefix, "gw:"_ba);
    QCOMPARE(options->redis->ttl, 9000ms);
    QCOMPARE(options->redis->grace, 1234ms);
    QVERIFY(options->friendsFromRedis);

    const auto defaults = read({ u"--redis=redis://h"_s }, &error);
    QVERIFY2(defaults, qPrintable(error));
    QCOMPARE(defaults->redis->prefix, "presence:"_ba);
    QCOMPARE(defaults->redis->ttl, 30'000ms);
}

void TestRedisOptions::refusals_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected");
    QTest::addRow("not a URL") << QStringList { u"--redis=nonsense"_s } << u"--redis: "_s;
    QTest::addRow("a prefix with a space") << QStringList { u"--redis=redis://h"_s,
        u"--redis-prefix=a b"_s } << u"--redis-prefix must be 1 to 64 printable ASCII"_s;
    QTest::addRow("a TTL too short") << QStringList { u"--redis=redis://h"_s, u"--ttl-ms=299"_s }
                                     << u"--ttl-ms must be an integer from 300"_s;
    QTest::addRow("a prefix without Redis") << QStringList { u"--redis-prefix=x:"_s }
                                            << u"--redis-prefix and --ttl-ms go with --redis"_s;
    QTest::addRow("a TTL without Redis")
        << QStringList { u"--ttl-ms=1000"_s } << u"--redis-prefix and --ttl-ms go with --redis"_s;
    QTest::addRow("friends without Redis")
        << QStringList { u"--friends-from-redis"_s } << u"--friends-from-redis goes with --redis"_s;
}

void TestRedisOptions::refusals()
{
    QFETCH(QStringList, args);
    QFETCH(QString, expected);
    QString error;
    QVERIFY(!read(args, &error));
    QVERIFY2(error.contains(expected), qPrintable(error));
}

QTEST_MAIN(TestRedisOptions)
#include "tst_redis_options.moc"
