#include "server-mock/app/ServerOptions.h"

// C++
#include <limits>
#include <memory>

// Qt
#include <QCommandLineParser>
#include <QFile>
#include <QSet>

// Presence
#include "protocol/Identifiers.h"
#include "server-mock/app/ConfigFile.h"
#include "server-mock/directory/PopulationGenerator.h"
#include "server-mock/http/HttpsIdentity.h"
#include "server-mock/identity/JwtVerifier.h"
#include "server-mock/qa/ChurnModel.h"
#include "server-mock/transport/TlsContext.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

namespace {

struct Endpoint {
    QHostAddress address;
    quint16 port = 0;
};

// HOST:PORT with HOST an IP address (IPv6 in brackets) or "localhost"; no DNS lookups.
std::optional<Endpoint> parseEndpoint(const QString &text)
{
    const qsizetype colon = text.lastIndexOf(u':');
    if (colon <= 0)
        return std::nullopt;
    QString host = text.left(colon);
    bool ok = false;
    const uint port = text.mid(colon + 1).toUInt(&ok);
    if (!ok || port > 65535)
        return std::nullopt;
    if (host.startsWith(u'[') && host.endsWith(u']'))
        host = host.mid(1, host.size() - 2);
    Endpoint endpoint;
    endpoint.port = quint16(port);
    if (host == u"localhost")
        endpoint.address = QHostAddress::LocalHost;
    else if (!endpoint.address.setAddress(host))
        return std::nullopt;
    return endpoint;
}

// The admin token: printable ASCII without spaces, long enough not to be guessed.
bool isAcceptableAdminToken(const QString &token)
{
    return token.size() >= 16 && token.size() <= 512
        && std::all_of(token.cbegin(), token.cend(),
            [](QChar c) { return c.unicode() > 0x20 && c.unicode() < 0x7f; });
}

bool parseAdmin(const QCommandLineParser &parser, std::chrono::milliseconds heartbeatTtl,
    ServerOptions &options, QString *error)
{
    const bool wanted = parser.isSet(u"admin"_s);
    for (const QString &name :
        { u"admin-token"_s, u"admin-token-file"_s, u"admin-remote"_s, u"heartbeat-ttl-ms"_s }) {
        if (!wanted && parser.isSet(name)) {
            *error = u"--%1 goes with --admin"_s.arg(name);
            return false;
        }
    }
    if (!wanted)
        return true;
    const auto endpoint = parseEndpoint(parser.value(u"admin"_s));
    if (!endpoint) {
        *error = u"--admin must be HOST:PORT with an IP address or localhost (got \"%1\")"_s.arg(
            parser.value(u"admin"_s));
        return false;
    }
    if (!endpoint->address.isLoopback() && !parser.isSet(u"admin-remote"_s)) {
        *error = u"--admin %1 is not a loopback address: the admin API injects faults and "
                 "simulates users; add --admin-remote to expose it anyway"_s.arg(
                     parser.value(u"admin"_s));
        return false;
    }
    AdminServerOptions admin;
    admin.address = endpoint->address;
    admin.port = endpoint->port;
    admin.heartbeatTtl = heartbeatTtl;
    if (parser.isSet(u"admin-token"_s) && parser.isSet(u"admin-token-file"_s)) {
        *error = u"give --admin-token or --admin-token-file, not both"_s;
        return false;
    }
    if (parser.isSet(u"admin-token-file"_s)) {
        const QString path = parser.value(u"admin-token-file"_s);
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            *error = u"--admin-token-file %1: %2"_s.arg(path, file.errorString());
            return false;
        }
        admin.adminToken = QString::fromUtf8(file.read(4096)).trimmed();
        if (!isAcceptableAdminToken(admin.adminToken)) {
            *error = u"--admin-token-file %1: the token must be 16 to 512 printable ASCII "
                     "characters without spaces"_s.arg(path);
            return false;
        }
    } else if (parser.isSet(u"admin-token"_s)) {
        admin.adminToken = parser.value(u"admin-token"_s);
        if (!isAcceptableAdminToken(admin.adminToken)) {
            *error = u"--admin-token must be 16 to 512 printable ASCII characters without "
                     "spaces"_s;
            return false;
        }
    }
    options.admin = admin;
    return true;
}

