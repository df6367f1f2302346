// The gateway over TLS (issue 28 §3): wss:// on its own transport with a certificate from a
// throw-away authority made at run time (openssl), real QWebSocket clients on loopback. A
// client that trusts the authority signs in and is pushed to as over ws://, large frames
// included; one that does not, or that speaks plain ws:// to the port, gets nowhere and leaves
// the gateway unharmed; a renewed certificate serves the connections that come after.

// C++
#include <memory>

// Qt
#include <QJsonArray>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QSignalSpy>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QTest>

// Presence
#include "GatewayFixture.h"
#include "PresenceFrames.h"
#include "TestCertificates.h"
#include "TestClient.h"
#include "server-mock/chat/MemoryChatStore.h"
#include "server-mock/presence/MemoryPresenceStore.h"
#include "server-mock/transport/TlsContext.h"

using namespace Qt::StringLiterals;
using namespace Presence::Server;
using Presence::TestSupport::TestCertificates;

namespace {

// alice has 1,500 friends (a friends page of 1,000 is a frame of many TLS records) and bob.
QList<TestUser> population()
{
    QList<TestUser> users { { u"alice"_s, { u"bob"_s } }, { u"bob"_s, {} } };
    for (int i = 0; i < 1500; ++i) {
        users.append({ u"friend-with-a-long-name-%1"_s.arg(i), {} });
        users[0].friends.append(users.last().id);
    }
    return users;
}

// A client's TLS settings: the system's authorities plus the file's.
QSslConfiguration trusting(const QString &caFile)
{
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.addCaCertificates(QSslCertificate::fromPath(caFile));
    return configuration;
}

} // namespace

class TestGatewayTls : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void trustedClientIsServedAsOverPlainWebSocket();
    void untrustedClientGetsNowhere();
    void plainWebSocketOnTheTlsPortIsClosed();
    void renewedCertificateServesNewConnections();
    void needsTheOwnTransport();

private:
    [[nodiscard]] std::unique_ptr<TestClient> login(
        const QString &id, const QString &caFile = {}) const;

    std::unique_ptr<TestCertificates> m_certificates;
    std::unique_ptr<Gateway> m_gateway;
};

void TestGatewayTls::initTestCase()
{
    QLoggingCategory::setFilterRules(u"presence.*.info=false"_s);
    m_certificates = std::make_unique<TestCertificates>();
    QVERIFY2(m_certificates->isValid(), qPrintable(m_certificates->error()));
}

void TestGatewayTls::init()
{
    GatewayConfig config = testConfig();
    if (config.transport == GatewayConfig::Transport::Qt)
        QSKIP("TLS is served by the gateway's own transport");
    QString error;
    config.tls
        = TlsContext::load(m_certificates->certificateFile(), m_certificates->keyFile(), &error);
    QVERIFY2(config.tls, qPrintable(error));
    m_gateway = startGateway(population(), config);
    QVERIFY(m_gateway);
    QCOMPARE(m_gateway->url().scheme(), u"wss"_s);
}

void TestGatewayTls::cleanup()
{
    m_gateway.reset();
}

std::unique_ptr<TestClient> TestGatewayTls::login(const QString &id, const QString &caFile) const
{
    auto client = std::make_unique<TestClient>();
    client->socket().setSslConfiguration(
        trusting(caFile.isEmpty() ? m_certificates->caFile() : caFile));
    if (client->login(m_gateway->url(), tokenOf(id)).isEmpty())
        return nullptr;
    return client;
}

