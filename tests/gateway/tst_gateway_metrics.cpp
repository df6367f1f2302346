// The gateway's metrics (issue 6): real clients do things over loopback, then the exposition the
// gateway renders is parsed strictly (PrometheusText) and every count checked against what the
// test did.

// C++
#include <memory>

// Qt
#include <QJsonArray>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QTest>

// Presence
#include "GatewayFixture.h"
#include "PresenceFrames.h"
#include "PrometheusText.h"
#include "TestClient.h"
#include "protocol/FrameTypes.h"
#include "server-mock/server/GatewayMetrics.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace Presence::Server;
using Presence::Protocol::ChosenStatus;
using Presence::TestSupport::PrometheusText;

namespace {

std::unique_ptr<TestClient> login(const Gateway &gateway, const QString &id)
{
    auto client = std::make_unique<TestClient>();
    if (client->login(gateway.url(), tokenOf(id)).isEmpty())
        return nullptr;
    return client;
}

std::optional<PrometheusText> scrape(Gateway &gateway)
{
    QString error;
    auto text = PrometheusText::parse(gateway.metrics().render(), &error);
    if (!text)
        qWarning("metrics do not parse: %s", qPrintable(error));
    return text;
}

double valueOf(const PrometheusText &text, const QByteArray &name,
    const Presence::TestSupport::PrometheusLabels &labels = {})
{
    return text.value(name, labels).value_or(-1);
}

} // namespace

class TestGatewayMetrics : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QLoggingCategory::setFilterRules(u"presence.*.info=false"_s); }
    void freshGatewayExportsZeros();
    void countsWhatClientsDo();
    void everyProtocolTypeHasItsOwnLabel();
    void madeUpTypesDoNotGrowTheSeries();
    void closesAreCountedByCode();
};

void TestGatewayMetrics::freshGatewayExportsZeros()
{
    const auto gateway = startQaGateway(PresenceFrames::fivePeople());
    QVERIFY(gateway);
    const auto text = scrape(*gateway);
    QVERIFY(text);
    for (const char *name : { "presence_connections", "presence_authenticated_connections",
             "presence_authenticated_users", "presence_subscriptions", "presence_watched_users",
             "presence_simulated_devices", "presence_faults_running",
             "presence_changes_published_total", "presence_pushes_sent_total",
             "presence_chat_messages_total", "presence_push_latency_seconds_count",
             "presence_tcp_connections" })
        QCOMPARE(valueOf(*text, name), 0.0);
    // Every refusal's reason from the start.
    for (const char *reason : { "unavailable", "full", "address_full", "upgrades_pending",
             "descriptor_limit", "bad_upgrade", "origin", "upgrade_timeout" })
        QCOMPARE(valueOf(*text, "presence_connections_refused_total",
                     { { "reason", QString::fromLatin1(reason) } }),
            0.0);
    QCOMPARE(text->family("presence_connections")->type, "gauge");
    QCOMPARE(text->family("presence_frames_in_total")->type, "counter");
    QCOMPARE(text->family("presence_push_latency_seconds")->type, "histogram");
}

