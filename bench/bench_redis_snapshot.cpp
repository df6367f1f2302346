// bench_redis_snapshot: what the snapshot of a subscribe costs through the Redis store, and
// what it would cost one round trip per id.
//
// It starts its own redis-server (free 127.0.0.1 port, --save "" --appendonly no, files in a
// temporary directory) unless --redis names one. A "writer" RedisPresenceStore opens one
// connection for each of N users (default 10,000), so the presence in Redis is what the device
// script really writes (dev:, st:, pub: of every user, seq 1, online); the program waits until
// Redis holds all of them. A second store, the "reader", plays the gateway whose client
// subscribes. Each run then times, on the same ids:
//   (a) reader.snapshot(ids): from the call to its callback. The store pipelines HMGET pub:<id>
//       in chunks (500 ids by default): all chunks go out at once, one round trip each;
//       round trips are the delta of reader.client().roundTrips();
//   (b) one EXISTS <prefix>pub:<id> per id through a RedisClient, each sent only once the
//       previous reply has arrived: N round trips, the cost of checking ids one at a time.
// Both stores use a TTL and sweep interval of 1 h, so no refresh or sweep runs while
// measuring. One untimed warm-up of each comes first; the figures are the median, min and
// max over the runs, and the ratio of the medians.
//
// Run: ./bench_redis_snapshot [--users N] [--runs R] [--chunk C] [--redis URL]

// C++
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

// Qt
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QLoggingCategory>
#include <QRandomGenerator>

// Presence
#include "IntegerOption.h"
#include "RedisBenchSupport.h"
#include "Summary.h"
#include "server-mock/redis/RedisPresenceStore.h"
#include "server-mock/redis/client/RedisClient.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Protocol::ChosenStatus;
using Presence::Protocol::PresenceStatus;
using Presence::Protocol::UserPresence;
using Presence::Server::ConnectionId;
using Presence::Server::RedisClient;
using Presence::Server::RedisPresenceStore;
using Presence::Server::RedisReply;
using Presence::Server::RedisStoreOptions;
using Presence::Server::RedisUrl;
using RedisBench::waitUntil;

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
    int users = 10'000;
    int runs = 20;
    int chunk = 500;
    std::optional<RedisUrl> redis;
};

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

QString userId(int index)
{
    return u"user%1"_s.arg(index, 5, 10, QChar(u'0'));
}

RedisStoreOptions storeOptions(const RedisUrl &url, const QByteArray &prefix, int chunk)
{
    RedisStoreOptions options;
    options.url = url;
    options.prefix = prefix;
    options.ttl = 1h; // no refresh while measuring
    options.sweepInterval = 1h; // and no sweep
    options.snapshotChunk = chunk;
    return options;
}

// Fills Redis through the writer store and waits until every device script has run (each
// adds its user to <prefix>due). Returns the seconds it took, or -1.
double fill(RedisPresenceStore &writer, RedisClient &probe, const QStringList &ids)
{
    const QByteArray due = writer.options().prefix + "due";
    const auto written = [&probe, &due]() -> qint64 {
        const auto reply = redisCall(probe, { "ZCARD", due });
        const auto count = reply ? reply->toInteger() : std::nullopt;
        return count.value_or(-1);
    };
    const auto start = Clock::now();
    qsizetype opened = 0;
    const auto openUpTo = [&](qsizetype end) {
        for (; opened < end; ++opened)
            writer.connectionOpened(ids.at(opened), ConnectionId(opened + 1), ChosenStatus::Online);
        const auto deadline = Clock::now() + 60s;
        while (written() < end) {
            if (Clock::now() > deadline)
                return false;
            RedisBench::pause(5ms);
        }
        return true;
    };
    // The first user alone, so that Redis caches the script before the others ask for it
    // (EVALSHA of an unknown script costs a second round trip with the whole source); then
    // batches of 1000, so that no batch waits long enough to hit the reply timeout.
    if (!openUpTo(1))
        return -1;
    while (opened < ids.size()) {
        if (!openUpTo(std::min(ids.size(), opened + 1000)))
            return -1;
    }
    return msSince(start) / 1000;
}

struct SnapshotRun {
    double ms = 0;
    quint64 roundTrips = 0;
    qsizetype online = 0;
    qsizetype returned = 0;
};

std::optional<SnapshotRun> timeSnapshot(RedisPresenceStore &reader, const QStringList &ids)
{
    QObject context;
    bool done = false;
    SnapshotRun run;
    const quint64 before = reader.client().roundTrips();
    const auto start = Clock::now();
    reader.snapshot(ids, &context, [&](const QList<UserPresence> &users) {
        run.ms = msSince(start);
        done = true;
        run.returned = users.size();
        run.online = std::count_if(users.cbegin(), users.cend(), [](const UserPresence &user) {
            return user.status == PresenceStatus::Online && user.seq >= 1;
        });
    });
    if (!waitUntil([&done] { return done; }, 60s))
        return std::nullopt;
    run.roundTrips = reader.client().roundTrips() - before;
    return run;
}

