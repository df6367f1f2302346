#pragma once

// What the command line asks for; the defaults are those of docs/benchmarks.md.

// C++
#include <chrono>

// Presence
#include "bench/GatewayBenchOptions.h"

namespace PushPollingBench {

enum class Mode { Polling, Push, Baseline };

// Clients, users, friends, window, warm-up, seed and gateway binary: GatewayBenchOptions.
struct Options : BenchSupport::GatewayBenchOptions {
    int watch = 50;
    std::chrono::milliseconds poll { 5000 };
    std::chrono::milliseconds heartbeat { 15000 };
    std::chrono::milliseconds heartbeatTtl { 35000 };
    double changesPerSecond = 20;
    int baselineSeconds = 20;
    bool polling = true;
    bool push = true;
    bool sameAddress = false;
};

} // namespace PushPollingBench
