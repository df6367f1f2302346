#pragma once

// C++
#include <chrono>
#include <optional>

// Qt
#include <QStringView>

namespace Presence::Session {

// When a token says it ends: a JSON Web Token's `exp`, read without checking the signature
// (only the gateway can). The gateway refuses an expired token as it refuses an unknown one
// (docs/protocol.md §2.1, on purpose); this tells the user which of the two it was. It never
// decides whether to sign in: the gateway's clock and leeway do.
class TokenExpiry {
public:
    // `exp` since the epoch; nullopt for a token that is no JSON Web Token, or has no exp.
    [[nodiscard]] static std::optional<std::chrono::milliseconds> of(QStringView token);
    // The token names an end, and `now` (since the epoch) is past it.
    [[nodiscard]] static bool hasPassed(QStringView token, std::chrono::milliseconds now);
    // The same, by the system clock.
    [[nodiscard]] static bool hasPassed(QStringView token);
};

} // namespace Presence::Session
