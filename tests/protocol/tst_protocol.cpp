// Tests for the wire protocol library (Presence::Protocol): framing, every client and server
// message, identifier rules, rejection of malformed input and error codes.

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
#include "protocol/Digest.h"
#include "protocol/ErrorCode.h"
#include "protocol/Frame.h"
#include "protocol/Identifiers.h"
#include "protocol/PresenceStatus.h"
#include "protocol/ServerMessages.h"

using namespace Qt::StringLiterals;
using namespace Presence::Protocol;

// QCOMPARE prints these through ADL when server messages differ: show them as their JSON.
namespace Presence::Protocol {

char *toString(const ServerMessage &message)
{
    return QTest::toString(QJsonDocument(toJson(message)).toJson(QJsonDocument::Compact));
}

} // namespace Presence::Protocol

namespace {

// FNV-1a 64 written out again from its definition, to check Digest.cpp against.
quint64 fnv1a64(const QString &text)
{
    quint64 hash = 0xcbf29ce484222325ULL;
    for (const char byte : text.toUtf8()) {
        hash ^= quint8(byte);
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

// "bad_request (0)": the wire name for reading, the enum value so equal names cannot hide a mix-up.
QString describe(ErrorCode code)
{
    return u"%1 (%2)"_s.arg(toString(code)).arg(int(code));
}

QByteArray frameOf(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

QByteArray dumpValue(const Envelope &envelope)
{
    return frameOf(envelope.body);
}

QByteArray dumpValue(const ClientMessage &message)
{
    return frameOf(toJson(message));
}

QByteArray dumpValue(const ServerMessage &message)
{
    return frameOf(toJson(message));
}

// What a decode produced, for failure messages (QVERIFY2 evaluates it either way).
template <typename T> QByteArray outcome(const Decoded<T> &decoded)
{
    if (decoded.ok())
        return "decoded: "_ba + dumpValue(decoded.value());
    return describe(decoded.error().code).toUtf8() + ": "_ba
        + decoded.error().message.left(300).toUtf8();
}

// Client structs have no operator==: compare them field by field (QCOMPARE returns early).
void compareClient(const ClientMessage &actual, const ClientMessage &expected)
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
const QString kAllAllowed = u"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-"_s;

QString longestId()
{
    return QString(kMaxIdLength, u'a');
}

struct NamedClient {
    const char *name;
    const char *type;
    ClientMessage message;
};

QList<NamedClient> sampleClientMessages()
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

QList<NamedServer> sampleServerMessages()
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
const std::pair<const char *, std::optional<QString>> kRefs[] = {
    { "no-ref", std::nullopt },
    { "ref", u"r-42"_s },
    { "empty-ref", u""_s },
    { "longest-ref", QString(kMaxRefLength, u'r') },
};

} // namespace

class TestProtocol : public QObject {
    Q_OBJECT

private slots:
    void digestsAreDocumentedFnv1a();
    // Round trips: struct -> toJson -> serializeFrame -> parseFrame -> decode -> same struct.
    void clientRoundTrip_data();
    void clientRoundTrip();
    void serverRoundTrip_data();
    void serverRoundTrip();

    // Literal wire frames decode to the expected struct (pins the field names and defaults).
    void clientWireFormat_data();
    void clientWireFormat();
    void serverWireFormat_data();
    void serverWireFormat();

    // Identifiers and refs.
    void validIds_data();
    void validIds();
    void invalidIds_data();
    void invalidIds();
    void idCharacterSet();
    void refs_data();
    void refs();
    void refsOnTheWire_data();
    void refsOnTheWire();

    // Rejections.
    void clientRejections_data();
    void clientRejections();
    void errorsCarryValidRef_data();
    void errorsCarryValidRef();
    void invalidRefRejected_data();
    void invalidRefRejected();
    void hugeUnknownFieldIsHarmless();
    void hugeTypeNameIsNotEchoedWhole();
    void nestingWithinLimitIsIgnored();

    // Forward compatibility.
    void clientIgnoresUnknownFields_data();
    void clientIgnoresUnknownFields();
    void serverIgnoresUnknownFields_data();
    void serverIgnoresUnknownFields();

    // Server-side decode.
    void serverRejections_data();
    void serverRejections();
    void serverErrorCarriesRef();
    void serverUnknownErrorCode();

    // Error codes and statuses.
    void errorJsonShape();
    void errorJsonThroughTheWire();
    void errorCodeNames_data();
    void errorCodeNames();
    void unknownErrorCodeNames_data();
    void unknownErrorCodeNames();
    void presenceStatusNames_data();
    void presenceStatusNames();
    void chosenStatusNames_data();
    void chosenStatusNames();
    void statusNamesRejectOthers();
    void availabilityOrder();
};

// ---- round trips ---------------------------------------------------------------------------

void TestProtocol::clientRoundTrip_data()
{
    QTest::addColumn<ClientMessage>("message");
    QTest::addColumn<QString>("type");
    QTest::addColumn<std::optional<QString>>("ref");

    for (const NamedClient &sample : sampleClientMessages()) {
        for (const auto &[refName, ref] : kRefs)
            QTest::addRow("%s/%s", sample.name, refName)
                << sample.message << QString::fromLatin1(sample.type) << ref;
    }
}

void TestProtocol::clientRoundTrip()
{
    QFETCH(ClientMessage, message);
    QFETCH(QString, type);
    QFETCH(std::optional<QString>, ref);

    const QJsonObject json = toJson(message);
    QCOMPARE(json.value("type"_L1).toString(), type);

    const QByteArray frame = serializeFrame(json, ref);
    QVERIFY(!frame.contains('\n'));
    QCOMPARE(frame.contains("\"ref\""_ba), ref.has_value());

    const Decoded<Envelope> envelope = parseFrame(frame);
    QVERIFY2(envelope.ok(), outcome(envelope).constData());
    QCOMPARE(envelope.value().type, type);
    QCOMPARE(envelope.value().ref.has_value(), ref.has_value());
    if (ref)
        QCOMPARE(*envelope.value().ref, *ref);

    // The QString overload of parseFrame sees the same frame.
    const Decoded<Envelope> fromText = parseFrame(QString::fromUtf8(frame));
    QVERIFY2(fromText.ok(), outcome(fromText).constData());
    QCOMPARE(fromText.value().body, envelope.value().body);

    const Decoded<ClientMessage> decoded = decodeClientMessage(envelope.value());
    QVERIFY2(decoded.ok(), outcome(decoded).constData());
    compareClient(decoded.value(), message);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(toJson(decoded.value()), json);
}

void TestProtocol::serverRoundTrip_data()
{
    QTest::addColumn<ServerMessage>("message");
    QTest::addColumn<QString>("type");
    QTest::addColumn<std::optional<QString>>("ref");

    for (const NamedServer &sample : sampleServerMessages()) {
        for (const auto &[refName, ref] : kRefs)
            QTest::addRow("%s/%s", sample.name, refName)
                << sample.message << QString::fromLatin1(sample.type) << ref;
    }
}

void TestProtocol::serverRoundTrip()
{
    QFETCH(ServerMessage, message);
    QFETCH(QString, type);
    QFETCH(std::optional<QString>, ref);

    const QJsonObject json = toJson(message);
    QCOMPARE(json.value("type"_L1).toString(), type);

    const QByteArray frame = serializeFrame(json, ref);
    QVERIFY(!frame.contains('\n'));

    const Decoded<Envelope> envelope = parseFrame(frame);
    QVERIFY2(envelope.ok(), outcome(envelope).constData());
    QCOMPARE(envelope.value().type, type);
    QCOMPARE(envelope.value().ref.has_value(), ref.has_value());
    if (ref)
        QCOMPARE(*envelope.value().ref, *ref);

    const Decoded<ServerMessage> decoded = decodeServerMessage(envelope.value());
    QVERIFY2(decoded.ok(), outcome(decoded).constData());
    QCOMPARE(decoded.value(), message);
}

// ---- wire format ---------------------------------------------------------------------------

void TestProtocol::clientWireFormat_data()
{
    QTest::addColumn<QByteArray>("frame");
    QTest::addColumn<ClientMessage>("expected");

    QTest::addRow("hello/minimal") << R"({"type":"hello","token":"abc","protocol":1})"_ba
                                   << ClientMessage(Hello { u"abc"_s, 1, QString(), std::nullopt });
    QTest::addRow("hello/full")
        << R"({"type":"hello","token":"abc","protocol":1,"client":"desk/2.0","status":"invisible"})"_ba
        << ClientMessage(Hello { u"abc"_s, 1, u"desk/2.0"_s, ChosenStatus::Invisible });
    // The decoder passes any version through: refusing it is the gateway's decision.
    QTest::addRow("hello/other-protocol")
        << R"({"type":"hello","token":"abc","protocol":2})"_ba
        << ClientMessage(Hello { u"abc"_s, 2, QString(), std::nullopt });
    QTest::addRow("hello/longest-token")
        << frameOf({ { "type"_L1, "hello"_L1 }, { "token"_L1, QString(kMaxTokenLength, u't') },
               { "protocol"_L1, 1 }, { "client"_L1, QString(kMaxClientNameLength, u'c') } })
        << ClientMessage(Hello { QString(kMaxTokenLength, u't'), 1,
               QString(kMaxClientNameLength, u'c'), std::nullopt });
    QTest::addRow("friends/defaults")
        << R"({"type":"friends"})"_ba << ClientMessage(FriendsRequest { 0, kDefaultFriendsLimit });
    QTest::addRow("friends/limit-1") << R"({"type":"friends","offset":0,"limit":1})"_ba
                                     << ClientMessage(FriendsRequest { 0, 1 });
    QTest::addRow("friends/limit-1000") << R"({"type":"friends","offset":2000,"limit":1000})"_ba
                                        << ClientMessage(FriendsRequest { 2000, 1000 });
    QTest::addRow("friends/offset-only")
        << R"({"type":"friends","offset":10})"_ba
        << ClientMessage(FriendsRequest { 10, kDefaultFriendsLimit });
    QTest::addRow("subscribe/empty")
        << R"({"type":"subscribe","ids":[]})"_ba << ClientMessage(SubscribeRequest {});
    QTest::addRow("subscribe/duplicates-kept")
        << R"({"type":"subscribe","ids":["a","b","a"]})"_ba
        << ClientMessage(SubscribeRequest { { u"a"_s, u"b"_s, u"a"_s } });
    QTest::addRow("unsubscribe") << R"({"type":"unsubscribe","ids":["x.y"]})"_ba
                                 << ClientMessage(UnsubscribeRequest { { u"x.y"_s } });
    QTest::addRow("set_status/away") << R"({"type":"set_status","status":"away"})"_ba
                                     << ClientMessage(SetStatusRequest { ChosenStatus::Away });
    QTest::addRow("set_status/invisible")
        << R"({"type":"set_status","status":"invisible"})"_ba
        << ClientMessage(SetStatusRequest { ChosenStatus::Invisible });
    QTest::addRow("set_status/online") << R"({"type":"set_status","status":"online"})"_ba
                                       << ClientMessage(SetStatusRequest { ChosenStatus::Online });
    QTest::addRow("ping") << R"({"type":"ping"})"_ba << ClientMessage(PingRequest {});
    QTest::addRow("refresh") << R"({"type":"refresh","token":"a.b.c"})"_ba
                             << ClientMessage(RefreshRequest { u"a.b.c"_s });
    QTest::addRow("conversations/defaults")
        << R"({"type":"conversations"})"_ba << ClientMessage(ConversationsRequest { 50 });
    QTest::addRow("conversations/limit-200") << R"({"type":"conversations","limit":200.0})"_ba
                                             << ClientMessage(ConversationsRequest { 200 });
    QTest::addRow("read") << R"({"type":"read","with":"bob","up_to":"m1.2","ref":"r1"})"_ba
                          << ClientMessage(ReadRequest { u"bob"_s, u"m1.2"_s });
    QTest::addRow("ping/whitespace")
        << " \n{ \"type\" : \"ping\" }\n "_ba << ClientMessage(PingRequest {});
}

void TestProtocol::clientWireFormat()
{
    QFETCH(QByteArray, frame);
    QFETCH(ClientMessage, expected);

    const Decoded<ClientMessage> decoded = decodeClientFrame(frame);
    QVERIFY2(decoded.ok(), outcome(decoded).constData());
    compareClient(decoded.value(), expected);
}

void TestProtocol::serverWireFormat_data()
{
    QTest::addColumn<QByteArray>("frame");
    QTest::addColumn<ServerMessage>("expected");

    QTest::addRow("welcome")
        << R"({"type":"welcome","protocol":1,"user":{"id":"alice","name":"Alice"},"heartbeat_ms":20000,
                  "limits":{"max_frame_bytes":1000,"max_subscriptions":20,"max_ids_per_request":5,
                            "max_frames_per_second":9}})"_ba
        << ServerMessage(Welcome { { u"alice"_s, u"Alice"_s }, 20000, Limits { 1000, 20, 5, 9 } });
    QTest::addRow("welcome/default-frame-rate")
        << R"({"type":"welcome","user":{"id":"a","name":""},"heartbeat_ms":1,
                  "limits":{"max_frame_bytes":1,"max_subscriptions":1,"max_ids_per_request":1}})"_ba
        << ServerMessage(Welcome {
               { u"a"_s, QString() }, 1, Limits { 1, 1, 1, Limits().maxFramesPerSecond } });
    QTest::addRow("friends")
        << R"({"type":"friends","offset":2,"total":3,"items":[{"id":"c","name":"C"}]})"_ba
        << ServerMessage(FriendsPage { 2, 3, { { u"c"_s, u"C"_s } } });
    QTest::addRow("snapshot/no-denied")
        << R"({"type":"snapshot","users":[{"id":"a","status":"away","seq":5},
                  {"id":"b","status":"offline","seq":6,"last_seen":1700000000000}]})"_ba
        << ServerMessage(
               Snapshot { { { u"a"_s, PresenceStatus::Away, 5, std::nullopt },
                              { u"b"_s, PresenceStatus::Offline, 6, qint64(1700000000000) } },
                   {} });
    QTest::addRow("snapshot/denied") << R"({"type":"snapshot","users":[],"denied":["z","y"]})"_ba
                                     << ServerMessage(Snapshot { {}, { u"z"_s, u"y"_s } });
    QTest::addRow("presence")
        << R"({"type":"presence","id":"bob","status":"online","seq":9007199254740991})"_ba
        << ServerMessage(PresenceEvent {
               { u"bob"_s, PresenceStatus::Online, (qint64(1) << 53) - 1, std::nullopt } });
    QTest::addRow("availability")
        << R"({"type":"availability","online":["a"],"away":[],"covered":2,"total":3})"_ba
        << ServerMessage(Availability { { u"a"_s }, {}, 2, 3 });
    QTest::addRow("availability_changed")
        << R"({"type":"availability_changed","away":["b"]})"_ba
        << ServerMessage(AvailabilityChanged { {}, { u"b"_s }, {} });
    QTest::addRow("ok") << R"({"type":"ok","ref":"1"})"_ba << ServerMessage(Ok {});
    QTest::addRow("conversations")
        << R"({"type":"conversations","ref":"c1","more":false,"items":[
                  {"with":"bob","read":"m1.1","unread":1,
                   "last":{"id":"m1.2","from":"bob","to":"alice","text":"hi","ts":5}},
                  {"with":"carol","unread":0,
                   "last":{"id":"m1.0","from":"alice","to":"carol","text":"yo","ts":4}}]})"_ba
        << ServerMessage(ConversationsPage {
               { { u"bob"_s, { u"m1.2"_s, u"bob"_s, u"alice"_s, u"hi"_s, 5 }, u"m1.1"_s, 1 },
                   { u"carol"_s, { u"m1.0"_s, u"alice"_s, u"carol"_s, u"yo"_s, 4 }, std::nullopt,
                       0 } },
               false });
    QTest::addRow("read_marker")
        << R"({"type":"read_marker","with":"bob","up_to":"m1.2","unread":0})"_ba
        << ServerMessage(ReadMarkerEvent { u"bob"_s, u"m1.2"_s, 0 });
    QTest::addRow("pong") << R"({"type":"pong"})"_ba << ServerMessage(Pong {});
    QTest::addRow("token_expiring")
        << R"({"type":"token_expiring","in_ms":1500})"_ba << ServerMessage(TokenExpiring { 1500 });
    QTest::addRow("friends_changed")
        << R"({"type":"friends_changed","added":[{"id":"dave","name":"Dave"}],"removed":["bob"],"total":4})"_ba
        << ServerMessage(FriendsChanged { { { u"dave"_s, u"Dave"_s } }, { u"bob"_s }, 4 });
    QTest::addRow("error/no-message")
        << R"({"type":"error","code":"rate_limited"})"_ba
        << ServerMessage(ErrorMessage { ErrorCode::RateLimited, u"rate_limited"_s, QString() });
    QTest::addRow("error/message")
        << R"({"type":"error","code":"forbidden","message":"not your friend"})"_ba
        << ServerMessage(
               ErrorMessage { ErrorCode::Forbidden, u"forbidden"_s, u"not your friend"_s });
}