struct ExistsRun {
    double ms = 0;
    quint64 roundTrips = 0;
    qsizetype found = 0;
    bool failed = false;
};

std::optional<ExistsRun> timeExistsOneByOne(
    RedisClient &client, const QByteArray &prefix, const QStringList &ids)
{
    // Shared with the callbacks, which could outlive a timed-out wait.
    struct State {
        ExistsRun run;
        qsizetype next = 0;
        bool done = false;
        std::function<void()> sendNext;
    };
    auto state = std::make_shared<State>();
    const quint64 before = client.roundTrips();
    const auto start = Clock::now();
    std::weak_ptr<State> weak = state;
    state->sendNext = [&client, &prefix, &ids, start, weak] {
        const auto self = weak.lock();
        if (!self)
            return;
        client.command({ "EXISTS", prefix + "pub:" + ids.at(self->next).toUtf8() }, &client,
            [weak, start, count = ids.size()](const RedisReply &reply) {
                const auto current = weak.lock();
                if (!current)
                    return;
                const auto exists = reply.toInteger();
                if (!exists)
                    current->run.failed = true;
                else if (*exists == 1)
                    ++current->run.found;
                if (++current->next < count && !current->run.failed) {
                    current->sendNext();
                    return;
                }
                current->run.ms = msSince(start);
                current->done = true;
            });
    };
    state->sendNext();
    if (!waitUntil([&state] { return state->done; }, 300s))
        return std::nullopt;
    state->run.roundTrips = client.roundTrips() - before;
    return state->run;
}

