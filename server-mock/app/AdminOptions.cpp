#include "server-mock/app/AdminOptions.h"

// C++
#include <algorithm>

// Qt
#include <QFile>

// Presence
#include "server-mock/app/ListeningOptions.h"
#include "server-mock/app/ServerCommandLine.h"
#include "server-mock/app/ServerOptions.h"
#include "server-mock/http/HttpsIdentity.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

bool AdminOptions::isAcceptableToken(const QString &token)
{
    return token.size() >= 16 && token.size() <= 512
        && std::all_of(token.cbegin(), token.cend(),
            [](QChar c) { return c.unicode() > 0x20 && c.unicode() < 0x7f; });
}

bool AdminOptions::read(const ServerCommandLine &line, ServerOptions &options, QString *error)
{
    const auto heartbeatTtl
        = line.integer(u"heartbeat-ttl-ms"_s, 1000, ServerCommandLine::kDayMs, 35'000, error);
    if (!heartbeatTtl)
        return false;
    const bool wanted = line.isSet(u"admin"_s);
    for (const QString &name :
        { u"admin-token"_s, u"admin-token-file"_s, u"admin-remote"_s, u"heartbeat-ttl-ms"_s }) {
        if (!wanted && line.isSet(name)) {
            *error = u"--%1 goes with --admin"_s.arg(name);
            return false;
        }
    }
    if (!wanted)
        return true;
    const auto endpoint = ListeningOptions::endpoint(line.value(u"admin"_s));
    if (!endpoint) {
        *error = u"--admin must be HOST:PORT with an IP address or localhost (got \"%1\")"_s.arg(
            line.value(u"admin"_s));
        return false;
    }
    if (!endpoint->address.isLoopback() && !line.isSet(u"admin-remote"_s)) {
        *error = u"--admin %1 is not a loopback address: the admin API injects faults and "
                 "simulates users; add --admin-remote to expose it anyway"_s.arg(
                     line.value(u"admin"_s));
        return false;
    }
    AdminServerOptions admin;
    admin.address = endpoint->address;
    admin.port = endpoint->port;
    admin.heartbeatTtl = std::chrono::milliseconds(*heartbeatTtl);
    if (line.isSet(u"admin-token"_s) && line.isSet(u"admin-token-file"_s)) {
        *error = u"give --admin-token or --admin-token-file, not both"_s;
        return false;
    }
    if (line.isSet(u"admin-token-file"_s)) {
        const QString path = line.value(u"admin-token-file"_s);
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            *error = u"--admin-token-file %1: %2"_s.arg(path, file.errorString());
            return false;
        }
        admin.adminToken = QString::fromUtf8(file.read(4096)).trimmed();
        if (!isAcceptableToken(admin.adminToken)) {
            *error = u"--admin-token-file %1: the token must be 16 to 512 printable ASCII "
                     "characters without spaces"_s.arg(path);
            return false;
        }
    } else if (line.isSet(u"admin-token"_s)) {
        admin.adminToken = line.value(u"admin-token"_s);
        if (!isAcceptableToken(admin.adminToken)) {
            *error = u"--admin-token must be 16 to 512 printable ASCII characters without "
                     "spaces"_s;
            return false;
        }
    }
    if (!options.tlsCertificateFile.isEmpty()) {
        QString why;
        admin.tls = HttpsIdentity::load(options.tlsCertificateFile, options.tlsKeyFile, &why);
        if (!admin.tls) {
            *error = u"--tls-cert/--tls-key: %1"_s.arg(why);
            return false;
        }
    }
    options.admin = admin;
    return true;
}

} // namespace Presence::Server
