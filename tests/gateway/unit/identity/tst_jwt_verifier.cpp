// Tests for JwtVerifier: JSON Web Tokens as an app's auth service mints them (HS256, RS256,
// ES256), accepted with their subject and expiry; and every way a token can be wrong, each
// refused with its reason: expired, not yet valid, issued in the future, a wrong key, a key of
// another kind, "alg": "none" and unknown algorithms, a tampered payload or signature, kid
// rotation, and malformed parts.

// C++
#include <chrono>

// Qt
#include <QJsonArray>
#include <QTest>

// Presence
#include "JwtMinter.h"
#include "server-mock/identity/JwtVerifier.h"

using namespace Qt::StringLiterals;
using namespace std::chrono;
using Presence::Server::JwtKey;
using Presence::Server::JwtVerifier;
using Presence::TestSupport::JwtMinter;

namespace {

const QByteArray kSecret = "a secret of thirty-two bytes or more"_ba;
constexpr qint64 kNow = 1'800'000'000; // seconds since the epoch, the verifier's "now"

milliseconds now()
{
    return seconds(kNow);
}

QJsonObject claims(const QString &user, qint64 expiresAt)
{
    return { { "sub"_L1, user }, { "exp"_L1, expiresAt } };
}

JwtKey keyOf(const JwtMinter &minter, const QString &kid = {})
{
    QString error;
    const auto key = minter.algorithm() == JwtMinter::Algorithm::HS256
        ? JwtKey::fromSecret(kSecret, kid, &error)
        : JwtKey::fromPublicKeyPem(minter.publicKeyPem(), kid, &error);
    if (!key)
        qFatal("%s", qPrintable(error));
    return *key;
}

// A verifier with one key of each kind, none with a kid.
struct Scene {
    JwtMinter hs = JwtMinter::hs256(kSecret);
    JwtMinter rs = JwtMinter::generate(JwtMinter::Algorithm::RS256);
    JwtMinter es = JwtMinter::generate(JwtMinter::Algorithm::ES256);
    JwtVerifier verifier { { keyOf(hs), keyOf(rs), keyOf(es) } };
};

} // namespace

class TestJwtVerifier : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void acceptsEachAlgorithm();
    void timesHaveALeeway();
    void refusesTimesOutsideIt();
    void refusesAnotherKeysSignature();
    void refusesAlgorithmsItWasNotGiven();
    void refusesTampering();
    void kidPicksTheKey();
    void refusesMalformedTokens_data();
    void refusesMalformedTokens();
    void refusesBadClaims_data();
    void refusesBadClaims();

private:
    Scene m_scene;
};

void TestJwtVerifier::acceptsEachAlgorithm()
{
    for (const JwtMinter *minter : { &m_scene.hs, &m_scene.rs, &m_scene.es }) {
        const QString token = minter->mint(claims(u"alice"_s, kNow + 60));
        QVERIFY(JwtVerifier::looksLikeJwt(token));
        const auto result = m_scene.verifier.verify(token, now());
        QVERIFY2(result.claims, qPrintable(minter->algorithmName() + u": "_s + result.refusal));
        QCOMPARE(result.claims->subject, u"alice"_s);
        QCOMPARE(result.claims->expiresAt, seconds(kNow + 60));
    }
    // A fractional NumericDate is allowed (RFC 7519 §2).
    const auto fractional = m_scene.verifier.verify(
        m_scene.hs.mint({ { "sub"_L1, u"bob"_s }, { "exp"_L1, kNow + 1.5 } }), now());
    QVERIFY(fractional.claims);
    QCOMPARE(fractional.claims->expiresAt, milliseconds(kNow * 1000 + 1500));
}

void TestJwtVerifier::timesHaveALeeway()
{
    const qint64 leeway = JwtVerifier::kDefaultLeeway.count();
    QJsonObject payload = claims(u"alice"_s, kNow - leeway + 1); // expired, within the leeway
    payload.insert("nbf"_L1, kNow + leeway - 1);
    payload.insert("iat"_L1, kNow + leeway - 1);
    const auto result = m_scene.verifier.verify(m_scene.es.mint(payload), now());
    QVERIFY2(result.claims, qPrintable(result.refusal));
}

void TestJwtVerifier::refusesTimesOutsideIt()
{
    const qint64 leeway = JwtVerifier::kDefaultLeeway.count();
    const auto refusalOf = [this](const QJsonObject &payload) {
        return m_scene.verifier.verify(m_scene.hs.mint(payload), now()).refusal;
    };
    QCOMPARE(refusalOf(claims(u"alice"_s, kNow - leeway)), u"expired 30 s ago"_s);
    QJsonObject early = claims(u"alice"_s, kNow + 600);
    early.insert("nbf"_L1, kNow + 120);
    QCOMPARE(refusalOf(early), u"not valid before 120 s from now"_s);
    QJsonObject future = claims(u"alice"_s, kNow + 600);
    future.insert("iat"_L1, kNow + 3600);
    QCOMPARE(refusalOf(future), u"issued 3600 s from now"_s);
}

