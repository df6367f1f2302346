#include "bench/availability_cost/CommandLine.h"

// C++
#include <cstdio>
#include <cstdlib>

// Qt
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>

// Presence
#include "bench/GatewayBenchOptions.h"
#include "bench/IntegerOption.h"

using namespace Qt::StringLiterals;

namespace AvailabilityCostBench {

Options parseCommandLine(QCoreApplication &app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"The availability set (watch_availability) against per-row subscriptions alone: the "
        "same clients, rows and churn against the real presence-mock-server; frames and bytes "
        "each client receives, by type, and the gateway's CPU."_s);
    parser.addHelpOption();
    Options options;
    // A client's availability covers all its friends only up to max_availability_friends.
    const BenchSupport::GatewayBenchCommandLine common(options,
        { .maxFriends = 5000, .minWarmupSeconds = 2 },
        u"From the gateway's start to the window, in seconds; the clients connect in it"_s);
    common.addTo(parser);
    const QCommandLineOption rowsOption(u"rows"_s,
        u"Friends each client subscribes to, its rows on screen (default 30)."_s, u"W"_s);
    const QCommandLineOption churnOption(u"churn"_s,
        u"The gateway's --churn: about RATE presence changes per second across the population "
        "(default 20)."_s,
        u"RATE"_s);
    const QCommandLineOption intervalOption(
        u"interval-ms"_s, u"The gateway's --availability-interval-ms (default 1000)."_s, u"MS"_s);
    const QCommandLineOption runsOption(u"runs"_s, u"Runs of each mode (default 3)."_s, u"R"_s);
    const QCommandLineOption baselineOption(u"baseline"_s,
        u"Also run the gateway with its churn and no client, for the churn's own CPU."_s);
    parser.addOptions({ rowsOption, churnOption, intervalOption, runsOption, baselineOption });
    parser.process(app);

    common.read(parser, options);
    options.rows = integerOption(parser, rowsOption, 1, 500, options.rows);
    options.intervalMs = integerOption(parser, intervalOption, 10, 60'000, options.intervalMs);
    options.runs = integerOption(parser, runsOption, 1, 100, options.runs);
    if (parser.isSet(churnOption)) {
        bool ok = false;
        options.churn = parser.value(churnOption).toDouble(&ok);
        if (!ok || options.churn < 0.001 || options.churn > 1'000'000) {
            std::fprintf(stderr, "--churn must be a number from 0.001 to 1000000\n");
            std::exit(2);
        }
    }
    options.baseline = parser.isSet(baselineOption);
    return options;
}

} // namespace AvailabilityCostBench
