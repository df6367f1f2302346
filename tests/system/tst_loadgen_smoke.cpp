// The smoke run of the gateway benchmark's load generator (bench/loadgen, presence-loadgen)
// against the real presence-mock-server: a few hundred connections sign in, subscribe to their
// friends (or watch them through the availability set in presence batches) and change status
// for a few seconds, and every push must reach every watcher. A gateway that loses pushes must
// make it fail.

// C++
#include <chrono>
#include <optional>

// Qt
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

// Presence
#include "tests/harness/EventLoopWait.h"
#include "tests/harness/MockServerProcess.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

constexpr int kUsers = 300;
constexpr int kFriends = 20;

} // namespace

class TestLoadgenSmoke : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void everyPushArrives();
    void everyChangeArrivesInBatches();
    void lostPushesFail();
    void slowReadersAreDropped();

private:
    // Starts `server` on a free port with a generated population dumped to m_dir (and `extra`
    // arguments); its ws:// URL, or an empty one.
    QUrl startGateway(MockServerProcess &server, const QStringList &extra);
    // Runs presence-loadgen against `url` for `seconds` of changes; its exit code and the JSON
    // line it ends with.
    std::optional<QJsonObject> runLoadgen(const QUrl &url, qint64 gatewayPid, int seconds,
        int *exitCode, QByteArray *output, const QStringList &extra = {});

    QTemporaryDir m_dir;
};

void TestLoadgenSmoke::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

QUrl TestLoadgenSmoke::startGateway(MockServerProcess &server, const QStringList &extra)
{
    const QStringList args = QStringList { u"--listen"_s, u"127.0.0.1:0"_s, u"--generate"_s,
        QString::number(kUsers), u"--friends"_s, QString::number(kFriends), u"--dump-users"_s,
        m_dir.filePath(u"users.json"_s) }
        + extra;
    if (!server.start(args) || !server.waitListening())
        return {};
    return server.url();
}