void printSummary(const char *label, const std::vector<double> &values, const char *unit)
{
    const Summary s = summarize(values);
    std::printf(
        "  %-44s median %9.2f %s   min %9.2f   max %9.2f\n", label, s.median, unit, s.min, s.max);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Times a Redis store snapshot of many users against one EXISTS per user."_s);
    parser.addHelpOption();
    const QCommandLineOption usersOption(u"users"_s, u"Users (default 10000)."_s, u"N"_s);
    const QCommandLineOption runsOption(u"runs"_s, u"Repetitions (default 20)."_s, u"R"_s);
    const QCommandLineOption chunkOption(
        u"chunk"_s, u"Ids per pipelined snapshot round trip (default 500)."_s, u"C"_s);
    const QCommandLineOption redisOption(u"redis"_s,
        u"Use this Redis (redis://HOST:PORT/DB) instead of starting a redis-server."_s, u"URL"_s);
    parser.addOptions({ usersOption, runsOption, chunkOption, redisOption });
    parser.process(app);

    Options options;
    options.users = integerOption(parser, usersOption, 1, 1'000'000, options.users);
    options.runs = integerOption(parser, runsOption, 1, 1000, options.runs);
    options.chunk = integerOption(parser, chunkOption, 1, 100'000, options.chunk);
    if (parser.isSet(redisOption)) {
        QString error;
        options.redis = RedisUrl::parse(parser.value(redisOption), &error);
        if (!options.redis) {
            std::fprintf(stderr, "--redis: %s\n", qPrintable(error));
            return 2;
        }
    }
    // A line per connection and store would drown the figures (QT_LOGGING_RULES overrides).
    QLoggingCategory::setFilterRules(u"presence.*.info=false"_s);

    RedisServer localRedis;
    RedisUrl url;
    if (!RedisBench::redisToUse(options.redis, localRedis, &url))
        return 1;
    const QByteArray prefix = RedisBench::runPrefix("bench-snapshot");

    RedisClient probe;
    probe.connectTo(url);
    // Runs last, once the stores below are gone.
    const RedisBench::KeyCleanup cleanup(probe, prefix, options.redis.has_value());
    RedisClient single;
    single.connectTo(url);
    RedisPresenceStore writer(storeOptions(url, prefix, options.chunk));
    RedisPresenceStore reader(storeOptions(url, prefix, options.chunk));
    const bool ready = waitUntil(
        [&] {
            return probe.state() == RedisClient::State::Ready
                && single.state() == RedisClient::State::Ready && writer.isAvailable()
                && reader.isAvailable();
        },
        10s);
    if (!ready) {
        std::fprintf(stderr, "Redis at %s did not become ready\n", qPrintable(url.toString()));
        return 1;
    }

    std::printf("bench_redis_snapshot: presence of %d users in Redis, read %d times each way\n",
        options.users, options.runs);
    std::printf("Redis %s at %s (%s), key prefix \"%s\"; 1-min load average %.2f\n",
        RedisBench::redisVersion(probe).constData(), qPrintable(url.toString()),
        options.redis ? "given with --redis"
                      : "own redis-server: --save \"\" --appendonly no, temporary dir",
        prefix.constData(), RedisBench::loadAverage());

    QStringList ids;
    ids.reserve(options.users);
    for (int i = 0; i < options.users; ++i)
        ids.append(userId(i));

    const double fillSeconds = fill(writer, probe, ids);
    if (fillSeconds < 0) {
        std::fprintf(stderr, "Redis did not hold every user's presence within 60 s\n");
        return 1;
    }
    const auto keyCount = redisCall(probe, { "DBSIZE" });
    std::printf("Filled: writer store, connectionOpened(online) for %d users: %d device scripts "
                "in %.2f s; DBSIZE %lld\n",
        options.users, options.users, fillSeconds,
        keyCount ? static_cast<long long>(keyCount->toInteger().value_or(-1)) : -1LL);
    std::printf("\nMethod, per run, on the same %d ids (one untimed warm-up of each first):\n"
                "  (a) reader RedisPresenceStore::snapshot(ids), call to callback: HMGET "
                "pub:<id> status seq last_seen,\n"
                "      pipelined in chunks of %d ids, all chunks sent at once; round trips = "
                "delta of client().roundTrips()\n"
                "  (b) EXISTS <prefix>pub:<id> through one RedisClient, one id at a time, each "
                "sent after the previous reply\n"
                "  Same process, one event loop (hiredis async on Qt); Redis on loopback.\n\n",
        options.users, options.chunk);

    // Warm-up: connections, allocator, Redis's caches.
    if (!timeSnapshot(reader, ids) || !timeExistsOneByOne(single, prefix, ids)) {
        std::fprintf(stderr, "warm-up failed: no answer from Redis\n");
        return 1;
    }

    std::vector<double> snapshotMs;
    std::vector<double> existsMs;
    std::vector<quint64> snapshotTrips;
    std::vector<quint64> existsTrips;
    bool allCorrect = true;
    for (int run = 0; run < options.runs; ++run) {
        const auto snapshot = timeSnapshot(reader, ids);
        const auto exists = timeExistsOneByOne(single, prefix, ids);
        if (!snapshot || !exists) {
            std::fprintf(stderr, "run %d: no answer from Redis\n", run + 1);
            return 1;
        }
        snapshotMs.push_back(snapshot->ms);
        existsMs.push_back(exists->ms);
        snapshotTrips.push_back(snapshot->roundTrips);
        existsTrips.push_back(exists->roundTrips);
        const bool correct = snapshot->returned == ids.size() && snapshot->online == ids.size()
            && exists->found == ids.size() && !exists->failed;
        allCorrect = allCorrect && correct;
        std::printf("run %2d: (a) snapshot %8.2f ms, %llu round trips, %lld of %lld online | "
                    "(b) EXISTS one by one %8.2f ms, %llu round trips, %lld exist%s\n",
            run + 1, snapshot->ms, static_cast<unsigned long long>(snapshot->roundTrips),
            static_cast<long long>(snapshot->online), static_cast<long long>(ids.size()),
            exists->ms, static_cast<unsigned long long>(exists->roundTrips),
            static_cast<long long>(exists->found), correct ? "" : "  WRONG");
    }

    const Summary a = summarize(snapshotMs);
    const Summary b = summarize(existsMs);
    const auto [tripsMinA, tripsMaxA]
        = std::minmax_element(snapshotTrips.cbegin(), snapshotTrips.cend());
    const auto [tripsMinB, tripsMaxB]
        = std::minmax_element(existsTrips.cbegin(), existsTrips.cend());
    std::printf("\nSummary over %d runs (%d ids; load average now %.2f):\n", options.runs,
        options.users, RedisBench::loadAverage());
    printSummary("(a) snapshot through the store", snapshotMs, "ms");
    printSummary("(b) one EXISTS at a time", existsMs, "ms");
    std::printf(
        "  round trips per run: (a) %llu-%llu (expected %d = ceil(%d / %d)), (b) %llu-%llu\n",
        static_cast<unsigned long long>(*tripsMinA), static_cast<unsigned long long>(*tripsMaxA),
        (options.users + options.chunk - 1) / options.chunk, options.users, options.chunk,
        static_cast<unsigned long long>(*tripsMinB), static_cast<unsigned long long>(*tripsMaxB));
    std::printf("  per id (medians): (a) %.2f us, (b) %.2f us\n", a.median * 1000 / options.users,
        b.median * 1000 / options.users);
    std::printf("  ratio of medians (b) / (a): %.1f x\n", b.median / a.median);
    std::printf("  results: %s\n",
        allCorrect ? "every run saw every user online (seq >= 1) and every pub: key present"
                   : "SOME RUNS READ WRONG PRESENCE (see WRONG above)");
    // What tools/bench.sh compares: how many times faster the snapshot is than the same ids
    // one round trip at a time in the same run. Not the snapshot's time alone: it moved 2x
    // between quick runs on the shared machine, while the ratio moved by a fifth.
    std::printf("\nheadline: redis_snapshot_speedup %.1f x higher\n", b.median / a.median);

    return allCorrect ? 0 : 1;
}