void TestProtocol::serverWireFormat()
{
    QFETCH(QByteArray, frame);
    QFETCH(ServerMessage, expected);

    const Decoded<ServerMessage> decoded = decodeServerFrame(frame);
    QVERIFY2(decoded.ok(), outcome(decoded).constData());
    QCOMPARE(decoded.value(), expected);
}

void TestProtocol::digestsAreDocumentedFnv1a()
{
    // The rule docs/protocol.md gives, so another client can check its own implementation.
    QCOMPARE(watchedDigest({}), u"cbf29ce484222325"_s); // FNV-1a 64 of nothing
    const QList<UserPresence> users { { u"bob"_s, PresenceStatus::Online, 3, std::nullopt },
        { u"ada"_s, PresenceStatus::Offline, 7, qint64(5) } };
    const QString digest = watchedDigest(users);
    QCOMPARE(watchedDigest({ users.at(1), users.at(0) }), digest); // order-free
    QCOMPARE(
        digest, u"%1"_s.arg(fnv1a64(u"ada offline 7\nbob online 3\n"_s), 16, 16, QLatin1Char('0')));
    // Long seqs in decimal; text beyond ASCII as UTF-8.
    QCOMPARE(
        watchedDigest({ { u"z\u00e9"_s, PresenceStatus::Away, 9007199254740993, std::nullopt } }),
        u"%1"_s.arg(fnv1a64(u"z\u00e9 away 9007199254740993\n"_s), 16, 16, QLatin1Char('0')));
    QVERIFY(watchedDigest({ { u"bob"_s, PresenceStatus::Online, 4, std::nullopt } })
        != watchedDigest({ { u"bob"_s, PresenceStatus::Online, 3, std::nullopt } }));
    // Offline friends are left out of the availability digest.
    QCOMPARE(availabilityDigest(
                 { { u"a"_s, PresenceStatus::Away }, { u"b"_s, PresenceStatus::Offline } }),
        u"%1"_s.arg(fnv1a64(u"a away\n"_s), 16, 16, QLatin1Char('0')));
}

