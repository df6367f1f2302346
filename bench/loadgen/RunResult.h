#pragma once

// C++
#include <cstdint>
#include <optional>
#include <string>

namespace LoadGen {

// What one run measured, for the report.
struct RunResult {
    int connections = 0; // asked for
    int ready = 0; // set up: signed in, and subscribed unless --no-subscribe
    int failed = 0;
    int closed = 0; // lost after set-up
    double stormSeconds = 0; // from the first connect until the last connection was set up
    std::uint64_t subscriptions = 0; // watcher entries the snapshots granted
    std::uint64_t setUpPushes = 0;
    // --slow-readers: how many, how many the gateway dropped, and when (from the moment each
    // stopped reading until its connection was found closed).
    int slowReaders = 0;
    int slowReadersDropped = 0;
    std::optional<double> slowReaderDropP50Seconds, slowReaderDropMaxSeconds;
    std::uint64_t scrolls = 0; // --scroll: windows moved, over every connection

    double changeSeconds = 0; // the window of changes
    std::uint64_t changes = 0;
    std::uint64_t skipped = 0; // changes not made: every user's previous one still in flight
    std::uint64_t expected = 0; // pushes: one per watcher of each changed user
    std::uint64_t received = 0;
    std::uint64_t lost = 0;
    std::uint64_t duplicates = 0;
    std::uint64_t unmatched = 0;
    double drainSeconds = 0; // after the last change, until the last push arrived (or gave up)
    std::optional<double> p50Ms, p99Ms, p999Ms, maxMs;

    double ownCpuSeconds = 0; // this process, the whole run
    double ownCpuLoadPercent = 0; // this process, within the window of changes, % of one core
    std::optional<long> gatewayRssBaseKiB; // before the first connection
    std::optional<long> gatewayRssKiB; // with every connection set up
    std::optional<double> gatewayCpuLoadPercent; // within the window of changes

    std::uint64_t errors = 0;
    std::string firstError;

    [[nodiscard]] bool passed() const
    {
        return ready == connections && failed == 0 && closed == 0 && lost == 0 && errors == 0;
    }
};

} // namespace LoadGen
