// RedisUrl: the redis:// URLs the gateway's --redis takes (host, IPv4, IPv6 in brackets, port,
// database), each refusal in words, and toString(), which parses back to the same URL.

// Qt
#include <QTest>

// Presence
#include "server-mock/redis/client/RedisUrl.h"

using namespace Qt::StringLiterals;
using Presence::Server::RedisUrl;

class TestRedisUrl : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parseUrl_data();
    void parseUrl();
    void urlToString();
};

void TestRedisUrl::parseUrl_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::addColumn<int>("db");
    QTest::addColumn<QString>("error");

    QTest::addRow("ipv4, port, db")
        << u"redis://127.0.0.1:6380/2"_s << u"127.0.0.1"_s << 6380 << 2 << QString();
    QTest::addRow("name alone") << u"redis://localhost"_s << u"localhost"_s << 6379 << 0
                                << QString();
    QTest::addRow("name and port")
        << u"redis://redis.example.com:7000"_s << u"redis.example.com"_s << 7000 << 0 << QString();
    QTest::addRow("container name")
        << u"redis://presence_redis-1:6379/0"_s << u"presence_redis-1"_s << 6379 << 0 << QString();
    QTest::addRow("ipv6") << u"redis://[::1]:6390/15"_s << u"::1"_s << 6390 << 15 << QString();
    QTest::addRow("ipv6 alone") << u"redis://[::1]"_s << u"::1"_s << 6379 << 0 << QString();
    QTest::addRow("scheme in capitals, trailing slash")
        << u"REDIS://Cache/"_s << u"Cache"_s << 6379 << 0 << QString();
    QTest::addRow("highest port") << u"redis://10.0.0.1:65535/0"_s << u"10.0.0.1"_s << 65535 << 0
                                  << QString();

    const auto bad = [](const char *name, const QString &text, const QString &error) {
        QTest::addRow("%s", name) << text << QString() << 0 << 0 << error;
    };
    bad("empty", u""_s, u"must look like redis://HOST[:PORT][/DB] (got \"\")"_s);
    bad("no scheme", u"localhost:6379"_s,
        u"must look like redis://HOST[:PORT][/DB] (got \"localhost:6379\")"_s);
    bad("tls", u"rediss://host:6380"_s,
        u"unsupported scheme \"rediss\" (only redis:// is supported)"_s);
    bad("http", u"http://host"_s, u"unsupported scheme \"http\" (only redis:// is supported)"_s);
    bad("nothing after the scheme", u"redis://"_s, u"missing host"_s);
    bad("port without host", u"redis://:6379"_s, u"missing host"_s);
    bad("port 0", u"redis://host:0"_s, u"port must be a number from 1 to 65535 (got \"0\")"_s);
    bad("port too high", u"redis://host:65536"_s,
        u"port must be a number from 1 to 65535 (got \"65536\")"_s);
    bad("empty port", u"redis://host:"_s, u"port must be a number from 1 to 65535 (got \"\")"_s);
    bad("signed port", u"redis://host:+80"_s,
        u"port must be a number from 1 to 65535 (got \"+80\")"_s);
    bad("port with letters", u"redis://host:80x/1"_s,
        u"port must be a number from 1 to 65535 (got \"80x\")"_s);
    bad("db too high", u"redis://host/16"_s,
        u"database must be a number from 0 to 15 (got \"16\")"_s);
    bad("negative db", u"redis://host/-1"_s,
        u"database must be a number from 0 to 15 (got \"-1\")"_s);
    bad("db with a path", u"redis://host/1/2"_s,
        u"database must be a number from 0 to 15 (got \"1/2\")"_s);
    bad("db by name", u"redis://host:6379/presence"_s,
        u"database must be a number from 0 to 15 (got \"presence\")"_s);
    bad("ipv6 without brackets", u"redis://::1:6379"_s,
        u"an IPv6 address must be in brackets, as in redis://[::1]:6379"_s);
    bad("unclosed bracket", u"redis://[::1:6379"_s, u"missing ']' after the IPv6 address"_s);
    bad("name in brackets", u"redis://[redis]:6379"_s, u"\"redis\" is not an IPv6 address"_s);
    bad("ipv4 in brackets", u"redis://[127.0.0.1]:6379"_s,
        u"\"127.0.0.1\" is not an IPv6 address"_s);
    bad("junk after brackets", u"redis://[::1]6379"_s,
        u"unexpected \"6379\" after the IPv6 address"_s);
    bad("ipv4 out of range", u"redis://300.1.1.1"_s, u"\"300.1.1.1\" is not an IPv4 address"_s);
    bad("ipv4 too short", u"redis://10.0.0:6379"_s, u"\"10.0.0\" is not an IPv4 address"_s);
    bad("space in name", u"redis://bad host"_s, u"\"bad host\" is not a valid host name"_s);
    bad("label starting with a dash", u"redis://-cache.example"_s,
        u"\"-cache.example\" is not a valid host name"_s);
    bad("password", u"redis://user:secret@host:6379"_s,
        u"user names and passwords are not supported"_s);
    bad("options", u"redis://host:6379?db=1"_s, u"options after '?' or '#' are not supported"_s);
}

void TestRedisUrl::parseUrl()
{
    QFETCH(QString, text);
    QFETCH(QString, host);
    QFETCH(int, port);
    QFETCH(int, db);
    QFETCH(QString, error);

    QString message = u"untouched"_s;
    const auto url = RedisUrl::parse(text, &message);
    if (!error.isEmpty()) {
        QVERIFY(!url);
        QCOMPARE(message, error);
        return;
    }
    QVERIFY2(url, qPrintable(message));
    QCOMPARE(url->host, host);
    QCOMPARE(int(url->port), port);
    QCOMPARE(url->db, db);
}

void TestRedisUrl::urlToString()
{
    QCOMPARE(
        RedisUrl::parse(u"redis://[::1]:6390/15", nullptr)->toString(), u"redis://[::1]:6390/15"_s);
    QCOMPARE(
        RedisUrl::parse(u"redis://localhost", nullptr)->toString(), u"redis://localhost:6379/0"_s);
    // What toString() gives parses back to the same URL.
    const RedisUrl url { u"10.1.2.3"_s, 7001, 4 };
    QVERIFY(RedisUrl::parse(url.toString(), nullptr) == url);
    // An IPv6 zone that reads like a placeholder stays itself (found by fuzz_redis_url: the
    // port took the place of "%1").
    const auto zoned = RedisUrl::parse(u"redis://[::%1]:7000/3", nullptr);
    QVERIFY(zoned);
    QCOMPARE(zoned->toString(), u"redis://[::%1]:7000/3"_s);
    QVERIFY(RedisUrl::parse(zoned->toString(), nullptr) == *zoned);
}

QTEST_GUILESS_MAIN(TestRedisUrl)
#include "tst_redis_url.moc"
