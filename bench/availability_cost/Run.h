#pragma once

// C++
#include <optional>

// Presence
#include "bench/availability_cost/Options.h"
#include "bench/availability_cost/Plan.h"
#include "bench/availability_cost/RunResult.h"

namespace AvailabilityCostBench {

// Runs one mode (run number `run`) against a fresh gateway, and prints what it measured and
// its checks. The first run keeps the population and makes the plan; later runs check that
// they got the same population. Nothing when the run could not be measured at all (the reason
// is on stderr).
std::optional<RunResult> runOnce(Mode mode, int run, const Options &options,
    std::optional<Population> &population, std::optional<Plan> &plan);

} // namespace AvailabilityCostBench
