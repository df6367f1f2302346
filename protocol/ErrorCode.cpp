#include "protocol/ErrorCode.h"

// C++
#include <array>
#include <utility>

using namespace Qt::StringLiterals;

namespace Presence::Protocol {

namespace {

constexpr std::array kNames = {
    std::pair { ErrorCode::BadRequest, u"bad_request" },
    std::pair { ErrorCode::UnknownType, u"unknown_type" },
    std::pair { ErrorCode::Unauthorized, u"unauthorized" },
    std::pair { ErrorCode::UnsupportedProtocol, u"unsupported_protocol" },
    std::pair { ErrorCode::Forbidden, u"forbidden" },
    std::pair { ErrorCode::TooManyIds, u"too_many_ids" },
    std::pair { ErrorCode::TooManySubscriptions, u"too_many_subscriptions" },
    std::pair { ErrorCode::RateLimited, u"rate_limited" },
    std::pair { ErrorCode::TooLarge, u"too_large" },
    std::pair { ErrorCode::Unavailable, u"unavailable" },
};

} // namespace

QString toString(ErrorCode code)
{
    for (const auto &[value, name] : kNames) {
        if (value == code)
            return QString::fromUtf16(name);
    }
    return u"unknown"_s;
}

ErrorCode errorCodeFromString(QStringView text)
{
    for (const auto &[value, name] : kNames) {
        if (text == QStringView(name))
            return value;
    }
    return ErrorCode::Unknown;
}

} // namespace Presence::Protocol
