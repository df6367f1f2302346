// CertificatePin: which server a pin is for, a certificate's SHA-256 digest (as openssl
// computes it), shown as people compare it, and read back only from 64 hex digits.

// Qt
#include <QProcess>
#include <QSslCertificate>
#include <QTest>
#include <QUrl>

// Presence
#include "TestCertificates.h"
#include "session/CertificatePin.h"

using namespace Qt::StringLiterals;
using Presence::Session::CertificatePin;

class TestCertificatePin : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void serverOf_data();
    void serverOf();
    void digestIsOpensslsSha256Fingerprint();
    void fromHex_data();
    void fromHex();
};

void TestCertificatePin::serverOf_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("server");
    QTest::addRow("wss, port given") << u"wss://127.0.0.1:8765/"_s << u"127.0.0.1:8765"_s;
    QTest::addRow("wss, default port") << u"wss://chat.example.org/"_s << u"chat.example.org:443"_s;
    QTest::addRow("ws, default port") << u"ws://chat.example.org/"_s << u"chat.example.org:80"_s;
    QTest::addRow("host in capitals")
        << u"wss://Chat.EXAMPLE.org:9000/gw?x=1"_s << u"chat.example.org:9000"_s;
    QTest::addRow("IPv6") << u"wss://[::1]:8765/"_s << u"[::1]:8765"_s;
    QTest::addRow("no host") << u"wss:///path"_s << QString();
}

void TestCertificatePin::serverOf()
{
    QFETCH(QString, url);
    QFETCH(QString, server);
    QCOMPARE(CertificatePin::serverOf(QUrl(url)), server);
}

void TestCertificatePin::digestIsOpensslsSha256Fingerprint()
{
    Presence::TestSupport::TestCertificates certificates;
    QVERIFY2(certificates.isValid(), qPrintable(certificates.error()));
    const QString file = certificates.selfSignedCertificateFile();
    const QList<QSslCertificate> read = QSslCertificate::fromPath(file);
    QCOMPARE(read.size(), 1);
    const QByteArray digest = CertificatePin::digestOf(read.constFirst());
    QCOMPARE(digest.size(), 32);

    // What a gateway's administrator reads out: "sha256 Fingerprint=AB:CD:…".
    QProcess openssl;
    openssl.start(
        u"openssl"_s, { u"x509"_s, u"-in"_s, file, u"-noout"_s, u"-fingerprint"_s, u"-sha256"_s });
    QVERIFY(openssl.waitForFinished(30'000));
    QCOMPARE(openssl.exitCode(), 0);
    const QString said = QString::fromLatin1(openssl.readAllStandardOutput()).trimmed();
    QVERIFY2(said.contains(u'='), qPrintable(said));
    QCOMPARE(CertificatePin::displayed(digest), said.section(u'=', 1));
    QCOMPARE(CertificatePin::displayed(digest), CertificatePin::displayed(digest).toUpper());
    QCOMPARE(CertificatePin::displayed(digest).size(), 32 * 3 - 1);

    QCOMPARE(CertificatePin::toHex(digest), QString::fromLatin1(digest.toHex()));
    QCOMPARE(CertificatePin::fromHex(CertificatePin::toHex(digest)), digest);
    QVERIFY(CertificatePin::digestOf(QSslCertificate()).isEmpty());
}

void TestCertificatePin::fromHex_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    const QString hex = u"0123456789abcdef"_s.repeated(4);
    QTest::addRow("64 lower-case digits") << hex << true;
    QTest::addRow("64 upper-case digits") << hex.toUpper() << true;
    QTest::addRow("63 digits") << hex.chopped(1) << false;
    QTest::addRow("65 digits") << hex + u'0' << false;
    QTest::addRow("not hex") << QString(hex).replace(3, 1, u'g') << false;
    QTest::addRow("with colons") << CertificatePin::displayed(QByteArray::fromHex(hex.toLatin1()))
                                 << false;
    QTest::addRow("with a space") << QString(hex).replace(10, 1, u' ') << false;
    QTest::addRow("empty") << QString() << false;
    QTest::addRow("non-ASCII digit") << QString(hex).replace(0, 1, QChar(0x0661)) << false;
}

void TestCertificatePin::fromHex()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    const auto digest = CertificatePin::fromHex(text);
    QCOMPARE(digest.has_value(), valid);
    if (valid) {
        QCOMPARE(digest->size(), 32);
        QCOMPARE(CertificatePin::toHex(*digest), text.toLower());
    }
}

QTEST_GUILESS_MAIN(TestCertificatePin)
#include "tst_certificate_pin.moc"
