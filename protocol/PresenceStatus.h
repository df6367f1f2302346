#pragma once

#include <QString>
#include <optional>

namespace Presence::Protocol {

// What other users see of someone.
enum class PresenceStatus { Online, Away, Offline };

// What a connection says about itself with set_status (or hello).
enum class ChosenStatus { Online, Away, Invisible };

[[nodiscard]] QString toString(PresenceStatus status);
[[nodiscard]] QString toString(ChosenStatus status);
[[nodiscard]] std::optional<PresenceStatus> presenceStatusFromString(QStringView text);
[[nodiscard]] std::optional<ChosenStatus> chosenStatusFromString(QStringView text);

// Higher is "more available": offline < away < online.
[[nodiscard]] constexpr int availability(PresenceStatus status)
{
    switch (status) {
    case PresenceStatus::Offline:
        return 0;
    case PresenceStatus::Away:
        return 1;
    case PresenceStatus::Online:
        return 2;
    }
    return 0;
}

} // namespace Presence::Protocol
