#include "bench/loadgen/LoadOptions.h"

// C++
#include <charconv>
#include <cstdio>
#include <functional>
#include <map>

namespace LoadGen {

namespace {

bool toNumber(const std::string &text, double *value)
{
    const char *end = text.data() + text.size();
    auto [pointer, code] = std::from_chars(text.data(), end, *value);
    return code == std::errc() && pointer == end;
}

bool toInteger(const std::string &text, int *value)
{
    const char *end = text.data() + text.size();
    auto [pointer, code] = std::from_chars(text.data(), end, *value);
    return code == std::errc() && pointer == end;
}

// ws://HOST:PORT/ with an IPv4 host.
bool parseUrl(const std::string &url, LoadOptions *options)
{
    const std::string scheme = "ws://";
    if (url.rfind(scheme, 0) != 0)
        return false;
    std::string rest = url.substr(scheme.size());
    if (const auto slash = rest.find('/'); slash != std::string::npos)
        rest.resize(slash);
    const auto colon = rest.rfind(':');
    int port = 0;
    if (colon == std::string::npos || !toInteger(rest.substr(colon + 1), &port) || port <= 0
        || port > 65535)
        return false;
    options->host = rest.substr(0, colon);
    options->port = static_cast<unsigned short>(port);
    return !options->host.empty();
}

} // namespace

const char *LoadOptions::usage()
{
    return "usage: presence-loadgen --url ws://HOST:PORT/ --users FILE [options]\n"
           "Opens one WebSocket connection per user of FILE (a users file, docs/protocol.md),\n"
           "signs each in, subscribes each to all its friends, then makes RATE status changes\n"
           "per second for SECONDS and measures change -> watcher latency; see\n"
           "docs/benchmarks.md, \"Gateway against a Node ws peer\".\n"
           "  --connections N      connections (users) to open; default: all from --first-user\n"
           "  --first-user F       first user of FILE to sign in as (default 0)\n"
           "  --rate R             status changes per second in all (default 100)\n"
           "  --seconds S          how long to change statuses (default 10; 0: none)\n"
           "  --threads T          worker threads, one event loop each (default 2)\n"
           "  --sources K          bind client sockets to 127.0.0.1 .. 127.0.0.K (default 8)\n"
           "  --concurrency C      connections being set up at once (default 256)\n"
           "  --no-subscribe       hello and welcome only: idle connections\n"
           "  --presence-batch-ms W  watch every friend through the availability set in\n"
           "                       presence_batch frames of W ms (10-1000) instead of\n"
           "                       subscribing to each (docs/protocol.md, Batched presence)\n"
           "  --slow-readers N     the last N connections stop reading when the changes start\n"
           "                       and keep asking for large answers (subscribes of unknown\n"
           "                       ids, all denied): the gateway should drop them at its\n"
           "                       output bound while everyone else's latency holds\n"
           "  --scroll S           every S s each connection moves a window of a few ids over\n"
           "                       the second half of its friends (unsubscribe, subscribe),\n"
           "                       as a scrolled list does; only the first half is measured\n"
           "  --gateway-pid PID    read the gateway's memory and CPU time from /proc\n"
           "  --connect-timeout S  give up setting up connections after S s (default 300)\n"
           "  --drain-timeout S    wait at most S s for the last pushes (default 10)\n"
           "  --hold S             keep the connections open S s once set up (default 0)\n"
           "  --mark FILE          write \"changing\" to FILE when the changes start and\n"
           "                       \"stopped\" when they stop (to profile the gateway in between)\n"
           "Prints a summary, then one line of JSON. Exit 0 when every connection was set up,\n"
           "every push arrived and no error came back; 1 otherwise; 2 on bad options.\n";
}

std::optional<LoadOptions> LoadOptions::parse(
    const std::vector<std::string> &args, std::string *error)
{
    LoadOptions options;
    bool haveUrl = false;
    using Setter = std::function<bool(const std::string &)>;
    const auto integer = [](int *target, int minimum) {
        return Setter([target, minimum](const std::string &text) {
            return toInteger(text, target) && *target >= minimum;
        });
    };
    const auto number = [](double *target, double minimum) {
        return Setter([target, minimum](const std::string &text) {
            return toNumber(text, target) && *target >= minimum;
        });
    };
    const std::map<std::string, Setter> valued {
        { "--url", [&](const std::string &text) { return haveUrl = parseUrl(text, &options); } },
        { "--users",
            [&](const std::string &text) {
                options.usersFile = text;
                return !text.empty();
            } },
        { "--connections", integer(&options.connections, 1) },
        { "--first-user", integer(&options.firstUser, 0) },
        { "--rate", number(&options.rate, 0) },
        { "--seconds", number(&options.seconds, 0) },
        { "--threads", integer(&options.threads, 1) },
        { "--sources", integer(&options.sources, 1) },
        { "--concurrency", integer(&options.concurrency, 1) },
        { "--gateway-pid", integer(&options.gatewayPid, 1) },
        { "--connect-timeout", number(&options.connectTimeout, 0) },
        { "--drain-timeout", number(&options.drainTimeout, 0) },
        { "--hold", number(&options.holdSeconds, 0) },
        { "--slow-readers", integer(&options.slowReaders, 0) },
        { "--scroll", number(&options.scrollSeconds, 0) },
        { "--presence-batch-ms",
            [&](const std::string &text) {
                return toInteger(text, &options.presenceBatchMs) && options.presenceBatchMs >= 10
                    && options.presenceBatchMs <= 1000;
            } },
        { "--mark",
            [&](const std::string &text) {
                options.markFile = text;
                return !text.empty();
            } },
    };
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        if (arg == "--help" || arg == "-h") {
            std::fputs(usage(), stdout);
            error->clear();
            return std::nullopt;
        }
        if (arg == "--no-subscribe") {
            options.subscribe = false;
            continue;
        }
        const auto setter = valued.find(arg);
        if (setter == valued.end()) {
            *error = "unknown option " + arg;
            return std::nullopt;
        }
        if (i + 1 >= args.size() || !setter->second(args[i + 1])) {
            *error = "bad or missing value for " + arg;
            return std::nullopt;
        }
        ++i;
    }
    if (!haveUrl || options.usersFile.empty()) {
        *error = "--url ws://HOST:PORT/ and --users FILE are required";
        return std::nullopt;
    }
    if (options.scrollSeconds > 0 && options.scrollSeconds < 0.1) {
        *error = "--scroll: at least 0.1 s (two frames a scroll, under the rate limit)";
        return std::nullopt;
    }
    if (options.sources > 254) {
        *error = "--sources: at most 254 (127.0.0.1 .. 127.0.0.254)";
        return std::nullopt;
    }
    return options;
}

} // namespace LoadGen
