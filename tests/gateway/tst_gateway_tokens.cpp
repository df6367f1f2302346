// Tests for signing in with JSON Web Tokens from an app's auth service, over real loopback
// WebSockets: a token signed with a configured key signs its subject in, as a users-file token
// does (and both work side by side); every bad token gets the same unauthorized error and close
// 4001, and the gateway logs why without the token. A connection is told ahead of its token's
// end and closed with 4004 at it, unless a refresh for the same user brings a new token; it
// is told once per end, so the token in force sent back as a refresh brings no new warning
// (issue 46), and the gateway counts both frames under their own types.

// C++
#include <chrono>
#include <memory>

// Qt
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

// Presence
#include "GatewayFixture.h"
#include "JwtMinter.h"
#include "PrometheusText.h"
#include "TestClient.h"
#include "server-mock/identity/JwtVerifier.h"
#include "server-mock/server/Gateway.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Server::GatewayConfig;
using Presence::Server::JwtKey;
using Presence::Server::JwtVerifier;
using Presence::TestSupport::JwtMinter;
using Presence::TestSupport::PrometheusText;

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
    void anExpiringTokenIsToldThenClosed();
    void aRefreshKeepsTheConnection();
    void aRefreshMustBeTheSameUsersGoodToken();
    void theTokenInForceSentBackIsNotWarnedAgain();

private:
    // A gateway taking m_hs's and m_es's tokens (m_es's by kid es-1), with 30 s of leeway, or
    // none and a warning 1.5 s ahead, for tests of expiry in real time.
    std::unique_ptr<Presence::Server::Gateway> start(bool shortTimes = false);
    // A client signed in as alice with a token that expires in `seconds`.
    std::unique_ptr<TestClient> aliceFor(const Presence::Server::Gateway &gateway, qint64 seconds);

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

std::unique_ptr<Presence::Server::Gateway> TestGatewayTokens::start(bool shortTimes)
{
    QString error;
    const auto secret = JwtKey::fromSecret(kSecret, {}, &error);
    const auto publicKey = JwtKey::fromPublicKeyPem(m_es.publicKeyPem(), u"es-1"_s, &error);
    if (!secret || !publicKey)
        qFatal("%s", qPrintable(error));
    GatewayConfig config = testConfig();
    config.jwt = std::make_shared<const JwtVerifier>(
        QList<JwtKey> { *secret, *publicKey }, shortTimes ? 0s : JwtVerifier::kDefaultLeeway);
    if (shortTimes)
        config.tokenWarning = 1500ms;
    return startGateway(population(), config);
}

