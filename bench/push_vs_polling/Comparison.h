#pragma once

// Presence
#include "bench/push_vs_polling/ModeResult.h"

namespace PushPollingBench {

// The table: polling and push side by side, "-" for a mode that did not run.
void printComparison(const ModeResult *polling, const ModeResult *push, const ModeResult *baseline);

// The `headline:` lines tools/bench.sh compares, when both modes ran: what polling costs the
// gateway and the wire against push, in the same sitting, and how late a push arrives.
void printHeadlines(const ModeResult *polling, const ModeResult *push);

} // namespace PushPollingBench
