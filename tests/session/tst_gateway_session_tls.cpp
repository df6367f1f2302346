// Tests for a GatewaySession on wss:// (issue 28 §3), against a real gateway serving TLS with a
// certificate from a throw-away authority (openssl, at run time). Trusted as the app trusts a
// --ca-file (the process's default TLS configuration), it signs in and loads friends; not
// trusted, it gives up at once with the reason in plain words, never sending its token. The
// wrong scheme (ws:// to it, or wss:// to a plain gateway) is said with the address to use, once
// (issue 46 §5 V4); a server that merely closes is retried as before. A certificate the user
// trusted for a server (pinned: its SHA-256 digest) signs in there, and only there; another
// certificate at that server is refused loudly (issue 46 §5 V9).

// C++
#include <algorithm>

// Qt
#include <QCryptographicHash>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

// Presence
#include "GatewayFixture.h"
#include "SessionFixture.h"
#include "TestCertificates.h"
#include "server-mock/server/Gateway.h"
#include "server-mock/transport/TlsContext.h"
#include "session/CertificatePin.h"
#include "session/GatewaySession.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Server::Gateway;
using Presence::Server::GatewayConfig;
using Presence::Server::TlsContext;
using Presence::Session::CertificatePin;
using Presence::Session::GatewaySession;
using Presence::TestSupport::TestCertificates;
using State = GatewaySession::State;

class TestGatewaySessionTls : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void trustedAuthoritySignsIn();
    void untrustedCertificateFailsInPlainWords();
    void pinnedCertificateSignsIn();
    void changedCertificateIsRefusedLoudly();
    void pinIsForItsServerOnly_data();
    void pinIsForItsServerOnly();
    void plainSchemeToTlsSaysUseWss();
    void secureSchemeToPlainSaysUseWs();
    void serverClosingAtOnceIsRetried();

private:
    // A gateway whose certificate signs itself, with users "alice" and "bob", on `port` (0: a
    // free one); null on failure.
    std::unique_ptr<Gateway> startSelfSignedGateway(quint16 port = 0);
    [[nodiscard]] QSslCertificate certificateIn(const QString &file) const;

    std::unique_ptr<TestCertificates> m_certificates;
    std::unique_ptr<Gateway> m_gateway;
    QSslConfiguration m_systemDefault;
};

void TestGatewaySessionTls::initTestCase()
{
    m_certificates = std::make_unique<TestCertificates>();
    QVERIFY2(m_certificates->isValid(), qPrintable(m_certificates->error()));
    m_systemDefault = QSslConfiguration::defaultConfiguration();
}

void TestGatewaySessionTls::init()
{
    GatewayConfig config = testConfig();
    if (config.transport == GatewayConfig::Transport::Qt)
        QSKIP("TLS is served by the gateway's own transport");
    QString error;
    config.tls
        = TlsContext::load(m_certificates->certificateFile(), m_certificates->keyFile(), &error);
    QVERIFY2(config.tls, qPrintable(error));
    m_gateway = startGateway({ { u"alice"_s, { u"bob"_s } }, { u"bob"_s, {} } }, config);
    QVERIFY(m_gateway);
}

std::unique_ptr<Gateway> TestGatewaySessionTls::startSelfSignedGateway(quint16 port)
{
    GatewayConfig config = testConfig();
    config.port = port;
    QString error;
    config.tls = TlsContext::load(
        m_certificates->selfSignedCertificateFile(), m_certificates->selfSignedKeyFile(), &error);
    if (!config.tls) {
        qWarning() << error;
        return {};
    }
    return startGateway({ { u"alice"_s, { u"bob"_s } }, { u"bob"_s, {} } }, config);
}

QSslCertificate TestGatewaySessionTls::certificateIn(const QString &file) const
{
    const QList<QSslCertificate> certificates = QSslCertificate::fromPath(file);
    return certificates.isEmpty() ? QSslCertificate() : certificates.constFirst();
}

void TestGatewaySessionTls::cleanup()
{
    QSslConfiguration::setDefaultConfiguration(m_systemDefault);
    m_gateway.reset();
}

