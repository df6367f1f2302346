#pragma once

// C++
#include <optional>

// Qt
#include <QString>

namespace Presence::Protocol {

enum class ErrorCode {
    BadRequest, // not JSON, not an object, a missing or wrongly typed field
    UnknownType,
    Unauthorized,
    UnsupportedProtocol,
    Forbidden,
    TooManyIds,
    TooManySubscriptions,
    RateLimited,
    TooLarge,
    Unavailable, // the gateway cannot do this now (its shared store is away); try again later
    Unknown, // a code this build does not know (sent by a newer gateway)
};

[[nodiscard]] QString toString(ErrorCode code);
[[nodiscard]] ErrorCode errorCodeFromString(QStringView text);

// An error to report to the peer: becomes an `error` frame.
struct ProtocolError {
    ErrorCode code = ErrorCode::BadRequest;
    QString message;
    std::optional<QString> ref; // the ref of the request this is about, when known
};

} // namespace Presence::Protocol