// ---- identifiers ---------------------------------------------------------------------------

void TestProtocol::validIds_data()
{
    QTest::addColumn<QString>("id");

    QTest::addRow("one-letter") << u"a"_s;
    QTest::addRow("one-digit") << u"7"_s;
    QTest::addRow("one-dot") << u"."_s;
    QTest::addRow("one-underscore") << u"_"_s;
    QTest::addRow("one-dash") << u"-"_s;
    QTest::addRow("64-chars") << longestId();
    QTest::addRow("all-allowed-but-last") << kAllAllowed.first(kMaxIdLength);
    QTest::addRow("all-allowed-but-first") << kAllAllowed.last(kMaxIdLength);
    QTest::addRow("mixed") << u"Alice.Smith_99-x"_s;
}

void TestProtocol::validIds()
{
    QFETCH(QString, id);
    QVERIFY(isValidId(id));

    // The same id is accepted on the wire.
    const Decoded<ClientMessage> decoded = decodeClientFrame(
        frameOf({ { "type"_L1, "subscribe"_L1 }, { "ids"_L1, QJsonArray { id } } }));
    QVERIFY2(decoded.ok(), outcome(decoded).constData());
    QCOMPARE(std::get<SubscribeRequest>(decoded.value()).ids, QStringList { id });
}

void TestProtocol::invalidIds_data()
{
    QTest::addColumn<QString>("id");

    QTest::addRow("empty") << QString();
    QTest::addRow("65-chars") << QString(kMaxIdLength + 1, u'a');
    QTest::addRow("all-allowed-65") << kAllAllowed;
    QTest::addRow("space") << u"a b"_s;
    QTest::addRow("leading-space") << u" a"_s;
    QTest::addRow("trailing-space") << u"a "_s;
    QTest::addRow("tab") << u"a\tb"_s;
    QTest::addRow("slash") << u"a/b"_s;
    QTest::addRow("backslash") << u"a\\b"_s;
    QTest::addRow("e-acute") << u"é"_s;
    QTest::addRow("letter-then-e-acute") << u"caf\u00e9"_s;
    QTest::addRow("cjk") << u"中"_s;
    QTest::addRow("emoji") << u"a🙂"_s;
    QTest::addRow("fullwidth-a") << u"\uff41"_s;
    QTest::addRow("at") << u"@"_s;
    QTest::addRow("email") << u"a@b"_s;
    QTest::addRow("nul") << QString(QChar(u'\0'));
    QTest::addRow("embedded-nul") << (u"a"_s + QChar(u'\0') + u"b"_s);
    QTest::addRow("colon") << u"a:b"_s;
    QTest::addRow("plus") << u"a+b"_s;
    QTest::addRow("quote") << u"a\"b"_s;
    QTest::addRow("bad-char-at-end-of-64") << (QString(kMaxIdLength - 1, u'a') + u'/');
}

void TestProtocol::invalidIds()
{
    QFETCH(QString, id);
    QVERIFY(!isValidId(id));
}

void TestProtocol::idCharacterSet()
{
    // Every character from U+0000 to U+02FF alone: exactly [A-Za-z0-9._-] pass.
    for (char16_t u = 0; u < 0x300; ++u) {
        const QChar c(u);
        const bool expected = kAllAllowed.contains(c);
        const bool actual = isValidId(QStringView(&c, 1));
        QVERIFY2(actual == expected,
            qPrintable(u"U+%1 expected %2"_s.arg(int(u), 4, 16, QChar(u'0'))
                           .arg(expected ? u"valid"_s : u"invalid"_s)));
    }
}

void TestProtocol::refs_data()
{
    QTest::addColumn<QString>("ref");
    QTest::addColumn<bool>("valid");

    QTest::addRow("empty") << u""_s << true;
    QTest::addRow("one") << u"1"_s << true;
    QTest::addRow("32-chars") << QString(kMaxRefLength, u'r') << true;
    QTest::addRow("32-non-ascii") << QString(kMaxRefLength, u'é') << true;
    QTest::addRow("with-spaces") << u"any text / at all"_s << true;
    QTest::addRow("33-chars") << QString(kMaxRefLength + 1, u'r') << false;
    QTest::addRow("1000-chars") << QString(1000, u'r') << false;
}

void TestProtocol::refs()
{
    QFETCH(QString, ref);
    QFETCH(bool, valid);
    QCOMPARE(isValidRef(ref), valid);
}

void TestProtocol::refsOnTheWire_data()
{
    refs_data();
}

void TestProtocol::refsOnTheWire()
{
    QFETCH(QString, ref);
    QFETCH(bool, valid);

    const Decoded<Envelope> envelope
        = parseFrame(frameOf({ { "type"_L1, "ping"_L1 }, { "ref"_L1, ref } }));
    QCOMPARE(envelope.ok(), valid);
    if (valid) {
        QVERIFY(envelope.value().ref.has_value());
        QCOMPARE(*envelope.value().ref, ref);
    } else {
        QCOMPARE(describe(envelope.error().code), describe(ErrorCode::BadRequest));
        QVERIFY(!envelope.error().ref.has_value());
    }
}

// ---- rejections ----------------------------------------------------------------------------

