#pragma once

// Qt
#include <QByteArray>

// Presence
#include "server-mock/presence/PresenceRules.h"
#include "server-mock/redis/client/RedisScript.h"

namespace Presence::Server {

// The Lua scripts behind the Redis store (docs/redis.md). Each runs atomically in Redis, so
// several gateways changing one user's devices at once cannot interleave, and all of them
// take the time from Redis (TIME), one clock for every gateway.
//
// Every script takes the key prefix as ARGV[1] and builds the keys of the users it touches
// from it; it declares no KEYS (one Redis, not a cluster).
class RedisScripts {
public:
    // ARGV: prefix, user, member, status ("online" | "away" | "invisible" | "" when it
    // closed), cause (deviceCause()), ttl_ms, grace_ms.
    // Records the device and publishes or arms the grace as PresenceRules say.
    // Returns ms until the user's next due time (expiry or grace), or -1.
    [[nodiscard]] static const RedisScript &device();
    // The cause of a device change as device() takes it in ARGV ("joined", "status" or
    // "left"). GraceExpired is the sweep's own and never written by a device change.
    [[nodiscard]] static QByteArray deviceCause(ChangeCause cause);
    // ARGV: prefix, ttl_ms, then user and member pairs. Pushes each device's expiry to
    // now + ttl. Returns the pairs Redis no longer holds (flat: user, member, ...), which the
    // gateway writes again.
    [[nodiscard]] static const RedisScript &refresh();
    // ARGV: prefix, grace_ms, limit. Settles up to `limit` users whose devices expired or
    // whose grace ended. Returns { settled, ms until the next due time or -1 }.
    [[nodiscard]] static const RedisScript &sweep();
    // ARGV: prefix, from, to, text, capacity, epoch (used when Redis holds none yet), origin
    // (the gateway's instance id), then the two user ids in the order the gateway sorts them
    // (the conversation's key). Stores the message, trims the conversation to `capacity` and
    // publishes "<origin>\n<frame>" on both users' message channels. Returns the `message`
    // frame it stored (JSON), with the id and ts it gave. Also moves the conversation to the
    // top of both users' conversation lists (convs:).
    [[nodiscard]] static const RedisScript &chatAppend();
    // ARGV: prefix, user, with, up_to, then the two user ids as the gateway sorts them. Moves
    // user's read marker of the conversation forward to up_to and publishes a `read_marker`
    // frame on user's message channel. Returns 0 (up_to not held), 1 (unchanged), 2 (moved).
    [[nodiscard]] static const RedisScript &chatRead();
    // ARGV: prefix, user, then pairs (other user, conversation key). Returns, flat, for each
    // pair: the newest message frame or nil, user's marker or nil, the unread count.
    [[nodiscard]] static const RedisScript &chatSummaries();
};

} // namespace Presence::Server
