// HttpRequestHead: the HTTP/1.x request head the admin API and the WebSocket upgrade both read,
// from bytes: what a head is made of, a head still arriving, what is malformed, both limits,
// and comma lists in field values.

// C++
#include <algorithm>

// Qt
#include <QTest>

// Presence
#include "server-mock/httphead/HttpRequestHead.h"

using Presence::Server::HttpRequestHead;
using Verdict = HttpRequestHead::Verdict;
using namespace Qt::StringLiterals;

class TestHttpRequestHead : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void readsTheHead();
    void accepts_data();
    void accepts();
    void incompleteUntilTheBlankLine();
    void malformed_data();
    void malformed();
    void keepsWhatCameBeforeTheFault();
    void tooManyBytes();
    void tooManyFields();
    void listHas_data();
    void listHas();
};

namespace {

constexpr HttpRequestHead::Limits kLimits { .maxHeadBytes = 8192, .maxHeaderFields = 10 };

const QByteArray kRequest = "POST /api/presence?ids=a,b HTTP/1.1\r\n"
                            "Host: localhost:8081\r\n"
                            "content-length:  2 \r\n"
                            "X-Empty:\r\n"
                            "\r\n"_ba;

// The fields of a head as "name=value" strings, for a readable comparison.
QList<QByteArray> fieldsOf(const HttpRequestHead &head)
{
    QList<QByteArray> fields;
    for (const auto &[name, value] : head.fields)
        fields.append(name.toByteArray() + '=' + value.toByteArray());
    return fields;
}

} // namespace

void TestHttpRequestHead::readsTheHead()
{
    // The body (or a WebSocket frame) after the blank line is not part of the head.
    const QByteArray buffered = kRequest + "{}";
    const HttpRequestHead head = HttpRequestHead::read(buffered, kLimits);
    QCOMPARE(head.verdict, Verdict::Complete);
    QVERIFY(head.problem.isEmpty());
    QCOMPARE(head.size, kRequest.size());
    QVERIFY(head.hasRequestLine);
    QCOMPARE(head.method.toByteArray(), "POST"_ba);
    QCOMPARE(head.target.toByteArray(), "/api/presence?ids=a,b"_ba);
    QCOMPARE(head.version.toByteArray(), "HTTP/1.1"_ba);
    // Names as sent, values without the whitespace around them.
    QCOMPARE(fieldsOf(head),
        QList<QByteArray>({ "Host=localhost:8081", "content-length=2", "X-Empty=" }));
}

void TestHttpRequestHead::accepts_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArray>("version");
    QTest::addColumn<QList<QByteArray>>("fields");

    QTest::addRow("no fields") << "GET / HTTP/1.0\r\n\r\n"_ba
                               << "HTTP/1.0"_ba << QList<QByteArray>();
    QTest::addRow("bare LF line ends") << "GET / HTTP/1.1\nHost: x\n\n"_ba
                                       << "HTTP/1.1"_ba << QList<QByteArray>({ "Host=x" });
    // RFC 9112 §2.2: a server ignores empty lines before the request line.
    QTest::addRow("empty lines first") << "\r\n\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n"_ba
                                       << "HTTP/1.1"_ba << QList<QByteArray>({ "Host=x" });
    QTest::addRow("tabs around a value") << "GET / HTTP/1.1\r\nX-A:\t a b \t\r\n\r\n"_ba
                                         << "HTTP/1.1"_ba << QList<QByteArray>({ "X-A=a b" });
    QTest::addRow("repeated fields kept in order")
        << "GET / HTTP/1.1\r\nX-A: 1\r\nx-a: 2\r\n\r\n"_ba
        << "HTTP/1.1"_ba << QList<QByteArray>({ "X-A=1", "x-a=2" });
    QTest::addRow("bytes past ASCII in a value")
        << "GET / HTTP/1.1\r\nX-Name: J\xc3\xa9r\xc3\xb4me\r\n\r\n"_ba
        << "HTTP/1.1"_ba << QList<QByteArray>({ "X-Name=J\xc3\xa9r\xc3\xb4me" });
    // The version is the reader's to judge: 426 on the WebSocket port, 400 on the admin API.
    QTest::addRow("another version") << "GET / HTTP/2.0\r\n\r\n"_ba
                                     << "HTTP/2.0"_ba << QList<QByteArray>();
    QTest::addRow("no version") << "GET / \r\n\r\n"_ba << QByteArray() << QList<QByteArray>();
}

