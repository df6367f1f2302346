#include "server-mock/app/TokenOptions.h"

// Qt
#include <QSet>

// Presence
#include "protocol/Identifiers.h"
#include "server-mock/app/ServerCommandLine.h"
#include "server-mock/identity/JwtVerifier.h"
#include "server-mock/server/GatewayConfig.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

bool TokenOptions::read(const ServerCommandLine &line, GatewayConfig &config, QString *error)
{
    QList<JwtKey> keys;
    QSet<QString> kids;
    for (const bool secret : { true, false }) {
        const QString option = secret ? u"jwt-hs256-secret-file"_s : u"jwt-public-key-file"_s;
        for (const QString &value : line.values(option)) {
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

} // namespace Presence::Server
