// Tests for how a GatewaySession outlives its token, against a real gateway that takes JSON
// Web Tokens with no leeway and warns 1.5 s ahead: told the token is expiring, the session
// sends a new one from its token source, once, and stays signed in; a source that still gives
// the token in force sends nothing at all (issue 46: it once sent it again 2,479 times), and
// once the token has run out the session fails with "The sign-in expired" instead of signing
// in with it again; a refused refresh is followed by a new sign-in at the end with whatever
// the source gives then; without a source, an expired token ends in Failed, with the reason in
// plain words, and so does signing in with a token whose own exp has passed. A users-file token
// the operator revokes (a reload, 4005) is handled alike. Frames are counted at the gateway.

// C++
#include <chrono>
#include <memory>

// Qt
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

// Presence
#include "GatewayFixture.h"
#include "JwtMinter.h"
#include "PrometheusText.h"
#include "server-mock/identity/JwtVerifier.h"
#include "server-mock/server/Gateway.h"
#include "session/FileTokenSource.h"
#include "session/GatewaySession.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Server::DirectoryDiff;
using Presence::Server::Gateway;
using Presence::Server::GatewayConfig;
using Presence::Server::JwtKey;
using Presence::Server::JwtVerifier;
using Presence::Session::FileTokenSource;
using Presence::Session::GatewaySession;
using Presence::Session::TokenSource;
using Presence::TestSupport::JwtMinter;
using Presence::TestSupport::PrometheusText;
using Failure = GatewaySession::Failure;
using State = GatewaySession::State;

namespace {

const QByteArray kSecret = "the app's HS256 secret, 32 bytes or more"_ba;

void write(const QString &path, const QString &token)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QVERIFY(file.write(token.toUtf8() + '\n') > 0);
}

GatewaySession::Options fastOptions()
{
    GatewaySession::Options options;
    options.backoff.floor = 10ms;
    options.backoff.base = 50ms;
    options.backoff.cap = 200ms;
    return options;
}

} // namespace

class TestGatewaySessionTokens : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void anExpiringTokenIsRefreshedFromTheSource();
    void aTokenFileThatStaysTheSameSendsNoRefresh();
    void aTokenRenewedInTheFileIsSentOnce_data();
    void aTokenRenewedInTheFileIsSentOnce();
    void anExpiredTokenIsReplacedOnReconnecting();
    void withoutASourceAnExpiredTokenFails();
    void signingInWithAnExpiredTokenSaysTheSignInExpired_data();
    void signingInWithAnExpiredTokenSaysTheSignInExpired();
    void aRevokedTokenFailsWithoutASource();
    void aRevokedTokenIsReplacedFromTheSource();

private:
    // alice's token, expiring in `seconds` (whole seconds: 1 to `seconds` from now).
    [[nodiscard]] QString token(qint64 seconds) const
    {
        return m_minter.mint(JwtMinter::claims(u"alice"_s, seconds));
    }
    // Frames of that type the gateway has received so far.
    [[nodiscard]] double framesIn(const QString &type) const
    {
        return PrometheusText::parseInTest(m_gateway->metrics().render())
            .value("presence_frames_in_total", { { "type", type } })
            .value_or(0);
    }

    JwtMinter m_minter = JwtMinter::hs256(kSecret);
    std::unique_ptr<Gateway> m_gateway;
    QTemporaryDir m_dir;
    QString m_path;
};

void TestGatewaySessionTokens::init()
{
    QString error;
    const auto key = JwtKey::fromSecret(kSecret, {}, &error);
    QVERIFY2(key, qPrintable(error));
    GatewayConfig config = testConfig();
    config.jwt = std::make_shared<const JwtVerifier>(QList<JwtKey> { *key }, 0s);
    config.tokenWarning = 1500ms;
    m_gateway = startGateway({ { u"alice"_s, { u"bob"_s } }, { u"bob"_s, {} } }, config);
    QVERIFY(m_gateway);
    m_path = m_dir.filePath(u"token"_s);
}

void TestGatewaySessionTokens::anExpiringTokenIsRefreshedFromTheSource()
{
    write(m_path, token(3));
    FileTokenSource source(m_path);
    GatewaySession session(fastOptions());
    session.setTokenSource(&source);
    QSignalSpy expiring(&session, &GatewaySession::tokenExpiring);
    session.open(m_gateway->url(), *FileTokenSource::read(m_path, nullptr));
    QTRY_COMPARE(session.state(), State::Online);
    // The helper that renews tokens writes the next one before the old one runs out.
    write(m_path, token(600));
    QVERIFY(expiring.wait(5000));
    QVERIFY(expiring.at(0).at(0).value<std::chrono::milliseconds>() <= 1500ms);
    // Past the first token's end, still the same connection.
    QVERIFY(!QTest::qWaitFor([&] { return session.state() != State::Online; }, 3500));
    QCOMPARE(m_gateway->authenticatedCount(), 1);
}

