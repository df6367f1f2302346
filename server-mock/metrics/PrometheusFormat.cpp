#include "server-mock/metrics/PrometheusFormat.h"

// C++
#include <array>
#include <charconv>
#include <cmath>

namespace Presence::Server::PrometheusFormat {

namespace {

bool isAsciiLetter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool isAsciiDigit(char c)
{
    return c >= '0' && c <= '9';
}

} // namespace

bool isValidMetricName(QByteArrayView name)
{
    if (name.isEmpty())
        return false;
    for (qsizetype i = 0; i < name.size(); ++i) {
        const char c = name[i];
        const bool fits = isAsciiLetter(c) || c == '_' || c == ':' || (i > 0 && isAsciiDigit(c));
        if (!fits)
            return false;
    }
    return true;
}

bool isValidLabelName(QByteArrayView name)
{
    if (name.isEmpty() || name.startsWith("__"))
        return false;
    for (qsizetype i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (!(isAsciiLetter(c) || c == '_' || (i > 0 && isAsciiDigit(c))))
            return false;
    }
    return true;
}

void appendEscapedHelp(QByteArray &out, QByteArrayView help)
{
    for (const char c : help) {
        if (c == '\\')
            out.append("\\\\");
        else if (c == '\n')
            out.append("\\n");
        else
            out.append(c);
    }
}

void appendEscapedLabelValue(QByteArray &out, QStringView value)
{
    for (const char c : value.toUtf8()) {
        if (c == '\\')
            out.append("\\\\");
        else if (c == '"')
            out.append("\\\"");
        else if (c == '\n')
            out.append("\\n");
        else
            out.append(c);
    }
}

QByteArray formatValue(double value)
{
    if (std::isnan(value))
        return QByteArrayLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QByteArrayLiteral("+Inf") : QByteArrayLiteral("-Inf");
    // Doubles hold every whole number up to 2^53 exactly; those read best as plain digits.
    constexpr double kExactWholeLimit = 9007199254740992.0;
    if (std::trunc(value) == value && std::fabs(value) <= kExactWholeLimit)
        return QByteArray::number(static_cast<qint64>(value));
    // chars_format::general in its shortest form matches Go's strconv 'g', -1.
    std::array<char, 32> buffer {};
    const auto result = std::to_chars(
        buffer.data(), buffer.data() + buffer.size(), value, std::chars_format::general);
    return QByteArray(buffer.data(), result.ptr - buffer.data());
}

} // namespace Presence::Server::PrometheusFormat
