#pragma once

// C++
#include <cstdio>
#include <cstdlib>
#include <limits>

// Qt
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>
#include <QtGlobal>

// Presence
#include "bench/IntegerOption.h"

namespace BenchSupport {

// What every benchmark that runs clients against a gateway it starts, with a generated
// population, takes from its command line. The gateway is the binary built with the
// benchmark (its PRESENCE_MOCK_SERVER definition).
struct GatewayBenchOptions {
    int clients = 200;
    int users = 2000;
    int friends = 300;
    int seconds = 60;
    int warmupSeconds = 10;
    quint64 seed = 7;
    QString mockServer = QStringLiteral(PRESENCE_MOCK_SERVER);
};

// Those options on a parser: declared with the benchmark's defaults in their help, and read
// back each in its range. A value out of range ends the benchmark with exit code 2 and a line
// naming the option (integerOption).
class GatewayBenchCommandLine {
public:
    struct Limits {
        int maxFriends = 10'000;
        int minWarmupSeconds = 0;
    };

    // warmupHelp: what happens before the window, in the benchmark's words.
    GatewayBenchCommandLine(
        const GatewayBenchOptions &defaults, Limits limits, const QString &warmupHelp)
        : m_defaults(defaults)
        , m_limits(limits)
        , m_clients(QStringLiteral("clients"),
              withDefault(QStringLiteral("Clients"), defaults.clients), QStringLiteral("C"))
        , m_users(QStringLiteral("users"),
              withDefault(QStringLiteral("Users the gateway generates"), defaults.users),
              QStringLiteral("N"))
        , m_friends(QStringLiteral("friends"),
              withDefault(QStringLiteral("Friends per generated user"), defaults.friends),
              QStringLiteral("F"))
        , m_seconds(QStringLiteral("seconds"),
              withDefault(
                  QStringLiteral("Measured window of each run, in seconds"), defaults.seconds),
              QStringLiteral("D"))
        , m_warmup(QStringLiteral("warmup-seconds"),
              withDefault(warmupHelp, defaults.warmupSeconds), QStringLiteral("S"))
        , m_seed(QStringLiteral("seed"),
              withDefault(
                  QStringLiteral("Seed of the population and of all the benchmark picks at random"),
                  int(defaults.seed)),
              QStringLiteral("X"))
        , m_mockServer(QStringLiteral("mock-server"),
              QStringLiteral("The presence-mock-server binary (default: the one built with this "
                             "benchmark)."),
              QStringLiteral("PATH"))
    {
    }

    void addTo(QCommandLineParser &parser) const
    {
        parser.addOptions(
            { m_clients, m_users, m_friends, m_seconds, m_warmup, m_seed, m_mockServer });
    }

    // Reads them into `options`; the benchmark's defaults where one is not given. Clients are
    // held open at once, so they stay within a process's descriptor budget (about 19,000).
    void read(const QCommandLineParser &parser, GatewayBenchOptions &options) const
    {
        options.clients = integerOption(parser, m_clients, 1, 19'000, m_defaults.clients);
        options.users = integerOption(parser, m_users, 2, 1'000'000, m_defaults.users);
        options.friends
            = integerOption(parser, m_friends, 1, m_limits.maxFriends, m_defaults.friends);
        options.seconds = integerOption(parser, m_seconds, 1, 86'400, m_defaults.seconds);
        options.warmupSeconds = integerOption(
            parser, m_warmup, m_limits.minWarmupSeconds, 3600, m_defaults.warmupSeconds);
        options.seed = m_defaults.seed;
        if (parser.isSet(m_seed)) {
            bool ok = false;
            options.seed = parser.value(m_seed).toULongLong(&ok);
            if (!ok) {
                std::fprintf(stderr, "--seed must be a whole number from 0 to %llu\n",
                    static_cast<unsigned long long>(std::numeric_limits<quint64>::max()));
                std::exit(2);
            }
        }
        options.mockServer
            = parser.isSet(m_mockServer) ? parser.value(m_mockServer) : m_defaults.mockServer;
    }

private:
    static QString withDefault(const QString &help, int value)
    {
        return QStringLiteral("%1 (default %2).").arg(help).arg(value);
    }

    GatewayBenchOptions m_defaults;
    Limits m_limits;
    QCommandLineOption m_clients;
    QCommandLineOption m_users;
    QCommandLineOption m_friends;
    QCommandLineOption m_seconds;
    QCommandLineOption m_warmup;
    QCommandLineOption m_seed;
    QCommandLineOption m_mockServer;
};

} // namespace BenchSupport
