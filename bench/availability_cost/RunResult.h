#pragma once

// C++
#include <array>

// Presence
#include "bench/availability_cost/Options.h"
#include "bench/availability_cost/Traffic.h"

namespace AvailabilityCostBench {

// What one run measured; traffic per client and per minute of the window.
struct RunResult {
    Mode mode = Mode::Rows;
    int clients = 0;
    double windowSeconds = 0;
    std::array<double, kKinds> frames {};
    std::array<double, kKinds> bytes {};
    std::array<double, kKinds> ids {};
    double kernelBytesIn = 0;
    double gatewayCpuPercent = 0;
    double gatewayRssMiB = -1;
    double benchCpuPercent = 0;
    double loadBefore = 0;
    double loadAfter = 0;
    double publishedPerSecond = -1; // the whole population's, from /metrics
    std::array<double, kKinds> gatewayFramesOut {}; // per client per minute, from /metrics
    double snapshotBytes = 0; // per client, once
    double availabilityBytes = 0; // per client, once
    double setupSeconds = 0;
    bool ok = true;

    [[nodiscard]] static double sum(const std::array<double, kKinds> &values)
    {
        double total = 0;
        for (const double value : values)
            total += value;
        return total;
    }
};

} // namespace AvailabilityCostBench
