#pragma once

// What the Redis benchmarks share besides the harness (its RedisServer, redisCall() and
// waits): readings of Redis's and our CPU time, a key prefix of their own and its cleanup.

// C++
#include <chrono>
#include <cstdio>
#include <optional>
// System
#include <time.h>

// Qt
#include <QFile>
#include <QRandomGenerator>

// Presence
#include "server-mock/redis/client/RedisClient.h"
#include "server-mock/redis/client/RedisUrl.h"
#include "tests/harness/EventLoopWait.h"
#include "tests/harness/RedisCall.h"
#include "tests/harness/RedisServer.h"

namespace RedisBench {

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

using Harness::pause;
using Harness::waitUntil;

// One field of an INFO section ("used_cpu_user"), as text; empty if absent.
inline QByteArray infoField(const QByteArray &info, const QByteArray &name)
{
    for (const QByteArray &line : info.split('\n')) {
        if (line.startsWith(name + ':'))
            return line.mid(name.size() + 1).trimmed();
    }
    return {};
}

// CPU seconds the Redis server has used (used_cpu_user + used_cpu_sys of INFO cpu: the whole
// redis-server process, as getrusage reports it); nullopt if it did not answer.
inline std::optional<double> redisCpuSeconds(Presence::Server::RedisClient &client)
{
    const auto reply = redisCall(client, { "INFO", "cpu" });
    const auto text = reply ? reply->toBytes() : std::nullopt;
    if (!text)
        return std::nullopt;
    return infoField(*text, "used_cpu_user").toDouble()
        + infoField(*text, "used_cpu_sys").toDouble();
}

// "7.0.15", or "?" if the server did not say.
inline QByteArray redisVersion(Presence::Server::RedisClient &client)
{
    const auto reply = redisCall(client, { "INFO", "server" });
    const auto text = reply ? reply->toBytes() : std::nullopt;
    const QByteArray version = text ? infoField(*text, "redis_version") : QByteArray();
    return version.isEmpty() ? QByteArray("?") : version;
}

// Seconds of CPU time on a clock such as CLOCK_PROCESS_CPUTIME_ID or CLOCK_THREAD_CPUTIME_ID.
inline double cpuSeconds(clockid_t clock)
{
    timespec now {};
    clock_gettime(clock, &now);
    return double(now.tv_sec) + double(now.tv_nsec) / 1e9;
}

// The 1-minute load average, or -1.
inline double loadAverage()
{
    QFile file(u"/proc/loadavg"_s);
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    return file.readAll().split(' ').value(0).toDouble();
}

// Resident set size of this process in MiB, or -1 if /proc is not there.
inline double residentMiB()
{
    QFile status(u"/proc/self/status"_s);
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toDouble() / 1024;
    }
    return -1;
}

// Deletes every key under a prefix when destroyed: a Redis given with --redis is left as it
// was found. Declare it after its client and before whatever writes under the prefix, so
// that it runs once they are gone.
class KeyCleanup {
public:
    KeyCleanup(Presence::Server::RedisClient &client, QByteArray prefix, bool enabled)
        : m_client(client)
        , m_prefix(std::move(prefix))
        , m_enabled(enabled)
    {
    }
    ~KeyCleanup()
    {
        if (!m_enabled)
            return;
        pause(200ms); // what the last writers sent on their own connections lands first
        (void)redisCall(m_client,
            { "EVAL",
                "local n = 0 for _, k in ipairs(redis.call('KEYS', ARGV[1])) do "
                "redis.call('DEL', k) n = n + 1 end return n",
                "0", m_prefix + '*' });
    }
    KeyCleanup(const KeyCleanup &) = delete;
    KeyCleanup &operator=(const KeyCleanup &) = delete;

private:
    Presence::Server::RedisClient &m_client;
    QByteArray m_prefix;
    bool m_enabled;
};

// The Redis a benchmark works in: the one given with --redis, else `local` started here (and
// stopped when it goes); false with the reason on stderr when it cannot start.
inline bool redisToUse(const std::optional<Presence::Server::RedisUrl> &given, RedisServer &local,
    Presence::Server::RedisUrl *url)
{
    if (!given && !local.start()) {
        std::fprintf(stderr, "%s (or pass --redis)\n", qPrintable(local.error()));
        return false;
    }
    *url = given.value_or(local.url());
    return true;
}

// A key prefix of its own, "<name>-<random>:", so that an existing Redis is not disturbed (and
// KeyCleanup can remove exactly what the run wrote).
inline QByteArray runPrefix(const char *name)
{
    return QByteArray(name) + '-' + QByteArray::number(QRandomGenerator::global()->generate(), 36)
        + ':';
}

} // namespace RedisBench
