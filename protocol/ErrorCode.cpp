#include "protocol/ErrorCode.h"

// Presence
#include "protocol/NameTable.h"

using namespace Qt::StringLiterals;

namespace Presence::Protocol {

namespace {

constexpr auto kNames = nameTable<ErrorCode>({
    { ErrorCode::BadRequest, u"bad_request" },
    { ErrorCode::UnknownType, u"unknown_type" },
    { ErrorCode::Unauthorized, u"unauthorized" },
    { ErrorCode::UnsupportedProtocol, u"unsupported_protocol" },
    { ErrorCode::Forbidden, u"forbidden" },
    { ErrorCode::TooManyIds, u"too_many_ids" },
    { ErrorCode::TooManySubscriptions, u"too_many_subscriptions" },
    { ErrorCode::RateLimited, u"rate_limited" },
    { ErrorCode::TooLarge, u"too_large" },
    { ErrorCode::Unavailable, u"unavailable" },
});

} // namespace

QString toString(ErrorCode code)
{
    const QString name = kNames.name(code);
    return name.isEmpty() ? u"unknown"_s : name;
}

ErrorCode errorCodeFromString(QStringView text)
{
    return kNames.value(text).value_or(ErrorCode::Unknown);
}

} // namespace Presence::Protocol
