#include "protocol/PresencePayload.h"

// Qt
#include <QJsonDocument>
#include <QJsonParseError>

using namespace Qt::StringLiterals;

namespace Presence::Protocol {

namespace {

constexpr qint64 kMaxSafeInteger = (qint64(1) << 53) - 1; // exact in a JSON double

ProtocolError malformed(const QString &problem)
{
    ProtocolError error;
    error.message = u"presence payload: %1"_s.arg(problem);
    return error;
}

} // namespace

QJsonObject userPresenceJson(const UserPresence &presence)
{
    QJsonObject object { { "id"_L1, presence.id }, { "status"_L1, toString(presence.status) },
        { "seq"_L1, presence.seq } };
    if (presence.lastSeen)
        object.insert("last_seen"_L1, *presence.lastSeen);
    return object;
}

UserPresence readUserPresence(FieldReader &in)
{
    UserPresence presence;
    presence.id = in.id("id"_L1, Need::Required);
    presence.status
        = in.name("status"_L1, kPresenceStatusNames, Need::Required).value_or(presence.status);
    presence.seq = in.integer("seq"_L1, 0, kMaxSafeInteger, Need::Required).value_or(0);
    presence.lastSeen = in.integer("last_seen"_L1, 0, kMaxSafeInteger, Need::Optional);
    return presence;
}

Decoded<UserPresence> decodeUserPresence(const QJsonObject &object, const QString &where)
{
    FieldReader in(object, where);
    UserPresence presence = readUserPresence(in);
    if (in.failed())
        return in.error();
    return presence;
}

QByteArray encodePresencePayload(const UserPresence &presence)
{
    return QJsonDocument(userPresenceJson(presence)).toJson(QJsonDocument::Compact);
}

Decoded<UserPresence> decodePresencePayload(const QByteArray &utf8)
{
    QJsonParseError parseError {};
    const QJsonDocument document = QJsonDocument::fromJson(utf8, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        return malformed(u"not valid JSON: %1 at offset %2"_s.arg(parseError.errorString())
                             .arg(parseError.offset));
    }
    if (!document.isObject())
        return malformed(u"must be a JSON object"_s);
    auto decoded = decodeUserPresence(document.object(), u"presence payload"_s);
    if (!decoded.ok())
        return decoded;
    UserPresence presence = std::move(decoded).value();
    if (presence.status != PresenceStatus::Offline)
        presence.lastSeen.reset();
    return presence;
}

} // namespace Presence::Protocol
