#pragma once

// What the command line asks for; the defaults are those of docs/benchmarks.md.

// Presence
#include "bench/GatewayBenchOptions.h"

namespace AvailabilityCostBench {

// A: rows only; B: rows + availability; baseline: the gateway and its churn, no client.
enum class Mode { Rows, RowsAndAvailability, Baseline };

inline const char *modeName(Mode mode)
{
    switch (mode) {
    case Mode::Rows:
        return "A rows only";
    case Mode::RowsAndAvailability:
        return "B rows + availability";
    case Mode::Baseline:
        return "baseline (no client)";
    }
    return "?";
}

// Clients, users, friends, window, warm-up, seed and gateway binary: GatewayBenchOptions.
struct Options : BenchSupport::GatewayBenchOptions {
    Options() { seconds = 20; }

    int rows = 30;
    double churn = 20;
    int intervalMs = 1000;
    int runs = 3;
    bool baseline = false;
};

} // namespace AvailabilityCostBench
