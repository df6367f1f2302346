// ConnectionOptions: what each connection is served and allowed, and how long the gateway
// waits, read from a real command line into the gateway's config; every value within its
// range, or refused naming the option.

// C++
#include <optional>

// Qt
#include <QTest>

// Presence
#include "server-mock/app/ConnectionOptions.h"
#include "server-mock/app/ServerCommandLine.h"
#include "server-mock/server/GatewayConfig.h"

using namespace Qt::StringLiterals;
using namespace Presence::Server;
using namespace std::chrono_literals;

namespace {

std::optional<GatewayConfig> read(const QStringList &args, QString *error)
{
    ServerCommandLine line;
    if (!line.parse(QStringList { u"presence-mock-server"_s } + args, error))
        return std::nullopt;
    GatewayConfig config;
    if (!ConnectionOptions::read(line, config, error))
        return std::nullopt;
    return config;
}

} // namespace

class TestConnectionOptions : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void nothingGivenKeepsTheDefaults();
    void everyOptionIsRead();
    void outOfRange_data();
    void outOfRange();
};

void TestConnectionOptions::nothingGivenKeepsTheDefaults()
{
    QString error;
    const auto config = read({}, &error);
    QVERIFY2(config, qPrintable(error));
    const GatewayConfig defaults;
    QCOMPARE(config->grace, defaults.grace);
    QCOMPARE(config->heartbeat, defaults.heartbeat);
    QCOMPARE(config->helloTimeout, defaults.helloTimeout);
    QCOMPARE(config->drain, defaults.drain);
    QCOMPARE(config->maxSubscriptions, defaults.maxSubscriptions);
    QCOMPARE(config->maxFrameBytes, defaults.maxFrameBytes);
    QCOMPARE(config->maxFramesPerSecond, defaults.maxFramesPerSecond);
    QCOMPARE(config->digestInterval, defaults.digestInterval);
    QVERIFY(config->chat);
}

void TestConnectionOptions::everyOptionIsRead()
{
    QString error;
    const auto config
        = read({ u"--grace-ms=0"_s, u"--heartbeat-ms=1000"_s, u"--hello-timeout-ms=200"_s,
                   u"--drain-ms=0"_s, u"--no-chat"_s, u"--max-subscriptions=9"_s,
                   u"--max-ids-per-request=3"_s, u"--max-availability-friends=0"_s,
                   u"--digest-interval-ms=0"_s, u"--availability-interval-ms=10"_s,
                   u"--max-frame-bytes=2048"_s, u"--rate-limit=5"_s, u"--rate-burst=6"_s },
            &error);
    QVERIFY2(config, qPrintable(error));
    QCOMPARE(config->grace, 0ms);
    QCOMPARE(config->heartbeat, 1000ms);
    QCOMPARE(config->helloTimeout, 200ms);
    QCOMPARE(config->drain, 0ms);
    QVERIFY(!config->chat);
    QCOMPARE(config->maxSubscriptions, 9);
    QCOMPARE(config->maxIdsPerRequest, 3);
    QCOMPARE(config->maxAvailabilityFriends, 0);
    QCOMPARE(config->digestInterval, 0ms);
    QCOMPARE(config->availabilityInterval, 10ms);
    QCOMPARE(config->maxFrameBytes, 2048);
    QCOMPARE(config->maxFramesPerSecond, 5);
    QCOMPARE(config->frameBurst, 6);
}

void TestConnectionOptions::outOfRange_data()
{
    QTest::addColumn<QString>("option");
    QTest::addRow("heartbeat") << u"--heartbeat-ms=99"_s;
    QTest::addRow("hello") << u"--hello-timeout-ms=x"_s;
    QTest::addRow("grace") << u"--grace-ms=-1"_s;
    QTest::addRow("subscriptions") << u"--max-subscriptions=0"_s;
    QTest::addRow("availability interval") << u"--availability-interval-ms=60001"_s;
    QTest::addRow("frame") << u"--max-frame-bytes=1023"_s;
    QTest::addRow("burst") << u"--rate-burst=0"_s;
}

void TestConnectionOptions::outOfRange()
{
    QFETCH(QString, option);
    QString error;
    QVERIFY(!read({ option }, &error));
    const QString name = option.section(u'=', 0, 0);
    const QString value = option.section(u'=', 1);
    QVERIFY2(error.startsWith(name + u" must be an integer from "_s), qPrintable(error));
    QVERIFY2(error.endsWith(u"(got \"%1\")"_s.arg(value)), qPrintable(error));
}

QTEST_MAIN(TestConnectionOptions)
#include "tst_connection_options.moc"