void TestGatewayTls::trustedClientIsServedAsOverPlainWebSocket()
{
    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    QVERIFY(alice->socket().sslConfiguration().sessionProtocol() >= QSsl::TlsV1_2);
    QCOMPARE(
        alice->request({ { "type"_L1, "subscribe"_L1 }, { "ids"_L1, QJsonArray { u"bob"_s } } })
            .value("users"_L1)
            .toArray()
            .size(),
        1);
    auto bob = login(u"bob"_s);
    QVERIFY(bob);
    QCOMPARE(alice->waitFor(u"presence"_s), PresenceFrames::push(u"bob"_s, u"online"_s, 1));

    // A frame of about 45 KB each way crosses many TLS records.
    const QJsonObject page
        = alice->request({ { "type"_L1, "friends"_L1 }, { "offset"_L1, 0 }, { "limit"_L1, 1000 } });
    QCOMPARE(page.value("items"_L1).toArray().size(), 1000);
    QJsonArray ids;
    for (int i = 0; i < 500; ++i)
        ids.append(u"friend-with-a-long-name-%1"_s.arg(i));
    const QJsonObject snapshot
        = alice->request({ { "type"_L1, "subscribe"_L1 }, { "ids"_L1, ids } });
    QCOMPARE(snapshot.value("users"_L1).toArray().size(), 500);
    QCOMPARE(m_gateway->authenticatedCount(), 2);
}

void TestGatewayTls::untrustedClientGetsNowhere()
{
    TestClient stranger;
    stranger.socket().setSslConfiguration(trusting(m_certificates->otherCaFile()));
    QSignalSpy sslErrors(&stranger.socket(), &QWebSocket::sslErrors);
    QVERIFY(stranger.login(m_gateway->url(), tokenOf(u"alice"_s)).isEmpty());
    QVERIFY(!sslErrors.isEmpty());
    const auto errors = sslErrors.at(0).at(0).value<QList<QSslError>>();
    QVERIFY(!errors.isEmpty());
    QCOMPARE(m_gateway->authenticatedCount(), 0);
    QTRY_VERIFY(m_gateway->metrics().render().contains(
        R"(presence_connections_refused_total{reason="tls_handshake"} 1)"));
    // Others are served all the same.
    QVERIFY(login(u"bob"_s));
}

void TestGatewayTls::plainWebSocketOnTheTlsPortIsClosed()
{
    QUrl plain = m_gateway->url();
    plain.setScheme(u"ws"_s);
    TestClient confused;
    QVERIFY(confused.login(plain, tokenOf(u"alice"_s)).isEmpty());
    QTRY_VERIFY(m_gateway->metrics().render().contains(
        R"(presence_connections_refused_total{reason="tls_handshake"} 1)"));
    QVERIFY(login(u"alice"_s));
}

void TestGatewayTls::renewedCertificateServesNewConnections()
{
    auto before = login(u"alice"_s);
    QVERIFY(before);
    const QSslCertificate first = before->socket().sslConfiguration().peerCertificate();
    QCOMPARE(first, QSslCertificate::fromPath(m_certificates->certificateFile()).value(0));

    QString error;
    const auto renewed = TlsContext::load(
        m_certificates->renewedCertificateFile(), m_certificates->renewedKeyFile(), &error);
    QVERIFY2(renewed, qPrintable(error));
    m_gateway->setTls(renewed);

    auto after = login(u"bob"_s);
    QVERIFY(after);
    QCOMPARE(after->socket().sslConfiguration().peerCertificate(),
        QSslCertificate::fromPath(m_certificates->renewedCertificateFile()).value(0));
    // The connection from before goes on with its own.
    QCOMPARE(before->request({ { "type"_L1, "ping"_L1 } }).value("type"_L1).toString(), u"pong"_s);
    QCOMPARE(m_gateway->authenticatedCount(), 2);
}

void TestGatewayTls::needsTheOwnTransport()
{
    GatewayConfig config = testConfig();
    config.transport = GatewayConfig::Transport::Qt;
    QString error;
    config.tls
        = TlsContext::load(m_certificates->certificateFile(), m_certificates->keyFile(), &error);
    Gateway gateway(config, makeDirectory(population()), new MemoryPresenceStore(config.grace),
        new MemoryChatStore);
    QVERIFY(!gateway.listen(&error));
    QCOMPARE(error, u"TLS needs the gateway's own transport"_s);
}

QTEST_MAIN(TestGatewayTls)
#include "tst_gateway_tls.moc"
