// Identifiers: which user ids and refs are valid, alone and on the wire.

// Qt
#include <QTest>

// Presence
#include "tests/protocol/ProtocolSamples.h"

using namespace Qt::StringLiterals;
using namespace Presence::Protocol;
using namespace ProtocolSamples;

class TestIdentifiers : public QObject {
    Q_OBJECT

private slots:
    void validIds_data();
    void validIds();
    void invalidIds_data();
    void invalidIds();
    void idCharacterSet();
    void refs_data();
    void refs();
    void refsOnTheWire_data();
    void refsOnTheWire();
};

void TestIdentifiers::validIds_data()
{
    QTest::addColumn<QString>("id");

    QTest::addRow("one-letter") << u"a"_s;
    QTest::addRow("one-digit") << u"7"_s;
    QTest::addRow("one-dot") << u"."_s;
    QTest::addRow("one-underscore") << u"_"_s;
    QTest::addRow("one-dash") << u"-"_s;
    QTest::addRow("64-chars") << longestId();
    QTest::addRow("all-allowed-but-last") << kAllAllowed.first(kMaxIdLength);
    QTest::addRow("all-allowed-but-first") << kAllAllowed.last(kMaxIdLength);
    QTest::addRow("mixed") << u"Alice.Smith_99-x"_s;
}

void TestIdentifiers::validIds()
{
    QFETCH(QString, id);
    QVERIFY(isValidId(id));

    // The same id is accepted on the wire.
    const Decoded<ClientMessage> decoded = decodeClientFrame(
        frameOf({ { "type"_L1, "subscribe"_L1 }, { "ids"_L1, QJsonArray { id } } }));
    QVERIFY2(decoded.ok(), outcome(decoded).constData());
    QCOMPARE(std::get<SubscribeRequest>(decoded.value()).ids, QStringList { id });
}

void TestIdentifiers::invalidIds_data()
{
    QTest::addColumn<QString>("id");

    QTest::addRow("empty") << QString();
    QTest::addRow("65-chars") << QString(kMaxIdLength + 1, u'a');
    QTest::addRow("all-allowed-65") << kAllAllowed;
    QTest::addRow("space") << u"a b"_s;
    QTest::addRow("leading-space") << u" a"_s;
    QTest::addRow("trailing-space") << u"a "_s;
    QTest::addRow("tab") << u"a\tb"_s;
    QTest::addRow("slash") << u"a/b"_s;
    QTest::addRow("backslash") << u"a\\b"_s;
    QTest::addRow("e-acute") << u"é"_s;
    QTest::addRow("letter-then-e-acute") << u"caf\u00e9"_s;
    QTest::addRow("cjk") << u"中"_s;
    QTest::addRow("emoji") << u"a🙂"_s;
    QTest::addRow("fullwidth-a") << u"\uff41"_s;
    QTest::addRow("at") << u"@"_s;
    QTest::addRow("email") << u"a@b"_s;
    QTest::addRow("nul") << QString(QChar(u'\0'));
    QTest::addRow("embedded-nul") << (u"a"_s + QChar(u'\0') + u"b"_s);
    QTest::addRow("colon") << u"a:b"_s;
    QTest::addRow("plus") << u"a+b"_s;
    QTest::addRow("quote") << u"a\"b"_s;
    QTest::addRow("bad-char-at-end-of-64") << (QString(kMaxIdLength - 1, u'a') + u'/');
}

void TestIdentifiers::invalidIds()
{
    QFETCH(QString, id);
    QVERIFY(!isValidId(id));
}

void TestIdentifiers::idCharacterSet()
{
    // Every character from U+0000 to U+02FF alone: exactly [A-Za-z0-9._-] pass.
    for (char16_t u = 0; u < 0x300; ++u) {
        const QChar c(u);
        const bool expected = kAllAllowed.contains(c);
        const bool actual = isValidId(QStringView(&c, 1));
        QVERIFY2(actual == expected,
            qPrintable(u"U+%1 expected %2"_s.arg(int(u), 4, 16, QChar(u'0'))
                           .arg(expected ? u"valid"_s : u"invalid"_s)));
    }
}

void TestIdentifiers::refs_data()
{
    QTest::addColumn<QString>("ref");
    QTest::addColumn<bool>("valid");

    QTest::addRow("empty") << u""_s << true;
    QTest::addRow("one") << u"1"_s << true;
    QTest::addRow("32-chars") << QString(kMaxRefLength, u'r') << true;
    QTest::addRow("32-non-ascii") << QString(kMaxRefLength, u'é') << true;
    QTest::addRow("with-spaces") << u"any text / at all"_s << true;
    QTest::addRow("33-chars") << QString(kMaxRefLength + 1, u'r') << false;
    QTest::addRow("1000-chars") << QString(1000, u'r') << false;
}

void TestIdentifiers::refs()
{
    QFETCH(QString, ref);
    QFETCH(bool, valid);
    QCOMPARE(isValidRef(ref), valid);
}

void TestIdentifiers::refsOnTheWire_data()
{
    refs_data();
}

void TestIdentifiers::refsOnTheWire()
{
    QFETCH(QString, ref);
    QFETCH(bool, valid);

    const Decoded<Envelope> envelope
        = parseFrame(frameOf({ { "type"_L1, "ping"_L1 }, { "ref"_L1, ref } }));
    QCOMPARE(envelope.ok(), valid);
    if (valid) {
        QVERIFY(envelope.value().ref.has_value());
        QCOMPARE(*envelope.value().ref, ref);
    } else {
        QCOMPARE(describe(envelope.error().code), describe(ErrorCode::BadRequest));
        QVERIFY(!envelope.error().ref.has_value());
    }
}

QTEST_GUILESS_MAIN(TestIdentifiers)
#include "tst_identifiers.moc"
