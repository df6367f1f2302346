#include "server-mock/app/RedisOptions.h"

// C++
#include <algorithm>

// Presence
#include "server-mock/app/ServerCommandLine.h"
#include "server-mock/app/ServerOptions.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

bool RedisOptions::read(const ServerCommandLine &line, ServerOptions &options, QString *error)
{
    const auto ttl = line.integer(u"ttl-ms"_s, 300, ServerCommandLine::kDayMs, 30'000, error);
    if (!ttl)
        return false;
    options.friendsFromRedis = line.isSet(u"friends-from-redis"_s);
    if (line.isSet(u"redis"_s)) {
        QString why;
        const auto url = RedisUrl::parse(line.value(u"redis"_s), &why);
        if (!url) {
            *error = u"--redis: %1"_s.arg(why);
            return false;
        }
        RedisStoreOptions redis;
        redis.url = *url;
        redis.ttl = std::chrono::milliseconds(*ttl);
        redis.grace = options.config.grace;
        if (line.isSet(u"redis-prefix"_s)) {
            const QString prefix = line.value(u"redis-prefix"_s);
            const bool printable = std::all_of(prefix.cbegin(), prefix.cend(),
                [](QChar c) { return c.unicode() > 0x20 && c.unicode() < 0x7f; });
            if (prefix.isEmpty() || prefix.size() > 64 || !printable) {
                *error = u"--redis-prefix must be 1 to 64 printable ASCII characters without "
                         "spaces (got \"%1\")"_s.arg(prefix);
                return false;
            }
            redis.prefix = prefix.toLatin1();
        }
        options.redis = redis;
    } else if (line.isSet(u"redis-prefix"_s) || line.isSet(u"ttl-ms"_s)) {
        *error = u"--redis-prefix and --ttl-ms go with --redis"_s;
        return false;
    }
    if (options.friendsFromRedis && !options.redis) {
        *error = u"--friends-from-redis goes with --redis"_s;
        return false;
    }
    return true;
}

} // namespace Presence::Server
