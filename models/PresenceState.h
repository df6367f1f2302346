#pragma once

// Qt
#include <QMetaType>

namespace Presence::Models {

// What the list shows of a friend. Unknown is honest: not subscribed yet, or no live
// connection to the gateway, so any colour would be a guess.
enum class PresenceState { Unknown, Offline, Away, Online };

// Sort rank: online first, then away, then offline and unknown together.
[[nodiscard]] constexpr int availabilityRank(PresenceState state)
{
    switch (state) {
    case PresenceState::Online:
        return 0;
    case PresenceState::Away:
        return 1;
    case PresenceState::Offline:
    case PresenceState::Unknown:
        return 2;
    }
    return 2;
}

} // namespace Presence::Models

Q_DECLARE_METATYPE(Presence::Models::PresenceState)