void TestGatewaySessionTls::trustedAuthoritySignsIn()
{
    // What the app does with --ca-file.
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.addCaCertificates(QSslCertificate::fromPath(m_certificates->caFile()));
    QSslConfiguration::setDefaultConfiguration(configuration);

    GatewaySession session;
    QSignalSpy friendsLoaded(&session, &GatewaySession::friendsLoaded);
    session.open(m_gateway->url(), tokenOf(u"alice"_s));
    QVERIFY(friendsLoaded.wait());
    QCOMPARE(session.state(), State::Online);
    QCOMPARE(m_gateway->authenticatedCount(), 1);
}

void TestGatewaySessionTls::untrustedCertificateFailsInPlainWords()
{
    GatewaySession session;
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    session.open(m_gateway->url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), State::Failed);
    QCOMPARE(session.failure(), GatewaySession::Failure::UntrustedCertificate);
    const QString server = m_gateway->url().toDisplayString(QUrl::RemovePath);
    QVERIFY2(session.errorString().startsWith(u"The certificate of %1 is not trusted: "_s.arg(
                 server.chopped(server.endsWith(u'/') ? 1 : 0))),
        qPrintable(session.errorString()));
    QVERIFY2(session.errorString().contains(u"--ca-file"_s), qPrintable(session.errorString()));
    QVERIFY(retries.isEmpty());
    QCOMPARE(m_gateway->authenticatedCount(), 0);
    // What the user may trust instead: the certificate presented, said by its fingerprint.
    const QSslCertificate served = certificateIn(m_certificates->certificateFile());
    QVERIFY(!served.isNull());
    QCOMPARE(session.presentedCertificate(), served);
    QCOMPARE(session.presentedDigest(), served.digest(QCryptographicHash::Sha256));
    QVERIFY(!session.certificateError().isEmpty());
    const QString fingerprint = CertificatePin::displayed(session.presentedDigest());
    QVERIFY2(session.errorString().contains(u"Its SHA-256 fingerprint is %1."_s.arg(fingerprint)),
        qPrintable(session.errorString()));
    QVERIFY2(
        session.errorString().contains(u"sign-in dialog"_s), qPrintable(session.errorString()));
}

void TestGatewaySessionTls::pinnedCertificateSignsIn()
{
    auto gateway = startSelfSignedGateway();
    QVERIFY(gateway);
    const QSslCertificate served = certificateIn(m_certificates->selfSignedCertificateFile());
    QVERIFY(!served.isNull());

    // Not trusted by anyone yet: refused, with the certificate to trust.
    GatewaySession session(quickSessionOptions());
    session.open(gateway->url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), State::Failed);
    QCOMPARE(session.failure(), GatewaySession::Failure::UntrustedCertificate);
    QCOMPARE(session.presentedCertificate(), served);
    QCOMPARE(gateway->authenticatedCount(), 0);

    // The user trusts exactly it, for this server: the same session signs in.
    const QString server = CertificatePin::serverOf(gateway->url());
    QCOMPARE(server, u"127.0.0.1:%1"_s.arg(gateway->port()));
    session.setPinnedCertificates({ { server, session.presentedDigest() } });
    QSignalSpy friendsLoaded(&session, &GatewaySession::friendsLoaded);
    QVERIFY(friendsLoaded.isValid());
    session.retryNow();
    QVERIFY(friendsLoaded.wait());
    QCOMPARE(session.state(), State::Online);
    QCOMPARE(session.failure(), GatewaySession::Failure::None);
    QVERIFY(session.presentedCertificate().isNull());
    QCOMPARE(gateway->authenticatedCount(), 1);

    // A session made with the pin in its options (the app's, after a restart) and its
    // reconnects too.
    GatewaySession::Options options = quickSessionOptions();
    options.pinnedCertificates.insert(server, served.digest(QCryptographicHash::Sha256));
    GatewaySession restarted(options);
    QSignalSpy restartedLoaded(&restarted, &GatewaySession::friendsLoaded);
    QVERIFY(restartedLoaded.isValid());
    restarted.open(gateway->url(), tokenOf(u"bob"_s));
    QVERIFY(restartedLoaded.wait());
    QCOMPARE(restarted.state(), State::Online);
    QTRY_COMPARE(gateway->authenticatedCount(), 2);
    const quint16 port = gateway->port();
    QSignalSpy retries(&restarted, &GatewaySession::retryScheduled);
    QVERIFY(retries.isValid());
    gateway.reset();
    QVERIFY(retries.wait());
    gateway = startSelfSignedGateway(port);
    QVERIFY(gateway);
    // Both sessions are back, each with its pin.
    QTRY_COMPARE(restarted.state(), State::Online);
    QTRY_COMPARE(session.state(), State::Online);
    QTRY_COMPARE(gateway->authenticatedCount(), 2);
}

