#include "server-mock/app/ServerCommandLine.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

ServerCommandLine::ServerCommandLine()
    : m_help(m_parser.addHelpOption())
    , m_version(m_parser.addVersionOption())
{
    describe(m_parser);
}

bool ServerCommandLine::parse(const QStringList &args, QString *error)
{
    const std::optional<QStringList> merged = withConfig(args, error);
    if (!merged)
        return false;
    if (!m_parser.parse(*merged)) {
        *error = m_parser.errorText();
        return false;
    }
    if (!m_parser.positionalArguments().isEmpty()) {
        *error = u"unexpected argument \"%1\""_s.arg(m_parser.positionalArguments().constFirst());
        return false;
    }
    return true;
}

void ServerCommandLine::parseLeniently(const QStringList &args)
{
    QString ignored; // parse() reports a bad config file
    (void)m_parser.parse(withConfig(args, &ignored).value_or(args));
}

std::optional<qint64> ServerCommandLine::integer(
    const QString &name, qint64 min, qint64 max, qint64 fallback, QString *error) const
{
    if (!m_parser.isSet(name))
        return fallback;
    bool ok = false;
    const qint64 value = m_parser.value(name).toLongLong(&ok);
    if (!ok || value < min || value > max) {
        *error = u"--%1 must be an integer from %2 to %3 (got \"%4\")"_s.arg(name)
                     .arg(min)
                     .arg(max)
                     .arg(m_parser.value(name));
        return std::nullopt;
    }
    return value;
}

// Every option of the command line, each also a key of --config (but config and check-config).
QList<QCommandLineOption> ServerCommandLine::options()
{
    return {
        { u"listen"_s, u"Address to listen on; port 0 picks a free port. Default 127.0.0.1:8765."_s,
            u"HOST:PORT"_s },
        { u"users"_s, u"Users file (JSON) with ids, names, tokens and friends."_s, u"FILE"_s },
        { u"generate"_s, u"Generate N users user0..user{N-1} (tokens for local QA only)."_s,
            u"N"_s },
        { u"friends"_s, u"With --generate: friends per user. Default 50."_s, u"K"_s },
        { u"seed"_s,
            u"With --generate and --churn: seed of the population and of the churn. "
            "Default 1."_s,
            u"S"_s },
        { u"dump-users"_s, u"Write the population (tokens included) to a users file."_s,
            u"FILE"_s },
        { u"grace-ms"_s, u"Wait before publishing offline. Default 5000."_s, u"MS"_s },
        { u"heartbeat-ms"_s,
            u"WebSocket ping interval; silence for this + 10 s closes "
            "a connection. Default 25000."_s,
            u"MS"_s },
        { u"hello-timeout-ms"_s, u"Time allowed for hello. Default 5000."_s, u"MS"_s },
        { u"no-chat"_s,
            u"Presence only: chat requests (message, history, conversations, read) are "
            "answered unknown_type, as by a gateway without chat."_s },
        { u"max-subscriptions"_s, u"Subscriptions per connection. Default 2000."_s, u"N"_s },
        { u"max-ids-per-request"_s, u"Ids in one subscribe. Default 500."_s, u"N"_s },
        { u"max-availability-friends"_s,
            u"Friends watch_availability covers per connection (the first N); 0 turns it "
            "off. Default 5000."_s,
            u"N"_s },
        { u"digest-interval-ms"_s,
            u"Send each connection a digest of what it should hold this often, so a lost "
            "push is corrected; 0 turns it off. Default 30000."_s,
            u"MS"_s },
        { u"availability-interval-ms"_s,
            u"Availability changes go to each connection at most this often. Default 1000."_s,
            u"MS"_s },
        { u"max-frame-bytes"_s, u"Largest frame accepted. Default 65536."_s, u"BYTES"_s },
        { u"rate-limit"_s, u"Frames per second per connection (sustained). Default 50."_s, u"N"_s },
        { u"rate-burst"_s, u"Frames allowed in a burst above the rate. Default 100."_s, u"N"_s },
        { u"allow-origin"_s, u"Accept browser handshakes from ORIGIN (repeatable)."_s,
            u"ORIGIN"_s },
        { u"redis"_s,
            u"Keep presence in this Redis, shared with every gateway that uses it "
            "(docs/redis.md). Default: in memory, this gateway only."_s,
            u"redis://HOST:PORT[/DB]"_s },
        { u"redis-prefix"_s, u"With --redis: prefix of every key and channel. Default presence:"_s,
            u"PREFIX"_s },
        { u"churn"_s,
            u"Keep the population alive: about RATE presence changes per second across "
            "simulated users (users signed in for real are left alone)."_s,
            u"RATE"_s },
        { u"scenario"_s,
            u"Play this timeline of presence changes and faults (JSON Lines, "
            "docs/scenarios.md)."_s,
            u"FILE"_s },
        { u"admin"_s,
            u"Serve the admin and heartbeat HTTP API here (docs/admin-api.md); loopback only "
            "unless --admin-remote."_s,
            u"HOST:PORT"_s },
        { u"admin-token"_s,
            u"With --admin: the bearer token of the /admin endpoints (visible to ps: prefer "
            "--admin-token-file)."_s,
            u"TOKEN"_s },
        { u"admin-token-file"_s, u"With --admin: read the admin token from FILE."_s, u"FILE"_s },
        { u"admin-remote"_s,
            u"With --admin: allow an address other than loopback (plain HTTP: only on a "
            "network you trust)."_s },
        { u"heartbeat-ttl-ms"_s,
            u"With --admin: how long one POST /api/heartbeat keeps a user present. "
            "Default 35000."_s,
            u"MS"_s },
        { u"transport"_s,
            u"own (the default: the gateway's own WebSocket transport on raw sockets, with an "
            "upgrade timeout, bounded output and RFC 6455's masking rules) or qt (Qt's "
            "QWebSocket, for comparison)."_s,
            u"TRANSPORT"_s },
        { u"drain-ms"_s,
            u"On SIGTERM or SIGINT, close the signed-in connections evenly over this long (1001, "
            "\"going away, reconnect\"), so that clients move to other gateways a few at a "
            "time; a second signal closes the rest at once. Default 10000; 0: all at once."_s,
            u"MS"_s },
        { u"upgrade-timeout-ms"_s,
            u"Time allowed for the whole WebSocket upgrade request (own transport). Default "
            "5000."_s,
            u"MS"_s },
        { u"max-connections"_s,
            u"TCP connections held at once, upgraded or not; past it new ones get HTTP 503 "
            "(own transport). Default 0: no cap but the descriptor limit."_s,
            u"N"_s },
        { u"max-connections-per-address"_s,
            u"The same for one source address (an IPv6 peer counts by its /64). Default 0: no "
            "cap."_s,
            u"N"_s },
        { u"event-loop"_s,
            u"epoll (the default: the gateway's own event loop) or qt (Qt's own, which polls "
            "every socket on every iteration; for comparison)."_s,
            u"LOOP"_s },
        { u"jwt-hs256-secret-file"_s,
            u"Also accept JSON Web Tokens signed HS256 with the secret in FILE (32 bytes or "
            "more). KID= names the key for tokens with that kid. Repeat for rotation."_s,
            u"[KID=]FILE"_s },
        { u"jwt-public-key-file"_s,
            u"Also accept JSON Web Tokens signed RS256 or ES256 with the PEM public key in FILE "
            "(RSA of 2048 bits or more, or EC P-256). KID= as above; repeatable."_s,
            u"[KID=]FILE"_s },
        { u"friends-from-redis"_s,
            u"With --redis and JSON Web Tokens: users who are not in the users file (which may "
            "then be left out) sign in with a token, their names and friends read from Redis "
            "({prefix}user:ID, {prefix}friends:ID), and read again when the app's backend "
            "publishes their id on {prefix}friends-changed (docs/redis.md)."_s },
        { u"tls-cert"_s,
            u"Serve wss:// (own transport), and the admin API over HTTPS, with the PEM "
            "certificate chain in FILE (the server's first, then its intermediates). Needs "
            "--tls-key; both are read again on SIGHUP."_s,
            u"FILE"_s },
        { u"tls-key"_s, u"The PEM private key of --tls-cert."_s, u"FILE"_s },
        { u"ttl-ms"_s,
            u"With --redis: a connection's liveness in Redis lasts this long unless refreshed "
            "(every third of it). Default 30000."_s,
            u"MS"_s },
        { u"log-format"_s,
            u"text (the default) or json: one JSON object per log line, for a log collector."_s,
            u"FORMAT"_s },
        { u"config"_s,
            u"Read options from an INI file (key = value, the keys being these options' names); "
            "the command line wins."_s,
            u"FILE"_s },
        { u"check-config"_s,
            u"Check the options, the config file, the users file, the keys and the scenario, "
            "then exit: 0 when all is well, 2 with the problem otherwise."_s },
    };
}

