#include "bench/loadgen/Report.h"

// C++
#include <cstdio>
#include <optional>
#include <ostream>
// System
#include <boost/json.hpp>

// Presence
#include "bench/loadgen/LoadOptions.h"
#include "bench/loadgen/RunResult.h"

namespace LoadGen {

namespace {

std::string fixed(std::optional<double> value, int decimals)
{
    if (!value)
        return "-";
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, *value);
    return text;
}

std::optional<double> perConnectionKiB(const RunResult &result)
{
    if (!result.gatewayRssBaseKiB || !result.gatewayRssKiB || result.ready == 0)
        return std::nullopt;
    return double(*result.gatewayRssKiB - *result.gatewayRssBaseKiB) / double(result.ready);
}

boost::json::value optional(std::optional<double> value)
{
    return value ? boost::json::value(*value) : boost::json::value(nullptr);
}

} // namespace

void Report::writeText(std::ostream &out, const LoadOptions &options, const RunResult &result)
{
    out << "presence-loadgen: ws://" << options.host << ':' << options.port << "/, "
        << result.connections << " connections from " << options.sources << " source addresses, "
        << options.threads << " threads, "
        << (options.subscribe ? "each subscribed to its friends" : "idle (no subscriptions)")
        << '\n';
    out << "  connect storm: " << result.ready << " set up, " << result.failed << " failed in "
        << fixed(result.stormSeconds, 2) << " s; " << result.subscriptions << " subscriptions\n";
    if (result.gatewayRssKiB) {
        out << "  gateway memory: " << *result.gatewayRssBaseKiB << " KiB before, "
            << *result.gatewayRssKiB << " KiB after: " << fixed(perConnectionKiB(result), 2)
            << " KiB per connection\n";
    }
    if (result.changeSeconds > 0) {
        out << "  changes: " << result.changes << " in " << fixed(result.changeSeconds, 2)
            << " s (asked " << fixed(options.rate, 0) << "/s; " << result.skipped
            << " skipped, every user's previous change still in flight)\n";
        out << "  pushes: " << result.expected << " expected, " << result.received << " received, "
            << result.lost << " lost, " << result.duplicates << " duplicated; last one "
            << fixed(result.drainSeconds, 2) << " s after the last change\n";
        out << "  change -> watcher latency: p50 " << fixed(result.p50Ms, 2) << " ms, p99 "
            << fixed(result.p99Ms, 2) << " ms, p99.9 " << fixed(result.p999Ms, 2) << " ms, max "
            << fixed(result.maxMs, 2) << " ms\n";
        out << "  CPU over the changes: gateway " << fixed(result.gatewayCpuLoadPercent, 1)
            << " % of a core, presence-loadgen " << fixed(result.ownCpuLoadPercent, 1) << " % (of "
            << options.threads << " threads)\n";
    }
    if (result.slowReaders > 0) {
        out << "  slow readers: " << result.slowReadersDropped << " of " << result.slowReaders
            << " dropped by the gateway, " << fixed(result.slowReaderDropP50Seconds, 2)
            << " s (median) and " << fixed(result.slowReaderDropMaxSeconds, 2)
            << " s (last) after they stopped reading\n";
    }
    if (options.scrollSeconds > 0) {
        out << "  scrolling: " << result.scrolls << " windows moved (an unsubscribe and a "
            << "subscribe each), one per connection every " << fixed(options.scrollSeconds, 1)
            << " s\n";
    }
    out << "  presence-loadgen CPU, whole run: " << fixed(result.ownCpuSeconds, 2) << " s\n";
    if (result.errors > 0)
        out << "  " << result.errors << " errors; the first: " << result.firstError << '\n';
    out << (result.passed() ? "  PASS" : "  FAIL") << '\n';
}

std::string Report::json(const LoadOptions &options, const RunResult &result)
{
    boost::json::object line;
    line["connections"] = result.connections;
    line["ready"] = result.ready;
    line["failed"] = result.failed;
    line["closed"] = result.closed;
    line["subscribe"] = options.subscribe;
    line["subscriptions"] = result.subscriptions;
    line["storm_s"] = result.stormSeconds;
    line["gateway_rss_base_kib"] = optional(
        result.gatewayRssBaseKiB ? std::optional<double>(*result.gatewayRssBaseKiB) : std::nullopt);
    line["gateway_rss_kib"] = optional(
        result.gatewayRssKiB ? std::optional<double>(*result.gatewayRssKiB) : std::nullopt);
    line["gateway_rss_per_connection_kib"] = optional(perConnectionKiB(result));
    line["scrolls"] = result.scrolls;
    line["slow_readers"] = result.slowReaders;
    line["slow_readers_dropped"] = result.slowReadersDropped;
    line["slow_reader_drop_p50_s"] = optional(result.slowReaderDropP50Seconds);
    line["slow_reader_drop_max_s"] = optional(result.slowReaderDropMaxSeconds);
    line["rate"] = options.rate;
    line["change_s"] = result.changeSeconds;
    line["changes"] = result.changes;
    line["skipped"] = result.skipped;
    line["expected"] = result.expected;
    line["received"] = result.received;
    line["lost"] = result.lost;
    line["duplicates"] = result.duplicates;
    line["unmatched"] = result.unmatched;
    line["drain_s"] = result.drainSeconds;
    line["p50_ms"] = optional(result.p50Ms);
    line["p99_ms"] = optional(result.p99Ms);
    line["p999_ms"] = optional(result.p999Ms);
    line["max_ms"] = optional(result.maxMs);
    line["gateway_cpu_pct"] = optional(result.gatewayCpuLoadPercent);
    line["loadgen_cpu_pct"] = result.ownCpuLoadPercent;
    line["loadgen_cpu_s"] = result.ownCpuSeconds;
    line["threads"] = options.threads;
    line["errors"] = result.errors;
    line["passed"] = result.passed();
    return boost::json::serialize(line);
}

} // namespace LoadGen
