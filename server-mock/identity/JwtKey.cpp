#include "server-mock/identity/JwtKey.h"

// C++
#include <array>

// Qt
#include <QFile>

// OpenSSL
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>

using namespace Qt::StringLiterals;

namespace Presence::Server {

namespace {

constexpr qsizetype kMinSecretBytes = 32;
constexpr int kMinRsaBits = 2048;
// A key file is small; anything longer is not one.
constexpr qint64 kMaxKeyFileBytes = 64 * 1024;
// ES256: r and s, 32 bytes each (RFC 7518 §3.4).
constexpr qsizetype kEs256SignatureBytes = 64;

std::optional<QByteArray> readKeyFile(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = u"%1: %2"_s.arg(path, file.errorString());
        return std::nullopt;
    }
    QByteArray bytes = file.read(kMaxKeyFileBytes + 1);
    if (bytes.size() > kMaxKeyFileBytes) {
        *error = u"%1: more than %2 bytes, no key file"_s.arg(path).arg(kMaxKeyFileBytes);
        return std::nullopt;
    }
    return bytes;
}

// JOSE's r || s as the DER ECDSA-Sig-Value OpenSSL verifies; empty when it is no such pair.
QByteArray derOfJoseSignature(QByteArrayView signature)
{
    if (signature.size() != kEs256SignatureBytes)
        return {};
    const auto *bytes = reinterpret_cast<const unsigned char *>(signature.data());
    std::unique_ptr<ECDSA_SIG, decltype(&ECDSA_SIG_free)> sig(ECDSA_SIG_new(), ECDSA_SIG_free);
    BIGNUM *r = BN_bin2bn(bytes, int(kEs256SignatureBytes / 2), nullptr);
    BIGNUM *s = BN_bin2bn(bytes + kEs256SignatureBytes / 2, int(kEs256SignatureBytes / 2), nullptr);
    if (!sig || !r || !s || ECDSA_SIG_set0(sig.get(), r, s) != 1) {
        BN_free(r);
        BN_free(s);
        return {};
    }
    const int size = i2d_ECDSA_SIG(sig.get(), nullptr);
    if (size <= 0)
        return {};
    QByteArray der(size, Qt::Uninitialized);
    auto *out = reinterpret_cast<unsigned char *>(der.data());
    if (i2d_ECDSA_SIG(sig.get(), &out) != size)
        return {};
    return der;
}

} // namespace

JwtKey::JwtKey(Algorithm algorithm, QString kid)
    : m_algorithm(algorithm)
    , m_kid(std::move(kid))
{
}

std::optional<JwtKey> JwtKey::fromSecret(QByteArray secret, QString kid, QString *error)
{
    if (secret.endsWith('\n'))
        secret.chop(secret.endsWith("\r\n") ? 2 : 1);
    if (secret.size() < kMinSecretBytes) {
        *error = u"an HS256 secret must be at least %1 bytes (it has %2)"_s.arg(kMinSecretBytes)
                     .arg(secret.size());
        return std::nullopt;
    }
    JwtKey key(Algorithm::HS256, std::move(kid));
    key.m_secret = std::move(secret);
    return key;
}

