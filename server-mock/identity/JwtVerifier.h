#pragma once

// C++
#include <chrono>
#include <optional>

// Qt
#include <QList>
#include <QString>
#include <QStringView>

// Presence
#include "server-mock/identity/JwtKey.h"

namespace Presence::Server {

// Checks a JSON Web Token (RFC 7519) in compact form against the configured keys and says who
// it names and until when. Accepted: HS256, RS256 and ES256, each only with a key of its own
// kind; a token's "kid" picks the key of that id, and without one every key of the algorithm
// is tried (rotation). The payload needs "sub" (a user id) and "exp"; "nbf" and "iat" are
// honoured when present. Times allow the leeway either way, for clocks that differ. Nothing
// else is trusted: "alg": "none", other algorithms, "crit", a wrong key, a signature that does
// not match, and any malformed part are refused with a reason fit for a log (it never quotes
// the token).
class JwtVerifier {
public:
    static constexpr std::chrono::seconds kDefaultLeeway { 30 };

    struct Claims {
        QString subject;
        std::chrono::milliseconds expiresAt; // since the epoch
    };
    struct Result {
        std::optional<Claims> claims; // set when accepted
        QString refusal; // why not, otherwise
    };

    explicit JwtVerifier(QList<JwtKey> keys, std::chrono::seconds leeway = kDefaultLeeway);

    // now: since the epoch.
    [[nodiscard]] Result verify(QStringView token, std::chrono::milliseconds now) const;

    // Three dot-separated parts of base64url: a token for verify(), not a users-file secret.
    [[nodiscard]] static bool looksLikeJwt(QStringView token);

    [[nodiscard]] std::chrono::seconds leeway() const { return m_leeway; }

private:
    QList<JwtKey> m_keys;
    std::chrono::seconds m_leeway;
};

} // namespace Presence::Server
