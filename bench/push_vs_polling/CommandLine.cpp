#include "bench/push_vs_polling/CommandLine.h"

// C++
#include <chrono>
#include <cstdio>

// Qt
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>

// Presence
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
    const QCommandLineOption clientsOption(u"clients"_s, u"Clients (default 200)."_s, u"C"_s);
    const QCommandLineOption watchOption(
        u"watch"_s, u"Friends each client watches (default 50)."_s, u"W"_s);
    const QCommandLineOption usersOption(
        u"users"_s, u"Users the gateway generates (default 2000)."_s, u"N"_s);
    const QCommandLineOption friendsOption(
        u"friends"_s, u"Friends per generated user (default 300)."_s, u"F"_s);
    const QCommandLineOption pollOption(
        u"poll-ms"_s, u"Polling: GET /api/presence every P ms (default 5000)."_s, u"P"_s);
    const QCommandLineOption heartbeatOption(u"heartbeat-ms"_s,
        u"Polling: POST /api/heartbeat every H ms (default 15000; the gateway's TTL is "
        "35000)."_s,
        u"H"_s);
    const QCommandLineOption rateOption(u"changes-per-second"_s,
        u"Presence changes per second made through the admin API (default 20)."_s, u"R"_s);
    const QCommandLineOption secondsOption(
        u"seconds"_s, u"Measured window of each mode (default 60)."_s, u"D"_s);
    const QCommandLineOption warmupOption(
        u"warmup-seconds"_s, u"Changes before the window (default 10)."_s, u"S"_s);
    const QCommandLineOption baselineOption(u"baseline-seconds"_s,
        u"Window of the run with the changes and no client, for the gateway's CPU (default 20; "
        "0: skip it)."_s,
        u"B"_s);
    const QCommandLineOption seedOption(
        u"seed"_s, u"Seed of the population, the plan and the changes (default 7)."_s, u"X"_s);
    const QCommandLineOption modeOption(
        u"mode"_s, u"both, polling or push (default both)."_s, u"MODE"_s);
    const QCommandLineOption sameAddressOption(u"same-address"_s,
        u"Polling clients all connect from one address (127.77.0.1) instead of one each, as "
        "behind a NAT: the gateway limits requests per peer address."_s);
    const QCommandLineOption serverOption(u"mock-server"_s,
        u"The presence-mock-server binary (default: the one built with this benchmark)."_s,
        u"PATH"_s);
    parser.addOptions({ clientsOption, watchOption, usersOption, friendsOption, pollOption,
        heartbeatOption, rateOption, secondsOption, warmupOption, baselineOption, seedOption,
        modeOption, sameAddressOption, serverOption });
    parser.process(app);

    Options options;
    const auto intOption
        = [&parser](const QCommandLineOption &option, int low, int high, int fallback) {
              return integerOption(parser, option, low, high, fallback);
          };
    options.clients = intOption(clientsOption, 1, 60'000, options.clients);
    options.watch = intOption(watchOption, 1, 500, options.watch);
    options.users = intOption(usersOption, 2, 1'000'000, options.users);
    options.friends = intOption(friendsOption, 1, 10'000, options.friends);
    options.poll = std::chrono::milliseconds(intOption(pollOption, 100, 3'600'000, 5000));
    options.heartbeat = std::chrono::milliseconds(
        intOption(heartbeatOption, 100, int(options.heartbeatTtl.count()) - 1, 15000));
    options.changesPerSecond = intOption(rateOption, 1, 1000, 20);
    options.seconds = intOption(secondsOption, 1, 86'400, options.seconds);
    options.warmupSeconds = intOption(warmupOption, 0, 3600, options.warmupSeconds);
    options.baselineSeconds = intOption(baselineOption, 0, 86'400, options.baselineSeconds);
    if (parser.isSet(seedOption))
        options.seed = parser.value(seedOption).toULongLong();
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
    if (parser.isSet(serverOption))
        options.mockServer = parser.value(serverOption);
    return options;
}

} // namespace PushPollingBench
