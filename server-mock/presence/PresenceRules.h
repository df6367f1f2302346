#pragma once

// Presence
#include "protocol/PresenceStatus.h"

namespace Presence::Server {

// The presence rules shared by every store: how devices add up to one status, and
// when a change of that status is published. Pure functions, so both the in-memory
// and the Redis store follow exactly the same semantics.

struct DeviceTally {
    int online = 0;
    int away = 0;
    int invisible = 0;

    [[nodiscard]] bool visible() const { return online + away > 0; }
    void add(Protocol::ChosenStatus status, int delta);
};

// online if any visible device is online, away if every visible one is away, else offline.
// Invisible devices count as absent.
[[nodiscard]] Protocol::PresenceStatus aggregate(const DeviceTally &tally);

enum class ChangeCause { StatusChosen, DeviceJoined, DeviceLeft, GraceExpired };
enum class Publication { Nothing, Now, AfterGrace };

// Going more available is published at once. Going offline waits for the grace, whatever
// the cause (so going invisible looks exactly like leaving), and so does online -> away
// when a device left (a phone dropping while a laptop sits idle must not flap).
// An expired grace publishes whatever the devices say by then.
// The cause a chosen status counts as: going invisible must look exactly like leaving,
// down to the timing.
[[nodiscard]] ChangeCause causeOfStatusChange(Protocol::ChosenStatus chosen);

[[nodiscard]] Publication decide(
    Protocol::PresenceStatus published, Protocol::PresenceStatus current, ChangeCause cause);

} // namespace Presence::Server
