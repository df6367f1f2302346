// Tests for signing in with JSON Web Tokens from an app's auth service, over real loopback
// WebSockets: a token signed with a configured key signs its subject in, as a users-file token
// does (and both work side by side); every bad token gets the same unauthorized error and close
// 4001, and the gateway logs why without the token.

// C++
#include <memory>

// Qt
#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

// Presence
#include "GatewayFixture.h"
#include "JwtMinter.h"
#include "TestClient.h"
#include "server-mock/identity/JwtVerifier.h"
#include "server-mock/server/Gateway.h"

using namespace Qt::StringLiterals;
using Presence::Server::GatewayConfig;
using Presence::Server::JwtKey;
using Presence::Server::JwtVerifier;
using Presence::TestSupport::JwtMinter;

namespace {

const QByteArray kSecret = "the app's HS256 secret, 32 bytes or more"_ba;

QList<TestUser> population()
{
    return { { u"alice"_s, { u"bob"_s } }, { u"bob"_s, {} } };
}

// What the gateway logs while a test runs, to check what it says of a refused token.
QStringList g_log;
QtMessageHandler g_previousHandler = nullptr;

void recordMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    g_log.append(message);
    g_previousHandler(type, context, message);
}

} // namespace

class TestGatewayTokens : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void init();
    void aSignedTokenSignsItsSubjectIn();
    void badTokensAreRefusedAlike_data();
    void badTokensAreRefusedAlike();
    void withoutKeysAJwtIsAnUnknownToken();

private:
    std::unique_ptr<Presence::Server::Gateway> start();

    JwtMinter m_hs = JwtMinter::hs256(kSecret);
    JwtMinter m_es = JwtMinter::generate(JwtMinter::Algorithm::ES256);
};

void TestGatewayTokens::initTestCase()
{
    g_previousHandler = qInstallMessageHandler(recordMessage);
}

void TestGatewayTokens::cleanupTestCase()
{
    qInstallMessageHandler(g_previousHandler);
}

void TestGatewayTokens::init()
{
    g_log.clear();
}

std::unique_ptr<Presence::Server::Gateway> TestGatewayTokens::start()
{
    QString error;
    const auto secret = JwtKey::fromSecret(kSecret, {}, &error);
    const auto publicKey = JwtKey::fromPublicKeyPem(m_es.publicKeyPem(), u"es-1"_s, &error);
    if (!secret || !publicKey)
        qFatal("%s", qPrintable(error));
    GatewayConfig config = testConfig();
    config.jwt = std::make_shared<const JwtVerifier>(QList<JwtKey> { *secret, *publicKey });
    return startGateway(population(), config);
}

void TestGatewayTokens::aSignedTokenSignsItsSubjectIn()
{
    const auto gateway = start();
    QVERIFY(gateway);
    TestClient alice;
    const QJsonObject welcome
        = alice.login(gateway->url(), m_es.mint(JwtMinter::claims(u"alice"_s, 300), u"es-1"_s));
    QCOMPARE(welcome.value("user"_L1).toObject().value("id"_L1).toString(), u"alice"_s);
    // bob with his users-file token, beside her: she sees him come online.
    TestClient bob;
    QVERIFY(!bob.login(gateway->url(), tokenOf(u"bob"_s)).isEmpty());
    const QJsonObject snapshot
        = alice.request({ { "type"_L1, "subscribe"_L1 }, { "ids"_L1, QJsonArray { u"bob"_s } } });
    QCOMPARE(snapshot.value("type"_L1).toString(), u"snapshot"_s);
    QCOMPARE(snapshot.value("users"_L1).toArray().at(0).toObject().value("status"_L1).toString(),
        u"online"_s);
    // An HS256 token works as well, for another connection of the same user.
    TestClient aliceAgain;
    QVERIFY(
        !aliceAgain.login(gateway->url(), m_hs.mint(JwtMinter::claims(u"alice"_s, 300))).isEmpty());
}

