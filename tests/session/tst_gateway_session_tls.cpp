// Tests for a GatewaySession on wss:// (issue 28 §3), against a real gateway serving TLS with a
// certificate from a throw-away authority (openssl, at run time). Trusted as the app trusts a
// --ca-file (the process's default TLS configuration), it signs in and loads friends; not
// trusted, it gives up at once with the reason in plain words, never sending its token. The
// wrong scheme (ws:// to it, or wss:// to a plain gateway) is said with the address to use, once
// (issue 46 §5 V4); a server that merely closes is retried as before.

// C++
#include <algorithm>

// Qt
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
    void plainSchemeToTlsSaysUseWss();
    void secureSchemeToPlainSaysUseWs();
    void serverClosingAtOnceIsRetried();

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