void TestJwtVerifier::refusesAnotherKeysSignature()
{
    // Same algorithms, other keys: nothing they sign is taken.
    const JwtMinter otherHs = JwtMinter::hs256("another secret of thirty-two bytes"_ba);
    const JwtMinter otherRs = JwtMinter::generate(JwtMinter::Algorithm::RS256);
    const JwtMinter otherEs = JwtMinter::generate(JwtMinter::Algorithm::ES256);
    for (const JwtMinter *minter : { &otherHs, &otherRs, &otherEs }) {
        const auto result
            = m_scene.verifier.verify(minter->mint(claims(u"alice"_s, kNow + 60)), now());
        QVERIFY(!result.claims);
        QCOMPARE(result.refusal, u"the signature does not match"_s);
    }
    // A verifier with only an HS256 secret takes no RS256 token, however well signed.
    const JwtVerifier hsOnly({ keyOf(m_scene.hs) });
    QCOMPARE(hsOnly.verify(m_scene.rs.mint(claims(u"alice"_s, kNow + 60)), now()).refusal,
        u"no RS256 key is configured"_s);
}

void TestJwtVerifier::refusesAlgorithmsItWasNotGiven()
{
    const QJsonObject payload = claims(u"alice"_s, kNow + 60);
    // "alg": "none", unsigned: the oldest trick.
    const QString unsignedToken
        = JwtMinter::assemble({ { "alg"_L1, "none"_L1 }, { "typ"_L1, "JWT"_L1 } }, payload, {});
    QCOMPARE(m_scene.verifier.verify(unsignedToken, now()).refusal,
        u"algorithm \"none\" is not accepted"_s);
    for (const QString &alg : { u"HS512"_s, u"RS384"_s, u"PS256"_s, u"EdDSA"_s, u"hs256"_s }) {
        const QString token = m_scene.hs.mintWithHeader({ { "alg"_L1, alg } }, payload);
        QCOMPARE(m_scene.verifier.verify(token, now()).refusal,
            u"algorithm \"%1\" is not accepted"_s.arg(alg));
    }
    // HS256 "signed" with the RSA public key as the secret: the key confusion attack. The
    // verifier's RSA key answers only for RS256, and no HS256 secret is that PEM.
    const JwtMinter confused = JwtMinter::hs256(m_scene.rs.publicKeyPem());
    QCOMPARE(m_scene.verifier.verify(confused.mint(payload), now()).refusal,
        u"the signature does not match"_s);
    QVERIFY(!JwtVerifier({ keyOf(m_scene.rs) }).verify(confused.mint(payload), now()).claims);
    // An RS256 header on an ES256 signature, and the other way round.
    const QString esAsRs = m_scene.es.mintWithHeader({ { "alg"_L1, "RS256"_L1 } }, payload);
    QCOMPARE(m_scene.verifier.verify(esAsRs, now()).refusal, u"the signature does not match"_s);
    const QString rsAsEs = m_scene.rs.mintWithHeader({ { "alg"_L1, "ES256"_L1 } }, payload);
    QCOMPARE(m_scene.verifier.verify(rsAsEs, now()).refusal, u"the signature does not match"_s);
    // Critical extensions are not understood, so not accepted.
    const QString critical = m_scene.hs.mintWithHeader(
        { { "alg"_L1, "HS256"_L1 }, { "crit"_L1, QJsonArray { u"exp"_s } } }, payload);
    QVERIFY(m_scene.verifier.verify(critical, now()).refusal.contains(u"crit"_s));
}

void TestJwtVerifier::refusesTampering()
{
    const QString token = m_scene.rs.mint(claims(u"alice"_s, kNow + 60));
    const QStringList parts = token.split(u'.');
    // The payload swapped for one naming bob, the signature kept.
    const QString bob = JwtMinter::assemble({}, claims(u"bob"_s, kNow + 60), {}).split(u'.').at(1);
    QCOMPARE(m_scene.verifier.verify(parts[0] + u'.' + bob + u'.' + parts[2], now()).refusal,
        u"the signature does not match"_s);
    // One character of the signature changed.
    QString flipped = token;
    const qsizetype at = flipped.size() - 5;
    flipped[at] = flipped[at] == u'A' ? u'B' : u'A';
    QCOMPARE(m_scene.verifier.verify(flipped, now()).refusal, u"the signature does not match"_s);
    // No signature at all.
    QCOMPARE(m_scene.verifier.verify(parts[0] + u'.' + parts[1] + u'.', now()).refusal,
        u"the signature does not match"_s);
}