void TestGatewayMetrics::countsWhatClientsDo()
{
    const auto gateway = startQaGateway(PresenceFrames::fivePeople());
    QVERIFY(gateway);
    auto alice = login(*gateway, u"alice"_s);
    auto carol = login(*gateway, u"carol"_s);
    QVERIFY(alice && carol);
    QCOMPARE(alice
                 ->request({ { "type"_L1, "subscribe"_L1 },
                     { "ids"_L1, QJsonArray { "bob"_L1, "carol"_L1, "dave"_L1 } } })
                 .value("type"_L1)
                 .toString(),
        u"snapshot"_s);
    QCOMPARE(
        carol->request({ { "type"_L1, "subscribe"_L1 }, { "ids"_L1, QJsonArray { "bob"_L1 } } })
            .value("type"_L1)
            .toString(),
        u"snapshot"_s);
    // bob comes online (a simulated device): one change, two watchers, two pushes.
    gateway->simulatedUsers().setStatus(u"bob"_s, ChosenStatus::Online);
    QVERIFY(!alice->waitFor(u"presence"_s).isEmpty());
    QVERIFY(!carol->waitFor(u"presence"_s).isEmpty());
    QCOMPARE(alice->request({ { "type"_L1, "ping"_L1 } }).value("type"_L1).toString(), u"pong"_s);
    alice->sendText(u"{not json"_s);
    QCOMPARE(alice->waitFor(u"error"_s).value("code"_L1).toString(), u"bad_request"_s);
    const QJsonObject sent = alice->request(
        { { "type"_L1, "message"_L1 }, { "to"_L1, "carol"_L1 }, { "text"_L1, "hi"_L1 } });
    QCOMPARE(sent.value("type"_L1).toString(), u"ok"_s);
    QVERIFY(!carol->waitFor(u"message"_s).isEmpty());
    // The recent chats and a read marker count under their own names.
    QCOMPARE(alice->request({ { "type"_L1, "conversations"_L1 } }).value("type"_L1).toString(),
        u"conversations"_s);
    QCOMPARE(alice
                 ->request({ { "type"_L1, "read"_L1 }, { "with"_L1, "carol"_L1 },
                     { "up_to"_L1, sent.value("id"_L1) } })
                 .value("type"_L1)
                 .toString(),
        u"ok"_s);
    QVERIFY(!alice->waitFor(u"read_marker"_s).isEmpty());

    const auto text = scrape(*gateway);
    QVERIFY(text);
    QCOMPARE(valueOf(*text, "presence_connections"), 2.0);
    QCOMPARE(valueOf(*text, "presence_authenticated_connections"), 2.0);
    QCOMPARE(valueOf(*text, "presence_authenticated_users"), 2.0);
    QCOMPARE(valueOf(*text, "presence_subscriptions"), 3.0); // dave is not alice's friend
    QCOMPARE(valueOf(*text, "presence_watched_users"), 2.0); // bob and carol
    QCOMPARE(valueOf(*text, "presence_simulated_devices"), 1.0);
    QCOMPARE(valueOf(*text, "presence_frames_in_total", { { "type", u"hello"_s } }), 2.0);
    QCOMPARE(valueOf(*text, "presence_frames_in_total", { { "type", u"subscribe"_s } }), 2.0);
    QCOMPARE(valueOf(*text, "presence_frames_in_total", { { "type", u"ping"_s } }), 1.0);
    QCOMPARE(valueOf(*text, "presence_frames_in_total", { { "type", u"invalid"_s } }), 1.0);
    QCOMPARE(valueOf(*text, "presence_frames_in_total", { { "type", u"message"_s } }), 1.0);
    QCOMPARE(valueOf(*text, "presence_frames_out_total", { { "type", u"welcome"_s } }), 2.0);
    QCOMPARE(valueOf(*text, "presence_frames_out_total", { { "type", u"snapshot"_s } }), 2.0);
    QCOMPARE(valueOf(*text, "presence_frames_out_total", { { "type", u"presence"_s } }), 2.0);
    QCOMPARE(valueOf(*text, "presence_frames_out_total", { { "type", u"pong"_s } }), 1.0);
    QCOMPARE(valueOf(*text, "presence_frames_out_total", { { "type", u"error"_s } }), 1.0);
    QCOMPARE(valueOf(*text, "presence_frames_out_total", { { "type", u"ok"_s } }), 2.0);
    QCOMPARE(valueOf(*text, "presence_frames_in_total", { { "type", u"conversations"_s } }), 1.0);
    QCOMPARE(valueOf(*text, "presence_frames_in_total", { { "type", u"read"_s } }), 1.0);
    QCOMPARE(valueOf(*text, "presence_frames_out_total", { { "type", u"conversations"_s } }), 1.0);
    QCOMPARE(valueOf(*text, "presence_frames_out_total", { { "type", u"read_marker"_s } }), 1.0);
    QCOMPARE(valueOf(*text, "presence_frames_out_total", { { "type", u"message"_s } }), 1.0);
    QCOMPARE(valueOf(*text, "presence_errors_total", { { "code", u"bad_request"_s } }), 1.0);
    // alice's and carol's sign-ins were published too (nobody watched them).
    QCOMPARE(valueOf(*text, "presence_changes_published_total"), 3.0);
    QCOMPARE(valueOf(*text, "presence_pushes_sent_total"), 2.0);
    QCOMPARE(valueOf(*text, "presence_chat_messages_total"), 1.0);
    QCOMPARE(valueOf(*text, "presence_push_latency_seconds_count"), 2.0);
    QCOMPARE(valueOf(*text, "presence_push_latency_seconds_bucket", { { "le", u"+Inf"_s } }), 2.0);
    QVERIFY(valueOf(*text, "presence_push_latency_seconds_sum") >= 0.0);
}

