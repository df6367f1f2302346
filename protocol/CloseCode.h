#pragma once

// Qt
#include <QtGlobal>

namespace Presence::Protocol::CloseCode {

// WebSocket close codes the gateway uses; 4000-4999 are reserved for applications (RFC 6455 7.4.2).
inline constexpr quint16 Normal = 1000;
inline constexpr quint16 GoingAway = 1001; // gateway shutdown
inline constexpr quint16 TooLarge = 1009; // frame over max_frame_bytes
inline constexpr quint16 Unauthorized = 4001;
inline constexpr quint16 UnsupportedProtocol = 4002;
inline constexpr quint16 HeartbeatTimeout = 4003;
inline constexpr quint16 TokenExpired = 4004; // the token signed in with expired, not refreshed
// The user was removed, or the users-file token signed in with changed (a reload).
inline constexpr quint16 TokenRevoked = 4005;
inline constexpr quint16 HelloTimeout = 4008;
inline constexpr quint16 SlowConsumer = 4010; // over a few MiB of output the peer does not read
// Cannot sign this user in now (the friend graph in Redis is away): reconnect with backoff.
inline constexpr quint16 TryAgainLater = 4013;
inline constexpr quint16 RateLimited = 4029; // sustained abuse of the frame rate limit

} // namespace Presence::Protocol::CloseCode
