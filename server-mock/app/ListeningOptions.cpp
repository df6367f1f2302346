#include "server-mock/app/ListeningOptions.h"

// Presence
#include "server-mock/app/ServerCommandLine.h"
#include "server-mock/app/ServerOptions.h"
#include "server-mock/transport/TlsContext.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

std::optional<ListeningOptions::Endpoint> ListeningOptions::endpoint(const QString &text)
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

bool ListeningOptions::read(const ServerCommandLine &line, ServerOptions &options, QString *error)
{
    GatewayConfig &config = options.config;
    if (line.isSet(u"transport"_s)) {
        const QString transport = line.value(u"transport"_s);
        if (transport == u"qt")
            config.transport = GatewayConfig::Transport::Qt;
        else if (transport == u"own")
            config.transport = GatewayConfig::Transport::Own;
        else {
            *error = u"--transport must be qt or own (got \"%1\")"_s.arg(transport);
            return false;
        }
    }
    if (line.isSet(u"listen"_s)) {
        const auto listen = endpoint(line.value(u"listen"_s));
        if (!listen) {
            *error
                = u"--listen must be HOST:PORT with an IP address or localhost (got \"%1\")"_s.arg(
                    line.value(u"listen"_s));
            return false;
        }
        config.address = listen->address;
        config.port = listen->port;
    }

    constexpr qint64 kDay = ServerCommandLine::kDayMs;
    const auto upgrade
        = line.integer(u"upgrade-timeout-ms"_s, 100, kDay, config.upgradeTimeout.count(), error);
    const auto maxConnections
        = line.integer(u"max-connections"_s, 0, 10'000'000, config.maxConnections, error);
    const auto maxPerAddress = line.integer(
        u"max-connections-per-address"_s, 0, 10'000'000, config.maxConnectionsPerAddress, error);
    if (!upgrade || !maxConnections || !maxPerAddress)
        return false;
    if ((*maxConnections > 0 || *maxPerAddress > 0)
        && config.transport == GatewayConfig::Transport::Qt) {
        *error = u"--max-connections and --max-connections-per-address need --transport own"_s;
        return false;
    }
    config.upgradeTimeout = std::chrono::milliseconds(*upgrade);
    config.maxConnections = int(*maxConnections);
    config.maxConnectionsPerAddress = int(*maxPerAddress);

    if (line.isSet(u"tls-cert"_s) != line.isSet(u"tls-key"_s)) {
        *error = u"give --tls-cert and --tls-key together"_s;
        return false;
    }
    if (line.isSet(u"tls-cert"_s)) {
        options.tlsCertificateFile = line.value(u"tls-cert"_s);
        options.tlsKeyFile = line.value(u"tls-key"_s);
        QString why;
        config.tls = TlsContext::load(options.tlsCertificateFile, options.tlsKeyFile, &why);
        if (!config.tls) {
            *error = u"--tls-cert/--tls-key: %1"_s.arg(why);
            return false;
        }
        if (config.transport == GatewayConfig::Transport::Qt) {
            *error = u"--tls-cert needs the gateway's own transport (not --transport qt)"_s;
            return false;
        }
    }

    config.allowedOrigins = line.values(u"allow-origin"_s);
    for (const QString &origin : std::as_const(config.allowedOrigins)) {
        if (!origin.startsWith(u"http://") && !origin.startsWith(u"https://")) {
            *error = u"--allow-origin must be an origin such as https://example.org (got \"%1\")"_s
                         .arg(origin);
            return false;
        }
    }
    return true;
}

} // namespace Presence::Server
