#pragma once

// C++
#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

namespace LoadGen {

class ChangeLedger;
class Population;
struct LoadOptions;

// What the connections of every worker thread share: the run's options, population and
// ledger, its clock, and the counters of the set-up. The counters are atomics; the rest is
// read-only while the workers run.
struct RunContext {
    using Clock = std::chrono::steady_clock;

    RunContext(const LoadOptions &runOptions, const Population &users, ChangeLedger &changes)
        : options(runOptions)
        , population(users)
        , ledger(changes)
    {
    }

    const LoadOptions &options;
    const Population &population;
    ChangeLedger &ledger;
    const Clock::time_point start = Clock::now();

    std::atomic<int> ready { 0 }; // connections signed in (and subscribed, unless told not to)
    std::atomic<int> failed { 0 }; // connections that could not be set up
    std::atomic<int> closed { 0 }; // connections lost after they were set up
    std::atomic<std::int64_t> lastReadyMicros { 0 };
    std::atomic<std::uint64_t> setUpPushes { 0 }; // presence pushes before the changes start
    std::atomic<std::uint64_t> errors { 0 }; // error frames and protocol violations
    std::atomic<std::uint64_t> scrolls { 0 }; // windows moved (--scroll)
    // Users from this one on are slow readers (--slow-readers): set before the workers start.
    int firstSlowReader = std::numeric_limits<int>::max();
    // The users this run signs in, [firstUser, endUser): set before the workers start. Others
    // may change too (the gateway's simulated users, another load generator): their pushes
    // are not this run's to measure.
    int firstUser = 0;
    int endUser = std::numeric_limits<int>::max();
    std::atomic<int> slowReadersDropped { 0 };
    std::atomic<bool> changing { false }; // the changes have started: pushes are measured
    std::atomic<bool> stopping { false }; // the run is over: closes are expected

    // Microseconds since the run started, on the one clock every thread uses.
    [[nodiscard]] std::int64_t nowMicros() const
    {
        return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count();
    }

    [[nodiscard]] bool isSlowReader(int user) const { return user >= firstSlowReader; }
    [[nodiscard]] bool isOwn(int user) const { return user >= firstUser && user < endUser; }
    void noteSlowReaderDropped(double secondsAfterItStoppedReading)
    {
        slowReadersDropped.fetch_add(1);
        const std::lock_guard lock(reportMutex);
        dropSeconds.push_back(secondsAfterItStoppedReading);
    }
    [[nodiscard]] std::vector<double> slowReaderDropSeconds()
    {
        const std::lock_guard lock(reportMutex);
        return dropSeconds;
    }

    // Keeps the first problem met, for the report.
    void noteError(const std::string &what)
    {
        errors.fetch_add(1);
        const std::lock_guard lock(reportMutex);
        if (firstError.empty())
            firstError = what;
    }
    [[nodiscard]] std::string firstErrorText()
    {
        const std::lock_guard lock(reportMutex);
        return firstError;
    }

private:
    std::mutex reportMutex; // guards the two below
    std::string firstError;
    std::vector<double> dropSeconds;
};

} // namespace LoadGen