void TestProtocol::clientRejections_data()
{
    QTest::addColumn<QByteArray>("frame");
    QTest::addColumn<ErrorCode>("code");
    QTest::addColumn<QString>("mention"); // what the message must name

    const auto bad = [](const char *name, const QByteArray &frame, const QString &mention) {
        QTest::addRow("%s", name) << frame << ErrorCode::BadRequest << mention;
    };
    const auto hello = [](const QString &token, const QJsonValue &protocol) {
        QJsonObject object { { "type"_L1, "hello"_L1 }, { "token"_L1, token } };
        object.insert("protocol"_L1, protocol);
        return object;
    };
    const auto withField = [](QJsonObject object, QLatin1StringView key, const QJsonValue &value) {
        object.insert(key, value);
        return frameOf(object);
    };
    const QByteArray deepArrays = QByteArray(2000, '[') + QByteArray(2000, ']');

    // Not a JSON object.
    bad("not-json", "hello"_ba, u"JSON"_s);
    bad("empty-frame", ""_ba, u"JSON"_s);
    bad("truncated", R"({"type":"ping")"_ba, u"JSON"_s);
    bad("truncated-string", R"({"type":"pi)"_ba, u"JSON"_s);
    bad("trailing-garbage", R"({"type":"ping"} x)"_ba, u"JSON"_s);
    bad("two-objects", R"({"type":"ping"}{"type":"ping"})"_ba, u"JSON"_s);
    bad("invalid-utf8", "{\"type\":\"ping\",\"x\":\"\xff\xfe\"}"_ba, u"JSON"_s);
    bad("single-quotes", "{'type':'ping'}"_ba, u"JSON"_s);
    bad("array", R"([{"type":"ping"}])"_ba, u"object"_s);
    bad("empty-array", "[]"_ba, u"object"_s);
    bad("number", "42"_ba, u"JSON"_s);
    bad("string", R"("ping")"_ba, u"JSON"_s);
    bad("null", "null"_ba, u"JSON"_s);
    bad("true", "true"_ba, u"JSON"_s);
    bad("deeply-nested-arrays", deepArrays, u"JSON"_s);
    QByteArray deepObjects;
    for (int i = 0; i < 2000; ++i)
        deepObjects += R"({"a":)"_ba;
    deepObjects += "1"_ba + QByteArray(2000, '}');
    bad("deeply-nested-objects", deepObjects, u"JSON"_s);
    bad("deeply-nested-in-field", R"({"type":"ping","x":)"_ba + deepArrays + "}"_ba, u"JSON"_s);
    bad("number-too-large", R"({"type":"friends","limit":1e400})"_ba, u"JSON"_s);

    // The type.
    bad("empty-object", "{}"_ba, u"'type'"_s);
    bad("missing-type", R"({"token":"t","protocol":1})"_ba, u"'type'"_s);
    bad("type-number", R"({"type":1})"_ba, u"'type'"_s);
    bad("type-null", R"({"type":null})"_ba, u"'type'"_s);
    bad("type-array", R"({"type":["ping"]})"_ba, u"'type'"_s);
    bad("type-object", R"({"type":{"name":"ping"}})"_ba, u"'type'"_s);
    bad("type-empty", R"({"type":""})"_ba, u"'type'"_s);
    QTest::addRow("unknown-type") << R"({"type":"unknown_type"})"_ba << ErrorCode::UnknownType
                                  << u"unknown_type"_s;
    QTest::addRow("type-wrong-case")
        << R"({"type":"Ping"})"_ba << ErrorCode::UnknownType << u"Ping"_s;
    QTest::addRow("type-padded") << R"({"type":" ping"})"_ba << ErrorCode::UnknownType << u"ping"_s;
    QTest::addRow("server-type-welcome")
        << R"({"type":"welcome"})"_ba << ErrorCode::UnknownType << u"welcome"_s;
    QTest::addRow("server-type-pong")
        << R"({"type":"pong"})"_ba << ErrorCode::UnknownType << u"pong"_s;

    // hello.
    bad("hello/no-token", R"({"type":"hello","protocol":1})"_ba, u"'token'"_s);
    bad("hello/token-number", R"({"type":"hello","token":5,"protocol":1})"_ba, u"'token'"_s);
    bad("hello/token-null", R"({"type":"hello","token":null,"protocol":1})"_ba, u"'token'"_s);
    bad("hello/token-array", R"({"type":"hello","token":["t"],"protocol":1})"_ba, u"'token'"_s);
    bad("hello/token-empty", R"({"type":"hello","token":"","protocol":1})"_ba, u"'token'"_s);
    bad("refresh/no-token", frameOf({ { "type"_L1, "refresh"_L1 } }), u"'token'"_s);
    bad("refresh/empty-token", frameOf({ { "type"_L1, "refresh"_L1 }, { "token"_L1, ""_L1 } }),
        u"'token'"_s);
    bad("refresh/token-4097",
        frameOf(
            { { "type"_L1, "refresh"_L1 }, { "token"_L1, QString(kMaxTokenLength + 1, u't') } }),
        u"'token'"_s);
    bad("hello/token-4097", frameOf(hello(QString(kMaxTokenLength + 1, u't'), 1)), u"'token'"_s);
    bad("hello/no-protocol", R"({"type":"hello","token":"t"})"_ba, u"'protocol'"_s);
    bad("hello/protocol-string", R"({"type":"hello","token":"t","protocol":"1"})"_ba,
        u"'protocol'"_s);
    bad("hello/protocol-1.5", R"({"type":"hello","token":"t","protocol":1.5})"_ba, u"'protocol'"_s);
    bad("hello/protocol-negative", R"({"type":"hello","token":"t","protocol":-1})"_ba,
        u"'protocol'"_s);
    bad("hello/protocol-bool", R"({"type":"hello","token":"t","protocol":true})"_ba,
        u"'protocol'"_s);
    bad("hello/protocol-null", R"({"type":"hello","token":"t","protocol":null})"_ba,
        u"'protocol'"_s);
    bad("hello/protocol-over-int", R"({"type":"hello","token":"t","protocol":2147483648})"_ba,
        u"'protocol'"_s);
    bad("hello/client-number", withField(hello(u"t"_s, 1), "client"_L1, 3), u"'client'"_s);
    bad("hello/client-129",
        withField(hello(u"t"_s, 1), "client"_L1, QString(kMaxClientNameLength + 1, u'c')),
        u"'client'"_s);
    bad("hello/status-busy", withField(hello(u"t"_s, 1), "status"_L1, u"busy"_s), u"'status'"_s);
    bad("hello/status-offline", withField(hello(u"t"_s, 1), "status"_L1, u"offline"_s),
        u"'status'"_s);
    bad("hello/status-empty", withField(hello(u"t"_s, 1), "status"_L1, u""_s), u"'status'"_s);
    bad("hello/status-uppercase", withField(hello(u"t"_s, 1), "status"_L1, u"ONLINE"_s),
        u"'status'"_s);
    bad("hello/status-number", withField(hello(u"t"_s, 1), "status"_L1, 1), u"'status'"_s);
    bad("hello/status-null", withField(hello(u"t"_s, 1), "status"_L1, QJsonValue()), u"'status'"_s);
    for (const auto &[name, window] : { std::pair { "hello/batch-9", QJsonValue(9) },
             std::pair { "hello/batch-1001", QJsonValue(1001) },
             std::pair { "hello/batch-0", QJsonValue(0) },
             std::pair { "hello/batch-fraction", QJsonValue(50.5) },
             std::pair { "hello/batch-string", QJsonValue(u"50"_s) },
             std::pair { "hello/batch-null", QJsonValue() } })
        bad(name, withField(hello(u"t"_s, 1), "presence_batch_ms"_L1, window),
            u"'presence_batch_ms'"_s);

    // friends.
    bad("friends/limit-0", R"({"type":"friends","limit":0})"_ba, u"'limit'"_s);
    bad("friends/limit-1001", R"({"type":"friends","limit":1001})"_ba, u"'limit'"_s);
    bad("friends/limit-negative", R"({"type":"friends","limit":-5})"_ba, u"'limit'"_s);
    bad("friends/limit-string", R"({"type":"friends","limit":"10"})"_ba, u"'limit'"_s);
    bad("friends/limit-fraction", R"({"type":"friends","limit":10.5})"_ba, u"'limit'"_s);
    bad("friends/limit-null", R"({"type":"friends","limit":null})"_ba, u"'limit'"_s);
    bad("friends/offset-negative", R"({"type":"friends","offset":-1})"_ba, u"'offset'"_s);
    bad("friends/offset-string", R"({"type":"friends","offset":"3"})"_ba, u"'offset'"_s);
    bad("friends/offset-over-int", R"({"type":"friends","offset":2147483648})"_ba, u"'offset'"_s);

    // subscribe / unsubscribe.
    bad("subscribe/no-ids", R"({"type":"subscribe"})"_ba, u"'ids'"_s);
    bad("subscribe/ids-string", R"({"type":"subscribe","ids":"alice"})"_ba, u"'ids'"_s);
    bad("subscribe/ids-null", R"({"type":"subscribe","ids":null})"_ba, u"'ids'"_s);
    bad("subscribe/ids-object", R"({"type":"subscribe","ids":{"a":1}})"_ba, u"'ids'"_s);
    bad("subscribe/ids-number", R"({"type":"subscribe","ids":[1]})"_ba, u"'ids' item 0"_s);
    bad("subscribe/ids-second-number", R"({"type":"subscribe","ids":["alice",2]})"_ba,
        u"'ids' item 1"_s);
    bad("subscribe/ids-null-item", R"({"type":"subscribe","ids":["a","b",null]})"_ba,
        u"'ids' item 2"_s);
    bad("subscribe/ids-nested", R"({"type":"subscribe","ids":[[["a"]]]})"_ba, u"'ids' item 0"_s);
    bad("subscribe/ids-object-item", R"({"type":"subscribe","ids":[{"id":"a"}]})"_ba,
        u"'ids' item 0"_s);
    bad("subscribe/id-65",
        frameOf({ { "type"_L1, "subscribe"_L1 },
            { "ids"_L1, QJsonArray { u"ok"_s, QString(kMaxIdLength + 1, u'a') } } }),
        u"'ids' item 1"_s);
    bad("subscribe/id-empty", R"({"type":"subscribe","ids":[""]})"_ba, u"'ids' item 0"_s);
    bad("subscribe/id-space", R"({"type":"subscribe","ids":["a b"]})"_ba, u"'ids' item 0"_s);
    bad("subscribe/id-slash", R"({"type":"subscribe","ids":["a/b"]})"_ba, u"'ids' item 0"_s);
    bad("subscribe/id-unicode", R"({"type":"subscribe","ids":["caf\u00e9"]})"_ba,
        u"'ids' item 0"_s);
    bad("subscribe/id-at", R"({"type":"subscribe","ids":["a@b"]})"_ba, u"'ids' item 0"_s);
    bad("subscribe/id-nul", R"({"type":"subscribe","ids":["a\u0000b"]})"_ba, u"'ids' item 0"_s);
    bad("unsubscribe/no-ids", R"({"type":"unsubscribe"})"_ba, u"'ids'"_s);
    bad("unsubscribe/id-bad", R"({"type":"unsubscribe","ids":["ok","no!"]})"_ba, u"'ids' item 1"_s);

    // conversations.
    bad("conversations/limit-0", R"({"type":"conversations","limit":0})"_ba, u"'limit'"_s);
    bad("conversations/limit-201", R"({"type":"conversations","limit":201})"_ba, u"'limit'"_s);
    bad("conversations/limit-string", R"({"type":"conversations","limit":"5"})"_ba, u"'limit'"_s);
    bad("conversations/limit-fraction", R"({"type":"conversations","limit":2.5})"_ba, u"'limit'"_s);
    bad("conversations/limit-null", R"({"type":"conversations","limit":null})"_ba, u"'limit'"_s);

    // read.
    bad("read/no-with", R"({"type":"read","up_to":"m1.1"})"_ba, u"'with'"_s);
    bad("read/with-number", R"({"type":"read","with":7,"up_to":"m1.1"})"_ba, u"'with'"_s);
    bad("read/with-bad", R"({"type":"read","with":"b b","up_to":"m1.1"})"_ba, u"'with'"_s);
    bad("read/no-up-to", R"({"type":"read","with":"bob"})"_ba, u"'up_to'"_s);
    bad("read/up-to-null", R"({"type":"read","with":"bob","up_to":null})"_ba, u"'up_to'"_s);
    bad("read/up-to-number", R"({"type":"read","with":"bob","up_to":12})"_ba, u"'up_to'"_s);
    bad("read/up-to-empty", R"({"type":"read","with":"bob","up_to":""})"_ba, u"'up_to'"_s);
    bad("read/up-to-slash", R"({"type":"read","with":"bob","up_to":"m1/2"})"_ba, u"'up_to'"_s);
    bad("read/up-to-65",
        withField({ { "type"_L1, "read"_L1 }, { "with"_L1, "bob"_L1 } }, "up_to"_L1,
            QString(kMaxIdLength + 1, u'm')),
        u"'up_to'"_s);
    bad("read/camel-case-upTo", R"({"type":"read","with":"bob","upTo":"m1.2"})"_ba, u"'up_to'"_s);

    // set_status.
    bad("set_status/offline", R"({"type":"set_status","status":"offline"})"_ba, u"'status'"_s);
    bad("set_status/busy", R"({"type":"set_status","status":"busy"})"_ba, u"'status'"_s);
    bad("set_status/missing", R"({"type":"set_status"})"_ba, u"'status'"_s);
    bad("set_status/empty", R"({"type":"set_status","status":""})"_ba, u"'status'"_s);
    bad("set_status/number", R"({"type":"set_status","status":0})"_ba, u"'status'"_s);
    bad("set_status/very-long",
        withField({ { "type"_L1, "set_status"_L1 } }, "status"_L1, QString(10000, u'a')),
        u"'status'"_s);
}

