// Abuse of the gateway's own WebSocket transport over real loopback sockets: frames a client
// must not send, at the byte level (bad JSON and shapes, deep nesting, huge strings, frames
// over the limit, binary, invalid UTF-8, a message never finished, a continuation without a
// start, reserved opcodes and RSV bits, unmasked frames, oversized control frames, a ping
// flood). Each gets its documented answer (docs/protocol.md §5, §6), the gateway stays up, and
// a well-behaved client on the same gateway keeps its subscriptions, its pushes in order and
// its round-trip time.

// C++
#include <algorithm>
#include <chrono>
#include <vector>

// Qt
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

// Presence
#include "GatewayFixture.h"
#include "RawWebSocketPeer.h"
#include "TestClient.h"

using namespace Qt::StringLiterals;
using Presence::Server::GatewayConfig;

namespace {

constexpr int kMaxFrameBytes = 65536;

QList<TestUser> population()
{
    return { { u"alice"_s, { u"bob"_s } }, { u"bob"_s, {} }, { u"carol"_s, { u"bob"_s } } };
}

// Median round trip of `count` pings, in microseconds.
qint64 medianRoundTripUs(TestClient &client, int count)
{
    std::vector<qint64> samples;
    for (int i = 0; i < count; ++i) {
        QElapsedTimer clock;
        clock.start();
        const QJsonObject pong = client.request({ { "type"_L1, "ping"_L1 } });
        if (pong.value("type"_L1).toString() != u"pong")
            return -1;
        samples.push_back(clock.nsecsElapsed() / 1000);
    }
    std::nth_element(samples.begin(), samples.begin() + count / 2, samples.end());
    return samples[size_t(count / 2)];
}

QByteArray nested(int levels)
{
    return "{\"type\":\"subscribe\",\"ids\":" + QByteArray(levels, '[') + QByteArray(levels, ']')
        + "}";
}

} // namespace

class TestGatewayAbuse : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void badFramesGetTheirAnswerAndHarmNobodyElse_data();
    void badFramesGetTheirAnswerAndHarmNobodyElse();
};

void TestGatewayAbuse::badFramesGetTheirAnswerAndHarmNobodyElse_data()
{
    // misdeed: what the raw client sends after its welcome; answer: "error CODE" (an error
    // frame, the connection stays open), "close CODE", or "nothing" (open, no answer).
    QTest::addColumn<QString>("misdeed");
    QTest::addColumn<QString>("answer");
    QTest::newRow("not JSON") << u"not json"_s << u"error bad_request"_s;
    QTest::newRow("JSON of the wrong shape") << u"array"_s << u"error bad_request"_s;
    QTest::newRow("10,000 levels of nesting") << u"deep"_s << u"error bad_request"_s;
    QTest::newRow("a huge string") << u"huge string"_s << u"error bad_request"_s;
    QTest::newRow("a frame over the limit") << u"oversized"_s << u"close 1009"_s;
    QTest::newRow("a binary frame") << u"binary"_s << u"error bad_request"_s;
    QTest::newRow("invalid UTF-8") << u"invalid utf-8"_s << u"close 1007"_s;
    QTest::newRow("a message never finished") << u"unfinished"_s << u"nothing"_s;
    QTest::newRow("a continuation without a start") << u"continuation"_s << u"close 1002"_s;
    QTest::newRow("a reserved data opcode") << u"opcode 3"_s << u"close 1002"_s;
    QTest::newRow("a reserved control opcode") << u"opcode 11"_s << u"close 1002"_s;
    QTest::newRow("an RSV bit") << u"rsv1"_s << u"close 1002"_s;
    QTest::newRow("an unmasked frame") << u"unmasked"_s << u"close 1002"_s;
    QTest::newRow("a control frame over 125 bytes") << u"big ping"_s << u"close 1002"_s;
    QTest::newRow("a fragmented control frame") << u"fragmented ping"_s << u"close 1002"_s;
    QTest::newRow("a ping flood") << u"ping flood"_s << u"close 4029"_s;
}