void TestGatewayTokens::badTokensAreRefusedAlike_data()
{
    QTest::addColumn<QString>("token");
    QTest::addColumn<QString>("logged"); // what the gateway's log says of it

    const QJsonObject alice = JwtMinter::claims(u"alice"_s, 300);
    QTest::addRow("expired") << m_hs.mint(JwtMinter::claims(u"alice"_s, -300))
                             << u"expired 30"_s; // 300 or 301 s ago, as the second turns
    QJsonObject early = alice;
    early.insert("nbf"_L1, early.value("iat"_L1).toInteger() + 600);
    QTest::addRow("not yet valid")
        << m_hs.mint(early) << u"not valid before "_s; // 599 or 600 s from now, as the second turns
    QTest::addRow("another key")
        << JwtMinter::hs256("somebody else's secret, 32 bytes long"_ba).mint(alice)
        << u"the signature does not match"_s;
    QTest::addRow("alg none") << JwtMinter::assemble({ { "alg"_L1, "none"_L1 } }, alice, {})
                              << u"algorithm \"none\" is not accepted"_s;
    const QStringList parts = m_hs.mint(alice).split(u'.');
    const QString bob
        = JwtMinter::assemble({}, JwtMinter::claims(u"bob"_s, 300), {}).split(u'.')[1];
    QTest::addRow("tampered") << parts[0] + u'.' + bob + u'.' + parts[2]
                              << u"the signature does not match"_s;
    QTest::addRow("unknown kid") << m_es.mint(alice, u"es-0"_s) << u"no key has kid \"es-0\""_s;
    QTest::addRow("no such user") << m_hs.mint(JwtMinter::claims(u"mallory"_s, 300))
                                  << u"a JSON Web Token for \"mallory\", who is no user here"_s;
    QTest::addRow("no exp") << m_hs.mint({ { "sub"_L1, u"alice"_s } })
                            << u"exp is missing or no NumericDate"_s;
}

void TestGatewayTokens::badTokensAreRefusedAlike()
{
    QFETCH(QString, token);
    QFETCH(QString, logged);
    const auto gateway = start();
    QVERIFY(gateway);
    TestClient client;
    client.open(gateway->url());
    QVERIFY(client.waitConnected());
    client.sendJson({ { "type"_L1, "hello"_L1 }, { "token"_L1, token }, { "protocol"_L1, 1 } });
    const QJsonObject error = client.waitFor(u"error"_s);
    QCOMPARE(error.value("code"_L1).toString(), u"unauthorized"_s);
    QCOMPARE(error.value("message"_L1).toString(), u"unknown token"_s);
    QVERIFY(client.waitDisconnected());
    QCOMPARE(client.closeCode(), 4001);
    QCOMPARE(gateway->authenticatedCount(), 0);

    const QString log = g_log.join(u'\n');
    QVERIFY2(log.contains(logged), qPrintable(log));
    // The token is a credential: no part of it is ever logged.
    for (const QString &part : token.split(u'.')) {
        if (part.size() > 8)
            QVERIFY2(!log.contains(part), qPrintable(log));
    }
}

void TestGatewayTokens::withoutKeysAJwtIsAnUnknownToken()
{
    const auto gateway = startGateway(population());
    QVERIFY(gateway);
    TestClient client;
    client.open(gateway->url());
    QVERIFY(client.waitConnected());
    client.sendJson({ { "type"_L1, "hello"_L1 },
        { "token"_L1, m_hs.mint(JwtMinter::claims(u"alice"_s, 300)) }, { "protocol"_L1, 1 } });
    QCOMPARE(client.waitFor(u"error"_s).value("code"_L1).toString(), u"unauthorized"_s);
    QVERIFY(client.waitDisconnected());
    QCOMPARE(client.closeCode(), 4001);
    QVERIFY2(
        g_log.join(u'\n').contains(u"refused: an unknown token"_s), qPrintable(g_log.join(u'\n')));
}

QTEST_GUILESS_MAIN(TestGatewayTokens)
#include "tst_gateway_tokens.moc"
