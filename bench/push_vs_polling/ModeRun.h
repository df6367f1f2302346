#pragma once

// C++
#include <optional>

// Presence
#include "bench/push_vs_polling/ModeResult.h"
#include "bench/push_vs_polling/Options.h"
#include "bench/push_vs_polling/Plan.h"

namespace PushPollingBench {

// Runs one mode against a fresh gateway. The first run loads the population and makes the
// plan; later runs check that they got the same population.
std::optional<ModeResult> runMode(Mode mode, const Options &options,
    std::optional<Population> &population, std::optional<Plan> &plan);

} // namespace PushPollingBench