std::unique_ptr<TestClient> TestGatewayTokens::aliceFor(
    const Presence::Server::Gateway &gateway, qint64 seconds)
{
    // exp is whole seconds: to the second, "in 2 s" is between 1 and 2 s from now.
    auto alice = std::make_unique<TestClient>();
    if (alice->login(gateway.url(), m_hs.mint(JwtMinter::claims(u"alice"_s, seconds))).isEmpty())
        return nullptr;
    return alice;
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

void TestGatewayTokens::anExpiringTokenIsToldThenClosed()
{
    const auto gateway = start(true);
    QVERIFY(gateway);
    QElapsedTimer clock;
    clock.start();
    const auto alice = aliceFor(*gateway, 3);
    QVERIFY(alice);
    // Told 1.5 s ahead of the end, which is 2 to 3 s away ...
    const QJsonObject expiring = alice->waitFor(u"token_expiring"_s, 5000);
    QCOMPARE(expiring.value("type"_L1).toString(), u"token_expiring"_s);
    const qint64 inMs = expiring.value("in_ms"_L1).toInteger();
    QVERIFY2(inMs > 1000 && inMs <= 1500, qPrintable(QString::number(inMs)));
    QVERIFY(clock.elapsed() >= 400);
    // ... then closed at the end, with 4004.
    QVERIFY(alice->waitDisconnected(5000));
    QCOMPARE(alice->closeCode(), 4004);
    QVERIFY(clock.elapsed() >= 1900);
    QCOMPARE(alice->pending(u"token_expiring"_s).size(), 0); // told once
    QVERIFY2(g_log.join(u'\n').contains(u"has a token that expired: closing"_s),
        qPrintable(g_log.join(u'\n')));
}

void TestGatewayTokens::aRefreshKeepsTheConnection()
{
    const auto gateway = start(true);
    QVERIFY(gateway);
    const auto alice = aliceFor(*gateway, 2);
    QVERIFY(alice);
    QVERIFY(!alice->waitFor(u"token_expiring"_s, 5000).isEmpty());
    const QJsonObject ok = alice->request({ { "type"_L1, "refresh"_L1 },
        { "token"_L1, m_es.mint(JwtMinter::claims(u"alice"_s, 4), u"es-1"_s) } });
    QCOMPARE(ok.value("type"_L1).toString(), u"ok"_s);
    // Past the first token's end, still open; the new one is warned of in its turn, then ends.
    QVERIFY(!QTest::qWaitFor([&] { return !alice->isOpen(); }, 2500));
    QVERIFY(!alice->waitFor(u"token_expiring"_s, 5000).isEmpty());
    // A users-file token has no end: refreshing to one ends the countdown.
    QCOMPARE(alice->request({ { "type"_L1, "refresh"_L1 }, { "token"_L1, tokenOf(u"alice"_s) } })
                 .value("type"_L1)
                 .toString(),
        u"ok"_s);
    QVERIFY(!QTest::qWaitFor([&] { return !alice->isOpen(); }, 3000));
    QCOMPARE(alice->pending(u"token_expiring"_s).size(), 0);
}

void TestGatewayTokens::aRefreshMustBeTheSameUsersGoodToken()
{
    const auto gateway = start(true);
    QVERIFY(gateway);
    const auto alice = aliceFor(*gateway, 3);
    QVERIFY(alice);
    const auto refresh = [&](const QString &token) {
        return alice->request({ { "type"_L1, "refresh"_L1 }, { "token"_L1, token } });
    };
    // bob's token, good as it is: not alice's to take.
    const QJsonObject forbidden = refresh(m_hs.mint(JwtMinter::claims(u"bob"_s, 600)));
    QCOMPARE(forbidden.value("code"_L1).toString(), u"forbidden"_s);
    QCOMPARE(refresh(tokenOf(u"bob"_s)).value("code"_L1).toString(), u"forbidden"_s);
    // Expired, or badly signed: unauthorized, and the connection keeps its old token.
    QCOMPARE(refresh(m_hs.mint(JwtMinter::claims(u"alice"_s, -5))).value("code"_L1).toString(),
        u"unauthorized"_s);
    QCOMPARE(refresh(u"not-a-token"_s).value("code"_L1).toString(), u"unauthorized"_s);
    QCOMPARE(refresh(QString()).value("code"_L1).toString(), u"bad_request"_s);
    QVERIFY(alice->isOpen());
    QVERIFY(!alice->waitFor(u"token_expiring"_s, 5000).isEmpty());
    QVERIFY(alice->waitDisconnected(5000));
    QCOMPARE(alice->closeCode(), 4004);
}

void TestGatewayTokens::theTokenInForceSentBackIsNotWarnedAgain()
{
    // Issue 46: a client answered every warning with the token it signed in with; each ok was
    // followed by a new warning at once, 2,479 times in 50 s. A warning is given once per end.
    const auto gateway = start(true);
    QVERIFY(gateway);
    const QString token = m_hs.mint(JwtMinter::claims(u"alice"_s, 3));
    TestClient alice;
    QVERIFY(!alice.login(gateway->url(), token).isEmpty());
    QVERIFY(!alice.waitFor(u"token_expiring"_s, 5000).isEmpty());
    const auto refresh = [&] {
        return alice.request({ { "type"_L1, "refresh"_L1 }, { "token"_L1, token } });
    };
    QCOMPARE(refresh().value("type"_L1).toString(), u"ok"_s); // taken: it is alice's, still good
    QVERIFY(alice.waitDisconnected(5000));
    QCOMPARE(alice.closeCode(), 4004); // the end did not move either
    QCOMPARE(alice.pending(u"token_expiring"_s).size(), 0);

    // The gateway's own count says the same, each under its own type.
    const auto text = PrometheusText::parseInTest(gateway->metrics().render());
    const auto count = [&](const QByteArray &family, const QString &type) {
        return text.value(family, { { "type", type } }).value_or(-1); // -1: no such series
    };
    QCOMPARE(count("presence_frames_in_total", u"refresh"_s), 1.0);
    QCOMPARE(count("presence_frames_out_total", u"token_expiring"_s), 1.0);
    QCOMPARE(count("presence_frames_in_total", u"other"_s), -1.0);
    QCOMPARE(count("presence_frames_out_total", u"other"_s), -1.0);
}

QTEST_GUILESS_MAIN(TestGatewayTokens)
#include "tst_gateway_tokens.moc"