void TestProtocol::clientRejections()
{
    QFETCH(QByteArray, frame);
    QFETCH(ErrorCode, code);
    QFETCH(QString, mention);

    const Decoded<ClientMessage> decoded = decodeClientFrame(frame);
    QVERIFY2(!decoded.ok(), outcome(decoded).constData());
    const ProtocolError &error = decoded.error();
    QCOMPARE(describe(error.code), describe(code));
    QVERIFY(!error.message.isEmpty());
    QVERIFY2(error.message.contains(mention), qPrintable(error.message));
    QVERIFY2(error.message.size() < 300, qPrintable(error.message.left(300)));
    QVERIFY(!error.ref.has_value());
}

void TestProtocol::errorsCarryValidRef_data()
{
    QTest::addColumn<QByteArray>("frame");
    QTest::addColumn<ErrorCode>("code");
    QTest::addColumn<QString>("ref");

    const QString longest(kMaxRefLength, u'k');
    QTest::addRow("missing-type") << R"({"ref":"r-7"})"_ba << ErrorCode::BadRequest << u"r-7"_s;
    QTest::addRow("empty-type") << R"({"type":"","ref":"r-7"})"_ba << ErrorCode::BadRequest
                                << u"r-7"_s;
    QTest::addRow("type-number") << R"({"type":3,"ref":"r-7"})"_ba << ErrorCode::BadRequest
                                 << u"r-7"_s;
    QTest::addRow("unknown-type") << R"({"type":"unknown_type","ref":"r-8"})"_ba
                                  << ErrorCode::UnknownType << u"r-8"_s;
    QTest::addRow("hello-no-token")
        << R"({"type":"hello","protocol":1,"ref":"h"})"_ba << ErrorCode::BadRequest << u"h"_s;
    QTest::addRow("friends-limit")
        << R"({"ref":"f1","type":"friends","limit":0})"_ba << ErrorCode::BadRequest << u"f1"_s;
    QTest::addRow("subscribe-bad-id")
        << R"({"type":"subscribe","ids":["a b"],"ref":"s"})"_ba << ErrorCode::BadRequest << u"s"_s;
    QTest::addRow("unsubscribe-no-ids")
        << R"({"type":"unsubscribe","ref":"u"})"_ba << ErrorCode::BadRequest << u"u"_s;
    QTest::addRow("set_status-offline")
        << R"({"type":"set_status","status":"offline","ref":"x"})"_ba << ErrorCode::BadRequest
        << u"x"_s;
    QTest::addRow("empty-ref") << R"({"type":"hello","ref":""})"_ba << ErrorCode::BadRequest
                               << u""_s;
    QTest::addRow("longest-ref") << frameOf(
        { { "type"_L1, "set_status"_L1 }, { "ref"_L1, longest } })
                                 << ErrorCode::BadRequest << longest;
}

void TestProtocol::errorsCarryValidRef()
{
    QFETCH(QByteArray, frame);
    QFETCH(ErrorCode, code);
    QFETCH(QString, ref);

    const Decoded<ClientMessage> decoded = decodeClientFrame(frame);
    QVERIFY2(!decoded.ok(), outcome(decoded).constData());
    QCOMPARE(describe(decoded.error().code), describe(code));
    QVERIFY(!decoded.error().message.isEmpty());
    QVERIFY(decoded.error().ref.has_value());
    QCOMPARE(*decoded.error().ref, ref);
}

void TestProtocol::invalidRefRejected_data()
{
    QTest::addColumn<QByteArray>("frame");

    QTest::addRow("33-chars") << frameOf(
        { { "type"_L1, "ping"_L1 }, { "ref"_L1, QString(kMaxRefLength + 1, u'r') } });
    QTest::addRow("33-chars-and-bad-type")
        << frameOf({ { "type"_L1, 7 }, { "ref"_L1, QString(kMaxRefLength + 1, u'r') } });
    QTest::addRow("number") << R"({"type":"ping","ref":42})"_ba;
    QTest::addRow("number-and-unknown-type") << R"({"type":"nope","ref":42})"_ba;
    QTest::addRow("null") << R"({"type":"ping","ref":null})"_ba;
    QTest::addRow("bool") << R"({"type":"ping","ref":true})"_ba;
    QTest::addRow("array") << R"({"type":"ping","ref":["r"]})"_ba;
    QTest::addRow("object") << R"({"type":"ping","ref":{"r":1}})"_ba;
}

