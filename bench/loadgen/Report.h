#pragma once

// C++
#include <iosfwd>
#include <string>

namespace LoadGen {

struct LoadOptions;
struct RunResult;

// Writes a run's result: a summary for people, then one line of JSON for scripts
// (bench/gateway-vs-peer.sh), its keys named with their units.
class Report {
public:
    static void writeText(std::ostream &out, const LoadOptions &options, const RunResult &result);
    [[nodiscard]] static std::string json(const LoadOptions &options, const RunResult &result);
};

} // namespace LoadGen
