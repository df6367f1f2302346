// FailureWords: what a person reads when the session gives up on an attempt, from what the
// attempt left: Qt's error text, the address, certificate digests.
// Qt
#include <QCryptographicHash>
#include <QTest>

// Presence
#include "session/CertificatePin.h"
#include "session/FailureWords.h"

using namespace Qt::StringLiterals;
using Presence::Session::CertificatePin;
using Presence::Session::FailureWords;

namespace {

QString handshakeError(const char *status)
{
    // What QWebSocket (Qt 6.4) says of an upgrade answered otherwise than with 101.
    return u"QWebSocketPrivate::processHandshake: Unhandled http status code: %1."_s.arg(
        QLatin1StringView(status));
}

QByteArray digest(const char *seed)
{
    return QCryptographicHash::hash(QByteArray(seed), QCryptographicHash::Sha256);
}

} // namespace

class TestFailureWords : public QObject {
    Q_OBJECT

private slots:
    void httpStatusIsFoundInQtsText();
    void notAGateway_data();
    void notAGateway();
    void wrongSchemeNamesTheOtherAddress_data();
    void wrongSchemeNamesTheOtherAddress();
    void certificateChangedShowsBothFingerprints();
    void certificateUntrusted();
    void fixedSentences();
};

void TestFailureWords::httpStatusIsFoundInQtsText()
{
    QVERIFY(FailureWords::hasHttpStatus(handshakeError("200 (OK)")));
    QVERIFY(FailureWords::hasHttpStatus(handshakeError("503 (Service Unavailable)")));
    QVERIFY(!FailureWords::hasHttpStatus(u"The remote host closed the connection"_s));
    QVERIFY(!FailureWords::hasHttpStatus(u"status code: 20 (OK)"_s));
    QVERIFY(!FailureWords::hasHttpStatus(QString()));
}

void TestFailureWords::notAGateway_data()
{
    QTest::addColumn<QString>("error");
    QTest::addColumn<QString>("expected"); // empty: worth retrying

    QTest::addRow("200") << handshakeError("200 (OK)")
                         << u"ws://example.org:8080 is a web server, not a presence gateway (it "
                            "answered HTTP 200 OK)."_s;
    QTest::addRow("301") << handshakeError("301 (Moved Permanently)")
                         << u"ws://example.org:8080 is a web server, not a presence gateway (it "
                            "answered HTTP 301 Moved Permanently)."_s;
    QTest::addRow("404") << handshakeError("404 (Not Found)")
                         << u"ws://example.org:8080 refused the connection (HTTP 404 Not Found): "
                            "is this the gateway's address?"_s;
    QTest::addRow("403 without reason")
        << handshakeError("403 ()")
        << u"ws://example.org:8080 refused the connection (HTTP 403): is this the gateway's "
           "address?"_s;
    QTest::addRow("503") << handshakeError("503 (Service Unavailable)") << QString();
    QTest::addRow("502") << handshakeError("502 (Bad Gateway)") << QString();
    QTest::addRow("429") << handshakeError("429 (Too Many Requests)") << QString();
    QTest::addRow("408") << handshakeError("408 (Request Timeout)") << QString();
    QTest::addRow("no http") << u"Connection refused"_s << QString();
}

void TestFailureWords::notAGateway()
{
    QFETCH(QString, error);
    QFETCH(QString, expected);
    const auto words = FailureWords::notAGateway(QUrl(u"ws://example.org:8080/presence"_s), error);
    if (expected.isEmpty()) {
        QVERIFY2(!words, qPrintable(words.value_or(QString())));
        return;
    }
    QVERIFY(words);
    QCOMPARE(*words, expected);
}

void TestFailureWords::wrongSchemeNamesTheOtherAddress_data()
{
    QTest::addColumn<QUrl>("url");
    QTest::addColumn<QString>("expected");

    QTest::addRow("wss to plain") << QUrl(u"wss://example.org:8080"_s)
                                  << u"wss://example.org:8080 is not a TLS server: use "
                                     "ws://example.org:8080"_s;
    QTest::addRow("ws to tls") << QUrl(u"ws://example.org:8443/"_s)
                               << u"ws://example.org:8443 answered with TLS: use "
                                  "wss://example.org:8443"_s;
    QTest::addRow("path kept") << QUrl(u"ws://example.org:8443/chat"_s)
                               << u"ws://example.org:8443 answered with TLS: use "
                                  "wss://example.org:8443/chat"_s;
}

void TestFailureWords::wrongSchemeNamesTheOtherAddress()
{
    QFETCH(QUrl, url);
    QFETCH(QString, expected);
    QCOMPARE(FailureWords::wrongScheme(url), expected);
}

void TestFailureWords::certificateChangedShowsBothFingerprints()
{
    const QUrl url(u"wss://gw.example.org:8443/"_s);
    const QByteArray pinned = digest("old");
    const QByteArray presented = digest("new");
    const QString words = FailureWords::certificateChanged(url, pinned, presented);
    QVERIFY2(words.startsWith(u"The certificate of wss://gw.example.org:8443 changed"_s),
        qPrintable(words));
    QVERIFY(words.contains(u"it was %1 and is now %2"_s.arg(
        CertificatePin::displayed(pinned), CertificatePin::displayed(presented))));
    QVERIFY(words.contains(u"intercepting"_s));

    const QString unread = FailureWords::certificateChanged(url, pinned, {});
    QVERIFY2(unread.contains(u"is now unknown."_s), qPrintable(unread));
}

void TestFailureWords::certificateUntrusted()
{
    const QUrl url(u"wss://gw.example.org:8443"_s);
    const QString why = u"The certificate is self-signed, and untrusted"_s;
    const QByteArray presented = digest("self");
    const QString words = FailureWords::certificateUntrusted(url, why, presented);
    QVERIFY2(words.startsWith(u"The certificate of wss://gw.example.org:8443 is not trusted: "_s
                 + why + u". Its SHA-256 fingerprint is "_s + CertificatePin::displayed(presented)),
        qPrintable(words));
    QVERIFY(words.contains(u"trust it for this server in the sign-in dialog"_s));
    QVERIFY(words.contains(u"--ca-file"_s));

    // No certificate to show: no fingerprint, and no offer to trust one.
    const QString unread = FailureWords::certificateUntrusted(url, why, {});
    QVERIFY2(!unread.contains(u"fingerprint"_s), qPrintable(unread));
    QVERIFY(!unread.contains(u"sign-in dialog"_s));
    QVERIFY(unread.contains(why));
    QVERIFY(unread.contains(u"--ca-file"_s));
}

void TestFailureWords::fixedSentences()
{
    QCOMPARE(FailureWords::signInExpired(), u"The sign-in expired: sign in again."_s);
    QCOMPARE(FailureWords::tokenRefused(), u"The gateway did not accept the token."_s);
    QVERIFY(FailureWords::signedOut().contains(u"sign in again"_s));
    QCOMPARE(
        FailureWords::unsupportedProtocol(), u"The gateway speaks another protocol version."_s);
}

QTEST_GUILESS_MAIN(TestFailureWords)
#include "tst_failure_words.moc"
