#pragma once

// Presence
#include "bench/availability_cost/Options.h"

class QCoreApplication;

namespace AvailabilityCostBench {

// The options of the command line. --help prints them and exits; a value out of its range
// ends the benchmark with exit code 2 and a line naming the option.
Options parseCommandLine(QCoreApplication &app);

} // namespace AvailabilityCostBench
