#pragma once

// C++
#include <memory>
#include <optional>

// Qt
#include <QByteArray>
#include <QByteArrayView>
#include <QString>

// OpenSSL
#include <openssl/types.h>

namespace Presence::Server {

// One key a JSON Web Token may be signed with, and the one algorithm it verifies: an HS256
// secret, an RSA public key (RS256, 2048 bits or more) or a P-256 public key (ES256). A key
// answers only for its own algorithm, so that a token cannot pick how it is checked (an RSA
// public key used as an HMAC secret, or "alg": "none"). Immutable, cheap to copy.
class JwtKey {
public:
    enum class Algorithm { HS256, RS256, ES256 };

    // The secret is the file's bytes, one final newline dropped; at least 32 bytes (RFC 7518
    // §3.2: no shorter than the hash).
    [[nodiscard]] static std::optional<JwtKey> fromSecret(
        QByteArray secret, QString kid, QString *error);
    // A PEM public key ("BEGIN PUBLIC KEY"): RSA or EC on P-256.
    [[nodiscard]] static std::optional<JwtKey> fromPublicKeyPem(
        const QByteArray &pem, QString kid, QString *error);
    // Either from a file; messages name the file.
    [[nodiscard]] static std::optional<JwtKey> fromSecretFile(
        const QString &path, QString kid, QString *error);
    [[nodiscard]] static std::optional<JwtKey> fromPublicKeyFile(
        const QString &path, QString kid, QString *error);

    [[nodiscard]] Algorithm algorithm() const { return m_algorithm; }
    // The "kid" tokens name it by; empty when tokens without one may use it.
    [[nodiscard]] const QString &kid() const { return m_kid; }

    // Whether signature (as the token carries it, decoded) signs signingInput under this key
    // with algorithm().
    [[nodiscard]] bool verifies(QByteArrayView signingInput, QByteArrayView signature) const;

    [[nodiscard]] static QString nameOf(Algorithm algorithm);
    [[nodiscard]] static std::optional<Algorithm> algorithmNamed(QStringView name);

private:
    JwtKey(Algorithm algorithm, QString kid);

    Algorithm m_algorithm;
    QString m_kid;
    QByteArray m_secret;
    std::shared_ptr<EVP_PKEY> m_publicKey;
};

} // namespace Presence::Server
