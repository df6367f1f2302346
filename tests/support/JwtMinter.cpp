#include "JwtMinter.h"

// C++
#include <array>

// Qt
#include <QDateTime>
#include <QJsonDocument>

// OpenSSL
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>

using namespace Qt::StringLiterals;

namespace Presence::TestSupport {

namespace {

QByteArray base64Url(const QByteArray &bytes)
{
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

QByteArray compact(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

} // namespace

JwtMinter::JwtMinter(Algorithm algorithm)
    : m_algorithm(algorithm)
{
}

JwtMinter JwtMinter::hs256(QByteArray secret)
{
    JwtMinter minter(Algorithm::HS256);
    minter.m_secret = std::move(secret);
    return minter;
}

JwtMinter JwtMinter::generate(Algorithm algorithm)
{
    JwtMinter minter(algorithm);
    EVP_PKEY *key = algorithm == Algorithm::RS256
        ? EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", size_t(2048))
        : EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
    minter.m_key.reset(key, EVP_PKEY_free);
    if (!key)
        qFatal("JwtMinter: OpenSSL could not generate a key");
    return minter;
}

QString JwtMinter::algorithmName() const
{
    return Presence::Server::JwtKey::nameOf(m_algorithm);
}

QByteArray JwtMinter::publicKeyPem() const
{
    if (!m_key)
        return {};
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
    PEM_write_bio_PUBKEY(bio.get(), m_key.get());
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    return QByteArray(data, qsizetype(size));
}

QString JwtMinter::mint(const QJsonObject &payload, const QString &kid) const
{
    QJsonObject header { { "alg"_L1, algorithmName() }, { "typ"_L1, "JWT"_L1 } };
    if (!kid.isEmpty())
        header.insert("kid"_L1, kid);
    return mintWithHeader(header, payload);
}

QString JwtMinter::mintWithHeader(const QJsonObject &header, const QJsonObject &payload) const
{
    const QByteArray signingInput = base64Url(compact(header)) + '.' + base64Url(compact(payload));
    return QString::fromLatin1(signingInput + '.' + base64Url(sign(signingInput)));
}

QString JwtMinter::assemble(
    const QJsonObject &header, const QJsonObject &payload, const QByteArray &signature)
{
    return QString::fromLatin1(base64Url(compact(header)) + '.' + base64Url(compact(payload)) + '.'
        + base64Url(signature));
}

QJsonObject JwtMinter::claims(const QString &user, qint64 expiresInSeconds)
{
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    return { { "sub"_L1, user }, { "iat"_L1, now }, { "exp"_L1, now + expiresInSeconds } };
}

QByteArray JwtMinter::sign(const QByteArray &signingInput) const
{
    const auto *input = reinterpret_cast<const unsigned char *>(signingInput.constData());
    if (m_algorithm == Algorithm::HS256) {
        std::array<unsigned char, EVP_MAX_MD_SIZE> mac {};
        unsigned int length = 0;
        HMAC(EVP_sha256(), m_secret.constData(), int(m_secret.size()), input,
            size_t(signingInput.size()), mac.data(), &length);
        return QByteArray(reinterpret_cast<const char *>(mac.data()), qsizetype(length));
    }
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(
        EVP_MD_CTX_new(), EVP_MD_CTX_free);
    size_t size = 0;
    if (EVP_DigestSignInit(context.get(), nullptr, EVP_sha256(), nullptr, m_key.get()) != 1
        || EVP_DigestSign(context.get(), nullptr, &size, input, size_t(signingInput.size())) != 1)
        qFatal("JwtMinter: OpenSSL could not sign");
    QByteArray signature(qsizetype(size), Qt::Uninitialized);
    auto *out = reinterpret_cast<unsigned char *>(signature.data());
    if (EVP_DigestSign(context.get(), out, &size, input, size_t(signingInput.size())) != 1)
        qFatal("JwtMinter: OpenSSL could not sign");
    signature.resize(qsizetype(size));
    if (m_algorithm == Algorithm::RS256)
        return signature;
    // ES256 carries r || s, 32 bytes each, where OpenSSL writes DER.
    const auto *der = reinterpret_cast<const unsigned char *>(signature.constData());
    std::unique_ptr<ECDSA_SIG, decltype(&ECDSA_SIG_free)> sig(
        d2i_ECDSA_SIG(nullptr, &der, long(signature.size())), ECDSA_SIG_free);
    QByteArray raw(64, Qt::Uninitialized);
    auto *rawOut = reinterpret_cast<unsigned char *>(raw.data());
    BN_bn2binpad(ECDSA_SIG_get0_r(sig.get()), rawOut, 32);
    BN_bn2binpad(ECDSA_SIG_get0_s(sig.get()), rawOut + 32, 32);
    return raw;
}

} // namespace Presence::TestSupport
