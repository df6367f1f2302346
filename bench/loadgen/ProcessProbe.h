#pragma once

// C++
#include <optional>

namespace LoadGen {

// Reads what a process costs from /proc: its resident memory (VmRSS of /proc/PID/status) and
// its CPU time (utime + stime of /proc/PID/stat, all threads). A pid of 0 reads nothing.
class ProcessProbe {
public:
    explicit ProcessProbe(int pid)
        : m_pid(pid)
    {
    }

    [[nodiscard]] std::optional<long> residentKiB() const;
    [[nodiscard]] std::optional<double> cpuSeconds() const;
    // This process's own CPU time (user + system), in seconds.
    [[nodiscard]] static double ownCpuSeconds();

private:
    int m_pid;
};

} // namespace LoadGen
