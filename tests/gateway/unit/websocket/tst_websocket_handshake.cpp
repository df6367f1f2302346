// WebSocketHandshake: the opening handshake of RFC 6455 §4.2 from the server's side: the RFC's
// own example, what an upgrade may look like, what is refused and with which HTTP status, a
// head that is still arriving, and one that is too large.

// Qt
#include <QTest>

// Presence
#include "server-mock/websocket/WebSocketHandshake.h"

using Presence::Server::WebSocketHandshake;
using Verdict = WebSocketHandshake::Verdict;
using namespace Qt::StringLiterals;

class TestWebSocketHandshake : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void rfcExample();
    void acceptKey();
    void accepts_data();
    void accepts();
    void refuses_data();
    void refuses();
    void incompleteUntilTheBlankLine();
    void framesAfterTheHeadAreNotPartOfIt();
    void tooLarge();
    void refusalIsACompleteResponse();
};

namespace {

constexpr qsizetype kMaxHead = 8192;

// RFC 6455 §1.3.
const QByteArray kRfcRequest = "GET /chat HTTP/1.1\r\n"
                               "Host: server.example.com\r\n"
                               "Upgrade: websocket\r\n"
                               "Connection: Upgrade\r\n"
                               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                               "Origin: http://example.com\r\n"
                               "Sec-WebSocket-Protocol: chat, superchat\r\n"
                               "Sec-WebSocket-Version: 13\r\n"
                               "\r\n"_ba;

// A valid upgrade with `lines` instead of the standard header lines of the same names.
QByteArray request(const QByteArray &requestLine, const QList<QByteArray> &replaced,
    const QList<QByteArray> &added = {})
{
    QList<QByteArray> lines { "Host: localhost:8080", "Upgrade: websocket", "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13" };
    for (const QByteArray &name : replaced) {
        lines.removeIf([&name](const QByteArray &line) { return line.startsWith(name + ':'); });
    }
    lines += added;
    return requestLine + "\r\n" + lines.join("\r\n") + (lines.isEmpty() ? "" : "\r\n") + "\r\n";
}

QByteArray get(const QList<QByteArray> &replaced = {}, const QList<QByteArray> &added = {})
{
    return request("GET /ws HTTP/1.1", replaced, added);
}

// The status line, Content-Length against the body, and the headers of a response.
void checkResponse(const QByteArray &response, int status)
{
    QVERIFY2(
        response.startsWith("HTTP/1.1 " + QByteArray::number(status) + ' '), response.constData());
    const qsizetype headEnd = response.indexOf("\r\n\r\n");
    QVERIFY(headEnd > 0);
    if (status == 101)
        return;
    const QByteArray body = response.sliced(headEnd + 4);
    QVERIFY2(response.contains("\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n"),
        response.constData());
    QVERIFY(response.contains("\r\nConnection: close\r\n"));
}

} // namespace

void TestWebSocketHandshake::rfcExample()
{
    const WebSocketHandshake handshake = WebSocketHandshake::read(kRfcRequest, kMaxHead);
    QCOMPARE(handshake.verdict, Verdict::Accepted);
    QCOMPARE(handshake.status, 101);
    QCOMPARE(handshake.response,
        "HTTP/1.1 101 Switching Protocols\r\n"
        "Upgrade: websocket\r\n"
        "Connection: Upgrade\r\n"
        "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"
        "\r\n"_ba);
    QCOMPARE(handshake.headSize, kRfcRequest.size());
    QCOMPARE(handshake.path, "/chat"_ba);
    QCOMPARE(handshake.origin, u"http://example.com"_s);
}

void TestWebSocketHandshake::acceptKey()
{
    QCOMPARE(WebSocketHandshake::acceptKey("dGhlIHNhbXBsZSBub25jZQ=="),
        "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="_ba);
}

