#include "server-mock/redis/client/RedisUrl.h"

// C++
#include <algorithm>

// Qt
#include <QHostAddress>

using namespace Qt::StringLiterals;

namespace Presence::Server {

namespace {

constexpr QStringView kScheme = u"redis://";

bool isAsciiDigits(QStringView text)
{
    return !text.isEmpty()
        && std::all_of(text.begin(), text.end(), [](QChar c) { return c >= u'0' && c <= u'9'; });
}

// A number made of digits only (no sign, no spaces) within [low, high].
std::optional<int> boundedNumber(QStringView text, int low, int high)
{
    // Nine digits cannot overflow an int, and anything longer is out of range anyway.
    if (!isAsciiDigits(text) || text.size() > 9)
        return std::nullopt;
    const int value = text.toInt();
    if (value < low || value > high)
        return std::nullopt;
    return value;
}

// Four decimal parts of 0..255. Digits and dots alone never make a host name, so they must
// make an address: "10.0.0" is a typo, not a machine called that.
bool isDottedQuad(QStringView text)
{
    const auto parts = text.split(u'.');
    return parts.size() == 4 && std::all_of(parts.begin(), parts.end(), [](QStringView part) {
        return part.size() <= 3 && boundedNumber(part, 0, 255).has_value();
    });
}

// RFC 1123 labels, plus '_' which container networks use in service names.
bool isHostName(QStringView text)
{
    if (text.size() > 253)
        return false;
    const auto labels = text.split(u'.');
    return std::all_of(labels.begin(), labels.end(), [](QStringView label) {
        if (label.isEmpty() || label.size() > 63 || label.startsWith(u'-') || label.endsWith(u'-'))
            return false;
        return std::all_of(label.begin(), label.end(), [](QChar c) {
            return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9')
                || c == u'-' || c == u'_';
        });
    });
}

} // namespace

std::optional<RedisUrl> RedisUrl::parse(QStringView text, QString *error)
{
    const auto fail = [error](const QString &message) -> std::optional<RedisUrl> {
        if (error)
            *error = message;
        return std::nullopt;
    };

    if (!text.startsWith(kScheme, Qt::CaseInsensitive)) {
        const qsizetype separator = text.indexOf(u"://");
        if (separator > 0)
            return fail(u"unsupported scheme \"%1\" (only redis:// is supported)"_s.arg(
                text.left(separator)));
        return fail(u"must look like redis://HOST[:PORT][/DB] (got \"%1\")"_s.arg(text));
    }
    const QStringView rest = text.mid(kScheme.size());
    if (rest.contains(u'?') || rest.contains(u'#'))
        return fail(u"options after '?' or '#' are not supported"_s);
    if (rest.contains(u'@'))
        return fail(u"user names and passwords are not supported"_s);

    const qsizetype slash = rest.indexOf(u'/');
    const QStringView authority = slash < 0 ? rest : rest.left(slash);
    const std::optional<QStringView> path
        = slash < 0 ? std::nullopt : std::optional<QStringView>(rest.mid(slash + 1));

    RedisUrl url;
    std::optional<QStringView> port;
    if (authority.startsWith(u'[')) {
        const qsizetype close = authority.indexOf(u']');
        if (close < 0)
            return fail(u"missing ']' after the IPv6 address"_s);
        const QStringView host = authority.mid(1, close - 1);
        QHostAddress address;
        if (!address.setAddress(host.toString())
            || address.protocol() != QAbstractSocket::IPv6Protocol)
            return fail(u"\"%1\" is not an IPv6 address"_s.arg(host));
        const QStringView after = authority.mid(close + 1);
        if (!after.isEmpty() && !after.startsWith(u':'))
            return fail(u"unexpected \"%1\" after the IPv6 address"_s.arg(after));
        if (!after.isEmpty())
            port = after.mid(1);
        url.host = host.toString();
    } else {
        const qsizetype colon = authority.indexOf(u':');
        if (colon >= 0 && authority.indexOf(u':', colon + 1) >= 0)
            return fail(u"an IPv6 address must be in brackets, as in redis://[::1]:6379"_s);
        const QStringView host = colon < 0 ? authority : authority.left(colon);
        if (colon >= 0)
            port = authority.mid(colon + 1);
        if (host.isEmpty())
            return fail(u"missing host"_s);
        const bool digitsAndDots = std::all_of(host.begin(), host.end(),
            [](QChar c) { return c == u'.' || (c >= u'0' && c <= u'9'); });
        if (digitsAndDots && !isDottedQuad(host))
            return fail(u"\"%1\" is not an IPv4 address"_s.arg(host));
        if (!digitsAndDots && !isHostName(host))
            return fail(u"\"%1\" is not a valid host name"_s.arg(host));
        url.host = host.toString();
    }

    if (port) {
        const auto number = boundedNumber(*port, 1, 65535);
        if (!number)
            return fail(u"port must be a number from 1 to 65535 (got \"%1\")"_s.arg(*port));
        url.port = quint16(*number);
    }
    // "redis://host/" names the default database, as it does for other Redis clients.
    if (path && !path->isEmpty()) {
        const auto db = boundedNumber(*path, 0, kMaxDb);
        if (!db)
            return fail(
                u"database must be a number from 0 to %1 (got \"%2\")"_s.arg(kMaxDb).arg(*path));
        url.db = *db;
    }
    return url;
}

QString RedisUrl::toString() const
{
    const QString shownHost = host.contains(u':') ? u"[%1]"_s.arg(host) : host;
    // One arg() for all three: chained, a "%2" in the host (an IPv6 zone may hold one) would
    // take the port's place.
    return u"redis://%1:%2/%3"_s.arg(shownHost, QString::number(port), QString::number(db));
}

} // namespace Presence::Server