std::optional<JwtKey> JwtKey::fromPublicKeyPem(const QByteArray &pem, QString kid, QString *error)
{
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(
        BIO_new_mem_buf(pem.constData(), int(pem.size())), BIO_free);
    std::shared_ptr<EVP_PKEY> publicKey(
        bio ? PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr) : nullptr, EVP_PKEY_free);
    if (!publicKey) {
        *error = u"no PEM public key (-----BEGIN PUBLIC KEY-----)"_s;
        return std::nullopt;
    }
    std::optional<Algorithm> algorithm;
    if (EVP_PKEY_is_a(publicKey.get(), "RSA")) {
        const int bits = EVP_PKEY_get_bits(publicKey.get());
        if (bits < kMinRsaBits) {
            *error
                = u"an RSA key must have at least %1 bits (it has %2)"_s.arg(kMinRsaBits).arg(bits);
            return std::nullopt;
        }
        algorithm = Algorithm::RS256;
    } else if (EVP_PKEY_is_a(publicKey.get(), "EC")) {
        std::array<char, 64> group {};
        size_t length = 0;
        if (EVP_PKEY_get_group_name(publicKey.get(), group.data(), group.size(), &length) != 1
            || QByteArrayView(group.data(), qsizetype(length)) != "prime256v1") {
            *error = u"an EC key must be on P-256 (prime256v1), for ES256"_s;
            return std::nullopt;
        }
        algorithm = Algorithm::ES256;
    } else {
        *error = u"the key is neither RSA nor EC"_s;
        return std::nullopt;
    }
    JwtKey key(*algorithm, std::move(kid));
    key.m_publicKey = std::move(publicKey);
    return key;
}

std::optional<JwtKey> JwtKey::fromSecretFile(const QString &path, QString kid, QString *error)
{
    const std::optional<QByteArray> bytes = readKeyFile(path, error);
    if (!bytes)
        return std::nullopt;
    QString why;
    std::optional<JwtKey> key = fromSecret(*bytes, std::move(kid), &why);
    if (!key)
        *error = u"%1: %2"_s.arg(path, why);
    return key;
}

std::optional<JwtKey> JwtKey::fromPublicKeyFile(const QString &path, QString kid, QString *error)
{
    const std::optional<QByteArray> bytes = readKeyFile(path, error);
    if (!bytes)
        return std::nullopt;
    QString why;
    std::optional<JwtKey> key = fromPublicKeyPem(*bytes, std::move(kid), &why);
    if (!key)
        *error = u"%1: %2"_s.arg(path, why);
    return key;
}

bool JwtKey::verifies(QByteArrayView signingInput, QByteArrayView signature) const
{
    const auto *input = reinterpret_cast<const unsigned char *>(signingInput.data());
    if (m_algorithm == Algorithm::HS256) {
        std::array<unsigned char, EVP_MAX_MD_SIZE> mac {};
        unsigned int length = 0;
        if (!HMAC(EVP_sha256(), m_secret.constData(), int(m_secret.size()), input,
                size_t(signingInput.size()), mac.data(), &length))
            return false;
        return signature.size() == qsizetype(length)
            && CRYPTO_memcmp(mac.data(), signature.data(), length) == 0;
    }
    QByteArray der;
    QByteArrayView checked = signature;
    if (m_algorithm == Algorithm::ES256) {
        der = derOfJoseSignature(signature);
        if (der.isEmpty())
            return false;
        checked = der;
    }
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(
        EVP_MD_CTX_new(), EVP_MD_CTX_free);
    // RSA keys verify with PKCS #1 v1.5 padding unless told otherwise: RS256's.
    return context
        && EVP_DigestVerifyInit(context.get(), nullptr, EVP_sha256(), nullptr, m_publicKey.get())
        == 1
        && EVP_DigestVerify(context.get(), reinterpret_cast<const unsigned char *>(checked.data()),
               size_t(checked.size()), input, size_t(signingInput.size()))
        == 1;
}

QString JwtKey::nameOf(Algorithm algorithm)
{
    switch (algorithm) {
    case Algorithm::HS256:
        return u"HS256"_s;
    case Algorithm::RS256:
        return u"RS256"_s;
    case Algorithm::ES256:
        return u"ES256"_s;
    }
    return {};
}

std::optional<JwtKey::Algorithm> JwtKey::algorithmNamed(QStringView name)
{
    for (const Algorithm algorithm : { Algorithm::HS256, Algorithm::RS256, Algorithm::ES256 }) {
        if (name == nameOf(algorithm))
            return algorithm;
    }
    return std::nullopt;
}

} // namespace Presence::Server
