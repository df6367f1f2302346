#pragma once

// C++
#include <vector>

// Presence
#include "bench/availability_cost/Options.h"
#include "bench/availability_cost/RunResult.h"

namespace AvailabilityCostBench {

// The table: A and B side by side, medians of their runs with the range, B/A and its range
// over the run pairs; the baseline's CPU under the gateway's rows when it ran.
void printTable(const Options &options, const std::vector<RunResult> &a,
    const std::vector<RunResult> &b, const std::vector<RunResult> &baseline);

// The `headline:` lines tools/bench.sh compares: what B costs against A in the same sitting,
// in bytes received and in the gateway's CPU (ratios of the medians).
void printHeadlines(const std::vector<RunResult> &a, const std::vector<RunResult> &b);

} // namespace AvailabilityCostBench