void TestWebSocketHandshake::accepts_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArray>("path");
    QTest::addColumn<QString>("origin");

    QTest::addRow("plain") << get() << "/ws"_ba << QString();
    QTest::addRow("path with a query")
        << request("GET /ws?v=2 HTTP/1.1", {}) << "/ws?v=2"_ba << QString();
    QTest::addRow("names and tokens in any case")
        << get({ "Upgrade", "Connection", "Sec-WebSocket-Version" },
               { "upgrade: WebSocket", "CONNECTION: UPGRADE", "sec-websocket-version: 13" })
        << "/ws"_ba << QString();
    QTest::addRow("Connection as a list")
        << get({ "Connection" }, { "Connection: keep-alive, Upgrade" }) << "/ws"_ba << QString();
    QTest::addRow("Connection over two fields")
        << get({ "Connection" }, { "Connection: keep-alive", "Connection: Upgrade" }) << "/ws"_ba
        << QString();
    QTest::addRow("Upgrade as a list")
        << get({ "Upgrade" }, { "Upgrade: h2c, websocket" }) << "/ws"_ba << QString();
    QTest::addRow("whitespace around values")
        << get({ "Sec-WebSocket-Key" }, { "Sec-WebSocket-Key: \t dGhlIHNhbXBsZSBub25jZQ== " })
        << "/ws"_ba << QString();
    QTest::addRow("origin") << get({}, { "Origin: https://chat.example" }) << "/ws"_ba
                            << u"https://chat.example"_s;
    QTest::addRow("extensions and protocols are not chosen")
        << get({}, { "Sec-WebSocket-Extensions: permessage-deflate", "Sec-WebSocket-Protocol: x" })
        << "/ws"_ba << QString();
    QTest::addRow("bare LF line ends") << get().replace("\r\n", "\n") << "/ws"_ba << QString();
    QTest::addRow("an empty line first") << "\r\n" + get() << "/ws"_ba << QString();
}

void TestWebSocketHandshake::accepts()
{
    QFETCH(QByteArray, input);
    QFETCH(QByteArray, path);
    QFETCH(QString, origin);

    const WebSocketHandshake handshake = WebSocketHandshake::read(input, kMaxHead);
    QVERIFY2(handshake.verdict == Verdict::Accepted, qPrintable(handshake.problem));
    checkResponse(handshake.response, 101);
    QVERIFY(
        handshake.response.contains("\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"));
    QVERIFY(!handshake.response.contains("Sec-WebSocket-Protocol"));
    QVERIFY(!handshake.response.contains("Sec-WebSocket-Extensions"));
    QCOMPARE(handshake.headSize, input.size());
    QCOMPARE(handshake.path, path);
    QCOMPARE(handshake.origin, origin);
}

void TestWebSocketHandshake::refuses_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("header"); // a header the refusal must carry

    const QByteArray upgradeRequired = "Upgrade: websocket\r\n";
    const QByteArray version13 = "Sec-WebSocket-Version: 13\r\n";
    // A plain HTTP request on the WebSocket port: 426, saying what to upgrade to.
    QTest::addRow("plain GET") << "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"_ba << 426
                               << upgradeRequired;
    QTest::addRow("plain POST") << "POST /api HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"_ba
                                << 426 << upgradeRequired;
    QTest::addRow("plain HTTP/1.0") << "GET / HTTP/1.0\r\n\r\n"_ba << 426 << upgradeRequired;
    QTest::addRow("upgrade to something else")
        << get({ "Upgrade" }, { "Upgrade: h2c" }) << 426 << upgradeRequired;
    // Versions: 426 with the one spoken here.
    QTest::addRow("version 8") << get({ "Sec-WebSocket-Version" }, { "Sec-WebSocket-Version: 8" })
                               << 426 << version13;
    QTest::addRow("no version") << get({ "Sec-WebSocket-Version" }) << 426 << version13;
    QTest::addRow("two versions") << get({}, { "Sec-WebSocket-Version: 13" }) << 426 << version13;
    QTest::addRow("version list") << get(
        { "Sec-WebSocket-Version" }, { "Sec-WebSocket-Version: 13, 8" })
                                  << 426 << version13;
    // Everything else: 400.
    QTest::addRow("HTTP/1.0 upgrade") << request("GET /ws HTTP/1.0", {}) << 400 << QByteArray();
    QTest::addRow("POST upgrade") << request("POST /ws HTTP/1.1", {}) << 400 << QByteArray();
    QTest::addRow("no Connection upgrade")
        << get({ "Connection" }, { "Connection: keep-alive" }) << 400 << QByteArray();
    QTest::addRow("no Connection") << get({ "Connection" }) << 400 << QByteArray();
    QTest::addRow("no Host") << get({ "Host" }) << 400 << QByteArray();
    QTest::addRow("no key") << get({ "Sec-WebSocket-Key" }) << 400 << QByteArray();
    QTest::addRow("empty key") << get({ "Sec-WebSocket-Key" }, { "Sec-WebSocket-Key:" }) << 400
                               << QByteArray();
    QTest::addRow("key not base64")
        << get({ "Sec-WebSocket-Key" }, { "Sec-WebSocket-Key: !!!!" }) << 400 << QByteArray();
    QTest::addRow("key of 15 bytes")
        << get({ "Sec-WebSocket-Key" }, { "Sec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAA" }) << 400
        << QByteArray();
    QTest::addRow("key of 17 bytes")
        << get({ "Sec-WebSocket-Key" }, { "Sec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAAAAA=" }) << 400
        << QByteArray();
    QTest::addRow("two keys") << get({}, { "Sec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAAAA==" }) << 400
                              << QByteArray();
    QTest::addRow("request line of two parts") << request("GET /ws", {}) << 400 << QByteArray();
    QTest::addRow("request line of four parts")
        << request("GET /ws HTTP/1.1 x", {}) << 400 << QByteArray();
    QTest::addRow("header without a colon") << get({}, { "Broken" }) << 400 << QByteArray();
    QTest::addRow("folded header") << get({}, { "X-Long: a", " folded" }) << 400 << QByteArray();
}