void TestProtocol::invalidRefRejected()
{
    QFETCH(QByteArray, frame);

    const Decoded<ClientMessage> decoded = decodeClientFrame(frame);
    QVERIFY2(!decoded.ok(), outcome(decoded).constData());
    QCOMPARE(describe(decoded.error().code), describe(ErrorCode::BadRequest));
    QVERIFY2(decoded.error().message.contains(u"'ref'"_s), qPrintable(decoded.error().message));
    QVERIFY(!decoded.error().ref.has_value());
}

void TestProtocol::hugeUnknownFieldIsHarmless()
{
    const QString huge(1 << 20, u'x');

    const Decoded<ClientMessage> ping
        = decodeClientFrame(frameOf({ { "type"_L1, "ping"_L1 }, { "junk"_L1, huge } }));
    QVERIFY2(ping.ok(), outcome(ping).constData());
    QVERIFY(std::holds_alternative<PingRequest>(ping.value()));

    const Decoded<ClientMessage> hello = decodeClientFrame(frameOf({ { "type"_L1, "hello"_L1 },
        { "token"_L1, u"t"_s }, { "protocol"_L1, 1 }, { "junk"_L1, huge } }));
    QVERIFY2(hello.ok(), outcome(hello).constData());
    QCOMPARE(std::get<Hello>(hello.value()).token, u"t"_s);

    const Decoded<ServerMessage> pong
        = decodeServerFrame(frameOf({ { "type"_L1, "pong"_L1 }, { "junk"_L1, huge } }));
    QVERIFY2(pong.ok(), outcome(pong).constData());
    QVERIFY(std::holds_alternative<Pong>(pong.value()));
}

void TestProtocol::hugeTypeNameIsNotEchoedWhole()
{
    const QString huge = u"zz"_s + QString(1 << 20, u'y');
    const Decoded<ClientMessage> decoded = decodeClientFrame(frameOf({ { "type"_L1, huge } }));
    QVERIFY2(!decoded.ok(), outcome(decoded).constData());
    QCOMPARE(describe(decoded.error().code), describe(ErrorCode::UnknownType));
    QVERIFY(decoded.error().message.contains(u"zzyyy"_s));
    QVERIFY2(decoded.error().message.size() < 200, qPrintable(decoded.error().message.left(300)));

    const Decoded<ServerMessage> server = decodeServerFrame(frameOf({ { "type"_L1, huge } }));
    QVERIFY(!server.ok());
    QCOMPARE(describe(server.error().code), describe(ErrorCode::UnknownType));
    QVERIFY2(server.error().message.size() < 200, qPrintable(server.error().message.left(300)));
}

void TestProtocol::nestingWithinLimitIsIgnored()
{
    const QByteArray frame
        = R"({"type":"ping","x":)"_ba + QByteArray(100, '[') + QByteArray(100, ']') + "}"_ba;
    const Decoded<ClientMessage> decoded = decodeClientFrame(frame);
    QVERIFY2(decoded.ok(), outcome(decoded).constData());
    QVERIFY(std::holds_alternative<PingRequest>(decoded.value()));
}

// ---- forward compatibility -----------------------------------------------------------------

namespace {

QJsonObject withUnknownFields(QJsonObject object)
{
    object.insert("x_future_number"_L1, 42);
    object.insert("x_future_object"_L1,
        QJsonObject { { "nested"_L1, QJsonArray { 1, u"two"_s, QJsonValue() } } });
    object.insert("x_future_null"_L1, QJsonValue());
    object.insert("x_future_string"_L1, u"hi"_s);
    return object;
}

} // namespace

void TestProtocol::clientIgnoresUnknownFields_data()
{
    QTest::addColumn<ClientMessage>("message");
    for (const NamedClient &sample : sampleClientMessages())
        QTest::addRow("%s", sample.name) << sample.message;
}

void TestProtocol::clientIgnoresUnknownFields()
{
    QFETCH(ClientMessage, message);

    const QByteArray frame = serializeFrame(withUnknownFields(toJson(message)), u"r"_s);
    const Decoded<ClientMessage> decoded = decodeClientFrame(frame);
    QVERIFY2(decoded.ok(), outcome(decoded).constData());
    compareClient(decoded.value(), message);
}

void TestProtocol::serverIgnoresUnknownFields_data()
{
    QTest::addColumn<ServerMessage>("message");
    QTest::addColumn<QByteArray>("frame");

    for (const NamedServer &sample : sampleServerMessages())
        QTest::addRow("%s", sample.name)
            << sample.message << serializeFrame(withUnknownFields(toJson(sample.message)));

    // Unknown fields inside nested objects too.
    QTest::addRow("nested/welcome")
        << ServerMessage(Welcome { { u"a"_s, u"A"_s }, 5, Limits { 6, 7, 8, 9 } })
        << R"({"type":"welcome","user":{"id":"a","name":"A","avatar":"x.png"},"heartbeat_ms":5,
                  "limits":{"max_frame_bytes":6,"max_subscriptions":7,"max_ids_per_request":8,
                            "max_frames_per_second":9,"max_future":10},"features":["x"]})"_ba;
    QTest::addRow("nested/friends")
        << ServerMessage(FriendsPage { 0, 1, { { u"a"_s, u"A"_s } } })
        << R"({"type":"friends","offset":0,"total":1,"items":[{"id":"a","name":"A","mood":1}]})"_ba;
    QTest::addRow("nested/snapshot")
        << ServerMessage(Snapshot { { { u"a"_s, PresenceStatus::Away, 1, std::nullopt } }, {} })
        << R"({"type":"snapshot","users":[{"id":"a","status":"away","seq":1,"device":"phone"}],"cursor":3})"_ba;
    QTest::addRow("nested/presence")
        << ServerMessage(PresenceEvent { { u"a"_s, PresenceStatus::Online, 2, std::nullopt } })
        << R"({"type":"presence","id":"a","status":"online","seq":2,"device":{"kind":"phone"}})"_ba;
}

void TestProtocol::serverIgnoresUnknownFields()
{
    QFETCH(ServerMessage, message);
    QFETCH(QByteArray, frame);

    const Decoded<ServerMessage> decoded = decodeServerFrame(frame);
    QVERIFY2(decoded.ok(), outcome(decoded).constData());
    QCOMPARE(decoded.value(), message);
}

// ---- server-side decode --------------------------------------------------------------------

