#pragma once

#include "protocol/Decoded.h"
#include "protocol/Frame.h"
#include "protocol/Identifiers.h"
#include "protocol/PresenceStatus.h"

#include <QJsonObject>
#include <QStringList>
#include <optional>
#include <variant>

namespace Presence::Protocol {

inline constexpr int kDefaultFriendsLimit = 500;
inline constexpr int kMaxFriendsLimit = 1000;

// Frames a client sends to the gateway. Unknown fields are ignored (forward compatibility).

struct Hello {
    QString token;
    int protocol = kProtocolVersion;
    QString client; // "name/version", informational
    std::optional<ChosenStatus>
        status; // initial status, so a reconnect while invisible never shows
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

struct PingRequest { };

using ClientMessage = std::variant<Hello, FriendsRequest, SubscribeRequest, UnsubscribeRequest,
    SetStatusRequest, PingRequest>;

[[nodiscard]] QJsonObject toJson(const Hello &message);
[[nodiscard]] QJsonObject toJson(const FriendsRequest &message);
[[nodiscard]] QJsonObject toJson(const SubscribeRequest &message);
[[nodiscard]] QJsonObject toJson(const UnsubscribeRequest &message);
[[nodiscard]] QJsonObject toJson(const SetStatusRequest &message);
[[nodiscard]] QJsonObject toJson(const PingRequest &message);
[[nodiscard]] QJsonObject toJson(const ClientMessage &message);

// Decodes a client frame by its type: unknown_type for a type this protocol does not define,
// bad_request for a missing or wrongly typed field. Errors carry the envelope's ref.
[[nodiscard]] Decoded<ClientMessage> decodeClientMessage(const Envelope &envelope);

} // namespace Presence::Protocol