void TestGatewaySessionTls::changedCertificateIsRefusedLoudly()
{
    auto gateway = startSelfSignedGateway();
    QVERIFY(gateway);
    // What was trusted for this server before: another certificate (say, the one it had before
    // someone came in between).
    const QByteArray trusted = certificateIn(m_certificates->renewedCertificateFile())
                                   .digest(QCryptographicHash::Sha256);
    QCOMPARE(trusted.size(), 32);
    GatewaySession::Options options = quickSessionOptions();
    options.pinnedCertificates.insert(CertificatePin::serverOf(gateway->url()), trusted);
    GatewaySession session(options);
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    QVERIFY(retries.isValid());
    session.open(gateway->url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), State::Failed);
    QCOMPARE(session.failure(), GatewaySession::Failure::CertificateChanged);
    const QSslCertificate served = certificateIn(m_certificates->selfSignedCertificateFile());
    QCOMPARE(session.presentedCertificate(), served);
    QCOMPARE(session.pinnedDigest(), trusted);
    const QString server = gateway->url().toDisplayString(QUrl::RemovePath | QUrl::RemoveQuery);
    QCOMPARE(session.errorString(),
        u"The certificate of %1 changed since it was trusted: it was %2 and is now %3. This may "
        "mean that someone is intercepting the connection. Sign in only once the gateway's "
        "administrator confirms the new certificate."_s.arg(server,
            CertificatePin::displayed(trusted),
            CertificatePin::displayed(served.digest(QCryptographicHash::Sha256))));
    // Nothing is sent to whoever answered, and nothing is tried again by itself.
    QCOMPARE(gateway->authenticatedCount(), 0);
    QVERIFY(retries.isEmpty());
}

void TestGatewaySessionTls::pinIsForItsServerOnly_data()
{
    QTest::addColumn<QString>("host"); // the address the session opens
    QTest::addColumn<QString>("pinnedHost");
    QTest::addColumn<int>("pinnedPortOffset");
    QTest::addRow("another port") << u"127.0.0.1"_s << u"127.0.0.1"_s << 1;
    QTest::addRow("another host") << u"127.0.0.1"_s << u"localhost"_s << 0;
    QTest::addRow("the same host named otherwise") << u"localhost"_s << u"127.0.0.1"_s << 0;
}

void TestGatewaySessionTls::pinIsForItsServerOnly()
{
    QFETCH(QString, host);
    QFETCH(QString, pinnedHost);
    QFETCH(int, pinnedPortOffset);
    auto gateway = startSelfSignedGateway();
    QVERIFY(gateway);
    const QByteArray digest = certificateIn(m_certificates->selfSignedCertificateFile())
                                  .digest(QCryptographicHash::Sha256);
    GatewaySession::Options options = quickSessionOptions();
    options.pinnedCertificates.insert(
        u"%1:%2"_s.arg(pinnedHost).arg(gateway->port() + pinnedPortOffset), digest);
    GatewaySession session(options);
    session.open(QUrl(u"wss://%1:%2/"_s.arg(host).arg(gateway->port())), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), State::Failed);
    // Not a changed certificate either: nothing was trusted for this server.
    QCOMPARE(session.failure(), GatewaySession::Failure::UntrustedCertificate);
    QCOMPARE(session.presentedDigest(), digest);
    QCOMPARE(gateway->authenticatedCount(), 0);
}

