#include "server-mock/app/ServerOptions.h"

// Presence
#include "server-mock/app/AdminOptions.h"
#include "server-mock/app/ConnectionOptions.h"
#include "server-mock/app/ListeningOptions.h"
#include "server-mock/app/PopulationOptions.h"
#include "server-mock/app/RedisOptions.h"
#include "server-mock/app/ServerCommandLine.h"
#include "server-mock/app/TokenOptions.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

namespace {

std::optional<ServerOptions::EventLoop> parseEventLoop(const QString &value, QString *error)
{
    if (value == u"epoll")
        return ServerOptions::EventLoop::Epoll;
    if (value == u"qt")
        return ServerOptions::EventLoop::Qt;
    *error = u"--event-loop must be epoll or qt (got \"%1\")"_s.arg(value);
    return std::nullopt;
}

} // namespace

std::optional<ServerOptions> ServerOptions::parse(const QStringList &args, QString *error)
{
    QString scratch;
    if (!error)
        error = &scratch;

    ServerCommandLine line;
    if (!line.parse(args, error))
        return std::nullopt;

    ServerOptions options;
    options.helpText = line.helpText();
    if (line.helpWanted()) {
        options.action = Action::ShowHelp;
        return options;
    }
    if (line.versionWanted()) {
        options.action = Action::ShowVersion;
        return options;
    }

    if (line.isSet(u"event-loop"_s)) {
        const auto loop = parseEventLoop(line.value(u"event-loop"_s), error);
        if (!loop)
            return std::nullopt;
        options.eventLoop = *loop;
    }
    // In this order: the Redis store's grace is the connections', and the admin API's HTTPS
    // the listener's certificate.
    if (!ListeningOptions::read(line, options, error)
        || !PopulationOptions::read(line, options, error)
        || !ConnectionOptions::read(line, options.config, error)
        || !RedisOptions::read(line, options, error) || !AdminOptions::read(line, options, error)
        || !TokenOptions::read(line, options.config, error))
        return std::nullopt;
    if (options.friendsFromRedis && !options.config.jwt) {
        *error = u"--friends-from-redis needs JSON Web Tokens (--jwt-hs256-secret-file or "
                 "--jwt-public-key-file): they name the users the users file does not"_s;
        return std::nullopt;
    }

    if (line.isSet(u"check-config"_s))
        options.action = Action::CheckConfig;
    if (line.isSet(u"log-format"_s)) {
        const QString format = line.value(u"log-format"_s);
        if (format == u"json")
            options.logFormat = LogFormat::Json;
        else if (format != u"text") {
            *error = u"--log-format must be text or json (got \"%1\")"_s.arg(format);
            return std::nullopt;
        }
    }
    return options;
}

std::optional<ServerOptions::EventLoop> ServerOptions::eventLoopFromArguments(
    const QStringList &args, QString *error)
{
    QString scratch;
    if (!error)
        error = &scratch;
    // The same parser as parse(), so that a value is read as parse() reads it; whatever else
    // is wrong is for parse() to report.
    ServerCommandLine line;
    line.parseLeniently(args);
    if (!line.isSet(u"event-loop"_s))
        return EventLoop::Epoll;
    return parseEventLoop(line.value(u"event-loop"_s), error);
}

} // namespace Presence::Server
