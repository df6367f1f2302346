// Tests for JwtKey: which keys the gateway takes for JSON Web Tokens (an HS256 secret of 32
// bytes or more, an RSA public key of 2048 bits or more, a P-256 public key) and the message
// that refuses any other, naming the file; and that a key verifies only its own algorithm's
// signatures.

// C++
#include <memory>

// Qt
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

// OpenSSL
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

// Presence
#include "JwtMinter.h"
#include "server-mock/identity/JwtKey.h"

using namespace Qt::StringLiterals;
using Presence::Server::JwtKey;
using Presence::TestSupport::JwtMinter;

namespace {

// The PEM of a key OpenSSL generates from the given type and parameter, public or private.
template <typename Parameter>
QByteArray pemOf(const char *type, Parameter parameter, bool privatePart = false)
{
    std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(
        EVP_PKEY_Q_keygen(nullptr, nullptr, type, parameter), EVP_PKEY_free);
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
    if (privatePart)
        PEM_write_bio_PrivateKey(bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr);
    else
        PEM_write_bio_PUBKEY(bio.get(), key.get());
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    return QByteArray(data, qsizetype(size));
}

QByteArray pemOf(const char *type)
{
    std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(
        EVP_PKEY_Q_keygen(nullptr, nullptr, type), EVP_PKEY_free);
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
    PEM_write_bio_PUBKEY(bio.get(), key.get());
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    return QByteArray(data, qsizetype(size));
}

} // namespace

class TestJwtKey : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void secrets();
    void publicKeys_data();
    void publicKeys();
    void filesAreNamed();
    void aKeyVerifiesOnlyItsAlgorithm();
};

void TestJwtKey::secrets()
{
    QString error;
    const auto key = JwtKey::fromSecret("0123456789abcdef0123456789abcdef\n"_ba, u"k1"_s, &error);
    QVERIFY2(key, qPrintable(error));
    QCOMPARE(key->algorithm(), JwtKey::Algorithm::HS256);
    QCOMPARE(key->kid(), u"k1"_s);
    // The final newline an editor adds is no part of the secret.
    const JwtMinter minter = JwtMinter::hs256("0123456789abcdef0123456789abcdef"_ba);
    const QStringList parts = minter.mint({ { "sub"_L1, u"a"_s } }).split(u'.');
    const QByteArray signature = QByteArray::fromBase64(
        parts[2].toLatin1(), QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
    QVERIFY(key->verifies((parts[0] + u'.' + parts[1]).toLatin1(), signature));

    QVERIFY(!JwtKey::fromSecret("0123456789abcdef0123456789abcde\n"_ba, {}, &error));
    QCOMPARE(error, u"an HS256 secret must be at least 32 bytes (it has 31)"_s);
}

void TestJwtKey::publicKeys_data()
{
    QTest::addColumn<QByteArray>("pem");
    QTest::addColumn<int>("algorithm"); // -1: refused
    QTest::addColumn<QString>("error");
    QTest::newRow("RSA 2048") << pemOf("RSA", size_t(2048)) << int(JwtKey::Algorithm::RS256)
                              << QString();
    QTest::newRow("RSA 1024") << pemOf("RSA", size_t(1024)) << -1
                              << u"an RSA key must have at least 2048 bits (it has 1024)"_s;
    QTest::newRow("P-256") << pemOf("EC", "P-256") << int(JwtKey::Algorithm::ES256) << QString();
    QTest::newRow("P-384") << pemOf("EC", "P-384") << -1
                           << u"an EC key must be on P-256 (prime256v1), for ES256"_s;
    QTest::newRow("Ed25519") << pemOf("ED25519") << -1 << u"the key is neither RSA nor EC"_s;
    QTest::newRow("a private key")
        << pemOf("EC", "P-256", true) << -1 << u"no PEM public key (-----BEGIN PUBLIC KEY-----)"_s;
    QTest::newRow("not PEM") << "hello"_ba << -1
                             << u"no PEM public key (-----BEGIN PUBLIC KEY-----)"_s;
    QTest::newRow("empty") << QByteArray() << -1
                           << u"no PEM public key (-----BEGIN PUBLIC KEY-----)"_s;
}

void TestJwtKey::publicKeys()
{
    QFETCH(QByteArray, pem);
    QFETCH(int, algorithm);
    QFETCH(QString, error);
    QString problem;
    const auto key = JwtKey::fromPublicKeyPem(pem, {}, &problem);
    QCOMPARE(key.has_value(), algorithm >= 0);
    if (key)
        QCOMPARE(int(key->algorithm()), algorithm);
    else
        QCOMPARE(problem, error);
}

void TestJwtKey::filesAreNamed()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString missing = dir.filePath(u"missing.pem"_s);
    QString error;
    QVERIFY(!JwtKey::fromPublicKeyFile(missing, {}, &error));
    QVERIFY2(error.startsWith(missing + u": "_s), qPrintable(error));

    const QString shortSecret = dir.filePath(u"secret"_s);
    QFile file(shortSecret);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("short\n");
    file.close();
    QVERIFY(!JwtKey::fromSecretFile(shortSecret, {}, &error));
    QCOMPARE(error, shortSecret + u": an HS256 secret must be at least 32 bytes (it has 5)"_s);

    const QString huge = dir.filePath(u"huge.pem"_s);
    QFile big(huge);
    QVERIFY(big.open(QIODevice::WriteOnly));
    big.write(QByteArray(65 * 1024, 'x'));
    big.close();
    QVERIFY(!JwtKey::fromPublicKeyFile(huge, {}, &error));
    QCOMPARE(error, huge + u": more than 65536 bytes, no key file"_s);

    const QString pem = dir.filePath(u"es.pem"_s);
    QFile good(pem);
    QVERIFY(good.open(QIODevice::WriteOnly));
    good.write(pemOf("EC", "P-256"));
    good.close();
    const auto key = JwtKey::fromPublicKeyFile(pem, u"2026"_s, &error);
    QVERIFY2(key, qPrintable(error));
    QCOMPARE(key->algorithm(), JwtKey::Algorithm::ES256);
    QCOMPARE(key->kid(), u"2026"_s);
}

