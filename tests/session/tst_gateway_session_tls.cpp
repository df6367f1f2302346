// Tests for a GatewaySession on wss:// (issue 28 §3), against a real gateway serving TLS with a
// certificate from a throw-away authority (openssl, at run time). Trusted as the app trusts a
// --ca-file (the process's default TLS configuration), it signs in and loads friends; not
// trusted, it gives up at once with the reason in plain words, never sending its token.

// Qt
#include <QSignalSpy>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QTest>

// Presence
#include "GatewayFixture.h"
#include "TestCertificates.h"
#include "server-mock/server/Gateway.h"
#include "server-mock/transport/TlsContext.h"
#include "session/GatewaySession.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Server::Gateway;
using Presence::Server::GatewayConfig;
using Presence::Server::TlsContext;
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

private:
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
}

QTEST_GUILESS_MAIN(TestGatewaySessionTls)
#include "tst_gateway_session_tls.moc"
