#pragma once

// What the tests of the protocol's messages share: a sample of every client and server message,
// frames from JSON, readable outcomes of a decode, and field-by-field comparison; header-only.

// C++
#include <optional>
#include <utility>
#include <variant>

// Qt
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

// Presence
#include "protocol/ClientMessages.h"
#include "protocol/ErrorCode.h"
#include "protocol/Frame.h"
#include "protocol/Identifiers.h"
#include "protocol/PresenceStatus.h"
#include "protocol/ServerMessages.h"

// QCOMPARE prints these through ADL when server messages differ: show them as their JSON.
namespace Presence::Protocol {

inline char *toString(const ServerMessage &message)
{
    return QTest::toString(QJsonDocument(toJson(message)).toJson(QJsonDocument::Compact));
}

} // namespace Presence::Protocol

namespace ProtocolSamples {

using namespace Qt::StringLiterals;
using namespace Presence::Protocol;

// "bad_request (0)": the wire name for reading, the enum value so equal names cannot hide a mix-up.
inline QString describe(ErrorCode code)
{
    return u"%1 (%2)"_s.arg(toString(code)).arg(int(code));
}

inline QByteArray frameOf(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

inline QByteArray dumpValue(const Envelope &envelope)
{
    return frameOf(envelope.body);
}

inline QByteArray dumpValue(const ClientMessage &message)
{
    return frameOf(toJson(message));
}

inline QByteArray dumpValue(const ServerMessage &message)
{
    return frameOf(toJson(message));
}

// What a decode produced, for failure messages (QVERIFY2 evaluates it either way).
template <typename T> inline QByteArray outcome(const Decoded<T> &decoded)
{
    if (decoded.ok())
        return "decoded: "_ba + dumpValue(decoded.value());
    return describe(decoded.error().code).toUtf8() + ": "_ba
        + decoded.error().message.left(300).toUtf8();
}

// Client structs have no operator==: compare them field by field (QCOMPARE returns early).
inline void compareClient(const ClientMessage &actual, const ClientMessage &expected)
{
    QCOMPARE(actual.index(), expected.index());
    if (const auto *hello = std::get_if<Hello>(&expected)) {
        const Hello &got = std::get<Hello>(actual);
        QCOMPARE(got.token, hello->token);
        QCOMPARE(got.protocol, hello->protocol);
        QCOMPARE(got.client, hello->client);
        QCOMPARE(got.status.has_value(), hello->status.has_value());
        if (hello->status)
            QCOMPARE(int(*got.status), int(*hello->status));
        QCOMPARE(got.presenceBatchMs, hello->presenceBatchMs);
    } else if (const auto *friends = std::get_if<FriendsRequest>(&expected)) {
        const FriendsRequest &got = std::get<FriendsRequest>(actual);
        QCOMPARE(got.offset, friends->offset);
        QCOMPARE(got.limit, friends->limit);
    } else if (const auto *subscribe = std::get_if<SubscribeRequest>(&expected)) {
        QCOMPARE(std::get<SubscribeRequest>(actual).ids, subscribe->ids);
    } else if (const auto *unsubscribe = std::get_if<UnsubscribeRequest>(&expected)) {
        QCOMPARE(std::get<UnsubscribeRequest>(actual).ids, unsubscribe->ids);
    } else if (const auto *setStatus = std::get_if<SetStatusRequest>(&expected)) {
        QCOMPARE(int(std::get<SetStatusRequest>(actual).status), int(setStatus->status));
    } else if (const auto *conversations = std::get_if<ConversationsRequest>(&expected)) {
        QCOMPARE(std::get<ConversationsRequest>(actual).limit, conversations->limit);
    } else if (const auto *read = std::get_if<ReadRequest>(&expected)) {
        const ReadRequest &got = std::get<ReadRequest>(actual);
        QCOMPARE(got.with, read->with);
        QCOMPARE(got.upTo, read->upTo);
    } else if (const auto *refresh = std::get_if<RefreshRequest>(&expected)) {
        QCOMPARE(std::get<RefreshRequest>(actual).token, refresh->token);
    } else {
        // Requests without fields: the same alternative (compared above) is all there is.
        QVERIFY(std::holds_alternative<PingRequest>(expected)
            || std::holds_alternative<WatchAvailabilityRequest>(expected)
            || std::holds_alternative<UnwatchAvailabilityRequest>(expected));
    }
}

// Every character an id may hold: 65 of them, one more than an id may be long.
inline const QString kAllAllowed
    = u"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-"_s;

inline QString longestId()
{
    return QString(kMaxIdLength, u'a');
}

struct NamedClient {
    const char *name;
    const char *type;
    ClientMessage message;
};

inline QList<NamedClient> sampleClientMessages()
{
    return {
        { "hello/with-status", "hello",
            Hello { u"tok-123.abc"_s, 1, u"presence-desktop/0.1.0"_s, ChosenStatus::Invisible } },
        { "hello/status-away", "hello", Hello { u"t"_s, 1, u"c/1"_s, ChosenStatus::Away } },
        { "hello/batch-shortest", "hello",
            Hello { u"t"_s, 1, u"c/1"_s, std::nullopt, kMinPresenceBatchMs } },
        { "hello/batch-longest", "hello",
            Hello { u"t"_s, 1, u"c/1"_s, ChosenStatus::Away, kMaxPresenceBatchMs } },
        { "hello/status-online", "hello", Hello { u"t"_s, 1, u"c/1"_s, ChosenStatus::Online } },
        { "hello/without-status", "hello",
            Hello { u"secret token ü"_s, 1, QString(), std::nullopt } },
        { "hello/longest-fields", "hello",
            Hello { QString(kMaxTokenLength, u'x'), 7, QString(kMaxClientNameLength, u'c'),
                std::nullopt } },
        { "friends/default", "friends", FriendsRequest {} },
        { "friends/first-page", "friends", FriendsRequest { 0, 1 } },
        { "friends/far-page", "friends", FriendsRequest { 123456, kMaxFriendsLimit } },
        { "subscribe/ids", "subscribe",
            SubscribeRequest { { u"alice"_s, u"bob.smith"_s, u"c_d-e"_s, longestId(),
                kAllAllowed.first(kMaxIdLength), u"Z"_s } } },
        { "subscribe/empty", "subscribe", SubscribeRequest {} },
        { "subscribe/duplicates", "subscribe", SubscribeRequest { { u"a"_s, u"a"_s } } },
        { "unsubscribe/ids", "unsubscribe",
            UnsubscribeRequest { { u"alice"_s, u"0"_s, kAllAllowed.last(kMaxIdLength) } } },
        { "set_status/online", "set_status", SetStatusRequest { ChosenStatus::Online } },
        { "set_status/away", "set_status", SetStatusRequest { ChosenStatus::Away } },
        { "set_status/invisible", "set_status", SetStatusRequest { ChosenStatus::Invisible } },
        { "ping", "ping", PingRequest {} },
        { "watch_availability", "watch_availability", WatchAvailabilityRequest {} },
        { "unwatch_availability", "unwatch_availability", UnwatchAvailabilityRequest {} },
        { "refresh", "refresh", RefreshRequest { u"eyJ.eyJ.sig"_s } },
        { "refresh/longest", "refresh", RefreshRequest { QString(kMaxTokenLength, u't') } },
        { "conversations/default", "conversations", ConversationsRequest {} },
        { "conversations/one", "conversations", ConversationsRequest { 1 } },
        { "conversations/most", "conversations", ConversationsRequest { kMaxConversationsLimit } },
        { "read", "read", ReadRequest { u"bob"_s, u"mk3v9x0qa.1z"_s } },
        { "read/longest", "read", ReadRequest { longestId(), kAllAllowed.first(kMaxIdLength) } },
    };
}

struct NamedServer {
    const char *name;
    const char *type;
    ServerMessage message;
};

inline QList<NamedServer> sampleServerMessages()
{
    QList<NamedServer> samples {
        { "welcome/defaults", "welcome",
            Welcome { { u"alice"_s, u"Alice Liddell"_s }, 25000, {} } },
        { "welcome/custom", "welcome",
            Welcome { { u"b.o-b_1"_s, u"Zoë 🙂"_s }, 1, Limits { 1, 2, 3, 4 } } },
        { "welcome/empty-name", "welcome", Welcome { { longestId(), QString() }, 30000, {} } },
        { "friends/empty", "friends", FriendsPage {} },
        { "friends/items", "friends",
            FriendsPage { 500, 1234,
                { { u"alice"_s, u"Alice"_s }, { u"bob"_s, u"Bob \"the builder\""_s },
                    { u"carol.c"_s, QString(kMaxDisplayNameLength, u'é') } } } },
        { "snapshot/empty", "snapshot", Snapshot {} },
        { "snapshot/users-and-denied", "snapshot",
            Snapshot { { { u"alice"_s, PresenceStatus::Online, 7, std::nullopt },
                           { u"bob"_s, PresenceStatus::Away, 0, std::nullopt },
                           { u"carol"_s, PresenceStatus::Offline, (qint64(1) << 53) - 1,
                               qint64(1700000000123) },
                           { u"dave"_s, PresenceStatus::Offline, 3, std::nullopt },
                           { u"erin"_s, PresenceStatus::Offline, 4, qint64(0) } },
                { u"eve"_s, u"mallory"_s } } },
        { "snapshot/only-denied", "snapshot", Snapshot { {}, { u"x"_s } } },
        { "presence/online", "presence",
            PresenceEvent { { u"alice"_s, PresenceStatus::Online, 42, std::nullopt } } },
        { "presence/away", "presence",
            PresenceEvent { { u"alice"_s, PresenceStatus::Away, 43, std::nullopt } } },
        { "presence/offline-last-seen", "presence",
            PresenceEvent { { u"alice"_s, PresenceStatus::Offline, 44, qint64(1700000000000) } } },
        { "presence/offline-never-seen", "presence",
            PresenceEvent { { u"alice"_s, PresenceStatus::Offline, 0, std::nullopt } } },
        { "ok", "ok", Ok {} },
        { "pong", "pong", Pong {} },
        { "token_expiring", "token_expiring", TokenExpiring { 60000 } },
        { "token_expiring/now", "token_expiring", TokenExpiring { 0 } },
        { "friends_changed/both", "friends_changed",
            FriendsChanged { { { u"dave"_s, u"Dave"_s } }, { u"bob"_s, u"carol"_s }, 3 } },
        { "friends_changed/none-left", "friends_changed", FriendsChanged { {}, { u"bob"_s }, 0 } },
        { "welcome/availability", "welcome",
            Welcome { { u"a"_s, u"A"_s }, 25000, Limits { 1, 2, 3, 4, 5, 300, 250 } } },
        { "availability/empty", "availability", Availability {} },
        { "digest/watched", "digest", Digest { u"0123456789abcdef"_s, std::nullopt } },
        { "digest/both", "digest", Digest { u"cbf29ce484222325"_s, u"00000000000000ff"_s } },
        { "availability/some", "availability",
            Availability { { u"bob"_s, u"carol"_s }, { u"dave"_s }, 5, 9 } },
        { "availability_changed/all-kinds", "availability_changed",
            AvailabilityChanged { { u"a"_s }, { u"b"_s, u"c"_s }, { u"d"_s } } },
        { "availability_changed/offline-only", "availability_changed",
            AvailabilityChanged { {}, {}, { u"d"_s } } },
        { "welcome/batched", "welcome",
            Welcome { { u"a"_s, u"A"_s }, 25000, Limits { 1, 2, 3, 4, 5, 300, 250 }, 50 } },
        { "presence_batch/empty", "presence_batch", PresenceBatch {} },
        { "presence_batch/updates", "presence_batch",
            PresenceBatch { { { u"bob"_s, PresenceStatus::Online, 9, std::nullopt },
                { u"carol"_s, PresenceStatus::Offline, 4, qint64(1700000000123) },
                { u"dave"_s, PresenceStatus::Away, 1, std::nullopt } } } },
        { "error/unknown-code", "error",
            ErrorMessage { ErrorCode::Unknown, u"quota_exceeded"_s, u"try later"_s } },
        { "error/empty-message", "error",
            ErrorMessage { ErrorCode::BadRequest, u"bad_request"_s, QString() } },
        { "conversations/empty", "conversations", ConversationsPage {} },
        { "conversations/items", "conversations",
            ConversationsPage {
                { { u"bob"_s,
                      { u"m1.9"_s, u"bob"_s, u"alice"_s, u"hi \"you\" 🙂"_s, 1700000000123 },
                      u"m1.7"_s, 2 },
                    { u"carol"_s, { u"m1.3"_s, u"alice"_s, u"carol"_s, u"x"_s, 0 }, std::nullopt,
                        0 } },
                true } },
        { "read_marker", "read_marker", ReadMarkerEvent { u"bob"_s, u"m1.9"_s, 0 } },
        { "read_marker/unread", "read_marker",
            ReadMarkerEvent { longestId(), kAllAllowed.last(kMaxIdLength), 1000 } },
    };
    static const std::pair<ErrorCode, const char *> codes[] = {
        { ErrorCode::BadRequest, "error/bad_request" },
        { ErrorCode::UnknownType, "error/unknown_type" },
        { ErrorCode::Unauthorized, "error/unauthorized" },
        { ErrorCode::UnsupportedProtocol, "error/unsupported_protocol" },
        { ErrorCode::Forbidden, "error/forbidden" },
        { ErrorCode::TooManyIds, "error/too_many_ids" },
        { ErrorCode::TooManySubscriptions, "error/too_many_subscriptions" },
        { ErrorCode::RateLimited, "error/rate_limited" },
        { ErrorCode::TooLarge, "error/too_large" },
        { ErrorCode::Unavailable, "error/unavailable" },
    };
    for (const auto &[code, name] : codes)
        samples.append({ name, "error", ErrorMessage { code, toString(code), u"details: ✓"_s } });
    return samples;
}

// The refs every round trip is tried with: none, an ordinary one, an empty one, the longest.
inline const std::pair<const char *, std::optional<QString>> kRefs[] = {
    { "no-ref", std::nullopt },
    { "ref", u"r-42"_s },
    { "empty-ref", u""_s },
    { "longest-ref", QString(kMaxRefLength, u'r') },
};

inline QJsonObject withUnknownFields(QJsonObject object)
{
    object.insert("x_future_number"_L1, 42);
    object.insert("x_future_object"_L1,
        QJsonObject { { "nested"_L1, QJsonArray { 1, u"two"_s, QJsonValue() } } });
    object.insert("x_future_null"_L1, QJsonValue());
    object.insert("x_future_string"_L1, u"hi"_s);
    return object;
}

} // namespace ProtocolSamples