void ServerCommandLine::describe(QCommandLineParser &parser)
{
    parser.setApplicationDescription(
        u"The bundled presence gateway of Presence Chat: a WebSocket server speaking "
        "protocol v1 (docs/protocol.md) for tests, QA and demos."_s);
    parser.addOptions(options());
}

QList<ConfigFile::Option> ServerCommandLine::configOptions()
{
    static const QStringList repeatable { u"allow-origin"_s, u"jwt-hs256-secret-file"_s,
        u"jwt-public-key-file"_s };
    static const QStringList paths { u"users"_s, u"dump-users"_s, u"scenario"_s,
        u"admin-token-file"_s, u"jwt-hs256-secret-file"_s, u"jwt-public-key-file"_s, u"tls-cert"_s,
        u"tls-key"_s };
    QList<ConfigFile::Option> keys;
    for (const QCommandLineOption &option : options()) {
        const QString name = option.names().constFirst();
        if (name == u"config" || name == u"check-config")
            continue;
        keys.append({ name, !option.valueName().isEmpty(), repeatable.contains(name),
            paths.contains(name) });
    }
    return keys;
}

std::optional<QStringList> ServerCommandLine::withConfig(const QStringList &args, QString *error)
{
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addVersionOption();
    describe(parser);
    if (!parser.parse(args) || !parser.isSet(u"config"_s))
        return args;
    const auto extra = ConfigFile::arguments(
        parser.value(u"config"_s), configOptions(),
        [&parser](const QString &name) { return parser.isSet(name); }, error);
    if (!extra)
        return std::nullopt;
    return args + *extra;
}

} // namespace Presence::Server
