#include "server-mock/presence/PresenceRules.h"

namespace Presence::Server {

using Protocol::ChosenStatus;
using Protocol::PresenceStatus;

void DeviceTally::add(ChosenStatus status, int delta)
{
    switch (status) {
    case ChosenStatus::Online:
        online += delta;
        break;
    case ChosenStatus::Away:
        away += delta;
        break;
    case ChosenStatus::Invisible:
        invisible += delta;
        break;
    }
}

PresenceStatus aggregate(const DeviceTally &tally)
{
    if (tally.online > 0)
        return PresenceStatus::Online;
    if (tally.away > 0)
        return PresenceStatus::Away;
    return PresenceStatus::Offline;
}

ChangeCause causeOfStatusChange(ChosenStatus chosen)
{
    return chosen == ChosenStatus::Invisible ? ChangeCause::DeviceLeft : ChangeCause::StatusChosen;
}

Publication decide(PresenceStatus published, PresenceStatus current, ChangeCause cause)
{
    if (current == published)
        return Publication::Nothing;
    if (cause == ChangeCause::GraceExpired)
        return Publication::Now;
    if (Protocol::availability(current) > Protocol::availability(published))
        return Publication::Now;
    if (current == PresenceStatus::Offline || cause == ChangeCause::DeviceLeft)
        return Publication::AfterGrace;
    return Publication::Now;
}

} // namespace Presence::Server
