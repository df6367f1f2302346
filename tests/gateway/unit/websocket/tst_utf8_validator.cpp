// Utf8Validator: what RFC 3629 calls UTF-8 and nothing else, whether the text comes whole, a
// byte at a time or split anywhere, and the first byte that makes it invalid (fail fast).

// Qt
#include <QTest>

// Presence
#include "server-mock/websocket/Utf8Validator.h"

using Presence::Server::Utf8Validator;

class TestUtf8Validator : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void validates_data();
    void validates();
    void splitAnywhere_data() { validates_data(); }
    void splitAnywhere();
    void failsOnTheFirstBadByte_data() { validates_data(); }
    void failsOnTheFirstBadByte();
    void staysFailedUntilReset();
};

namespace {

enum class Expect { Valid, Invalid, Truncated };

} // namespace

void TestUtf8Validator::validates_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("expect");
    // Offset of the byte on which feeding one byte at a time first fails; -1 for none.
    QTest::addColumn<int>("failsAt");

    const auto row = [](const char *name, const QByteArray &text, Expect expect, int failsAt = -1) {
        QTest::addRow("%s", name) << text << int(expect) << failsAt;
    };
    row("empty", QByteArray(), Expect::Valid);
    row("ascii", "hello, world", Expect::Valid);
    row("ascii long", QByteArray(100, 'x'), Expect::Valid);
    row("2 bytes smallest U+0080", "\xc2\x80", Expect::Valid);
    row("2 bytes largest U+07FF", "\xdf\xbf", Expect::Valid);
    row("3 bytes smallest U+0800", "\xe0\xa0\x80", Expect::Valid);
    row("euro sign", "\xe2\x82\xac", Expect::Valid);
    row("before the surrogates U+D7FF", "\xed\x9f\xbf", Expect::Valid);
    row("after the surrogates U+E000", "\xee\x80\x80", Expect::Valid);
    row("U+FFFF", "\xef\xbf\xbf", Expect::Valid);
    row("4 bytes smallest U+10000", "\xf0\x90\x80\x80", Expect::Valid);
    row("G clef U+1D11E", "\xf0\x9d\x84\x9e", Expect::Valid);
    row("largest U+10FFFF", "\xf4\x8f\xbf\xbf", Expect::Valid);
    row("mixed after 8 ascii",
        "abcdefgh\xc3\xbc"
        "abcdefgh\xe2\x82\xac",
        Expect::Valid);
    row("greek", "\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5", Expect::Valid);

    row("lone continuation", "\x80", Expect::Invalid, 0);
    row("continuation after ascii", "abc\xbf", Expect::Invalid, 3);
    row("overlong NUL C0 80", "\xc0\x80", Expect::Invalid, 0);
    row("overlong C1 BF", "\xc1\xbf", Expect::Invalid, 0);
    row("overlong 3 bytes E0 80 80", "\xe0\x80\x80", Expect::Invalid, 1);
    row("overlong 3 bytes E0 9F BF", "\xe0\x9f\xbf", Expect::Invalid, 1);
    row("overlong 4 bytes F0 8F BF BF", "\xf0\x8f\xbf\xbf", Expect::Invalid, 1);
    row("surrogate U+D800", "\xed\xa0\x80", Expect::Invalid, 1);
    row("surrogate U+DFFF", "\xed\xbf\xbf", Expect::Invalid, 1);
    row("surrogate pair", "\xed\xa0\x80\xed\xb0\x80", Expect::Invalid, 1);
    row("above U+10FFFF F4 90", "\xf4\x90\x80\x80", Expect::Invalid, 1);
    row("F5 lead", "\xf5\x80\x80\x80", Expect::Invalid, 0);
    row("FE", "\xfe", Expect::Invalid, 0);
    row("FF", "\xff", Expect::Invalid, 0);
    row("5-byte form", "\xf8\x88\x80\x80\x80", Expect::Invalid, 0);
    row("lead then ascii",
        "\xe2\x82"
        "A",
        Expect::Invalid, 2);
    row("two leads", "\xc3\xc3", Expect::Invalid, 1);
    row("bad byte after 8 ascii", "abcdefgh\x80", Expect::Invalid, 8);
    row("bad byte after 10 ascii", "abcdefghij\xff", Expect::Invalid, 10);
    row("bad byte after 16 ascii", "abcdefghijklmnop\xc0\xaf", Expect::Invalid, 16);

    row("truncated 2 bytes", "\xc3", Expect::Truncated);
    row("truncated 3 bytes", "\xe2\x82", Expect::Truncated);
    row("truncated 4 bytes", "\xf0\x9d\x84", Expect::Truncated);
    row("truncated after ascii", "abcdefghij\xf0", Expect::Truncated);
}

void TestUtf8Validator::validates()
{
    QFETCH(QByteArray, text);
    QFETCH(int, expect);

    QCOMPARE(Utf8Validator::isValid(text), Expect(expect) == Expect::Valid);
    Utf8Validator validator;
    QCOMPARE(validator.feed(text), Expect(expect) != Expect::Invalid);
    QCOMPARE(validator.hasFailed(), Expect(expect) == Expect::Invalid);
    QCOMPARE(validator.isComplete(), Expect(expect) == Expect::Valid);
}

void TestUtf8Validator::splitAnywhere()
{
    QFETCH(QByteArray, text);
    QFETCH(int, expect);

    // Two feeds, cut at every position (a character may be cut in the middle).
    for (qsizetype cut = 0; cut <= text.size(); ++cut) {
        Utf8Validator validator;
        validator.feed(QByteArrayView(text).first(cut));
        validator.feed(QByteArrayView(text).sliced(cut));
        QVERIFY2(validator.isComplete() == (Expect(expect) == Expect::Valid),
            qPrintable(QString::number(cut)));
        QVERIFY2(validator.hasFailed() == (Expect(expect) == Expect::Invalid),
            qPrintable(QString::number(cut)));
    }
}

void TestUtf8Validator::failsOnTheFirstBadByte()
{
    QFETCH(QByteArray, text);
    QFETCH(int, failsAt);

    Utf8Validator validator;
    int failed = -1;
    for (qsizetype i = 0; i < text.size() && failed < 0; ++i) {
        if (!validator.feed(QByteArrayView(text).sliced(i, 1)))
            failed = int(i);
    }
    QCOMPARE(failed, failsAt);
}

void TestUtf8Validator::staysFailedUntilReset()
{
    Utf8Validator validator;
    QVERIFY(!validator.feed("\xff"));
    QVERIFY(!validator.feed("a"));
    QVERIFY(!validator.isComplete());
    validator.reset();
    QVERIFY(validator.feed("a"));
    QVERIFY(validator.isComplete());
}

QTEST_APPLESS_MAIN(TestUtf8Validator)
#include "tst_utf8_validator.moc"
