#pragma once

// C++
#include <optional>
#include <variant>

// Qt
#include <QJsonObject>
#include <QList>
#include <QStringList>

// Presence
#include "protocol/Decoded.h"
#include "protocol/ErrorCode.h"
#include "protocol/Frame.h"
#include "protocol/PresenceStatus.h"
#include "protocol/UserPresence.h"

namespace Presence::Protocol {

// Frames the gateway sends. Clients ignore fields they do not know.

struct UserInfo {
    QString id;
    QString name;
    friend bool operator==(const UserInfo &, const UserInfo &) = default;
};

struct Limits {
    int maxFrameBytes = 65536;
    int maxSubscriptions = 2000;
    int maxIdsPerRequest = 500;
    int maxFramesPerSecond = 50; // sustained rate of text frames
    int frameBurst = 100; // frames allowed at once above the sustained rate
    // watch_availability covers at most this many friends (the first ones, in friends order),
    // and sends their changes at most once per availabilityIntervalMs. 0: not offered (a
    // gateway that predates it sends neither field).
    int maxAvailabilityFriends = 0;
    int availabilityIntervalMs = 1000;
    friend bool operator==(const Limits &, const Limits &) = default;
};

struct Welcome {
    UserInfo user;
    int heartbeatMs = 25000;
    Limits limits;
    // The batch window asked for in hello, when the gateway granted it: the availability set
    // then changes through presence_batch. Absent: availability_changed, as before.
    std::optional<int> presenceBatchMs;
    friend bool operator==(const Welcome &, const Welcome &) = default;
};

struct FriendsPage {
    int offset = 0;
    int total = 0;
    QList<UserInfo> items;
    friend bool operator==(const FriendsPage &, const FriendsPage &) = default;
};

struct Snapshot {
    QList<UserPresence> users;
    QStringList denied;
    friend bool operator==(const Snapshot &, const Snapshot &) = default;
};

struct PresenceEvent {
    UserPresence presence;
    friend bool operator==(const PresenceEvent &, const PresenceEvent &) = default;
};

// The answer to watch_availability, and a reset of it (without ref): which of the first
// `covered` friends (of `total`, in friends order) are available now. Every other covered
// friend is offline; friends past `covered` are not covered at all.
struct Availability {
    QStringList online;
    QStringList away;
    int covered = 0;
    int total = 0;
    friend bool operator==(const Availability &, const Availability &) = default;
};

// Covered friends whose availability changed since the connection was last told, each at
// most once, with what it is now.
struct AvailabilityChanged {
    QStringList online;
    QStringList away;
    QStringList offline;
    friend bool operator==(const AvailabilityChanged &, const AvailabilityChanged &) = default;
};

// The availability set's changes for a connection that asked for batches in hello: each
// covered friend whose presence was published since the last batch, once, with its latest
// presence, in the order those latest changes were published.
struct PresenceBatch {
    QList<UserPresence> updates;
    friend bool operator==(const PresenceBatch &, const PresenceBatch &) = default;
};

// Every digest interval: what the gateway believes this connection holds (Digest.h). A
// client whose own digest differs asks again (subscribe, watch_availability).
struct Digest {
    QString watched;
    std::optional<QString> availability; // only while the connection watches availability
    friend bool operator==(const Digest &, const Digest &) = default;
};

// One chat message between two friends: the body of a `message` push and of a history entry.
struct ChatMessage {
    QString id; // opaque, unique; a valid id
    QString from;
    QString to;
    QString text;
    // ms since the epoch, when the gateway took it; never decreases within a conversation
    qint64 ts = 0;
    friend bool operator==(const ChatMessage &, const ChatMessage &) = default;
};

// A message pushed to every connection of its recipient and to the sender's other connections.
struct MessageEvent {
    ChatMessage message;
    friend bool operator==(const MessageEvent &, const MessageEvent &) = default;
};

// The answer to `history`.
struct HistoryPage {
    QString with;
    QList<ChatMessage> messages; // oldest first
    bool more = false; // older messages exist before the first one
    friend bool operator==(const HistoryPage &, const HistoryPage &) = default;
};

// One entry of the answer to `conversations`.
struct ConversationSummary {
    QString with; // the friend on the other side
    ChatMessage last; // the conversation's newest message
    std::optional<QString> read; // the user's read marker (a message id); none: nothing read yet
    int unread = 0; // messages from `with` to the user after the marker, among those still held
    friend bool operator==(const ConversationSummary &, const ConversationSummary &) = default;
};

// The answer to `conversations`: newest activity first.
struct ConversationsPage {
    QList<ConversationSummary> items;
    bool more = false; // the user has more conversations than the ones listed
    friend bool operator==(const ConversationsPage &, const ConversationsPage &) = default;
};

// The user's read marker of the conversation with `with` moved to `upTo`: pushed to every
// connection of that user (the friend is never told), the one that sent the `read` included.
struct ReadMarkerEvent {
    QString with;
    QString upTo; // a message id
    int unread = 0; // what is left unread after it, as in ConversationSummary
    friend bool operator==(const ReadMarkerEvent &, const ReadMarkerEvent &) = default;
};

struct Ok {
    // Only on the acknowledgement of a `message`: the id and time the gateway gave it.
    std::optional<QString> id;
    std::optional<qint64> ts;
    friend bool operator==(const Ok &, const Ok &) = default;
};

struct Pong {
    friend bool operator==(const Pong &, const Pong &) = default;
};

struct ErrorMessage {
    ErrorCode code = ErrorCode::BadRequest;
    QString codeText; // as sent, so an unknown code can still be shown
    QString message;
    friend bool operator==(const ErrorMessage &, const ErrorMessage &) = default;
};

// The token the connection signed in with (or last refreshed to) runs out: the gateway closes
// the connection (4004) in inMs unless a `refresh` brings a new one first.
struct TokenExpiring {
    qint64 inMs = 0;
    friend bool operator==(const TokenExpiring &, const TokenExpiring &) = default;
};

// The user's friends changed while connected (an operator or the app's backend): `added`
// became friends, `removed` no longer are. Subscriptions to the removed ones are dropped, and
// an availability watch has ended; the list is read again with `friends`.
struct FriendsChanged {
    QList<UserInfo> added;
    QStringList removed;
    int total = 0; // friends in all now
    friend bool operator==(const FriendsChanged &, const FriendsChanged &) = default;
};

using ServerMessage = std::variant<Welcome, FriendsPage, Snapshot, PresenceEvent, MessageEvent,
    HistoryPage, Ok, Pong, ErrorMessage, Availability, AvailabilityChanged, PresenceBatch, Digest,
    ConversationsPage, ReadMarkerEvent, TokenExpiring, FriendsChanged>;

[[nodiscard]] QJsonObject toJson(const Welcome &message);
[[nodiscard]] QJsonObject toJson(const FriendsPage &message);
[[nodiscard]] QJsonObject toJson(const Snapshot &message);
[[nodiscard]] QJsonObject toJson(const PresenceEvent &message);
[[nodiscard]] QJsonObject toJson(const MessageEvent &message);
[[nodiscard]] QJsonObject toJson(const HistoryPage &message);
[[nodiscard]] QJsonObject toJson(const ConversationsPage &message);
[[nodiscard]] QJsonObject toJson(const ReadMarkerEvent &message);
[[nodiscard]] QJsonObject toJson(const Ok &message);
[[nodiscard]] QJsonObject toJson(const Pong &message);
[[nodiscard]] QJsonObject toJson(const TokenExpiring &message);
[[nodiscard]] QJsonObject toJson(const FriendsChanged &message);
[[nodiscard]] QJsonObject toJson(const ErrorMessage &message);
[[nodiscard]] QJsonObject toJson(const Availability &message);
[[nodiscard]] QJsonObject toJson(const AvailabilityChanged &message);
[[nodiscard]] QJsonObject toJson(const PresenceBatch &message);
[[nodiscard]] QJsonObject toJson(const Digest &message);
[[nodiscard]] QJsonObject toJson(const ServerMessage &message);
[[nodiscard]] QJsonObject errorJson(const ProtocolError &error);

// The same bytes as serializeFrame(toJson(message), ref), written without a QJsonObject: a
// gateway sends one of each per connection it signs in, and building them was most of its
// work in a connect storm (CompactJsonWriter).
[[nodiscard]] QByteArray serializeFrame(
    const Snapshot &message, const std::optional<QString> &ref = {});
[[nodiscard]] QByteArray serializeFrame(
    const FriendsPage &message, const std::optional<QString> &ref = {});
[[nodiscard]] QByteArray serializeFrame(const PresenceBatch &message);

// Decodes a gateway frame by its type; unknown_type for types this build does not know.
[[nodiscard]] Decoded<ServerMessage> decodeServerMessage(const Envelope &envelope);
// parseFrame and decodeServerMessage in one, for callers that do not need the envelope.
[[nodiscard]] Decoded<ServerMessage> decodeServerFrame(const QByteArray &utf8);

} // namespace Presence::Protocol
