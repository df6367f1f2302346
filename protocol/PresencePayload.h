#pragma once

// Qt
#include <QByteArray>
#include <QJsonObject>
#include <QString>

// Presence
#include "protocol/Decoded.h"
#include "protocol/FieldReader.h"
#include "protocol/UserPresence.h"

namespace Presence::Protocol {

// One user's published presence as a JSON object: `id`, `status`, `seq` and, when offline and
// ever seen, `last_seen`. It is an entry of a `snapshot`, the body of a `presence` push (there
// with its `type`), and, alone, the payload a Redis store publishes on the user's channel
// (docs/redis.md). These are its one writer and its one reader.

[[nodiscard]] QJsonObject userPresenceJson(const UserPresence &presence);
// Reads and checks every field, failing in on the first problem.
[[nodiscard]] UserPresence readUserPresence(FieldReader &in);
// The same alone; errors are bad_request "<where>: <problem>".
[[nodiscard]] Decoded<UserPresence> decodeUserPresence(
    const QJsonObject &object, const QString &where);

// The Redis pub/sub payload: userPresenceJson() as compact JSON.
[[nodiscard]] QByteArray encodePresencePayload(const UserPresence &presence);
// Whoever can publish on a channel can send anything: the payload is checked like a frame,
// and anything but one well-formed presence object is an error. A `last_seen` with a status
// other than offline is dropped (presence carries it only when offline).
[[nodiscard]] Decoded<UserPresence> decodePresencePayload(const QByteArray &utf8);

} // namespace Presence::Protocol