void TestGatewaySessionTokens::aTokenFileThatStaysTheSameSendsNoRefresh()
{
    write(m_path, token(3));
    FileTokenSource source(m_path);
    GatewaySession session(fastOptions());
    session.setTokenSource(&source);
    QSignalSpy expiring(&session, &GatewaySession::tokenExpiring);
    session.open(m_gateway->url(), *FileTokenSource::read(m_path, nullptr));
    QTRY_COMPARE(session.state(), State::Online);
    QVERIFY(expiring.wait(5000));
    // Nobody renews the file: once the token has run out, the session says so, and waits for
    // the user (Sign in…) rather than signing in with the token that ran out.
    QTRY_COMPARE_WITH_TIMEOUT(session.state(), State::Failed, 5000);
    QCOMPARE(session.failure(), Failure::SignInExpired);
    QCOMPARE(session.errorString(), u"The sign-in expired: sign in again."_s);
    QCOMPARE(expiring.size(), 1);
    QCOMPARE(framesIn(u"refresh"_s), 0.0); // the token the gateway held was never sent back
    QCOMPARE(framesIn(u"hello"_s), 1.0); // nor signed in with once it had run out
    QCOMPARE(m_gateway->authenticatedCount(), 0);
}

void TestGatewaySessionTokens::aTokenRenewedInTheFileIsSentOnce_data()
{
    QTest::addColumn<bool>("late");
    QTest::addRow("before the warning") << false;
    // After the warning's read found the old token: it is read again before the end.
    QTest::addRow("after the warning") << true;
}

void TestGatewaySessionTokens::aTokenRenewedInTheFileIsSentOnce()
{
    QFETCH(bool, late);
    write(m_path, token(3));
    FileTokenSource source(m_path);
    GatewaySession session(fastOptions());
    session.setTokenSource(&source);
    QSignalSpy expiring(&session, &GatewaySession::tokenExpiring);
    QSignalSpy read(&source, &TokenSource::tokenReady);
    session.open(m_gateway->url(), *FileTokenSource::read(m_path, nullptr));
    QTRY_COMPARE(session.state(), State::Online);
    if (!late)
        write(m_path, token(600));
    QVERIFY(expiring.wait(5000));
    if (late) {
        QTRY_COMPARE(read.size(), 2); // before connecting, and on the warning
        write(m_path, token(600));
    }
    // Past the first token's end, still the same connection, renewed by one refresh.
    QVERIFY(!QTest::qWaitFor([&] { return session.state() != State::Online; }, 3500));
    QCOMPARE(framesIn(u"refresh"_s), 1.0);
    QCOMPARE(framesIn(u"hello"_s), 1.0);
    QCOMPARE(expiring.size(), 1);
    QCOMPARE(m_gateway->authenticatedCount(), 1);
}

void TestGatewaySessionTokens::anExpiredTokenIsReplacedOnReconnecting()
{
    write(m_path, token(3));
    FileTokenSource source(m_path);
    GatewaySession session(fastOptions());
    session.setTokenSource(&source);
    session.open(m_gateway->url(), *FileTokenSource::read(m_path, nullptr));
    QTRY_COMPARE(session.state(), State::Online);
    // The file holds no good token when the refresh is due: the gateway refuses it ...
    write(m_path, u"not-a-token"_s);
    QSignalSpy errors(&session, &GatewaySession::errorReceived);
    QVERIFY(errors.wait(5000));
    QCOMPARE(errors.at(0).at(0).toString(), u"unauthorized"_s);
    QCOMPARE(session.state(), State::Online); // the old token is still in force
    // ... which is not sent again, however often the file is read, and the gateway closes at
    // the token's end; then the helper writes a good one, which the session reads before
    // signing in again.
    QSignalSpy states(&session, &GatewaySession::stateChanged);
    connect(&session, &GatewaySession::stateChanged, this, [this](State state) {
        if (state == State::Reconnecting)
            write(m_path, token(600));
    });
    QTRY_VERIFY_WITH_TIMEOUT(states.contains({ QVariant::fromValue(State::Reconnecting) }), 5000);
    QTRY_COMPARE_WITH_TIMEOUT(session.state(), State::Online, 5000);
    QCOMPARE(session.failure(), Failure::None);
    QCOMPARE(m_gateway->authenticatedCount(), 1);
    QCOMPARE(framesIn(u"refresh"_s), 1.0);
    QCOMPARE(framesIn(u"hello"_s), 2.0);
}

