#pragma once

// C++
#include <array>
#include <cstddef>
#include <optional>

// Qt
#include <QString>

// Presence
#include "protocol/NameTable.h"

namespace Presence::Protocol {

// What other users see of someone.
enum class PresenceStatus { Online, Away, Offline };

// What a connection says about itself with set_status (or hello).
enum class ChosenStatus { Online, Away, Invisible };

// Their wire names, in the order error messages list them.
inline constexpr auto kPresenceStatusNames = nameTable<PresenceStatus>({
    { PresenceStatus::Online, u"online" },
    { PresenceStatus::Away, u"away" },
    { PresenceStatus::Offline, u"offline" },
});
inline constexpr auto kChosenStatusNames = nameTable<ChosenStatus>({
    { ChosenStatus::Online, u"online" },
    { ChosenStatus::Away, u"away" },
    { ChosenStatus::Invisible, u"invisible" },
});

[[nodiscard]] QString toString(PresenceStatus status);
[[nodiscard]] QString toString(ChosenStatus status);
[[nodiscard]] std::optional<PresenceStatus> presenceStatusFromString(QStringView text);
[[nodiscard]] std::optional<ChosenStatus> chosenStatusFromString(QStringView text);

// The availability order, least available first: the one place that says offline < away <
// online. availability() reads it; the Redis store's Lua gets its RANK table generated from it
// (server-mock/redis/RedisScripts.cpp).
inline constexpr std::array kAvailabilityOrder {
    PresenceStatus::Offline,
    PresenceStatus::Away,
    PresenceStatus::Online,
};

// Higher is "more available": the status's place in kAvailabilityOrder.
[[nodiscard]] constexpr int availability(PresenceStatus status)
{
    for (std::size_t rank = 0; rank < kAvailabilityOrder.size(); ++rank) {
        if (kAvailabilityOrder[rank] == status)
            return int(rank);
    }
    return 0;
}

} // namespace Presence::Protocol