std::optional<QJsonObject> TestLoadgenSmoke::runLoadgen(const QUrl &url, qint64 gatewayPid,
    int seconds, int *exitCode, QByteArray *output, const QStringList &extra)
{
    QProcess loadgen;
    loadgen.setProcessChannelMode(QProcess::MergedChannels);
    loadgen.start(QStringLiteral(PRESENCE_LOADGEN),
        QStringList { u"--url"_s, url.toString(), u"--users"_s, m_dir.filePath(u"users.json"_s),
            u"--rate"_s, u"200"_s, u"--seconds"_s, QString::number(seconds), u"--drain-timeout"_s,
            u"3"_s, u"--gateway-pid"_s, QString::number(gatewayPid) }
            + extra);
    if (!loadgen.waitForStarted(10'000))
        return std::nullopt;
    // The event loop keeps running meanwhile, so the gateway's output never fills its pipe.
    if (!Harness::waitUntil([&] { return loadgen.state() == QProcess::NotRunning; }, 60s)) {
        loadgen.kill();
        loadgen.waitForFinished();
        return std::nullopt;
    }
    *output = loadgen.readAll();
    *exitCode = loadgen.exitCode();
    const QByteArray json = output->trimmed().split('\n').constLast();
    const QJsonDocument document = QJsonDocument::fromJson(json);
    if (!document.isObject())
        return std::nullopt;
    return document.object();
}

void TestLoadgenSmoke::everyPushArrives()
{
    MockServerProcess server(QStringLiteral(PRESENCE_MOCK_SERVER));
    const QUrl url = startGateway(server, {});
    QVERIFY2(url.isValid(), server.transcript().constData());

    int exitCode = -1;
    QByteArray output;
    const auto result = runLoadgen(url, server.pid(), 3, &exitCode, &output);
    QVERIFY2(result, output.constData());
    QVERIFY2(exitCode == 0, output.constData());
    QCOMPARE(result->value(u"ready"_s).toInt(), kUsers);
    QCOMPARE(result->value(u"subscriptions"_s).toInt(), kUsers * kFriends);
    // About 200 changes per second for 3 s, each pushed to the user's 20 friends.
    QVERIFY2(result->value(u"changes"_s).toInt() >= 400, output.constData());
    QCOMPARE(result->value(u"expected"_s).toInt(), result->value(u"changes"_s).toInt() * kFriends);
    QCOMPARE(result->value(u"received"_s).toInt(), result->value(u"expected"_s).toInt());
    QCOMPARE(result->value(u"lost"_s).toInt(), 0);
    QVERIFY(result->value(u"p99_ms"_s).toDouble() > 0);
    QVERIFY(result->value(u"gateway_rss_per_connection_kib"_s).toDouble() > 0);
    QVERIFY(server.isRunning());
}

// Every change reaches every friend as an entry of a presence_batch: a user changes again only
// once each watcher has had the change before, so no entry is ever skipped for a newer one.
void TestLoadgenSmoke::everyChangeArrivesInBatches()
{
    MockServerProcess server(QStringLiteral(PRESENCE_MOCK_SERVER));
    const QUrl url = startGateway(server, {});
    QVERIFY2(url.isValid(), server.transcript().constData());

    int exitCode = -1;
    QByteArray output;
    const auto result = runLoadgen(
        url, server.pid(), 3, &exitCode, &output, { u"--presence-batch-ms"_s, u"50"_s });
    QVERIFY2(result, output.constData());
    QVERIFY2(exitCode == 0, output.constData());
    QCOMPARE(result->value(u"ready"_s).toInt(), kUsers);
    QCOMPARE(result->value(u"subscriptions"_s).toInt(), kUsers * kFriends);
    QVERIFY2(result->value(u"changes"_s).toInt() >= 400, output.constData());
    QCOMPARE(result->value(u"received"_s).toInt(), result->value(u"expected"_s).toInt());
    QCOMPARE(result->value(u"lost"_s).toInt(), 0);
    // Held back for up to one window: the median change waits about half of it.
    QVERIFY2(result->value(u"p50_ms"_s).toDouble() > 5, output.constData());
}

void TestLoadgenSmoke::lostPushesFail()
{
    // The gateway's `lose` fault: user0's changes are published but never pushed.
    const QString scenario = m_dir.filePath(u"lose.jsonl"_s);
    QFile file(scenario);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(
        R"({"at": 0, "do": "fault", "id": "lose", "fault": {"kind": "lose", "user": "user0"}})"
        "\n");
    file.close();
    MockServerProcess server(QStringLiteral(PRESENCE_MOCK_SERVER));
    const QUrl url = startGateway(server, { u"--scenario"_s, scenario });
    QVERIFY2(url.isValid(), server.transcript().constData());

    int exitCode = -1;
    QByteArray output;
    const auto result = runLoadgen(url, server.pid(), 2, &exitCode, &output);
    QVERIFY2(result, output.constData());
    QCOMPARE(exitCode, 1);
    QCOMPARE(result->value(u"lost"_s).toInt(), kFriends);
    QCOMPARE(result->value(u"passed"_s).toBool(), false);
}

// Slow readers stop reading and keep asking: the gateway drops each at its output bound, and
// every push still reaches everyone else.
void TestLoadgenSmoke::slowReadersAreDropped()
{
    MockServerProcess server(QStringLiteral(PRESENCE_MOCK_SERVER));
    const QUrl url = startGateway(server, {});
    QVERIFY2(url.isValid(), server.transcript().constData());

    int exitCode = -1;
    QByteArray output;
    const auto result
        = runLoadgen(url, server.pid(), 8, &exitCode, &output, { u"--slow-readers"_s, u"3"_s });
    QVERIFY2(result, output.constData());
    QVERIFY2(exitCode == 0, output.constData());
    QCOMPARE(result->value(u"slow_readers"_s).toInt(), 3);
    QVERIFY2(result->value(u"slow_readers_dropped"_s).toInt() == 3, output.constData());
    QVERIFY(result->value(u"slow_reader_drop_max_s"_s).toDouble() > 0);
    QCOMPARE(result->value(u"closed"_s).toInt(), 0);
    QCOMPARE(result->value(u"received"_s).toInt(), result->value(u"expected"_s).toInt());
    QCOMPARE(result->value(u"lost"_s).toInt(), 0);
    QVERIFY(server.isRunning());
}

QTEST_GUILESS_MAIN(TestLoadgenSmoke)
#include "tst_loadgen_smoke.moc"
