// Tests for how a GatewaySession outlives its token, against a real gateway that takes JSON
// Web Tokens with no leeway and warns 1.5 s ahead: told the token is expiring, the session
// sends a new one from its token source and stays signed in; when the gateway refuses it and
// closes (4004), the session fetches again and signs in anew; without a source, an expired
// token ends in Failed, with the reason in plain words. A users-file token the operator
// revokes (a reload, 4005) is handled alike.

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
using Presence::TestSupport::JwtMinter;
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
    void anExpiredTokenIsReplacedOnReconnecting();
    void withoutASourceAnExpiredTokenFails();
    void aRevokedTokenFailsWithoutASource();
    void aRevokedTokenIsReplacedFromTheSource();

private:
    // alice's token, expiring in `seconds` (whole seconds: 1 to `seconds` from now).
    [[nodiscard]] QString token(qint64 seconds) const
    {
        return m_minter.mint(JwtMinter::claims(u"alice"_s, seconds));
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
    // ... and closes at the token's end; by then the helper wrote a good one, which the
    // session reads before signing in again.
    write(m_path, token(600));
    QSignalSpy states(&session, &GatewaySession::stateChanged);
    QTRY_VERIFY_WITH_TIMEOUT(states.contains({ QVariant::fromValue(State::Reconnecting) }), 5000);
    QTRY_COMPARE_WITH_TIMEOUT(session.state(), State::Online, 5000);
    QCOMPARE(session.failure(), GatewaySession::Failure::None);
    QCOMPARE(m_gateway->authenticatedCount(), 1);
}

void TestGatewaySessionTokens::withoutASourceAnExpiredTokenFails()
{
    GatewaySession session(fastOptions());
    session.open(m_gateway->url(), token(2));
    QTRY_COMPARE(session.state(), State::Online);
    QTRY_COMPARE_WITH_TIMEOUT(session.state(), State::Failed, 5000);
    QCOMPARE(session.failure(), GatewaySession::Failure::TokenRefused);
    QCOMPARE(session.errorString(), u"The sign-in expired: sign in again."_s);
}

void TestGatewaySessionTokens::aRevokedTokenFailsWithoutASource()
{
    GatewaySession session(fastOptions());
    session.open(m_gateway->url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), State::Online);
    // The users file gives alice another token: her connection is closed (4005).
    m_gateway->applyDirectoryDiff(DirectoryDiff::between(m_gateway->directory(),
        makeDirectory({ { u"alice"_s, { u"bob"_s }, {}, u"alice-new"_s }, { u"bob"_s, {} } })));
    QTRY_COMPARE(session.state(), State::Failed);
    QCOMPARE(session.failure(), GatewaySession::Failure::TokenRefused);
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
    m_gateway->applyDirectoryDiff(DirectoryDiff::between(m_gateway->directory(),
        makeDirectory({ { u"alice"_s, { u"bob"_s }, {}, u"alice-new"_s }, { u"bob"_s, {} } })));
    QTRY_VERIFY(states.contains({ QVariant::fromValue(State::Reconnecting) }));
    QTRY_COMPARE(session.state(), State::Online);
    QCOMPARE(session.failure(), GatewaySession::Failure::None);
    QCOMPARE(m_gateway->authenticatedCount(), 1);
}

QTEST_GUILESS_MAIN(TestGatewaySessionTokens)
#include "tst_gateway_session_tokens.moc"