void TestJwtVerifier::kidPicksTheKey()
{
    // Rotation: the old and the new key both configured, each with its kid.
    const JwtMinter old = JwtMinter::generate(JwtMinter::Algorithm::ES256);
    const JwtVerifier verifier({ keyOf(old, u"2026-11"_s), keyOf(m_scene.es, u"2026-12"_s),
        keyOf(m_scene.hs, u"hmac"_s) });
    const QJsonObject payload = claims(u"alice"_s, kNow + 60);
    QVERIFY(verifier.verify(old.mint(payload, u"2026-11"_s), now()).claims);
    QVERIFY(verifier.verify(m_scene.es.mint(payload, u"2026-12"_s), now()).claims);
    // Without a kid, every key of the algorithm is tried.
    QVERIFY(verifier.verify(old.mint(payload), now()).claims);
    // A kid names one key: another key's signature does not count.
    QCOMPARE(verifier.verify(old.mint(payload, u"2026-12"_s), now()).refusal,
        u"the signature does not match"_s);
    QCOMPARE(verifier.verify(old.mint(payload, u"2025-01"_s), now()).refusal,
        u"no key has kid \"2025-01\""_s);
    // A kid of a key of another kind is refused, whatever the signature.
    QCOMPARE(verifier.verify(m_scene.es.mint(payload, u"hmac"_s), now()).refusal,
        u"key \"hmac\" is for HS256, the token says ES256"_s);
}

void TestJwtVerifier::refusesMalformedTokens_data()
{
    QTest::addColumn<QString>("token");
    QTest::addColumn<QString>("refusal");
    QTest::newRow("a users-file token")
        << u"alice-secret"_s << u"not a JSON Web Token in compact form"_s;
    QTest::newRow("two parts") << u"eyJhbGciOiJIUzI1NiJ9.e30"_s
                               << u"not a JSON Web Token in compact form"_s;
    QTest::newRow("four parts") << u"a.b.c.d"_s << u"not a JSON Web Token in compact form"_s;
    QTest::newRow("padding") << u"eyJhbGciOiJIUzI1NiJ9=.e30.AA"_s
                             << u"not a JSON Web Token in compact form"_s;
    QTest::newRow("header not JSON")
        << u"bm90IGpzb24.e30.AA"_s << u"the header is not base64url of a JSON object"_s;
    QTest::newRow("header an array")
        << u"WzFd.e30.AA"_s << u"the header is not base64url of a JSON object"_s;
    QTest::newRow("no alg") << u"e30.e30.AA"_s << u"the header names no algorithm"_s;
    QTest::newRow("alg a number") << u"eyJhbGciOjF9.e30.AA"_s << u"the header names no algorithm"_s;
    QTest::newRow("kid a number") << u"eyJhbGciOiJIUzI1NiIsImtpZCI6MX0.e30.AA"_s
                                  << u"the header's kid is not a string"_s;
    QTest::newRow("empty") << QString() << u"not a JSON Web Token in compact form"_s;
}

void TestJwtVerifier::refusesMalformedTokens()
{
    QFETCH(QString, token);
    QFETCH(QString, refusal);
    const auto result = m_scene.verifier.verify(token, now());
    QVERIFY(!result.claims);
    QCOMPARE(result.refusal, refusal);
}

void TestJwtVerifier::refusesBadClaims_data()
{
    QTest::addColumn<QJsonObject>("payload");
    QTest::addColumn<QString>("refusal");
    QTest::newRow("no sub") << QJsonObject { { "exp"_L1, kNow + 60 } }
                            << u"sub is missing or no valid user id"_s;
    QTest::newRow("sub not an id")
        << claims(u"alice smith"_s, kNow + 60) << u"sub is missing or no valid user id"_s;
    QTest::newRow("sub a number") << QJsonObject { { "sub"_L1, 7 }, { "exp"_L1, kNow + 60 } }
                                  << u"sub is missing or no valid user id"_s;
    QTest::newRow("no exp") << QJsonObject { { "sub"_L1, u"alice"_s } }
                            << u"exp is missing or no NumericDate"_s;
    QTest::newRow("exp a string") << QJsonObject { { "sub"_L1, u"alice"_s },
        { "exp"_L1, u"tomorrow"_s } }
                                  << u"exp is missing or no NumericDate"_s;
    QTest::newRow("exp past milliseconds") << QJsonObject { { "sub"_L1, u"alice"_s },
        { "exp"_L1, 1e300 } } << u"exp is missing or no NumericDate"_s;
    QJsonObject nbf = claims(u"alice"_s, kNow + 60);
    nbf.insert("nbf"_L1, u"now"_s);
    QTest::newRow("nbf a string") << nbf << u"nbf is no NumericDate"_s;
}

void TestJwtVerifier::refusesBadClaims()
{
    QFETCH(QJsonObject, payload);
    QFETCH(QString, refusal);
    const auto result = m_scene.verifier.verify(m_scene.hs.mint(payload), now());
    QVERIFY(!result.claims);
    QCOMPARE(result.refusal, refusal);
}

QTEST_GUILESS_MAIN(TestJwtVerifier)
#include "tst_jwt_verifier.moc"