void TestGatewayMetrics::everyProtocolTypeHasItsOwnLabel()
{
    // Walks the protocol's own lists: a type it defines is never hidden under "other" (refresh
    // and token_expiring once were).
    GatewayMetrics metrics;
    for (const QString &type : Presence::Protocol::clientFrameTypes())
        metrics.frameIn(type);
    for (const QString &type : Presence::Protocol::serverFrameTypes())
        metrics.frameOut(type);
    QString error;
    const auto text = PrometheusText::parse(metrics.render(), &error);
    QVERIFY2(text, qPrintable(error));
    for (const QString &type : Presence::Protocol::clientFrameTypes())
        QVERIFY2(valueOf(*text, "presence_frames_in_total", { { "type", type } }) == 1.0,
            qPrintable(type));
    for (const QString &type : Presence::Protocol::serverFrameTypes())
        QVERIFY2(valueOf(*text, "presence_frames_out_total", { { "type", type } }) == 1.0,
            qPrintable(type));
    QCOMPARE(valueOf(*text, "presence_frames_in_total", { { "type", u"other"_s } }), -1.0);
    QCOMPARE(valueOf(*text, "presence_frames_out_total", { { "type", u"other"_s } }), -1.0);
}

void TestGatewayMetrics::madeUpTypesDoNotGrowTheSeries()
{
    const auto gateway = startGateway(PresenceFrames::fivePeople());
    QVERIFY(gateway);
    auto alice = login(*gateway, u"alice"_s);
    QVERIFY(alice);
    for (int i = 0; i < 20; ++i) {
        alice->sendJson({ { "type"_L1, u"made_up_%1"_s.arg(i) } });
        QCOMPARE(alice->waitFor(u"error"_s).value("code"_L1).toString(), u"unknown_type"_s);
    }
    const auto text = scrape(*gateway);
    QVERIFY(text);
    QCOMPARE(valueOf(*text, "presence_frames_in_total", { { "type", u"other"_s } }), 20.0);
    QCOMPARE(valueOf(*text, "presence_errors_total", { { "code", u"unknown_type"_s } }), 20.0);
    // hello and other: nothing else.
    QCOMPARE(text->family("presence_frames_in_total")->samples.size(), 2);
}

void TestGatewayMetrics::closesAreCountedByCode()
{
    const auto gateway = startQaGateway(PresenceFrames::fivePeople());
    QVERIFY(gateway);
    auto alice = login(*gateway, u"alice"_s);
    auto bob = login(*gateway, u"bob"_s);
    auto carol = login(*gateway, u"carol"_s);
    QVERIFY(alice && bob && carol);
    alice->socket().close(QWebSocketProtocol::CloseCodeNormal);
    QVERIFY(alice->waitDisconnected());
    bob->socket().close(QWebSocketProtocol::CloseCode(4999), u"a code of its own"_s);
    QVERIFY(bob->waitDisconnected());
    // No close frame at all: dropped by a fault.
    FaultSpec drop;
    drop.kind = FaultKind::Drop;
    drop.user = u"carol"_s;
    QVERIFY(!gateway->faults().start(drop).isEmpty());
    QVERIFY(carol->waitDisconnected());
    QTRY_COMPARE(gateway->connectionCount(), 0);

    const auto text = scrape(*gateway);
    QVERIFY(text);
    QCOMPARE(valueOf(*text, "presence_closes_total", { { "code", u"1000"_s } }), 1.0);
    QCOMPARE(valueOf(*text, "presence_closes_total", { { "code", u"other"_s } }), 1.0);
    QCOMPARE(valueOf(*text, "presence_closes_total", { { "code", u"1006"_s } }), 1.0);
    QCOMPARE(valueOf(*text, "presence_connections"), 0.0);
}

QTEST_GUILESS_MAIN(TestGatewayMetrics)
#include "tst_gateway_metrics.moc"