void TestHttpRequestHead::accepts()
{
    QFETCH(QByteArray, input);
    QFETCH(QByteArray, version);
    QFETCH(QList<QByteArray>, fields);

    const HttpRequestHead head = HttpRequestHead::read(input, kLimits);
    QVERIFY2(head.verdict == Verdict::Complete, qPrintable(head.problem));
    QCOMPARE(head.size, input.size());
    QCOMPARE(head.method.toByteArray(), "GET"_ba);
    QCOMPARE(head.target.toByteArray(), "/"_ba);
    QCOMPARE(head.version.toByteArray(), version);
    QCOMPARE(fieldsOf(head), fields);
}

void TestHttpRequestHead::incompleteUntilTheBlankLine()
{
    // Cut at every position: never complete early, and what is whole so far is read.
    const qsizetype requestLineEnd = kRequest.indexOf('\n') + 1;
    for (qsizetype size = 0; size < kRequest.size(); ++size) {
        const HttpRequestHead head = HttpRequestHead::read(kRequest.first(size), kLimits);
        QVERIFY2(head.verdict == Verdict::Incomplete, qPrintable(QString::number(size)));
        QCOMPARE(head.size, qsizetype(0));
        QCOMPARE(head.hasRequestLine, size >= requestLineEnd);
        const qsizetype wholeFields = kRequest.first(size).count('\n') - 1;
        QCOMPARE(head.fields.size(), std::max<qsizetype>(0, wholeFields));
    }
}

void TestHttpRequestHead::malformed_data()
{
    QTest::addColumn<QByteArray>("input");

    QTest::addRow("request line of two parts") << "GET /\r\n\r\n"_ba;
    QTest::addRow("request line of four parts") << "GET / HTTP/1.1 x\r\n\r\n"_ba;
    QTest::addRow("no target") << "GET  HTTP/1.1\r\n\r\n"_ba;
    QTest::addRow("two spaces") << "GET  / HTTP/1.1\r\n\r\n"_ba;
    QTest::addRow("method not a token") << "GE(T / HTTP/1.1\r\n\r\n"_ba;
    QTest::addRow("TLS hello") << "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n"_ba;
    QTest::addRow("header without a colon") << "GET / HTTP/1.1\r\nHost\r\n\r\n"_ba;
    QTest::addRow("empty name") << "GET / HTTP/1.1\r\n: x\r\n\r\n"_ba;
    QTest::addRow("space in a name") << "GET / HTTP/1.1\r\nX A: 1\r\n\r\n"_ba;
    QTest::addRow("space before the colon") << "GET / HTTP/1.1\r\nHost : x\r\n\r\n"_ba;
    QTest::addRow("line folding") << "GET / HTTP/1.1\r\nX-A: 1\r\n 2\r\n\r\n"_ba;
    // Control characters smuggle line ends past readers that see them differently.
    QTest::addRow("NUL in a value") << "GET / HTTP/1.1\r\nX-A: a\0b\r\n\r\n"_ba;
    QTest::addRow("CR in a value") << "GET / HTTP/1.1\r\nX-A: a\rb\r\n\r\n"_ba;
    QTest::addRow("DEL in a value") << "GET / HTTP/1.1\r\nX-A: a\x7f\r\n\r\n"_ba;
    QTest::addRow("control character in the target") << "GET /\x01 HTTP/1.1\r\n\r\n"_ba;
}

void TestHttpRequestHead::malformed()
{
    QFETCH(QByteArray, input);

    const HttpRequestHead head = HttpRequestHead::read(input, kLimits);
    QCOMPARE(head.verdict, Verdict::Malformed);
    QVERIFY(!head.problem.isEmpty());
    // Refused as soon as the line at fault is whole, without waiting for the blank line.
    const HttpRequestHead early = HttpRequestHead::read(input.chopped(2), kLimits);
    QCOMPARE(early.verdict, Verdict::Malformed);
}

