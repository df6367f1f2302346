#pragma once

// What the Redis benchmarks share: a private redis-server, waiting on the event loop without
// sleeping, one Redis command answered in place, and readings of Redis's and our CPU time.

#include <time.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>

#include <QCoreApplication>
#include <QFile>
#include <QHostAddress>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTimer>

#include "server-mock/redis/client/RedisClient.h"
#include "server-mock/redis/client/RedisUrl.h"

#include "EventLoopWait.h"

namespace RedisBench {

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

using BenchSupport::pause;
using BenchSupport::waitUntil;

// Sends one command and waits for its reply; nullopt if none came within timeout.
inline std::optional<Presence::Gateway::RedisReply> call(Presence::Gateway::RedisClient &client,
    Presence::Gateway::RedisClient::Command argv, std::chrono::milliseconds timeout = 10s)
{
    // Shared: a reply that comes after the timeout must not write into a finished frame.
    auto reply = std::make_shared<std::optional<Presence::Gateway::RedisReply>>();
    client.command(std::move(argv), &client,
        [reply](const Presence::Gateway::RedisReply &answer) { *reply = answer; });
    if (!waitUntil([&reply] { return reply->has_value(); }, timeout))
        return std::nullopt;
    return *reply;
}

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
inline std::optional<double> redisCpuSeconds(Presence::Gateway::RedisClient &client)
{
    const auto reply = call(client, { "INFO", "cpu" });
    const auto text = reply ? reply->toBytes() : std::nullopt;
    if (!text)
        return std::nullopt;
    return infoField(*text, "used_cpu_user").toDouble()
        + infoField(*text, "used_cpu_sys").toDouble();
}

// "7.0.15", or "?" if the server did not say.
inline QByteArray redisVersion(Presence::Gateway::RedisClient &client)
{
    const auto reply = call(client, { "INFO", "server" });
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
    KeyCleanup(Presence::Gateway::RedisClient &client, QByteArray prefix, bool enabled)
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
        (void)call(m_client,
            { "EVAL",
                "local n = 0 for _, k in ipairs(redis.call('KEYS', ARGV[1])) do "
                "redis.call('DEL', k) n = n + 1 end return n",
                "0", m_prefix + '*' });
    }
    KeyCleanup(const KeyCleanup &) = delete;
    KeyCleanup &operator=(const KeyCleanup &) = delete;

private:
    Presence::Gateway::RedisClient &m_client;
    QByteArray m_prefix;
    bool m_enabled;
};

// A private redis-server: loopback only, on a free port, no persistence (--save ""
// --appendonly no), its files in a temporary directory of its own. Killed when destroyed.
class LocalRedis {
public:
    LocalRedis() { m_process.setProcessChannelMode(QProcess::MergedChannels); }
    ~LocalRedis() { stop(); }
    LocalRedis(const LocalRedis &) = delete;
    LocalRedis &operator=(const LocalRedis &) = delete;

    // Starts it and returns once it answers PING (blocking: nothing else runs yet); else
    // false with *error saying why.
    [[nodiscard]] bool start(QString *error)
    {
        const QString program = QStandardPaths::findExecutable(u"redis-server"_s);
        if (program.isEmpty()) {
            *error = u"redis-server not found (Debian's redis-server package), or pass --redis"_s;
            return false;
        }
        if (!m_dir.isValid()) {
            *error = u"no temporary directory: %1"_s.arg(m_dir.errorString());
            return false;
        }
        // A free port may be taken again before redis-server binds it: then try another.
        for (int attempt = 0; attempt < 5; ++attempt) {
            const quint16 port = freePort();
            if (port && launch(program, port, error))
                return true;
        }
        return false;
    }

    void stop() { BenchSupport::stopProcess(m_process); }

    [[nodiscard]] Presence::Gateway::RedisUrl url() const
    {
        return Presence::Gateway::RedisUrl { u"127.0.0.1"_s, m_port, 0 };
    }
    [[nodiscard]] qint64 pid() const { return m_process.processId(); }

private:
    // A port nothing listens on right now: bound to 127.0.0.1:0, then released.
    static quint16 freePort()
    {
        QTcpServer server;
        if (!server.listen(QHostAddress::LocalHost, 0))
            return 0;
        const quint16 port = server.serverPort();
        server.close();
        return port;
    }

    bool launch(const QString &program, quint16 port, QString *error)
    {
        m_process.start(program,
            { u"--port"_s, QString::number(port), u"--bind"_s, u"127.0.0.1"_s, u"--save"_s, u""_s,
                u"--appendonly"_s, u"no"_s, u"--dir"_s, m_dir.path(), u"--daemonize"_s, u"no"_s,
                u"--loglevel"_s, u"warning"_s });
        if (!m_process.waitForStarted(5000)) {
            *error = u"cannot start %1: %2"_s.arg(program, m_process.errorString());
            return false;
        }
        for (int attempt = 0; attempt < 100 && m_process.state() == QProcess::Running; ++attempt) {
            if (answersPing(port)) {
                m_port = port;
                return true;
            }
            m_process.waitForFinished(50);
        }
        *error = u"redis-server on port %1 did not answer PING: %2"_s.arg(port).arg(
            QString::fromLocal8Bit(m_process.readAll()));
        stop();
        return false;
    }

    static bool answersPing(quint16 port)
    {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, port);
        if (!socket.waitForConnected(200))
            return false;
        socket.write("PING\r\n");
        QByteArray answer;
        while (!answer.contains('\n') && socket.waitForReadyRead(200))
            answer += socket.readAll();
        return answer.startsWith("+PONG");
    }

    QTemporaryDir m_dir;
    QProcess m_process;
    quint16 m_port = 0;
};

// The Redis a benchmark works in: the one given with --redis, else `local` started here (and
// stopped when it goes); false with the reason on stderr when it cannot start.
inline bool redisToUse(const std::optional<Presence::Gateway::RedisUrl> &given, LocalRedis &local,
    Presence::Gateway::RedisUrl *url)
{
    if (!given) {
        QString error;
        if (!local.start(&error)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return false;
        }
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
