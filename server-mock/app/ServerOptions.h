#pragma once

// C++
#include <optional>

// Qt
#include <QString>
#include <QStringList>

// Presence
#include "server-mock/admin/AdminServerOptions.h"
#include "server-mock/redis/RedisStoreOptions.h"
#include "server-mock/server/GatewayConfig.h"

namespace Presence::Server {

// The command line of presence-mock-server, checked: every value is in range or the
// parse fails with a message naming the option. ServerCommandLine reads the command line and
// a reader per group of options fills its part: ListeningOptions, PopulationOptions,
// ConnectionOptions, RedisOptions, AdminOptions, TokenOptions.
struct ServerOptions {
    // CheckConfig: everything checked, nothing started (--check-config).
    enum class Action { Run, ShowHelp, ShowVersion, CheckConfig };
    // The main thread's event dispatcher: the gateway's epoll one, or Qt's own (to compare,
    // or as a fallback).
    enum class EventLoop { Epoll, Qt };
    // How log lines look on stderr: for people, or one JSON object each (JsonLog).
    enum class LogFormat { Text, Json };

    Action action = Action::Run;
    GatewayConfig config;
    QString usersFile;
    std::optional<int> generateCount;
    int friendsPerUser = 50;
    quint64 seed = 1;
    QString dumpUsersFile;
    // --friends-from-redis: users outside the users file, and their friends, from Redis.
    bool friendsFromRedis = false;
    // --tls-cert and --tls-key (loaded into config.tls), for SIGHUP to read again.
    QString tlsCertificateFile;
    QString tlsKeyFile;
    // Set by --redis: presence lives in that Redis, shared with other gateways.
    std::optional<RedisStoreOptions> redis;
    // --churn: about this many presence changes per second across simulated users.
    std::optional<double> churnRate;
    // --scenario: a timeline to play (docs/scenarios.md), checked at start.
    QString scenarioFile;
    // --admin: the admin and heartbeat HTTP API (docs/admin-api.md); unset, there is none.
    std::optional<AdminServerOptions> admin;
    EventLoop eventLoop = EventLoop::Epoll;
    LogFormat logFormat = LogFormat::Text;
    QString helpText;

    // args includes the program name, as QCoreApplication::arguments() gives it.
    [[nodiscard]] static std::optional<ServerOptions> parse(
        const QStringList &args, QString *error);
    // Only --event-loop, read before QCoreApplication exists (the dispatcher must be installed
    // before it); nullopt with *error for a value parse() would refuse too.
    [[nodiscard]] static std::optional<EventLoop> eventLoopFromArguments(
        const QStringList &args, QString *error);
};

} // namespace Presence::Server
