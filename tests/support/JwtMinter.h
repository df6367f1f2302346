#pragma once

// C++
#include <memory>

// Qt
#include <QByteArray>
#include <QJsonObject>
#include <QString>

// OpenSSL
#include <openssl/types.h>

// Presence
#include "server-mock/identity/JwtKey.h"

namespace Presence::TestSupport {

// Makes JSON Web Tokens as an app's auth service would, for tests of the gateway's checks:
// HS256 with a secret, or RS256/ES256 with a key pair it generates. mint() signs whatever
// header it is given, so that a test can also make the tokens an attacker would.
class JwtMinter {
public:
    using Algorithm = Presence::Server::JwtKey::Algorithm;

    [[nodiscard]] static JwtMinter hs256(QByteArray secret);
    // A fresh key pair: RSA 2048 or EC P-256.
    [[nodiscard]] static JwtMinter generate(Algorithm algorithm);

    [[nodiscard]] Algorithm algorithm() const { return m_algorithm; }
    [[nodiscard]] QString algorithmName() const;
    // The public key as PEM ("BEGIN PUBLIC KEY"); empty for HS256.
    [[nodiscard]] QByteArray publicKeyPem() const;

    // {"alg": its own, "typ": "JWT"} and "kid" when given, signed.
    [[nodiscard]] QString mint(const QJsonObject &payload, const QString &kid = {}) const;
    // The header as given, signed with this minter's key and algorithm all the same.
    [[nodiscard]] QString mintWithHeader(
        const QJsonObject &header, const QJsonObject &payload) const;
    // header.payload.signature with the signature given (empty for "alg": "none").
    [[nodiscard]] static QString assemble(
        const QJsonObject &header, const QJsonObject &payload, const QByteArray &signature);

    // A payload for user, expiring in expiresInSeconds (negative: in the past).
    [[nodiscard]] static QJsonObject claims(const QString &user, qint64 expiresInSeconds);

private:
    explicit JwtMinter(Algorithm algorithm);
    [[nodiscard]] QByteArray sign(const QByteArray &signingInput) const;

    Algorithm m_algorithm;
    QByteArray m_secret;
    std::shared_ptr<EVP_PKEY> m_key;
};

} // namespace Presence::TestSupport