void TestProtocol::serverRejections_data()
{
    QTest::addColumn<QByteArray>("frame");
    QTest::addColumn<ErrorCode>("code");
    QTest::addColumn<QString>("mention");

    const auto bad = [](const char *name, const QByteArray &frame, const QString &mention) {
        QTest::addRow("%s", name) << frame << ErrorCode::BadRequest << mention;
    };
    const QByteArray limits
        = R"("limits":{"max_frame_bytes":1,"max_subscriptions":1,"max_ids_per_request":1})"_ba;
    const QByteArray user = R"("user":{"id":"a","name":"A"})"_ba;

    bad("not-json", "{"_ba, u"JSON"_s);
    bad("array", "[]"_ba, u"object"_s);
    bad("deeply-nested", QByteArray(2000, '[') + QByteArray(2000, ']'), u"JSON"_s);
    bad("no-type", R"({"code":"x"})"_ba, u"'type'"_s);
    QTest::addRow("unknown-type") << R"({"type":"typing"})"_ba << ErrorCode::UnknownType
                                  << u"typing"_s;
    QTest::addRow("client-type") << R"({"type":"subscribe","ids":[]})"_ba << ErrorCode::UnknownType
                                 << u"subscribe"_s;

    const QByteArray last = R"("last":{"id":"m1","from":"bob","to":"a","text":"t","ts":1})"_ba;
    bad("conversations/no-items", R"({"type":"conversations","more":false})"_ba, u"'items'"_s);
    bad("conversations/no-more", R"({"type":"conversations","items":[]})"_ba, u"'more'"_s);
    bad("conversations/item-not-object", R"({"type":"conversations","items":[1],"more":false})"_ba,
        u"'items'"_s);
    bad("conversations/no-with",
        R"({"type":"conversations","more":false,"items":[{"unread":0,)"_ba + last + "}]}",
        u"'with'"_s);
    bad("conversations/no-last",
        R"({"type":"conversations","more":false,"items":[{"with":"bob","unread":0}]})"_ba,
        u"'last'"_s);
    bad("conversations/last-without-ts",
        R"({"type":"conversations","more":false,"items":[{"with":"bob","unread":0,)"
        R"("last":{"id":"m1","from":"bob","to":"a","text":"t"}}]})"_ba,
        u"'ts'"_s);
    bad("conversations/last-of-another-pair",
        R"({"type":"conversations","more":false,"items":[{"with":"carol","unread":0,)"_ba + last
            + "}]}",
        u"'last'"_s);
    bad("conversations/unread-negative",
        R"({"type":"conversations","more":false,"items":[{"with":"bob","unread":-1,)"_ba + last
            + "}]}",
        u"'unread'"_s);
    bad("conversations/no-unread",
        R"({"type":"conversations","more":false,"items":[{"with":"bob",)"_ba + last + "}]}",
        u"'unread'"_s);
    bad("conversations/read-null",
        R"({"type":"conversations","more":false,"items":[{"with":"bob","unread":0,"read":null,)"_ba
            + last + "}]}",
        u"'read'"_s);
    bad("read_marker/no-up-to", R"({"type":"read_marker","with":"bob","unread":0})"_ba,
        u"'up_to'"_s);
    bad("read_marker/bad-with", R"({"type":"read_marker","with":"","up_to":"m1","unread":0})"_ba,
        u"'with'"_s);
    bad("read_marker/unread-string",
        R"({"type":"read_marker","with":"bob","up_to":"m1","unread":"0"})"_ba, u"'unread'"_s);
    bad("read_marker/no-unread", R"({"type":"read_marker","with":"bob","up_to":"m1"})"_ba,
        u"'unread'"_s);

    bad("availability/no-online", R"({"type":"availability","away":[],"covered":0,"total":0})"_ba,
        u"'online'"_s);
    bad("availability/bad-id",
        R"({"type":"availability","online":["a b"],"away":[],"covered":1,"total":1})"_ba,
        u"'online'"_s);
    bad("availability/no-covered", R"({"type":"availability","online":[],"away":[],"total":0})"_ba,
        u"'covered'"_s);
    bad("availability/covered-over-total",
        R"({"type":"availability","online":[],"away":[],"covered":3,"total":2})"_ba,
        u"'covered'"_s);
    bad("availability_changed/not-a-list", R"({"type":"availability_changed","offline":"a"})"_ba,
        u"'offline'"_s);
    bad("presence_batch/no-updates", R"({"type":"presence_batch"})"_ba, u"'updates'"_s);
    bad("presence_batch/not-objects", R"({"type":"presence_batch","updates":["a"]})"_ba,
        u"'updates'"_s);
    bad("presence_batch/bad-entry",
        R"({"type":"presence_batch","updates":[{"id":"a","status":"busy","seq":1}]})"_ba,
        u"'status'"_s);
    bad("welcome/batch-zero",
        R"({"type":"welcome","user":{"id":"a","name":"A"},"heartbeat_ms":1,"limits":{"max_frame_bytes":1,"max_subscriptions":1,"max_ids_per_request":1},"presence_batch_ms":0})"_ba,
        u"'presence_batch_ms'"_s);
    bad("presence/status-busy", R"({"type":"presence","id":"a","status":"busy","seq":1})"_ba,
        u"'status'"_s);
    bad("presence/status-invisible",
        R"({"type":"presence","id":"a","status":"invisible","seq":1})"_ba, u"'status'"_s);
    bad("presence/status-missing", R"({"type":"presence","id":"a","seq":1})"_ba, u"'status'"_s);
    bad("presence/seq-negative", R"({"type":"presence","id":"a","status":"online","seq":-1})"_ba,
        u"'seq'"_s);
    bad("presence/seq-string", R"({"type":"presence","id":"a","status":"online","seq":"1"})"_ba,
        u"'seq'"_s);
    bad("presence/seq-fraction", R"({"type":"presence","id":"a","status":"online","seq":1.5})"_ba,
        u"'seq'"_s);
    bad("presence/seq-over-2^53",
        R"({"type":"presence","id":"a","status":"online","seq":9007199254740992})"_ba, u"'seq'"_s);
    bad("presence/seq-missing", R"({"type":"presence","id":"a","status":"online"})"_ba, u"'seq'"_s);
    bad("presence/last-seen-negative",
        R"({"type":"presence","id":"a","status":"offline","seq":1,"last_seen":-5})"_ba,
        u"'last_seen'"_s);
    bad("presence/last-seen-string",
        R"({"type":"presence","id":"a","status":"offline","seq":1,"last_seen":"yesterday"})"_ba,
        u"'last_seen'"_s);
    bad("presence/bad-id", R"({"type":"presence","id":"a b","status":"online","seq":1})"_ba,
        u"'id'"_s);
    bad("presence/no-id", R"({"type":"presence","status":"online","seq":1})"_ba, u"'id'"_s);

    bad("welcome/no-limits", R"({"type":"welcome",)"_ba + user + R"(,"heartbeat_ms":1})"_ba,
        u"'limits'"_s);
    bad("welcome/limits-not-object",
        R"({"type":"welcome",)"_ba + user + R"(,"heartbeat_ms":1,"limits":5})"_ba, u"'limits'"_s);
    bad("welcome/limits-missing-field",
        R"({"type":"welcome",)"_ba + user
            + R"(,"heartbeat_ms":1,"limits":{"max_subscriptions":1,"max_ids_per_request":1}})"_ba,
        u"'max_frame_bytes'"_s);
    bad("welcome/limits-zero",
        R"({"type":"welcome",)"_ba + user
            + R"(,"heartbeat_ms":1,"limits":{"max_frame_bytes":1,"max_subscriptions":0,"max_ids_per_request":1}})"_ba,
        u"'max_subscriptions'"_s);
    bad("welcome/no-user", R"({"type":"welcome","heartbeat_ms":1,)"_ba + limits + "}"_ba,
        u"'user'"_s);
    bad("welcome/user-string",
        R"({"type":"welcome","user":"a","heartbeat_ms":1,)"_ba + limits + "}"_ba, u"'user'"_s);
    bad("welcome/user-bad-id",
        R"({"type":"welcome","user":{"id":"","name":"A"},"heartbeat_ms":1,)"_ba + limits + "}"_ba,
        u"'id'"_s);
    bad("welcome/user-no-name",
        R"({"type":"welcome","user":{"id":"a"},"heartbeat_ms":1,)"_ba + limits + "}"_ba,
        u"'name'"_s);
    bad("welcome/heartbeat-zero",
        R"({"type":"welcome",)"_ba + user + R"(,"heartbeat_ms":0,)"_ba + limits + "}"_ba,
        u"'heartbeat_ms'"_s);
    bad("welcome/no-heartbeat", R"({"type":"welcome",)"_ba + user + ","_ba + limits + "}"_ba,
        u"'heartbeat_ms'"_s);

    bad("friends/items-not-objects", R"({"type":"friends","offset":0,"total":1,"items":["a"]})"_ba,
        u"friends.items"_s);
    bad("friends/no-items", R"({"type":"friends","offset":0,"total":1})"_ba, u"'items'"_s);
    bad("friends/item-bad-id",
        R"({"type":"friends","offset":0,"total":1,"items":[{"id":"a/b","name":""}]})"_ba,
        u"'id'"_s);
    bad("friends/no-total", R"({"type":"friends","offset":0,"items":[]})"_ba, u"'total'"_s);
    bad("friends/offset-negative", R"({"type":"friends","offset":-1,"total":0,"items":[]})"_ba,
        u"'offset'"_s);

    bad("snapshot/users-not-objects", R"({"type":"snapshot","users":["alice"]})"_ba, u"'users'"_s);
    bad("snapshot/users-numbers", R"({"type":"snapshot","users":[1,2]})"_ba, u"'users'"_s);
    bad("snapshot/users-missing", R"({"type":"snapshot","denied":[]})"_ba, u"'users'"_s);
    bad("snapshot/users-not-array", R"({"type":"snapshot","users":{"id":"a"}})"_ba, u"'users'"_s);
    bad("snapshot/user-bad-status",
        R"({"type":"snapshot","users":[{"id":"a","status":"busy","seq":1}]})"_ba, u"'status'"_s);
    bad("snapshot/second-user-bad-seq",
        R"({"type":"snapshot","users":[{"id":"a","status":"away","seq":1},{"id":"b","status":"away","seq":-1}]})"_ba,
        u"'seq'"_s);
    bad("snapshot/denied-number", R"({"type":"snapshot","users":[],"denied":[1]})"_ba,
        u"'denied'"_s);
    bad("snapshot/denied-bad-id", R"({"type":"snapshot","users":[],"denied":["é"]})"_ba,
        u"'denied'"_s);

    bad("error/no-code", R"({"type":"error","message":"m"})"_ba, u"'code'"_s);
    bad("error/code-number", R"({"type":"error","code":3})"_ba, u"'code'"_s);
    bad("error/code-empty", R"({"type":"error","code":""})"_ba, u"'code'"_s);
    bad("error/message-number", R"({"type":"error","code":"forbidden","message":1})"_ba,
        u"'message'"_s);
}

