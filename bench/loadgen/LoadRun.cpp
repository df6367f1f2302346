#include "bench/loadgen/LoadRun.h"

// C++
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>
#include <memory>
#include <thread>
#include <vector>
// System
#include <boost/asio/ip/address.hpp>

// Presence
#include "bench/loadgen/ChangeLedger.h"
#include "bench/loadgen/LoadOptions.h"
#include "bench/loadgen/Population.h"
#include "bench/loadgen/ProcessProbe.h"
#include "bench/loadgen/RunContext.h"
#include "bench/loadgen/Worker.h"

namespace LoadGen {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

// The main thread looks at the workers' counters this often.
constexpr auto kPoll = 10ms;
// Pushes of the set-up (friends coming online) still arriving: the changes start once none has
// come for this long, or after kSettleLimit.
constexpr auto kSettleQuiet = 300ms;
constexpr auto kSettleLimit = 5s;

// Waits until `done` or `limit` has passed; false on the limit.
bool waitUntil(const std::function<bool()> &done, std::chrono::duration<double> limit)
{
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(limit);
    while (!done()) {
        if (Clock::now() >= deadline)
            return false;
        std::this_thread::sleep_for(kPoll);
    }
    return true;
}

// Tells a profiler watching `path` which phase the run is in; nothing without --mark.
void mark(const std::string &path, const char *phase)
{
    if (!path.empty())
        std::ofstream(path, std::ios::trunc) << phase << '\n';
}

std::optional<double> percentile(const std::vector<std::uint32_t> &sorted, double fraction)
{
    if (sorted.empty())
        return std::nullopt;
    const auto rank = static_cast<size_t>(std::ceil(fraction * double(sorted.size())));
    return double(sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1]) / 1000.0;
}

} // namespace

LoadRun::LoadRun(const LoadOptions &options, const Population &population)
    : m_options(options)
    , m_population(population)
{
}

RunResult LoadRun::run()
{
    RunResult result;
    result.connections = m_options.connectionsFor(m_population.size());
    result.slowReaders = std::min(m_options.slowReaders, result.connections);
    ChangeLedger ledger(m_population.size());
    RunContext context { m_options, m_population, ledger };
    context.firstSlowReader = m_options.firstUser + result.connections - result.slowReaders;
    context.firstUser = m_options.firstUser;
    context.endUser = m_options.firstUser + result.connections;
    const ProcessProbe gateway(m_options.gatewayPid);
    result.gatewayRssBaseKiB = gateway.residentKiB();

    boost::system::error_code error;
    const auto address = boost::asio::ip::make_address(m_options.host, error);
    const boost::asio::ip::tcp::endpoint endpoint(address, m_options.port);
    const int threads = std::max(1, std::min(m_options.threads, result.connections));
    std::vector<std::unique_ptr<Worker>> workers;
    workers.reserve(size_t(threads));
    for (int i = 0; i < threads; ++i) {
        workers.push_back(std::make_unique<Worker>(
            context, endpoint, std::max(1, m_options.concurrency / threads)));
    }
    for (int i = 0; i < result.connections; ++i) {
        // 127.0.0.1, 127.0.0.2, ...: one gateway port, many more than 28,000 connections.
        const auto source
            = boost::asio::ip::address_v4((127u << 24) | unsigned(1 + i % m_options.sources));
        const int user = m_options.firstUser + i;
        workers[size_t(i % threads)]->add(user, source, context.isSlowReader(user));
    }

    const double ownCpuStart = ProcessProbe::ownCpuSeconds();
    const std::int64_t stormStart = context.nowMicros();
    for (auto &worker : workers)
        worker->start();
    (void)waitUntil([&] { return context.ready + context.failed >= result.connections; },
        std::chrono::duration<double>(m_options.connectTimeout));
    result.ready = context.ready;
    result.stormSeconds = double(context.lastReadyMicros - stormStart) / 1e6;

    // The set-up's own pushes die down before anything is measured.
    std::uint64_t pushes = context.setUpPushes;
    auto quietSince = Clock::now();
    (void)waitUntil(
        [&] {
            if (context.setUpPushes != pushes) {
                pushes = context.setUpPushes;
                quietSince = Clock::now();
            }
            return Clock::now() - quietSince >= kSettleQuiet;
        },
        kSettleLimit);
    result.gatewayRssKiB = gateway.residentKiB();
    result.subscriptions = ledger.subscriptions();
    result.setUpPushes = context.setUpPushes;
    if (m_options.holdSeconds > 0)
        std::this_thread::sleep_for(std::chrono::duration<double>(m_options.holdSeconds));

    if (m_options.seconds > 0 && m_options.rate > 0 && result.ready > 0) {
        const double ownBefore = ProcessProbe::ownCpuSeconds();
        const auto gatewayBefore = gateway.cpuSeconds();
        const auto windowStart = Clock::now();
        context.changing = true;
        for (auto &worker : workers)
            worker->startChanges(m_options.rate / double(threads));
        mark(m_options.markFile, "changing");
        std::this_thread::sleep_for(std::chrono::duration<double>(m_options.seconds));
        for (auto &worker : workers)
            worker->stopChanges();
        mark(m_options.markFile, "stopped");
        const auto windowEnd = Clock::now();
        result.changeSeconds = std::chrono::duration<double>(windowEnd - windowStart).count();
        result.ownCpuLoadPercent
            = 100.0 * (ProcessProbe::ownCpuSeconds() - ownBefore) / result.changeSeconds;
        if (const auto gatewayAfter = gateway.cpuSeconds(); gatewayAfter && gatewayBefore) {
            result.gatewayCpuLoadPercent
                = 100.0 * (*gatewayAfter - *gatewayBefore) / result.changeSeconds;
        }
        (void)waitUntil([&] { return ledger.received() >= ledger.expected(); },
            std::chrono::duration<double>(m_options.drainTimeout));
        result.drainSeconds = std::chrono::duration<double>(Clock::now() - windowEnd).count();
    }

    context.stopping = true;
    for (auto &worker : workers)
        worker->stop();
    result.ownCpuSeconds = ProcessProbe::ownCpuSeconds() - ownCpuStart;
    result.failed = context.failed;
    result.closed = context.closed;
    result.slowReadersDropped = context.slowReadersDropped;
    result.scrolls = context.scrolls;
    if (auto dropped = context.slowReaderDropSeconds(); !dropped.empty()) {
        std::sort(dropped.begin(), dropped.end());
        result.slowReaderDropP50Seconds = dropped[(dropped.size() - 1) / 2];
        result.slowReaderDropMaxSeconds = dropped.back();
    }
    result.changes = ledger.changes();
    result.expected = ledger.expected();
    result.received = ledger.received();
    result.lost = ledger.lost();
    result.duplicates = ledger.duplicates();
    result.unmatched = ledger.unmatched();
    std::vector<std::uint32_t> latencies;
    for (const auto &worker : workers) {
        result.skipped += worker->skipped();
        latencies.insert(latencies.end(), worker->latencies().begin(), worker->latencies().end());
    }
    std::sort(latencies.begin(), latencies.end());
    result.p50Ms = percentile(latencies, 0.50);
    result.p99Ms = percentile(latencies, 0.99);
    result.p999Ms = percentile(latencies, 0.999);
    result.maxMs = percentile(latencies, 1.0);
    result.errors = context.errors;
    result.firstError = context.firstErrorText();
    return result;
}

} // namespace LoadGen
