#pragma once

// C++
#include <optional>

// Presence
#include "bench/push_vs_polling/Options.h"

class QCoreApplication;

namespace PushPollingBench {

// The options of the command line (--help prints them and exits); nullopt when --mode is not
// one the benchmark knows (the message is on stderr).
std::optional<Options> parseCommandLine(QCoreApplication &app);

} // namespace PushPollingBench
