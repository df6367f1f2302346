#pragma once

// Presence
#include "bench/loadgen/RunResult.h"

namespace LoadGen {

class Population;
struct LoadOptions;

// One run against a gateway, phase after phase: every connection set up (the connect storm),
// the gateway's memory read, then the status changes at the rate for the time asked, the last
// pushes waited for, and everything tallied. Blocks until done.
class LoadRun {
public:
    LoadRun(const LoadOptions &options, const Population &population);

    [[nodiscard]] RunResult run();

private:
    const LoadOptions &m_options;
    const Population &m_population;
};

} // namespace LoadGen
