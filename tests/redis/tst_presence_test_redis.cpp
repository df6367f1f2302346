// presence-test-redis, the test command's one redis-server, run as the command runs it: it
// prints the URL of a server that answers, and the server goes with it however it is told to
// stop (its input closed, SIGTERM), so a test run leaves no redis-server behind.
// Qt
#include <QProcess>
#include <QTcpSocket>
#include <QTest>

// Presence
#include "server-mock/redis/client/RedisUrl.h"

using namespace Qt::StringLiterals;
using Presence::Server::RedisUrl;

namespace {

// Whether something accepts connections at the URL's address.
bool answers(const RedisUrl &url)
{
    QTcpSocket socket;
    socket.connectToHost(url.host, url.port);
    return socket.waitForConnected(2000);
}

// The starter, running, with the URL it printed.
struct Starter {
    Starter() { process.start(QStringLiteral(PRESENCE_TEST_REDIS), {}); }
    ~Starter()
    {
        process.kill();
        process.waitForFinished();
    }
    // Reads the first line it prints: the server's URL.
    [[nodiscard]] std::optional<RedisUrl> url()
    {
        if (!process.waitForStarted())
            return std::nullopt;
        while (!process.canReadLine()) {
            if (!process.waitForReadyRead(10000))
                return std::nullopt;
        }
        QString error;
        return RedisUrl::parse(QString::fromUtf8(process.readLine()).trimmed(), &error);
    }
    // Waits for it to end; true when it ended by itself with status 0.
    [[nodiscard]] bool endsCleanly()
    {
        return process.waitForFinished(10000) && process.exitStatus() == QProcess::NormalExit
            && process.exitCode() == 0;
    }

    QProcess process;
};

} // namespace

class TestPresenceTestRedis : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void theServerGoesWhenItsInputCloses();
    void theServerGoesOnSigterm();
    void anArgumentIsRefused();
};

void TestPresenceTestRedis::theServerGoesWhenItsInputCloses()
{
    Starter starter;
    const auto url = starter.url();
    QVERIFY2(url, qPrintable(starter.process.errorString()));
    QCOMPARE(url->host, u"127.0.0.1"_s);
    QVERIFY(answers(*url));
    starter.process.closeWriteChannel(); // the test command ended
    QVERIFY(starter.endsCleanly());
    QVERIFY(!answers(*url));
}

void TestPresenceTestRedis::theServerGoesOnSigterm()
{
    Starter starter;
    const auto url = starter.url();
    QVERIFY2(url, qPrintable(starter.process.errorString()));
    QVERIFY(answers(*url));
    starter.process.terminate();
    QVERIFY(starter.endsCleanly());
    QVERIFY(!answers(*url));
}

void TestPresenceTestRedis::anArgumentIsRefused()
{
    QProcess process;
    process.start(QStringLiteral(PRESENCE_TEST_REDIS), { u"--port=6379"_s });
    QVERIFY(process.waitForFinished(10000));
    QCOMPARE(process.exitCode(), 2);
    QVERIFY(process.readAllStandardError().startsWith("usage: presence-test-redis"));
}

QTEST_GUILESS_MAIN(TestPresenceTestRedis)
#include "tst_presence_test_redis.moc"