void TestGatewaySessionTokens::withoutASourceAnExpiredTokenFails()
{
    GatewaySession session(fastOptions());
    session.open(m_gateway->url(), token(2));
    QTRY_COMPARE(session.state(), State::Online);
    QTRY_COMPARE_WITH_TIMEOUT(session.state(), State::Failed, 5000);
    QCOMPARE(session.failure(), Failure::SignInExpired);
    QCOMPARE(session.errorString(), u"The sign-in expired: sign in again."_s);
    QCOMPARE(framesIn(u"hello"_s), 1.0);
}

void TestGatewaySessionTokens::signingInWithAnExpiredTokenSaysTheSignInExpired_data()
{
    QTest::addColumn<bool>("withSource");
    QTest::addColumn<qint64>("expiresIn"); // seconds; 0: not a JSON Web Token at all
    QTest::addColumn<Failure>("failure");
    QTest::addColumn<QString>("text");

    const QString expired = u"The sign-in expired: sign in again."_s;
    const QString refused = u"The gateway did not accept the token."_s;
    // A laptop that slept past its token's end, its token file not renewed meanwhile.
    QTest::addRow("expired, from a file")
        << true << qint64(-60) << Failure::SignInExpired << expired;
    QTest::addRow("expired, given") << false << qint64(-60) << Failure::SignInExpired << expired;
    // Refused for another reason: not said to be expired.
    QTest::addRow("another key's") << false << qint64(600) << Failure::TokenRefused << refused;
    QTest::addRow("not a JSON Web Token") << false << qint64(0) << Failure::TokenRefused << refused;
}

void TestGatewaySessionTokens::signingInWithAnExpiredTokenSaysTheSignInExpired()
{
    QFETCH(bool, withSource);
    QFETCH(qint64, expiresIn);
    QFETCH(Failure, failure);
    QFETCH(QString, text);
    const QString given = expiresIn == 0 ? u"not-a-token"_s
        : expiresIn > 0 ? JwtMinter::hs256("another app's secret, 32 bytes or more"_ba)
                              .mint(JwtMinter::claims(u"alice"_s, expiresIn))
                        : token(expiresIn);
    write(m_path, given);
    FileTokenSource source(m_path);
    GatewaySession session(fastOptions());
    if (withSource)
        session.setTokenSource(&source);
    session.open(m_gateway->url(), given);
    QTRY_COMPARE(session.state(), State::Failed);
    QCOMPARE(session.failure(), failure);
    QCOMPARE(session.errorString(), text);
}

void TestGatewaySessionTokens::aRevokedTokenFailsWithoutASource()
{
    GatewaySession session(fastOptions());
    session.open(m_gateway->url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), State::Online);
    // The users file gives alice another token: her connection is closed (4005).
    m_gateway->friendships().applyDirectoryDiff(DirectoryDiff::between(m_gateway->directory(),
        makeDirectory({ { u"alice"_s, { u"bob"_s }, {}, u"alice-new"_s }, { u"bob"_s, {} } })));
    QTRY_COMPARE(session.state(), State::Failed);
    QCOMPARE(session.failure(), Failure::TokenRefused);
    QCOMPARE(session.errorString(),
        u"The gateway signed you out (the account was removed, or its token changed): sign in "
        "again."_s);
}

void TestGatewaySessionTokens::aRevokedTokenIsReplacedFromTheSource()
{
    write(m_path, tokenOf(u"alice"_s));
    FileTokenSource source(m_path);
    GatewaySession session(fastOptions());
    session.setTokenSource(&source);
    session.open(m_gateway->url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), State::Online);
    // The helper that hands out tokens already has the new one when the gateway signs us out.
    write(m_path, u"alice-new"_s);
    QSignalSpy states(&session, &GatewaySession::stateChanged);
    m_gateway->friendships().applyDirectoryDiff(DirectoryDiff::between(m_gateway->directory(),
        makeDirectory({ { u"alice"_s, { u"bob"_s }, {}, u"alice-new"_s }, { u"bob"_s, {} } })));
    QTRY_VERIFY(states.contains({ QVariant::fromValue(State::Reconnecting) }));
    QTRY_COMPARE(session.state(), State::Online);
    QCOMPARE(session.failure(), Failure::None);
    QCOMPARE(m_gateway->authenticatedCount(), 1);
}

QTEST_GUILESS_MAIN(TestGatewaySessionTokens)
#include "tst_gateway_session_tokens.moc"