void TestJwtKey::aKeyVerifiesOnlyItsAlgorithm()
{
    // The same bytes signed by an RS256 and an ES256 minter: each key takes only its own.
    const JwtMinter rs = JwtMinter::generate(JwtMinter::Algorithm::RS256);
    const JwtMinter es = JwtMinter::generate(JwtMinter::Algorithm::ES256);
    QString error;
    const auto rsKey = JwtKey::fromPublicKeyPem(rs.publicKeyPem(), {}, &error);
    const auto esKey = JwtKey::fromPublicKeyPem(es.publicKeyPem(), {}, &error);
    QVERIFY(rsKey && esKey);
    const auto split = [](const QString &token) {
        const QStringList parts = token.split(u'.');
        return std::pair { (parts[0] + u'.' + parts[1]).toLatin1(),
            QByteArray::fromBase64(parts[2].toLatin1(),
                QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals) };
    };
    const QJsonObject payload { { "sub"_L1, u"alice"_s } };
    const auto [rsInput, rsSignature] = split(rs.mint(payload));
    const auto [esInput, esSignature] = split(es.mint(payload));
    QVERIFY(rsKey->verifies(rsInput, rsSignature));
    QVERIFY(esKey->verifies(esInput, esSignature));
    QVERIFY(!rsKey->verifies(esInput, esSignature));
    QVERIFY(!esKey->verifies(rsInput, rsSignature));
    QVERIFY(!esKey->verifies(esInput, esSignature.left(63))); // r || s is 64 bytes exactly
    QVERIFY(!esKey->verifies(esInput, QByteArray(64, '\0')));
}

QTEST_GUILESS_MAIN(TestJwtKey)
#include "tst_jwt_key.moc"
