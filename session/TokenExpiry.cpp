#include "session/TokenExpiry.h"

// C++
#include <cmath>

// Qt
#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace Presence::Session {

std::optional<std::chrono::milliseconds> TokenExpiry::of(QStringView token)
{
    // header.payload.signature, each base64url without padding (RFC 7515 §7.1).
    const QList<QStringView> parts = token.split(u'.');
    if (parts.size() != 3)
        return std::nullopt;
    const auto decoded = QByteArray::fromBase64Encoding(parts[1].toLatin1(),
        QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals
            | QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return std::nullopt;
    const QJsonDocument document = QJsonDocument::fromJson(*decoded);
    const QJsonValue exp = document.object().value("exp"_L1);
    // A NumericDate: seconds, fractions allowed; anything else (or absurd) names no end.
    constexpr double kMaxSeconds = 1e11; // past the year 5000
    if (!exp.isDouble() || !std::isfinite(exp.toDouble()) || std::abs(exp.toDouble()) > kMaxSeconds)
        return std::nullopt;
    return std::chrono::milliseconds(qint64(std::floor(exp.toDouble() * 1000)));
}

bool TokenExpiry::hasPassed(QStringView token, std::chrono::milliseconds now)
{
    const auto end = of(token);
    return end && now >= *end;
}

bool TokenExpiry::hasPassed(QStringView token)
{
    using namespace std::chrono;
    return hasPassed(token, duration_cast<milliseconds>(system_clock::now().time_since_epoch()));
}

} // namespace Presence::Session
