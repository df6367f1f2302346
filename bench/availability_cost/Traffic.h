#pragma once

// C++
#include <array>
#include <limits>

// Qt
#include <QString>
#include <QtGlobal>

namespace AvailabilityCostBench {

// The frames a client tells apart.
enum Kind { Presence, AvailabilityChanged, Availability, Other, kKinds };
constexpr std::array<const char *, kKinds> kKindNames { "presence", "availability_changed",
    "availability", "other" };

inline Kind kindOf(const QString &type)
{
    if (type == u"presence")
        return Presence;
    if (type == u"availability_changed")
        return AvailabilityChanged;
    if (type == u"availability")
        return Availability;
    return Other;
}

struct Traffic {
    std::array<qint64, kKinds> frames {};
    std::array<qint64, kKinds> bytes {};
    std::array<qint64, kKinds> ids {};
};

// What all clients of one run saw.
struct RunCounters {
    Traffic window;
    qint64 snapshotBytes = 0; // the subscribe's answers, before the window
    qint64 availabilityBytes = 0; // the watch_availability's answers, before the window
    qint64 ready = 0;
    qint64 errors = 0;
    qint64 disconnects = 0;
    qint64 denied = 0; // rows the gateway refused (never, for friends)
    qint64 badAvailability = 0; // an answer not covering every friend
    qint64 wrongInterval = 0; // welcome without the --availability-interval-ms asked for
    qint64 emptyChanges = 0; // availability_changed with no id
    double minGapMs = std::numeric_limits<double>::infinity(); // between two on one connection
    qint64 shortGaps = 0; // gaps under 90 % of the interval
};

} // namespace AvailabilityCostBench