void TestWebSocketHandshake::refuses()
{
    QFETCH(QByteArray, input);
    QFETCH(int, status);
    QFETCH(QByteArray, header);

    const WebSocketHandshake handshake = WebSocketHandshake::read(input, kMaxHead);
    QCOMPARE(handshake.verdict, Verdict::Refused);
    QCOMPARE(handshake.status, status);
    QVERIFY(!handshake.problem.isEmpty());
    checkResponse(handshake.response, status);
    QVERIFY2(handshake.response.contains("\r\n" + header), handshake.response.constData());
    QVERIFY(!handshake.response.contains("Sec-WebSocket-Accept"));
}

void TestWebSocketHandshake::incompleteUntilTheBlankLine()
{
    for (qsizetype size = 0; size < kRfcRequest.size(); ++size) {
        const WebSocketHandshake handshake
            = WebSocketHandshake::read(kRfcRequest.first(size), kMaxHead);
        QVERIFY2(handshake.verdict == Verdict::Incomplete, qPrintable(QString::number(size)));
        QVERIFY(handshake.response.isEmpty());
    }
}

void TestWebSocketHandshake::framesAfterTheHeadAreNotPartOfIt()
{
    // A client may send its first frame right behind the request.
    const QByteArray frame("\x81\x85\x37\xfa\x21\x3d\x7f\x9f\x4d\x51\x58");
    const WebSocketHandshake handshake = WebSocketHandshake::read(kRfcRequest + frame, kMaxHead);
    QCOMPARE(handshake.verdict, Verdict::Accepted);
    QCOMPARE(handshake.headSize, kRfcRequest.size());
}

void TestWebSocketHandshake::tooLarge()
{
    const QByteArray padded = get({}, { "X-Pad: " + QByteArray(200, 'p') });
    QCOMPARE(WebSocketHandshake::read(padded, padded.size()).verdict, Verdict::Accepted);

    const WebSocketHandshake over = WebSocketHandshake::read(padded, padded.size() - 1);
    QCOMPARE(over.verdict, Verdict::Refused);
    QCOMPARE(over.status, 431);
    checkResponse(over.response, 431);

    // Slowloris never ends its head: refused once it passes the limit, without a blank line.
    const QByteArray endless = "GET / HTTP/1.1\r\nX-Slow: " + QByteArray(100, 's');
    QCOMPARE(WebSocketHandshake::read(endless, 200).verdict, Verdict::Incomplete);
    QCOMPARE(WebSocketHandshake::read(endless, 100).status, 431);
}

void TestWebSocketHandshake::refusalIsACompleteResponse()
{
    const QByteArray response = WebSocketHandshake::refusal(403, "origin not allowed\n");
    QCOMPARE(response,
        "HTTP/1.1 403 Forbidden\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n"
        "Content-Length: 19\r\n"
        "Connection: close\r\n"
        "\r\n"
        "origin not allowed\n"_ba);
    checkResponse(WebSocketHandshake::refusal(503, "full\n", "Retry-After: 5\r\n"), 503);
    QVERIFY(WebSocketHandshake::refusal(503, "", "Retry-After: 5\r\n")
                .contains("\r\nRetry-After: 5\r\n\r\n"));
}

QTEST_APPLESS_MAIN(TestWebSocketHandshake)
#include "tst_websocket_handshake.moc"
