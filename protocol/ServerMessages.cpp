#include "protocol/ServerMessages.h"

// C++
#include <limits>

// Qt
#include <QJsonArray>

// Presence
#include "protocol/CompactJsonWriter.h"
#include "protocol/FieldReader.h"
#include "protocol/Identifiers.h"
#include "protocol/PresencePayload.h"

using namespace Qt::StringLiterals;

namespace Presence::Protocol {

namespace {

constexpr qint64 kMaxInt = std::numeric_limits<int>::max();
constexpr qint64 kMaxSafeInteger = (qint64(1) << 53) - 1; // exact in a JSON double

QJsonObject typed(QLatin1StringView type)
{
    return QJsonObject { { "type"_L1, type } };
}

QJsonObject userInfoJson(const UserInfo &user)
{
    return QJsonObject { { "id"_L1, user.id }, { "name"_L1, user.name } };
}

QJsonObject chatMessageJson(const ChatMessage &message)
{
    return QJsonObject { { "id"_L1, message.id }, { "from"_L1, message.from },
        { "to"_L1, message.to }, { "text"_L1, message.text }, { "ts"_L1, message.ts } };
}

int readInt(FieldReader &in, QLatin1StringView key, qint64 min = 0)
{
    return int(in.integer(key, min, kMaxInt, Need::Required).value_or(0));
}

UserInfo readUserInfo(FieldReader &in)
{
    UserInfo user;
    user.id = in.id("id"_L1, Need::Required);
    user.name = in.string("name"_L1, 0, kMaxDisplayNameLength, Need::Required);
    return user;
}

// An array of presences, keys sorted as QJsonObject sorts them.
void writeUserPresences(CompactJsonWriter &out, const QList<UserPresence> &presences)
{
    out.beginArray();
    for (const UserPresence &presence : presences) {
        out.beginObject();
        out.member("id"_L1, presence.id);
        if (presence.lastSeen)
            out.member("last_seen"_L1, *presence.lastSeen);
        out.member("seq"_L1, presence.seq);
        out.member("status"_L1, toString(presence.status));
        out.endObject();
    }
    out.endArray();
}

ChatMessage readChatMessage(FieldReader &in)
{
    ChatMessage message;
    message.id = in.id("id"_L1, Need::Required);
    message.from = in.id("from"_L1, Need::Required);
    message.to = in.id("to"_L1, Need::Required);
    // No upper bound: a later gateway may allow longer messages.
    message.text = in.string("text"_L1, 0, std::numeric_limits<int>::max(), Need::Required);
    message.ts = in.integer("ts"_L1, 0, kMaxSafeInteger, Need::Required).value_or(0);
    return message;
}

Limits readLimits(FieldReader &in)
{
    Limits limits;
    limits.maxFrameBytes = readInt(in, "max_frame_bytes"_L1, 1);
    limits.maxSubscriptions = readInt(in, "max_subscriptions"_L1, 1);
    limits.maxIdsPerRequest = readInt(in, "max_ids_per_request"_L1, 1);
    limits.maxFramesPerSecond
        = int(in.integer("max_frames_per_second"_L1, 1, kMaxInt, Need::Optional)
                  .value_or(limits.maxFramesPerSecond));
    limits.frameBurst
        = int(in.integer("frame_burst"_L1, 1, kMaxInt, Need::Optional).value_or(limits.frameBurst));
    // Absent from gateways that predate watch_availability: such a gateway covers nobody.
    limits.maxAvailabilityFriends
        = int(in.integer("max_availability_friends"_L1, 0, kMaxInt, Need::Optional).value_or(0));
    limits.availabilityIntervalMs
        = int(in.integer("availability_interval_ms"_L1, 1, kMaxInt, Need::Optional)
                  .value_or(limits.availabilityIntervalMs));
    return limits;
}

ConversationSummary readConversation(FieldReader &in)
{
    ConversationSummary summary;
    summary.with = in.id("with"_L1, Need::Required);
    summary.last = in.nested("last"_L1, Need::Required, readChatMessage);
    if (in.has("read"_L1))
        summary.read = in.id("read"_L1, u"a message id", Need::Required);
    summary.unread = readInt(in, "unread"_L1);
    if (!in.failed() && summary.with != summary.last.from && summary.with != summary.last.to)
        in.fail(u"field 'last' must be a message of the conversation with 'with'"_s);
    return summary;
}

Decoded<ServerMessage> decodeWelcome(FieldReader &in)
{
    Welcome welcome;
    welcome.user = in.nested("user"_L1, Need::Required, readUserInfo);
    welcome.heartbeatMs = readInt(in, "heartbeat_ms"_L1, 1);
    welcome.limits = in.nested("limits"_L1, Need::Required, readLimits);
    if (in.has("presence_batch_ms"_L1))
        welcome.presenceBatchMs
            = int(in.integer("presence_batch_ms"_L1, 1, kMaxInt, Need::Required).value_or(0));
    return in.decoded<ServerMessage>(welcome);
}

Decoded<ServerMessage> decodeFriendsPage(FieldReader &in)
{
    FriendsPage page;
    page.offset = readInt(in, "offset"_L1);
    page.total = readInt(in, "total"_L1);
    page.items = in.objects("items"_L1, Need::Required, readUserInfo);
    return in.decoded<ServerMessage>(page);
}

Decoded<ServerMessage> decodeSnapshot(FieldReader &in)
{
    Snapshot snapshot;
    snapshot.users = in.objects("users"_L1, Need::Required, readUserPresence);
    snapshot.denied = in.ids("denied"_L1, Need::Optional);
    return in.decoded<ServerMessage>(snapshot);
}

Decoded<ServerMessage> decodeHistoryPage(FieldReader &in)
{
    HistoryPage page;
    page.with = in.id("with"_L1, Need::Required);
    page.messages = in.objects("messages"_L1, Need::Required, readChatMessage);
    page.more = in.boolean("more"_L1, Need::Required).value_or(false);
    return in.decoded<ServerMessage>(page);
}

Decoded<ServerMessage> decodeConversationsPage(FieldReader &in)
{
    ConversationsPage page;
    page.items = in.objects("items"_L1, Need::Required, readConversation);
    page.more = in.boolean("more"_L1, Need::Required).value_or(false);
    return in.decoded<ServerMessage>(page);
}

Decoded<ServerMessage> decodeReadMarker(FieldReader &in)
{
    ReadMarkerEvent event;
    event.with = in.id("with"_L1, Need::Required);
    event.upTo = in.id("up_to"_L1, u"a message id", Need::Required);
    event.unread = readInt(in, "unread"_L1);
    return in.decoded<ServerMessage>(event);
}

Decoded<ServerMessage> decodeAvailability(FieldReader &in)
{
    Availability availability;
    availability.online = in.ids("online"_L1, Need::Required);
    availability.away = in.ids("away"_L1, Need::Required);
    availability.covered = readInt(in, "covered"_L1);
    availability.total = readInt(in, "total"_L1);
    if (!in.failed() && availability.covered > availability.total)
        in.fail(u"field 'covered' must not be greater than 'total'"_s);
    return in.decoded<ServerMessage>(availability);
}

Decoded<ServerMessage> decodeAvailabilityChanged(FieldReader &in)
{
    AvailabilityChanged changed;
    changed.online = in.ids("online"_L1, Need::Optional);
    changed.away = in.ids("away"_L1, Need::Optional);
    changed.offline = in.ids("offline"_L1, Need::Optional);
    return in.decoded<ServerMessage>(changed);
}

Decoded<ServerMessage> decodePresenceBatch(FieldReader &in)
{
    PresenceBatch batch;
    batch.updates = in.objects("updates"_L1, Need::Required, readUserPresence);
    return in.decoded<ServerMessage>(batch);
}

Decoded<ServerMessage> decodeDigest(FieldReader &in)
{
    Digest digest;
    digest.watched = in.string("watched"_L1, 16, 16, Need::Required);
    if (in.has("availability"_L1))
        digest.availability = in.string("availability"_L1, 16, 16, Need::Required);
    return in.decoded<ServerMessage>(digest);
}

Decoded<ServerMessage> decodeOk(FieldReader &in)
{
    Ok ok;
    if (in.has("id"_L1))
        ok.id = in.id("id"_L1, Need::Required);
    ok.ts = in.integer("ts"_L1, 0, kMaxSafeInteger, Need::Optional);
    return in.decoded<ServerMessage>(ok);
}

Decoded<ServerMessage> decodeTokenExpiring(FieldReader &in)
{
    TokenExpiring expiring;
    expiring.inMs = in.integer("in_ms"_L1, 0, kMaxSafeInteger, Need::Required).value_or(0);
    return in.decoded<ServerMessage>(expiring);
}

Decoded<ServerMessage> decodeFriendsChanged(FieldReader &in)
{
    FriendsChanged changed;
    changed.added = in.objects("added"_L1, Need::Required, readUserInfo);
    changed.removed = in.ids("removed"_L1, Need::Required);
    changed.total = readInt(in, "total"_L1);
    return in.decoded<ServerMessage>(changed);
}

Decoded<ServerMessage> decodeError(FieldReader &in)
{
    ErrorMessage error;
    error.codeText = in.string("code"_L1, 1, 64, Need::Required);
    error.message = in.string("message"_L1, 0, std::numeric_limits<int>::max(), Need::Optional);
    error.code = errorCodeFromString(error.codeText);
    return in.decoded<ServerMessage>(error);
}

} // namespace

QJsonObject toJson(const Welcome &message)
{
    QJsonObject object = typed("welcome"_L1);
    object.insert("user"_L1, userInfoJson(message.user));
    object.insert("heartbeat_ms"_L1, message.heartbeatMs);
    object.insert("protocol"_L1, kProtocolVersion);
    object.insert("limits"_L1,
        QJsonObject { { "max_frame_bytes"_L1, message.limits.maxFrameBytes },
            { "max_subscriptions"_L1, message.limits.maxSubscriptions },
            { "max_ids_per_request"_L1, message.limits.maxIdsPerRequest },
            { "max_frames_per_second"_L1, message.limits.maxFramesPerSecond },
            { "frame_burst"_L1, message.limits.frameBurst },
            { "max_availability_friends"_L1, message.limits.maxAvailabilityFriends },
            { "availability_interval_ms"_L1, message.limits.availabilityIntervalMs } });
    if (message.presenceBatchMs)
        object.insert("presence_batch_ms"_L1, *message.presenceBatchMs);
    return object;
}

QJsonObject toJson(const FriendsPage &message)
{
    QJsonObject object = typed("friends"_L1);
    object.insert("offset"_L1, message.offset);
    object.insert("total"_L1, message.total);
    QJsonArray items;
    for (const UserInfo &user : message.items)
        items.append(userInfoJson(user));
    object.insert("items"_L1, items);
    return object;
}

QJsonObject toJson(const Snapshot &message)
{
    QJsonObject object = typed("snapshot"_L1);
    QJsonArray users;
    for (const UserPresence &presence : message.users)
        users.append(userPresenceJson(presence));
    object.insert("users"_L1, users);
    object.insert("denied"_L1, QJsonArray::fromStringList(message.denied));
    return object;
}

// Keys in QJsonObject's order, which is sorted: the bytes must not depend on the writer.
QByteArray serializeFrame(const Snapshot &message, const std::optional<QString> &ref)
{
    CompactJsonWriter out(64 + 64 * message.users.size() + 24 * message.denied.size());
    out.beginObject();
    out.key("denied"_L1);
    out.beginArray();
    for (const QString &id : message.denied)
        out.value(id);
    out.endArray();
    if (ref)
        out.member("ref"_L1, *ref);
    out.member("type"_L1, "snapshot"_L1);
    out.key("users"_L1);
    writeUserPresences(out, message.users);
    out.endObject();
    return out.take();
}

QByteArray serializeFrame(const FriendsPage &message, const std::optional<QString> &ref)
{
    CompactJsonWriter out(64 + 48 * message.items.size());
    out.beginObject();
    out.key("items"_L1);
    out.beginArray();
    for (const UserInfo &user : message.items) {
        out.beginObject();
        out.member("id"_L1, user.id);
        out.member("name"_L1, user.name);
        out.endObject();
    }
    out.endArray();
    out.member("offset"_L1, qint64(message.offset));
    if (ref)
        out.member("ref"_L1, *ref);
    out.member("total"_L1, qint64(message.total));
    out.member("type"_L1, "friends"_L1);
    out.endObject();
    return out.take();
}

QJsonObject toJson(const PresenceEvent &message)
{
    QJsonObject object = userPresenceJson(message.presence);
    object.insert("type"_L1, "presence"_L1);
    return object;
}

QJsonObject toJson(const MessageEvent &message)
{
    QJsonObject object = chatMessageJson(message.message);
    object.insert("type"_L1, "message"_L1);
    return object;
}

QJsonObject toJson(const HistoryPage &message)
{
    QJsonObject object = typed("history"_L1);
    object.insert("with"_L1, message.with);
    QJsonArray messages;
    for (const ChatMessage &chat : message.messages)
        messages.append(chatMessageJson(chat));
    object.insert("messages"_L1, messages);
    object.insert("more"_L1, message.more);
    return object;
}

QJsonObject toJson(const ConversationsPage &message)
{
    QJsonObject object = typed("conversations"_L1);
    QJsonArray items;
    for (const ConversationSummary &summary : message.items) {
        QJsonObject item { { "with"_L1, summary.with },
            { "last"_L1, chatMessageJson(summary.last) }, { "unread"_L1, summary.unread } };
        if (summary.read)
            item.insert("read"_L1, *summary.read);
        items.append(item);
    }
    object.insert("items"_L1, items);
    object.insert("more"_L1, message.more);
    return object;
}

QJsonObject toJson(const ReadMarkerEvent &message)
{
    QJsonObject object = typed("read_marker"_L1);
    object.insert("with"_L1, message.with);
    object.insert("up_to"_L1, message.upTo);
    object.insert("unread"_L1, message.unread);
    return object;
}

QJsonObject toJson(const Ok &message)
{
    QJsonObject object = typed("ok"_L1);
    if (message.id)
        object.insert("id"_L1, *message.id);
    if (message.ts)
        object.insert("ts"_L1, *message.ts);
    return object;
}

QJsonObject toJson(const Pong &)
{
    return typed("pong"_L1);
}

QJsonObject toJson(const TokenExpiring &message)
{
    QJsonObject object = typed("token_expiring"_L1);
    object.insert("in_ms"_L1, message.inMs);
    return object;
}

QJsonObject toJson(const FriendsChanged &message)
{
    QJsonObject object = typed("friends_changed"_L1);
    QJsonArray added;
    for (const UserInfo &user : message.added)
        added.append(userInfoJson(user));
    object.insert("added"_L1, added);
    object.insert("removed"_L1, QJsonArray::fromStringList(message.removed));
    object.insert("total"_L1, message.total);
    return object;
}

QJsonObject toJson(const ErrorMessage &message)
{
    QJsonObject object = typed("error"_L1);
    object.insert(
        "code"_L1, message.codeText.isEmpty() ? toString(message.code) : message.codeText);
    object.insert("message"_L1, message.message);
    return object;
}

QJsonObject toJson(const Availability &message)
{
    QJsonObject object = typed("availability"_L1);
    object.insert("online"_L1, QJsonArray::fromStringList(message.online));
    object.insert("away"_L1, QJsonArray::fromStringList(message.away));
    object.insert("covered"_L1, message.covered);
    object.insert("total"_L1, message.total);
    return object;
}

QJsonObject toJson(const AvailabilityChanged &message)
{
    // Empty lists are left out: a change is usually one or two ids.
    QJsonObject object = typed("availability_changed"_L1);
    if (!message.online.isEmpty())
        object.insert("online"_L1, QJsonArray::fromStringList(message.online));
    if (!message.away.isEmpty())
        object.insert("away"_L1, QJsonArray::fromStringList(message.away));
    if (!message.offline.isEmpty())
        object.insert("offline"_L1, QJsonArray::fromStringList(message.offline));
    return object;
}

QJsonObject toJson(const PresenceBatch &message)
{
    QJsonObject object = typed("presence_batch"_L1);
    QJsonArray updates;
    for (const UserPresence &presence : message.updates)
        updates.append(userPresenceJson(presence));
    object.insert("updates"_L1, updates);
    return object;
}

// One per batched connection per window: written like a snapshot, without a QJsonObject.
QByteArray serializeFrame(const PresenceBatch &message)
{
    CompactJsonWriter out(48 + 64 * message.updates.size());
    out.beginObject();
    out.member("type"_L1, "presence_batch"_L1);
    out.key("updates"_L1);
    writeUserPresences(out, message.updates);
    out.endObject();
    return out.take();
}

QJsonObject toJson(const Digest &message)
{
    QJsonObject object = typed("digest"_L1);
    object.insert("watched"_L1, message.watched);
    if (message.availability)
        object.insert("availability"_L1, *message.availability);
    return object;
}

QJsonObject toJson(const ServerMessage &message)
{
    return std::visit([](const auto &m) { return toJson(m); }, message);
}

QJsonObject errorJson(const ProtocolError &error)
{
    return toJson(ErrorMessage { error.code, toString(error.code), error.message });
}

Decoded<ServerMessage> decodeServerMessage(const Envelope &envelope)
{
    FieldReader in(envelope.body, envelope.type);
    auto decoded = [&]() -> Decoded<ServerMessage> {
        if (envelope.type == u"welcome")
            return decodeWelcome(in);
        if (envelope.type == u"friends")
            return decodeFriendsPage(in);
        if (envelope.type == u"snapshot")
            return decodeSnapshot(in);
        if (envelope.type == u"presence")
            return in.decoded<ServerMessage>(PresenceEvent { readUserPresence(in) });
        if (envelope.type == u"message")
            return in.decoded<ServerMessage>(MessageEvent { readChatMessage(in) });
        if (envelope.type == u"history")
            return decodeHistoryPage(in);
        if (envelope.type == u"conversations")
            return decodeConversationsPage(in);
        if (envelope.type == u"read_marker")
            return decodeReadMarker(in);
        if (envelope.type == u"ok")
            return decodeOk(in);
        if (envelope.type == u"pong")
            return ServerMessage(Pong {});
        if (envelope.type == u"error")
            return decodeError(in);
        if (envelope.type == u"availability")
            return decodeAvailability(in);
        if (envelope.type == u"availability_changed")
            return decodeAvailabilityChanged(in);
        if (envelope.type == u"presence_batch")
            return decodePresenceBatch(in);
        if (envelope.type == u"digest")
            return decodeDigest(in);
        if (envelope.type == u"token_expiring")
            return decodeTokenExpiring(in);
        if (envelope.type == u"friends_changed")
            return decodeFriendsChanged(in);
        return ProtocolError { ErrorCode::UnknownType,
            u"unknown message type '%1'"_s.arg(envelope.type.left(64)) };
    }();
    return withRef(std::move(decoded), envelope.ref);
}

Decoded<ServerMessage> decodeServerFrame(const QByteArray &utf8)
{
    const Decoded<Envelope> envelope = parseFrame(utf8);
    if (!envelope.ok())
        return envelope.error();
    return decodeServerMessage(envelope.value());
}

} // namespace Presence::Protocol