// --jwt-hs256-secret-file and --jwt-public-key-file, each [KID=]FILE and repeatable, as one
// verifier; null when neither is given.
bool parseJwtKeys(const QCommandLineParser &parser, GatewayConfig &config, QString *error)
{
    QList<JwtKey> keys;
    QSet<QString> kids;
    for (const bool secret : { true, false }) {
        const QString option = secret ? u"jwt-hs256-secret-file"_s : u"jwt-public-key-file"_s;
        for (const QString &value : parser.values(option)) {
            // KID=FILE when what comes before the first '=' is a valid kid (an id's characters);
            // a path with '=' in its first part is written ./a=b.
            QString kid;
            QString path = value;
            const qsizetype equals = value.indexOf(u'=');
            if (equals > 0 && Protocol::isValidId(value.first(equals))) {
                kid = value.first(equals);
                path = value.sliced(equals + 1);
            }
            if (path.isEmpty()) {
                *error = u"--%1 needs a file (got \"%2\")"_s.arg(option, value);
                return false;
            }
            if (!kid.isEmpty() && kids.contains(kid)) {
                *error = u"--%1: kid \"%2\" is given to two keys"_s.arg(option, kid);
                return false;
            }
            QString why;
            const std::optional<JwtKey> key = secret ? JwtKey::fromSecretFile(path, kid, &why)
                                                     : JwtKey::fromPublicKeyFile(path, kid, &why);
            if (!key) {
                *error = u"--%1 %2"_s.arg(option, why);
                return false;
            }
            kids.insert(kid);
            keys.append(*key);
        }
    }
    if (!keys.isEmpty())
        config.jwt = std::make_shared<const JwtVerifier>(std::move(keys));
    return true;
}

std::optional<ServerOptions::EventLoop> parseEventLoop(const QString &value, QString *error)
{
    if (value == u"epoll")
        return ServerOptions::EventLoop::Epoll;
    if (value == u"qt")
        return ServerOptions::EventLoop::Qt;
    *error = u"--event-loop must be epoll or qt (got \"%1\")"_s.arg(value);
    return std::nullopt;
}

// Every option, described: parse() and eventLoopFromArguments() read the same command line.
// Every option of the command line, each also a key of --config (but config and check-config).
QList<QCommandLineOption> optionList()
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

void describeOptions(QCommandLineParser &parser)
{
    parser.setApplicationDescription(
        u"The bundled presence gateway of Presence Chat: a WebSocket server speaking "
        "protocol v1 (docs/protocol.md) for tests, QA and demos."_s);
    parser.addOptions(optionList());
}

// The options as --config keys: which take a value, may repeat, or name a file.
QList<ConfigFile::Option> configOptions()
{
    static const QStringList repeatable { u"allow-origin"_s, u"jwt-hs256-secret-file"_s,
        u"jwt-public-key-file"_s };
    static const QStringList paths { u"users"_s, u"dump-users"_s, u"scenario"_s,
        u"admin-token-file"_s, u"jwt-hs256-secret-file"_s, u"jwt-public-key-file"_s, u"tls-cert"_s,
        u"tls-key"_s };
    QList<ConfigFile::Option> options;
    for (const QCommandLineOption &option : optionList()) {
        const QString name = option.names().constFirst();
        if (name == u"config" || name == u"check-config")
            continue;
        options.append({ name, !option.valueName().isEmpty(), repeatable.contains(name),
            paths.contains(name) });
    }
    return options;
}

// args with the options of a --config file added where args do not give them; args as they
// are when there is no --config, or when they do not parse (parse() says why).
std::optional<QStringList> withConfig(const QStringList &args, QString *error)
{
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addVersionOption();
    describeOptions(parser);
    if (!parser.parse(args) || !parser.isSet(u"config"_s))
        return args;
    const auto extra = ConfigFile::arguments(
        parser.value(u"config"_s), configOptions(),
        [&parser](const QString &name) { return parser.isSet(name); }, error);
    if (!extra)
        return std::nullopt;
    return args + *extra;
}

class Reader {
public:
    Reader(const QCommandLineParser &parser, QString *error)
        : m_parser(parser)
        , m_error(error)
    {
    }