namespace {

int refusals(Gateway &gateway, const char *reason)
{
    const QString text = gateway.metrics().render();
    const QRegularExpression line(
        uR"(presence_connections_refused_total\{reason="%1"\} (\d+))"_s.arg(QLatin1String(reason)));
    const auto match = line.match(text);
    return match.hasMatch() ? match.captured(1).toInt() : 0;
}

// How many attempts the session started: each passes through Connecting.
qsizetype attempts(const QSignalSpy &stateChanges)
{
    return std::count_if(stateChanges.begin(), stateChanges.end(),
        [](const QList<QVariant> &args) { return args.at(0).value<State>() == State::Connecting; });
}

} // namespace

void TestGatewaySessionTls::plainSchemeToTlsSaysUseWss()
{
    const quint16 port = m_gateway->port();
    // Quick retries: a reconnect loop would show within the wait below.
    GatewaySession session(quickSessionOptions());
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    QSignalSpy stateChanges(&session, &GatewaySession::stateChanged);
    QVERIFY(retries.isValid() && stateChanges.isValid());
    session.open(QUrl(u"ws://127.0.0.1:%1/"_s.arg(port)), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), State::Failed);
    QCOMPARE(session.failure(), GatewaySession::Failure::WrongScheme);
    QCOMPARE(session.errorString(),
        u"ws://127.0.0.1:%1 answered with TLS: use wss://127.0.0.1:%1"_s.arg(port));
    // The attempt and the probe's hello, nothing more: no retry, now or later.
    QTRY_COMPARE(refusals(*m_gateway, "tls_handshake"), 2);
    QVERIFY(!stateChanges.wait(600));
    QCOMPARE(attempts(stateChanges), 1);
    QVERIFY(retries.isEmpty());
    QCOMPARE(refusals(*m_gateway, "tls_handshake"), 2);
    QCOMPARE(m_gateway->authenticatedCount(), 0);
}

void TestGatewaySessionTls::secureSchemeToPlainSaysUseWs()
{
    auto plain = startGateway({ { u"alice"_s, {} } });
    QVERIFY(plain);
    const quint16 port = plain->port();
    GatewaySession session(quickSessionOptions());
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    QSignalSpy stateChanges(&session, &GatewaySession::stateChanged);
    QVERIFY(retries.isValid() && stateChanges.isValid());
    session.open(QUrl(u"wss://127.0.0.1:%1/"_s.arg(port)), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), State::Failed);
    QCOMPARE(session.failure(), GatewaySession::Failure::WrongScheme);
    QCOMPARE(session.errorString(),
        u"wss://127.0.0.1:%1 is not a TLS server: use ws://127.0.0.1:%1"_s.arg(port));
    QTRY_COMPARE(refusals(*plain, "bad_upgrade"), 2);
    QVERIFY(!stateChanges.wait(600));
    QCOMPARE(attempts(stateChanges), 1);
    QVERIFY(retries.isEmpty());
    QCOMPARE(refusals(*plain, "bad_upgrade"), 2);
    QCOMPARE(plain->authenticatedCount(), 0);
}

void TestGatewaySessionTls::serverClosingAtOnceIsRetried()
{
    // A gateway restarting may close an attempt before answering: neither TLS nor HTTP, so no
    // wrong scheme, and the session keeps trying as for any gateway away.
    QTcpServer closer;
    QVERIFY(closer.listen(QHostAddress::LocalHost, 0));
    connect(&closer, &QTcpServer::newConnection, &closer, [&closer] {
        while (QTcpSocket *socket = closer.nextPendingConnection()) {
            socket->close();
            socket->deleteLater();
        }
    });
    for (const QString &scheme : { u"ws"_s, u"wss"_s }) {
        GatewaySession session(quickSessionOptions());
        QSignalSpy retries(&session, &GatewaySession::retryScheduled);
        QVERIFY(retries.isValid());
        session.open(QUrl(u"%1://127.0.0.1:%2/"_s.arg(scheme).arg(closer.serverPort())),
            tokenOf(u"alice"_s));
        QTRY_VERIFY2(retries.size() >= 2, qPrintable(scheme));
        QVERIFY(session.state() != State::Failed);
        QCOMPARE(session.failure(), GatewaySession::Failure::None);
    }
}

QTEST_GUILESS_MAIN(TestGatewaySessionTls)
#include "tst_gateway_session_tls.moc"
