#include "bench/push_vs_polling/CommandLine.h"

// C++
#include <chrono>
#include <cstdio>

// Qt
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>

// Presence
#include "bench/GatewayBenchOptions.h"
#include "bench/IntegerOption.h"

using namespace Qt::StringLiterals;

namespace PushPollingBench {

std::optional<Options> parseCommandLine(QCoreApplication &app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Polling the gateway's HTTP API against holding a WebSocket: the same clients, friends "
        "and presence changes against the real presence-mock-server; traffic, connections, "
        "gateway CPU, and the time from a change to each watcher knowing it."_s);
    parser.addHelpOption();
    Options options;
    const BenchSupport::GatewayBenchCommandLine common(
        options, {}, u"Changes before the measured window, in seconds"_s);
    common.addTo(parser);
    const QCommandLineOption watchOption(
        u"watch"_s, u"Friends each client watches (default 50)."_s, u"W"_s);
    const QCommandLineOption pollOption(
        u"poll-ms"_s, u"Polling: GET /api/presence every P ms (default 5000)."_s, u"P"_s);
    const QCommandLineOption heartbeatOption(u"heartbeat-ms"_s,
        u"Polling: POST /api/heartbeat every H ms (default 15000; the gateway's TTL is "
        "35000)."_s,
        u"H"_s);
    const QCommandLineOption rateOption(u"changes-per-second"_s,
        u"Presence changes per second made through the admin API (default 20)."_s, u"R"_s);
    const QCommandLineOption baselineOption(u"baseline-seconds"_s,
        u"Window of the run with the changes and no client, for the gateway's CPU (default 20; "
        "0: skip it)."_s,
        u"B"_s);
    const QCommandLineOption modeOption(
        u"mode"_s, u"both, polling or push (default both)."_s, u"MODE"_s);
    const QCommandLineOption sameAddressOption(u"same-address"_s,
        u"Polling clients all connect from one address (127.77.0.1) instead of one each, as "
        "behind a NAT: the gateway limits requests per peer address."_s);
    parser.addOptions({ watchOption, pollOption, heartbeatOption, rateOption, baselineOption,
        modeOption, sameAddressOption });
    parser.process(app);

    common.read(parser, options);
    options.watch = integerOption(parser, watchOption, 1, 500, options.watch);
    options.poll
        = std::chrono::milliseconds(integerOption(parser, pollOption, 100, 3'600'000, 5000));
    options.heartbeat = std::chrono::milliseconds(
        integerOption(parser, heartbeatOption, 100, int(options.heartbeatTtl.count()) - 1, 15000));
    options.changesPerSecond = integerOption(parser, rateOption, 1, 1000, 20);
    options.baselineSeconds
        = integerOption(parser, baselineOption, 0, 86'400, options.baselineSeconds);
    if (parser.isSet(modeOption)) {
        const QString mode = parser.value(modeOption);
        options.polling = mode == u"both" || mode == u"polling";
        options.push = mode == u"both" || mode == u"push";
        if (!options.polling && !options.push) {
            std::fprintf(stderr, "--mode must be both, polling or push\n");
            return std::nullopt;
        }
    }
    options.sameAddress = parser.isSet(sameAddressOption);
    return options;
}

} // namespace PushPollingBench