void TestProtocol::serverRejections()
{
    QFETCH(QByteArray, frame);
    QFETCH(ErrorCode, code);
    QFETCH(QString, mention);

    const Decoded<ServerMessage> decoded = decodeServerFrame(frame);
    QVERIFY2(!decoded.ok(), outcome(decoded).constData());
    const ProtocolError &error = decoded.error();
    QCOMPARE(describe(error.code), describe(code));
    QVERIFY(!error.message.isEmpty());
    QVERIFY2(error.message.contains(mention), qPrintable(error.message));
    QVERIFY(!error.ref.has_value());
}

void TestProtocol::serverErrorCarriesRef()
{
    const Decoded<ServerMessage> bad = decodeServerFrame(
        R"({"type":"presence","id":"a","status":"busy","seq":1,"ref":"p-1"})"_ba);
    QVERIFY(!bad.ok());
    QCOMPARE(describe(bad.error().code), describe(ErrorCode::BadRequest));
    QVERIFY(bad.error().ref.has_value());
    QCOMPARE(*bad.error().ref, u"p-1"_s);

    const Decoded<ServerMessage> unknown = decodeServerFrame(R"({"type":"typing","ref":"p-2"})"_ba);
    QVERIFY(!unknown.ok());
    QCOMPARE(describe(unknown.error().code), describe(ErrorCode::UnknownType));
    QVERIFY(unknown.error().ref.has_value());
    QCOMPARE(*unknown.error().ref, u"p-2"_s);
}

void TestProtocol::serverUnknownErrorCode()
{
    const Decoded<ServerMessage> decoded = decodeServerFrame(
        R"({"type":"error","code":"quota_exceeded","message":"slow down","ref":"q"})"_ba);
    QVERIFY2(decoded.ok(), outcome(decoded).constData());
    QVERIFY(std::holds_alternative<ErrorMessage>(decoded.value()));
    const ErrorMessage &error = std::get<ErrorMessage>(decoded.value());
    QCOMPARE(describe(error.code), describe(ErrorCode::Unknown));
    QCOMPARE(error.codeText, u"quota_exceeded"_s);
    QCOMPARE(error.message, u"slow down"_s);

    // Passing it on keeps the code as it was sent.
    QCOMPARE(toJson(error).value("code"_L1).toString(), u"quota_exceeded"_s);
}

// ---- error codes and statuses --------------------------------------------------------------

void TestProtocol::errorJsonShape()
{
    const QJsonObject expected { { "type"_L1, "error"_L1 }, { "code"_L1, "too_many_ids"_L1 },
        { "message"_L1, "x"_L1 } };
    QCOMPARE(errorJson(ProtocolError { ErrorCode::TooManyIds, u"x"_s }), expected);
}

void TestProtocol::errorJsonThroughTheWire()
{
    const ProtocolError error { ErrorCode::Unauthorized, u"bad token"_s, u"r-9"_s };
    const Decoded<Envelope> envelope = parseFrame(serializeFrame(errorJson(error), error.ref));
    QVERIFY2(envelope.ok(), outcome(envelope).constData());
    QCOMPARE(envelope.value().ref, error.ref);

    const Decoded<ServerMessage> decoded = decodeServerMessage(envelope.value());
    QVERIFY2(decoded.ok(), outcome(decoded).constData());
    QCOMPARE(decoded.value(),
        ServerMessage(ErrorMessage { ErrorCode::Unauthorized, u"unauthorized"_s, u"bad token"_s }));
}

void TestProtocol::errorCodeNames_data()
{
    QTest::addColumn<ErrorCode>("code");
    QTest::addColumn<QString>("name");

    QTest::addRow("bad_request") << ErrorCode::BadRequest << u"bad_request"_s;
    QTest::addRow("unknown_type") << ErrorCode::UnknownType << u"unknown_type"_s;
    QTest::addRow("unauthorized") << ErrorCode::Unauthorized << u"unauthorized"_s;
    QTest::addRow("unsupported_protocol")
        << ErrorCode::UnsupportedProtocol << u"unsupported_protocol"_s;
    QTest::addRow("forbidden") << ErrorCode::Forbidden << u"forbidden"_s;
    QTest::addRow("too_many_ids") << ErrorCode::TooManyIds << u"too_many_ids"_s;
    QTest::addRow("too_many_subscriptions")
        << ErrorCode::TooManySubscriptions << u"too_many_subscriptions"_s;
    QTest::addRow("rate_limited") << ErrorCode::RateLimited << u"rate_limited"_s;
    QTest::addRow("too_large") << ErrorCode::TooLarge << u"too_large"_s;
    QTest::addRow("unavailable") << ErrorCode::Unavailable << u"unavailable"_s;
    QTest::addRow("unknown") << ErrorCode::Unknown << u"unknown"_s;
}

void TestProtocol::errorCodeNames()
{
    QFETCH(ErrorCode, code);
    QFETCH(QString, name);

    QCOMPARE(toString(code), name);
    QCOMPARE(int(errorCodeFromString(name)), int(code));
    QCOMPARE(int(errorCodeFromString(toString(code))), int(code));
    QCOMPARE(errorJson(ProtocolError { code, u"m"_s }).value("code"_L1).toString(), name);
}

void TestProtocol::unknownErrorCodeNames_data()
{
    QTest::addColumn<QString>("name");

    QTest::addRow("empty") << QString();
    QTest::addRow("uppercase") << u"BAD_REQUEST"_s;
    QTest::addRow("trailing-space") << u"bad_request "_s;
    QTest::addRow("prefix") << u"bad_"_s;
    QTest::addRow("new-code") << u"quota_exceeded"_s;
}

void TestProtocol::unknownErrorCodeNames()
{
    QFETCH(QString, name);
    QCOMPARE(int(errorCodeFromString(name)), int(ErrorCode::Unknown));
}

void TestProtocol::presenceStatusNames_data()
{
    QTest::addColumn<PresenceStatus>("status");
    QTest::addColumn<QString>("name");

    QTest::addRow("online") << PresenceStatus::Online << u"online"_s;
    QTest::addRow("away") << PresenceStatus::Away << u"away"_s;
    QTest::addRow("offline") << PresenceStatus::Offline << u"offline"_s;
}

void TestProtocol::presenceStatusNames()
{
    QFETCH(PresenceStatus, status);
    QFETCH(QString, name);

    QCOMPARE(toString(status), name);
    const auto parsed = presenceStatusFromString(name);
    QVERIFY(parsed.has_value());
    QCOMPARE(int(*parsed), int(status));
}

void TestProtocol::chosenStatusNames_data()
{
    QTest::addColumn<ChosenStatus>("status");
    QTest::addColumn<QString>("name");

    QTest::addRow("online") << ChosenStatus::Online << u"online"_s;
    QTest::addRow("away") << ChosenStatus::Away << u"away"_s;
    QTest::addRow("invisible") << ChosenStatus::Invisible << u"invisible"_s;
}

void TestProtocol::chosenStatusNames()
{
    QFETCH(ChosenStatus, status);
    QFETCH(QString, name);

    QCOMPARE(toString(status), name);
    const auto parsed = chosenStatusFromString(name);
    QVERIFY(parsed.has_value());
    QCOMPARE(int(*parsed), int(status));
}

void TestProtocol::statusNamesRejectOthers()
{
    // Invisible is never shown to others; offline is never chosen.
    QVERIFY(!presenceStatusFromString(u"invisible").has_value());
    QVERIFY(!chosenStatusFromString(u"offline").has_value());
    for (const QStringView text : { u"", u"Online", u"busy", u"online ", u"AWAY" }) {
        QVERIFY2(!presenceStatusFromString(text).has_value(), qPrintable(text.toString()));
        QVERIFY2(!chosenStatusFromString(text).has_value(), qPrintable(text.toString()));
    }
}

void TestProtocol::availabilityOrder()
{
    QVERIFY(availability(PresenceStatus::Offline) < availability(PresenceStatus::Away));
    QVERIFY(availability(PresenceStatus::Away) < availability(PresenceStatus::Online));
}

QTEST_GUILESS_MAIN(TestProtocol)

#include "tst_protocol.moc"
