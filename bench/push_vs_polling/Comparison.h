#pragma once

// Presence
#include "bench/push_vs_polling/ModeResult.h"

namespace PushPollingBench {

// The table: polling and push side by side, "-" for a mode that did not run.
void printComparison(const ModeResult *polling, const ModeResult *push, const ModeResult *baseline);

} // namespace PushPollingBench