    // The option's value as an integer in [min, max], or fallback when it is absent.
    std::optional<qint64> integer(const QString &name, qint64 min, qint64 max, qint64 fallback)
    {
        if (!m_parser.isSet(name))
            return fallback;
        bool ok = false;
        const qint64 value = m_parser.value(name).toLongLong(&ok);
        if (!ok || value < min || value > max) {
            *m_error = u"--%1 must be an integer from %2 to %3 (got \"%4\")"_s.arg(name)
                           .arg(min)
                           .arg(max)
                           .arg(m_parser.value(name));
            return std::nullopt;
        }
        return value;
    }

private:
    const QCommandLineParser &m_parser;
    QString *m_error;
};

} // namespace

std::optional<ServerOptions> ServerOptions::parse(const QStringList &args, QString *error)
{
    QString scratch;
    if (!error)
        error = &scratch;

    const std::optional<QStringList> merged = withConfig(args, error);
    if (!merged)
        return std::nullopt;
    QCommandLineParser parser;
    const auto helpOption = parser.addHelpOption();
    const auto versionOption = parser.addVersionOption();
    describeOptions(parser);

    if (!parser.parse(*merged)) {
        *error = parser.errorText();
        return std::nullopt;
    }
    if (!parser.positionalArguments().isEmpty()) {
        *error = u"unexpected argument \"%1\""_s.arg(parser.positionalArguments().constFirst());
        return std::nullopt;
    }

    ServerOptions options;
    options.helpText = parser.helpText();
    if (parser.isSet(helpOption)) {
        options.action = Action::ShowHelp;
        return options;
    }
    if (parser.isSet(versionOption)) {
        options.action = Action::ShowVersion;
        return options;
    }

    if (parser.isSet(u"event-loop"_s)) {
        const auto loop = parseEventLoop(parser.value(u"event-loop"_s), error);
        if (!loop)
            return std::nullopt;
        options.eventLoop = *loop;
    }

    GatewayConfig &config = options.config;
    if (parser.isSet(u"transport"_s)) {
        const QString transport = parser.value(u"transport"_s);
        if (transport == u"qt")
            config.transport = GatewayConfig::Transport::Qt;
        else if (transport == u"own")
            config.transport = GatewayConfig::Transport::Own;
        else {
            *error = u"--transport must be qt or own (got \"%1\")"_s.arg(transport);
            return std::nullopt;
        }
    }
    if (parser.isSet(u"listen"_s)) {
        const auto endpoint = parseEndpoint(parser.value(u"listen"_s));
        if (!endpoint) {
            *error
                = u"--listen must be HOST:PORT with an IP address or localhost (got \"%1\")"_s.arg(
                    parser.value(u"listen"_s));
            return std::nullopt;
        }
        config.address = endpoint->address;
        config.port = endpoint->port;
    }

    const bool hasUsers = parser.isSet(u"users"_s);
    const bool hasGenerate = parser.isSet(u"generate"_s);
    options.friendsFromRedis = parser.isSet(u"friends-from-redis"_s);
    config.chat = !parser.isSet(u"no-chat"_s);
    // With the graph in Redis, users need not be in any file: a JSON Web Token names them.
    if (hasUsers == hasGenerate && !(options.friendsFromRedis && !hasGenerate)) {
        *error = hasUsers ? u"give either --users or --generate, not both"_s
                          : u"give --users FILE or --generate N"_s;
        return std::nullopt;
    }
    if (!hasGenerate && parser.isSet(u"friends"_s)) {
        *error = u"--friends goes with --generate"_s;
        return std::nullopt;
    }
    if (!hasGenerate && !parser.isSet(u"churn"_s) && parser.isSet(u"seed"_s)) {
        *error = u"--seed goes with --generate or --churn"_s;
        return std::nullopt;
    }
    if (parser.isSet(u"churn"_s)) {
        bool ok = false;
        const double rate = parser.value(u"churn"_s).toDouble(&ok);
        const QString problem = ok ? ChurnModel::checkRate(rate)
                                   : u"not a number (got \"%1\")"_s.arg(parser.value(u"churn"_s));
        if (!problem.isEmpty()) {
            *error = u"--churn: %1"_s.arg(problem);
            return std::nullopt;
        }
        options.churnRate = rate;
    }
    if (parser.isSet(u"scenario"_s)) {
        options.scenarioFile = parser.value(u"scenario"_s);
        if (options.scenarioFile.isEmpty()) {
            *error = u"--scenario needs a file"_s;
            return std::nullopt;
        }
    }
    options.usersFile = parser.value(u"users"_s);
    options.dumpUsersFile = parser.value(u"dump-users"_s);

    constexpr qint64 kDay = 24LL * 3600 * 1000;
    constexpr qint64 kIntMax = std::numeric_limits<int>::max();
    Reader read(parser, error);
    const auto generate = read.integer(u"generate"_s, 1, PopulationGenerator::kMaxUsers, 0);
    const auto friends = read.integer(u"friends"_s, 0, PopulationGenerator::kMaxFriendsPerUser, 50);
    const auto seed = read.integer(u"seed"_s, 0, std::numeric_limits<qint64>::max(), 1);
    const auto grace = read.integer(u"grace-ms"_s, 0, kDay, config.grace.count());
    const auto heartbeat = read.integer(u"heartbeat-ms"_s, 100, kDay, config.heartbeat.count());
    const auto hello = read.integer(u"hello-timeout-ms"_s, 100, kDay, config.helloTimeout.count());
    const auto upgrade
        = read.integer(u"upgrade-timeout-ms"_s, 100, kDay, config.upgradeTimeout.count());
    const auto drain = read.integer(u"drain-ms"_s, 0, kDay, config.drain.count());
    const auto maxConnections
        = read.integer(u"max-connections"_s, 0, 10'000'000, config.maxConnections);
    const auto maxPerAddress = read.integer(
        u"max-connections-per-address"_s, 0, 10'000'000, config.maxConnectionsPerAddress);
    const auto maxSubscriptions
        = read.integer(u"max-subscriptions"_s, 1, 1'000'000, config.maxSubscriptions);
    const auto maxIds = read.integer(u"max-ids-per-request"_s, 1, 100'000, config.maxIdsPerRequest);
    const auto maxAvailability
        = read.integer(u"max-availability-friends"_s, 0, 1'000'000, config.maxAvailabilityFriends);
    const auto digestInterval
        = read.integer(u"digest-interval-ms"_s, 0, kDay, config.digestInterval.count());
    const auto availabilityInterval = read.integer(
        u"availability-interval-ms"_s, 10, 60'000, config.availabilityInterval.count());
    const auto maxFrame
        = read.integer(u"max-frame-bytes"_s, 1024, 64 * 1024 * 1024, config.maxFrameBytes);
    const auto rate = read.integer(u"rate-limit"_s, 1, kIntMax, config.maxFramesPerSecond);
    const auto burst = read.integer(u"rate-burst"_s, 1, kIntMax, config.frameBurst);
    const auto ttl = read.integer(u"ttl-ms"_s, 300, kDay, 30'000);
    const auto heartbeatTtl = read.integer(u"heartbeat-ttl-ms"_s, 1000, kDay, 35'000);
    if (!generate || !friends || !seed || !grace || !heartbeat || !hello || !upgrade
        || !maxSubscriptions || !maxIds || !maxFrame || !rate || !burst || !ttl || !heartbeatTtl
        || !maxAvailability || !availabilityInterval || !digestInterval || !maxConnections
        || !maxPerAddress || !drain)
        return std::nullopt;
    if ((*maxConnections > 0 || *maxPerAddress > 0)
        && config.transport == GatewayConfig::Transport::Qt) {
        *error = u"--max-connections and --max-connections-per-address need --transport own"_s;
        return std::nullopt;
    }

    if (parser.isSet(u"redis"_s)) {
        QString why;
        const auto url = RedisUrl::parse(parser.value(u"redis"_s), &why);
        if (!url) {
            *error = u"--redis: %1"_s.arg(why);
            return std::nullopt;
        }
        RedisStoreOptions redis;
        redis.url = *url;
        redis.ttl = std::chrono::milliseconds(*ttl);
        redis.grace = std::chrono::milliseconds(*grace);
        if (parser.isSet(u"redis-prefix"_s)) {
            const QString prefix = parser.value(u"redis-prefix"_s);
            const bool printable = std::all_of(prefix.cbegin(), prefix.cend(),
                [](QChar c) { return c.unicode() > 0x20 && c.unicode() < 0x7f; });
            if (prefix.isEmpty() || prefix.size() > 64 || !printable) {
                *error = u"--redis-prefix must be 1 to 64 printable ASCII characters without "
                         "spaces (got \"%1\")"_s.arg(prefix);
                return std::nullopt;
            }
            redis.prefix = prefix.toLatin1();
        }
        options.redis = redis;
    } else if (parser.isSet(u"redis-prefix"_s) || parser.isSet(u"ttl-ms"_s)) {
        *error = u"--redis-prefix and --ttl-ms go with --redis"_s;
        return std::nullopt;
    }
    if (options.friendsFromRedis && !options.redis) {
        *error = u"--friends-from-redis goes with --redis"_s;
        return std::nullopt;
    }

    if (!parseAdmin(parser, std::chrono::milliseconds(*heartbeatTtl), options, error))
        return std::nullopt;
    if (!parseJwtKeys(parser, config, error))
        return std::nullopt;
    if (options.friendsFromRedis && !config.jwt) {
        *error = u"--friends-from-redis needs JSON Web Tokens (--jwt-hs256-secret-file or "
                 "--jwt-public-key-file): they name the users the users file does not"_s;
        return std::nullopt;
    }
    if (parser.isSet(u"tls-cert"_s) != parser.isSet(u"tls-key"_s)) {
        *error = u"give --tls-cert and --tls-key together"_s;
        return std::nullopt;
    }
    if (parser.isSet(u"tls-cert"_s)) {
        options.tlsCertificateFile = parser.value(u"tls-cert"_s);
        options.tlsKeyFile = parser.value(u"tls-key"_s);
        QString why;
        config.tls = TlsContext::load(options.tlsCertificateFile, options.tlsKeyFile, &why);
        if (!config.tls) {
            *error = u"--tls-cert/--tls-key: %1"_s.arg(why);
            return std::nullopt;
        }
        if (config.transport == GatewayConfig::Transport::Qt) {
            *error = u"--tls-cert needs the gateway's own transport (not --transport qt)"_s;
            return std::nullopt;
        }
        if (options.admin) {
            options.admin->tls
                = HttpsIdentity::load(options.tlsCertificateFile, options.tlsKeyFile, &why);
            if (!options.admin->tls) {
                *error = u"--tls-cert/--tls-key: %1"_s.arg(why);
                return std::nullopt;
            }
        }
    }

    if (hasGenerate)
        options.generateCount = int(*generate);
    options.friendsPerUser = int(*friends);
    options.seed = quint64(*seed);
    config.grace = std::chrono::milliseconds(*grace);
    config.heartbeat = std::chrono::milliseconds(*heartbeat);
    config.helloTimeout = std::chrono::milliseconds(*hello);
    config.upgradeTimeout = std::chrono::milliseconds(*upgrade);
    config.drain = std::chrono::milliseconds(*drain);
    config.maxConnections = int(*maxConnections);
    config.maxConnectionsPerAddress = int(*maxPerAddress);
    config.maxSubscriptions = int(*maxSubscriptions);
    config.maxIdsPerRequest = int(*maxIds);
    config.maxAvailabilityFriends = int(*maxAvailability);
    config.availabilityInterval = std::chrono::milliseconds(*availabilityInterval);
    config.digestInterval = std::chrono::milliseconds(*digestInterval);
    config.maxFrameBytes = int(*maxFrame);
    config.maxFramesPerSecond = int(*rate);
    config.frameBurst = int(*burst);
    config.allowedOrigins = parser.values(u"allow-origin"_s);
    for (const QString &origin : std::as_const(config.allowedOrigins)) {
        if (!origin.startsWith(u"http://") && !origin.startsWith(u"https://")) {
            *error = u"--allow-origin must be an origin such as https://example.org (got \"%1\")"_s
                         .arg(origin);
            return std::nullopt;
        }
    }
    if (parser.isSet(u"check-config"_s))
        options.action = Action::CheckConfig;
    if (parser.isSet(u"log-format"_s)) {
        const QString format = parser.value(u"log-format"_s);
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
    QString ignored; // parse() reports a bad config file
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addVersionOption();
    describeOptions(parser);
    (void)parser.parse(withConfig(args, &ignored).value_or(args));
    std::optional<QString> value;
    if (parser.isSet(u"event-loop"_s))
        value = parser.value(u"event-loop"_s);
    if (!value)
        return EventLoop::Epoll;
    return parseEventLoop(*value, error);
}

} // namespace Presence::Server