void TestHttpRequestHead::keepsWhatCameBeforeTheFault()
{
    // A reader judges the fields before the fault first (the admin API refuses a bad
    // Content-Length as it arrives): they stay in the answer.
    const HttpRequestHead head = HttpRequestHead::read(
        "PUT /x HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nBroken\r\nX-After: 1\r\n\r\n"_ba,
        kLimits);
    QCOMPARE(head.verdict, Verdict::Malformed);
    QVERIFY(head.hasRequestLine);
    QCOMPARE(head.method.toByteArray(), "PUT"_ba);
    QCOMPARE(fieldsOf(head), QList<QByteArray>({ "Host=h", "Content-Length=3" }));

    const HttpRequestHead badLine = HttpRequestHead::read("GET /\r\nHost: h\r\n\r\n"_ba, kLimits);
    QCOMPARE(badLine.verdict, Verdict::Malformed);
    QVERIFY(!badLine.hasRequestLine);
    QVERIFY(badLine.fields.isEmpty());
}

void TestHttpRequestHead::tooManyBytes()
{
    const QByteArray padded = "GET / HTTP/1.1\r\nX-Pad: " + QByteArray(200, 'p') + "\r\n\r\n";
    const HttpRequestHead::Limits exact { .maxHeadBytes = padded.size(), .maxHeaderFields = 10 };
    QCOMPARE(HttpRequestHead::read(padded, exact).verdict, Verdict::Complete);

    const HttpRequestHead::Limits under { .maxHeadBytes = padded.size() - 1,
        .maxHeaderFields = 10 };
    const HttpRequestHead over = HttpRequestHead::read(padded, under);
    QCOMPARE(over.verdict, Verdict::TooLarge);
    QVERIFY(over.problem.contains(QString::number(under.maxHeadBytes)));

    // Slowloris never ends its line: refused once it passes the limit, without a newline.
    const QByteArray endless = "GET / HTTP/1.1\r\nX-Slow: " + QByteArray(100, 's');
    QCOMPARE(HttpRequestHead::read(endless, { .maxHeadBytes = 200, .maxHeaderFields = 10 }).verdict,
        Verdict::Incomplete);
    QCOMPARE(HttpRequestHead::read(endless, { .maxHeadBytes = 100, .maxHeaderFields = 10 }).verdict,
        Verdict::TooLarge);
    // Nor may empty lines before the request line go on for ever.
    QCOMPARE(
        HttpRequestHead::read(QByteArray(101, '\n'), { .maxHeadBytes = 100, .maxHeaderFields = 10 })
            .verdict,
        Verdict::TooLarge);
}

void TestHttpRequestHead::tooManyFields()
{
    QByteArray head = "GET / HTTP/1.1\r\n"_ba;
    for (int i = 0; i < 10; ++i)
        head += "X-F" + QByteArray::number(i) + ": v\r\n";
    QCOMPARE(HttpRequestHead::read(head + "\r\n", kLimits).verdict, Verdict::Complete);

    // The eleventh is refused as soon as it is whole.
    const HttpRequestHead over = HttpRequestHead::read(head + "X-F10: v\r\n", kLimits);
    QCOMPARE(over.verdict, Verdict::TooLarge);
    QVERIFY(over.problem.contains(u"10"_s));
    QCOMPARE(over.fields.size(), qsizetype(kLimits.maxHeaderFields));
}

void TestHttpRequestHead::listHas_data()
{
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<bool>("has");

    QTest::addRow("alone") << "Upgrade"_ba << true;
    QTest::addRow("any case") << "UPGRADE"_ba << true;
    QTest::addRow("in a list") << "keep-alive, Upgrade"_ba << true;
    QTest::addRow("whitespace around items") << "keep-alive ,\tupgrade\t, close"_ba << true;
    QTest::addRow("empty items") << ",,upgrade,"_ba << true;
    QTest::addRow("not there") << "keep-alive"_ba << false;
    QTest::addRow("part of an item") << "upgrades, h2c"_ba << false;
    QTest::addRow("inside an item") << "x-upgrade"_ba << false;
    QTest::addRow("empty") << QByteArray() << false;
}

void TestHttpRequestHead::listHas()
{
    QFETCH(QByteArray, value);
    QFETCH(bool, has);

    QCOMPARE(HttpRequestHead::listHas(value, "upgrade"), has);
}

QTEST_APPLESS_MAIN(TestHttpRequestHead)
#include "tst_http_request_head.moc"
