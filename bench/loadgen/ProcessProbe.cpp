#include "bench/loadgen/ProcessProbe.h"

// C++
#include <fstream>
#include <sstream>
#include <string>
// System
#include <sys/resource.h>
#include <unistd.h>

namespace LoadGen {

std::optional<long> ProcessProbe::residentKiB() const
{
    if (m_pid <= 0)
        return std::nullopt;
    std::ifstream status("/proc/" + std::to_string(m_pid) + "/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0)
            return std::stol(line.substr(6));
    }
    return std::nullopt;
}

std::optional<double> ProcessProbe::cpuSeconds() const
{
    if (m_pid <= 0)
        return std::nullopt;
    std::ifstream stat("/proc/" + std::to_string(m_pid) + "/stat");
    std::string text;
    if (!std::getline(stat, text))
        return std::nullopt;
    // The command name (field 2) may hold spaces: count the fields after its closing ')'.
    const auto close = text.rfind(')');
    if (close == std::string::npos)
        return std::nullopt;
    std::istringstream fields(text.substr(close + 2));
    std::string field;
    unsigned long long utime = 0;
    unsigned long long stime = 0;
    // Fields 3.. follow; utime and stime are fields 14 and 15.
    for (int number = 3; number <= 15 && fields >> field; ++number) {
        if (number == 14)
            utime = std::stoull(field);
        if (number == 15)
            stime = std::stoull(field);
    }
    return double(utime + stime) / double(sysconf(_SC_CLK_TCK));
}

double ProcessProbe::ownCpuSeconds()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    const auto seconds
        = [](const timeval &time) { return double(time.tv_sec) + double(time.tv_usec) / 1e6; };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

} // namespace LoadGen
