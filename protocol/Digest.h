#pragma once

// Qt
#include <QHash>
#include <QList>
#include <QString>

// Presence
#include "protocol/PresenceStatus.h"
#include "protocol/ServerMessages.h"

namespace Presence::Protocol {

// The short digests of a `digest` frame (docs/protocol.md §4, "Digest"): what the gateway
// believes a connection holds, so that a lost push cannot leave a dot wrong for long. Both are
// FNV-1a 64 over UTF-8 lines sorted by id, as 16 lowercase hex digits.

// Lines "id status seq\n", one per watched user.
[[nodiscard]] QString watchedDigest(QList<UserPresence> users);
// Lines "id status\n", one per covered friend who is online or away.
[[nodiscard]] QString availabilityDigest(const QHash<QString, PresenceStatus> &available);

} // namespace Presence::Protocol
