#pragma once

// C++
#include <optional>
#include <variant>

// Qt
#include <QJsonObject>
#include <QStringList>

// Presence
#include "protocol/Decoded.h"
#include "protocol/Frame.h"
#include "protocol/Identifiers.h"
#include "protocol/PresenceStatus.h"

namespace Presence::Protocol {

inline constexpr int kDefaultFriendsLimit = 500;
inline constexpr int kMaxFriendsLimit = 1000;
inline constexpr qsizetype kMaxMessageTextLength = 4000; // characters (UTF-16 code units)
inline constexpr int kDefaultHistoryLimit = 50;
inline constexpr int kMaxHistoryLimit = 200;
inline constexpr int kDefaultConversationsLimit = 50;
inline constexpr int kMaxConversationsLimit = 200;
// The window a client may choose for batched presence (Hello::presenceBatchMs), in ms.
inline constexpr int kMinPresenceBatchMs = 10;
inline constexpr int kMaxPresenceBatchMs = 1000;

// Frames a client sends to the gateway. Unknown fields are ignored (forward compatibility).

struct Hello {
    QString token;
    int protocol = kProtocolVersion;
    QString client; // "name/version", informational
    std::optional<ChosenStatus>
        status; // initial status, so a reconnect while invisible never shows
    // Asks for the availability set's changes as presence_batch frames, at most one per this
    // many ms, instead of availability_changed; unset: the gateway's interval and frames.
    std::optional<int> presenceBatchMs;
};

struct FriendsRequest {
    int offset = 0;
    int limit = kDefaultFriendsLimit;
};

struct SubscribeRequest {
    QStringList ids;
};

struct UnsubscribeRequest {
    QStringList ids;
};

struct SetStatusRequest {
    ChosenStatus status = ChosenStatus::Online;
};

// A chat message to a friend. The decoder refuses text over kMaxMessageTextLength characters
// or blank; the text is kept as sent: the gateway trims it before storing it.
struct SendMessageRequest {
    QString to;
    QString text;
};

// A page of the conversation with a friend, oldest first: the `limit` messages before the
// message `before`, or the latest ones without it.
struct HistoryRequest {
    QString with;
    std::optional<QString> before; // a message id
    int limit = kDefaultHistoryLimit;
};

// The signed-in user's conversations that hold at least one message, newest activity first:
// at most `limit` of them. Answered with `conversations`.
struct ConversationsRequest {
    int limit = kDefaultConversationsLimit;
};

// The user has read the conversation with `with` up to the message `upTo` (inclusive). The
// marker only moves forward; answered with `ok`, then a `read_marker` push to every connection
// of the user when it moved.
struct ReadRequest {
    QString with;
    QString upTo; // a message id
};

struct PingRequest { };

// Coarse presence of every friend (up to the gateway's cap): which of them are available
// (online or away) now, then what changes, coalesced. Answered with `availability`.
struct WatchAvailabilityRequest { };

// Stops the availability pushes of watch_availability; answered with `ok`.
struct UnwatchAvailabilityRequest { };

// A new token for the signed-in user, before the one the connection signed in with expires
// (token_expiring); answered with `ok`, or `unauthorized` with the old token still in force.
struct RefreshRequest {
    QString token;
};

using ClientMessage = std::variant<Hello, FriendsRequest, SubscribeRequest, UnsubscribeRequest,
    SetStatusRequest, SendMessageRequest, HistoryRequest, PingRequest, WatchAvailabilityRequest,
    UnwatchAvailabilityRequest, ConversationsRequest, ReadRequest, RefreshRequest>;

[[nodiscard]] QJsonObject toJson(const Hello &message);
[[nodiscard]] QJsonObject toJson(const FriendsRequest &message);
[[nodiscard]] QJsonObject toJson(const SubscribeRequest &message);
[[nodiscard]] QJsonObject toJson(const UnsubscribeRequest &message);
[[nodiscard]] QJsonObject toJson(const SetStatusRequest &message);
[[nodiscard]] QJsonObject toJson(const SendMessageRequest &message);
[[nodiscard]] QJsonObject toJson(const HistoryRequest &message);
[[nodiscard]] QJsonObject toJson(const ConversationsRequest &message);
[[nodiscard]] QJsonObject toJson(const ReadRequest &message);
[[nodiscard]] QJsonObject toJson(const PingRequest &message);
[[nodiscard]] QJsonObject toJson(const WatchAvailabilityRequest &message);
[[nodiscard]] QJsonObject toJson(const UnwatchAvailabilityRequest &message);
[[nodiscard]] QJsonObject toJson(const RefreshRequest &message);
[[nodiscard]] QJsonObject toJson(const ClientMessage &message);

// A chat request (message, history, conversations, read): what a gateway without chat answers
// with unknownTypeError, as for any type it does not know.
[[nodiscard]] bool isChatRequest(const ClientMessage &message);
// The unknown_type error for a frame of `type`, as the decoder gives it.
[[nodiscard]] ProtocolError unknownTypeError(QStringView type, std::optional<QString> ref = {});

// Decodes a client frame by its type: unknown_type for a type this protocol does not define,
// bad_request for a missing or wrongly typed field. Errors carry the envelope's ref.
[[nodiscard]] Decoded<ClientMessage> decodeClientMessage(const Envelope &envelope);
// parseFrame and decodeClientMessage in one, for callers that do not need the envelope.
[[nodiscard]] Decoded<ClientMessage> decodeClientFrame(const QByteArray &utf8);

} // namespace Presence::Protocol
