#pragma once

// C++
#include <optional>

// Qt
#include <QString>

// Presence
#include "protocol/PresenceStatus.h"

namespace Presence::Protocol {

// One user's published presence: the body of a `presence` push, an entry of a snapshot, and
// what a Redis store publishes on the user's channel (PresencePayload reads and writes it).
struct UserPresence {
    QString id;
    PresenceStatus status = PresenceStatus::Offline;
    qint64 seq = 0;
    std::optional<qint64> lastSeen; // ms since the epoch; only when offline and ever seen
    friend bool operator==(const UserPresence &, const UserPresence &) = default;
};

} // namespace Presence::Protocol