void TestGatewayAbuse::badFramesGetTheirAnswerAndHarmNobodyElse()
{
    QFETCH(QString, misdeed);
    QFETCH(QString, answer);
    GatewayConfig config = testConfig();
    config.maxFrameBytes = kMaxFrameBytes;
    const auto gateway = startGateway(population(), config);
    QVERIFY(gateway);

    // carol behaves: she watches bob, and her round trip is measured before and after.
    TestClient carol;
    QVERIFY(!carol.login(gateway->url(), tokenOf(u"carol"_s)).isEmpty());
    QCOMPARE(carol.request({ { "type"_L1, "subscribe"_L1 }, { "ids"_L1, QJsonArray { u"bob"_s } } })
                 .value("type"_L1)
                 .toString(),
        u"snapshot"_s);
    const qint64 before = medianRoundTripUs(carol, 21);
    QVERIFY(before > 0);

    RawWebSocketPeer alice;
    QVERIFY(alice.connectAndHandshake(gateway->url().port()));
    alice.sendText(QJsonDocument(
        QJsonObject { { "type"_L1, "hello"_L1 }, { "token"_L1, tokenOf(u"alice"_s) },
            { "protocol"_L1,
                1 } }).toJson(QJsonDocument::Compact));
    QTRY_VERIFY(!alice.texts().isEmpty());
    QVERIFY2(alice.texts().first().contains("\"welcome\""), alice.texts().first().constData());
    const qsizetype answered = alice.texts().size();

    constexpr quint8 kFin = 0x80;
    if (misdeed == u"not json") {
        alice.sendText("{not json");
    } else if (misdeed == u"array") {
        alice.sendText("[1,2,3]");
    } else if (misdeed == u"deep") {
        alice.sendText(nested(10'000));
    } else if (misdeed == u"huge string") {
        alice.sendText(
            "{\"type\":\"ping\",\"ref\":\"" + QByteArray(kMaxFrameBytes - 64, 'r') + "\"}");
    } else if (misdeed == u"oversized") {
        alice.sendText(QByteArray(kMaxFrameBytes + 1, 'x'));
    } else if (misdeed == u"binary") {
        alice.sendFrame(kFin | 0x2, "{\"type\":\"ping\"}");
    } else if (misdeed == u"invalid utf-8") {
        alice.sendText("{\"type\":\"ping\",\"ref\":\"\xc3\x28\"}");
    } else if (misdeed == u"unfinished") {
        alice.sendFrame(0x1, "{\"type\":\"pi");
    } else if (misdeed == u"continuation") {
        alice.sendFrame(kFin | 0x0, "ng\"}");
    } else if (misdeed == u"opcode 3") {
        alice.sendFrame(kFin | 0x3, "x");
    } else if (misdeed == u"opcode 11") {
        alice.sendFrame(kFin | 0xB, "x");
    } else if (misdeed == u"rsv1") {
        alice.sendFrame(kFin | 0x40 | 0x1, "{\"type\":\"ping\"}");
    } else if (misdeed == u"unmasked") {
        alice.sendFrame(kFin | 0x1, "{\"type\":\"ping\"}", false);
    } else if (misdeed == u"big ping") {
        alice.sendFrame(kFin | 0x9, QByteArray(126, 'p'));
    } else if (misdeed == u"fragmented ping") {
        alice.sendFrame(0x9, "p");
    } else if (misdeed == u"ping flood") {
        for (int i = 0; i < 2000; ++i)
            alice.sendFrame(kFin | 0x9, QByteArray(100, 'p'));
    } else {
        QFAIL(qPrintable(u"unknown misdeed "_s + misdeed));
    }

    if (answer.startsWith(u"close ")) {
        QVERIFY(alice.waitForCloseOrDrop(5000));
        QCOMPARE(alice.closeCode().value_or(-1), answer.mid(6).toInt());
        QTRY_COMPARE(gateway->subscriptionsOfUser(u"alice"_s), QStringList());
    } else if (answer.startsWith(u"error ")) {
        QTRY_VERIFY(alice.texts().size() > answered);
        const QJsonObject error = QJsonDocument::fromJson(alice.texts().at(answered)).object();
        QCOMPARE(error.value("type"_L1).toString(), u"error"_s);
        QCOMPARE(error.value("code"_L1).toString(), answer.mid(6));
        QVERIFY(!alice.dropped());
    }

    // bob comes online and changes his status: carol hears both, in order, whatever alice did.
    TestClient bob;
    QVERIFY(!bob.login(gateway->url(), tokenOf(u"bob"_s)).isEmpty());
    QJsonObject presence = carol.waitFor(u"presence"_s);
    QCOMPARE(presence.value("status"_L1).toString(), u"online"_s);
    QCOMPARE(presence.value("seq"_L1).toInteger(), 1);
    QCOMPARE(bob.request({ { "type"_L1, "set_status"_L1 }, { "status"_L1, "away"_L1 } })
                 .value("type"_L1)
                 .toString(),
        u"ok"_s);
    presence = carol.waitFor(u"presence"_s);
    QCOMPARE(presence.value("status"_L1).toString(), u"away"_s);
    QCOMPARE(presence.value("seq"_L1).toInteger(), 2);
    QCOMPARE(gateway->subscriptionsOfUser(u"carol"_s), QStringList { u"bob"_s });

    if (answer == u"nothing") {
        // Still connected and unanswered: the unfinished message waits for its end.
        QCOMPARE(alice.texts().size(), answered);
        QVERIFY(!alice.dropped());
        QVERIFY(!alice.closeCode());
    }

    // carol's round trip after the abuse: the gateway is not wedged or still busy with alice.
    // An order of magnitude, not a figure: a loaded machine moves the median by milliseconds,
    // a gateway still working through alice's frames by tenths of a second per ping.
    const qint64 after = medianRoundTripUs(carol, 21);
    QVERIFY(after > 0);
    QVERIFY2(after <= 10 * before + 100'000,
        qPrintable(u"round trip %1 us after, %2 us before"_s.arg(after).arg(before)));
}

QTEST_GUILESS_MAIN(TestGatewayAbuse)
#include "tst_gateway_abuse.moc"
