// bench_redis_fanout: how long a presence change takes to reach watchers on another gateway
// through Redis, and what it costs Redis.
//
// It starts its own redis-server (free 127.0.0.1 port, --save "" --appendonly no, files in a
// temporary directory) unless --redis names one, and two in-process Gateways, A and B, each
// with its own RedisPresenceStore (store defaults: TTL 30 s refreshed every 10 s, grace 5 s,
// sweep every second, snapshot chunks of 500) on that Redis, listening on 127.0.0.1:0.
// Population: 2 x C users (default C = 2,000 per gateway); user i < C connects to A, user
// C + i to B. Each user of A is a (mutual) friend of F users of B (default 50), chosen so that
// each user of B also has exactly F friends, all on A: A's user i and B's user
// C + (i + k * (C / F)) mod C for k < F. Every user has one raw QWebSocket client in this
// process, which signs in and subscribes to all its friends; so each change has exactly F
// watchers, all on the other gateway, and each gateway subscribes to the channels of the C
// users of the other one.
//
// Then for S seconds (default 10) a 1 ms timer sends R set_status per second in total
// (default 500; online and away alternating per user, so every change is published at once)
// on connections picked at random on both gateways. The send time of each change is taken
// just before its frame is written; each watcher's client takes the receipt time first thing
// when its `presence` frame arrives, and matches it to the change by user id and seq (seq
// grows by one per published change from the value read from Redis before the run). Reported:
// latency p50/p90/p99/max over every push, pushes received against F per change, checks
// (status and per-watcher order), Redis CPU over the S seconds (INFO cpu: used_cpu_user +
// used_cpu_sys, the whole redis-server process) as % of one core, and this process's CPU.
//
// Everything runs in this one process. By default clients, driver, both gateways and their
// hiredis connections share one thread and event loop, so the latency includes waiting in
// that loop; with --gateway-threads each gateway (with its store) runs on a thread of its own
// and the clients and the driver stay on the main thread. The program reports each thread's
// CPU use, so that saturation shows, and the event dispatchers in use.
//
// The event loop and the gateway's WebSocket transport are those of presence-mock-server by
// default: its epoll dispatcher (EpollEventDispatcher, installed before QCoreApplication as
// the gateway's main does, and on each gateway thread before it starts) and its own transport.
// --event-loop qt keeps Qt's default dispatcher (glib's unless QT_NO_GLIB=1 is set: with
// thousands of sockets on one thread its per-write cost grows with their number, see
// docs/benchmarks.md); --transport qt puts QWebSocket on the gateways' side. The clients are
// QWebSocket in every case, on the main thread's dispatcher.
//
// Run: ./bench_redis_fanout [--connections C] [--friends F] [--rate R] [--seconds S]
//      [--seed X] [--redis URL] [--gateway-threads] [--event-loop epoll|qt]
//      [--transport own|qt]

// C++
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <random>
#include <vector>
// System
#include <time.h>

// Qt
#include <QAbstractEventDispatcher>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QThread>
#include <QTimer>
#include <QWebSocket>

// Presence
#include "RedisBenchSupport.h"
#include "server-mock/app/FileLimit.h"
#include "server-mock/chat/MemoryChatStore.h"
#include "server-mock/directory/UserDirectory.h"
#include "server-mock/loop/EpollEventDispatcher.h"
#include "server-mock/redis/RedisPresenceStore.h"
#include "server-mock/redis/client/RedisClient.h"
#include "server-mock/server/Gateway.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Protocol::PresenceStatus;
using Presence::Protocol::UserPresence;
using Presence::Server::EpollEventDispatcher;
using Presence::Server::Gateway;
using Presence::Server::GatewayConfig;
using Presence::Server::MemoryChatStore;
using Presence::Server::RedisClient;
using Presence::Server::RedisPresenceStore;
using Presence::Server::RedisReply;
using Presence::Server::RedisStoreOptions;
using Presence::Server::RedisUrl;
using Presence::Server::UserDirectory;
using RedisBench::waitUntil;

namespace {

using Clock = std::chrono::steady_clock;

// The dispatcher of the main thread and of the gateway threads.
enum class EventLoop { Epoll, Qt };

struct Options {
    int connections = 2000; // per gateway
    int friends = 50;
    int rate = 500;
    int seconds = 10;
    quint32 seed = 42;
    std::optional<RedisUrl> redis;
    bool gatewayThreads = false;
    EventLoop eventLoop = EventLoop::Epoll;
    GatewayConfig::Transport transport = GatewayConfig::Transport::Own;
};

qint64 nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
        .count();
}

QString userId(int index)
{
    return u"u%1"_s.arg(index, 5, 10, QChar(u'0'));
}

QString tokenOf(int index)
{
    return u"token-%1"_s.arg(index);
}

// Users 0..C-1 belong on gateway A, C..2C-1 on B; every friendship crosses.
UserDirectory makeDirectory(int perGateway, int friends)
{
    UserDirectory directory;
    for (int i = 0; i < 2 * perGateway; ++i)
        directory.addUser(userId(i), u"User %1"_s.arg(i), tokenOf(i));
    const int step = perGateway / friends; // friends * step <= perGateway: offsets distinct
    for (int i = 0; i < perGateway; ++i) {
        for (int k = 0; k < friends; ++k)
            directory.addFriendship(i, perGateway + (i + k * step) % perGateway);
    }
    directory.finish();
    return directory;
}

// The nearest-rank percentile of sorted values.
double percentile(const std::vector<double> &sorted, double p)
{
    if (sorted.empty())
        return 0;
    const auto rank = qsizetype(std::ceil(p * double(sorted.size())));
    return sorted[size_t(std::clamp<qsizetype>(rank - 1, 0, qsizetype(sorted.size()) - 1))];
}

// The clients, the changes they make and what their watchers receive.
class Fanout {
public:
    Fanout(const Options &options, const UserDirectory &directory, QList<QUrl> gateways)
        : m_options(options)
        , m_directory(directory)
        , m_gateways(std::move(gateways))
        , m_clients(size_t(directory.size()))
        , m_base(size_t(directory.size()), 0)
        , m_sent(size_t(directory.size()))
        , m_random(options.seed)
    {
        for (int i = 0; i < directory.size(); ++i)
            m_indexOfId.insert(directory.user(i).id, i);
    }

    ~Fanout()
    {
        // Quietly: no handler may run on a half-destroyed Fanout.
        for (Client &client : m_clients) {
            if (client.socket) {
                client.socket->disconnect();
                client.socket->abort();
            }
        }
    }

    // Opens every client (at most `window` handshakes at a time, alternating gateways) and
    // returns once all have signed in and received their subscribe snapshot.
    bool connectAll(int window, std::chrono::milliseconds timeout)
    {
        m_window = window;
        openMore();
        return waitUntil([this] { return m_ready == int(m_clients.size()) || m_failed; }, timeout)
            && !m_failed;
    }

    // Waits until no push has arrived for `quiet`.
    void settle(std::chrono::milliseconds quiet)
    {
        qint64 seen = -1;
        while (seen != m_setupPushes) {
            seen = m_setupPushes;
            RedisBench::pause(quiet);
        }
    }

    // The seq each user's next change continues from.
    void setBase(const QList<UserPresence> &users)
    {
        for (const UserPresence &user : users)
            m_base[size_t(m_indexOfId.value(user.id))] = user.seq;
    }

    void startMeasuring() { m_measuring = true; }

    // One change: the client flips between online and away.
    void sendChange()
    {
        std::uniform_int_distribution<int> pick(0, int(m_clients.size()) - 1);
        Client &client = m_clients[size_t(pick(m_random))];
        client.away = !client.away;
        m_sent[size_t(client.user)].push_back(nowNs());
        client.socket->sendTextMessage(client.away
                ? u"{\"type\":\"set_status\",\"status\":\"away\"}"_s
                : u"{\"type\":\"set_status\",\"status\":\"online\"}"_s);
        ++m_changes;
    }

    [[nodiscard]] qint64 changes() const { return m_changes; }
    [[nodiscard]] qint64 expectedPushes() const { return m_changes * m_options.friends; }
    [[nodiscard]] qint64 pushes() const { return m_pushes; }
    [[nodiscard]] qint64 matched() const { return qint64(m_latencyMs.size()); }
    [[nodiscard]] qint64 unmatched() const { return m_unmatched; }
    [[nodiscard]] qint64 wrongStatus() const { return m_wrongStatus; }
    [[nodiscard]] qint64 outOfOrder() const { return m_outOfOrder; }
    [[nodiscard]] qint64 errors() const { return m_errors; }
    [[nodiscard]] qint64 disconnects() const { return m_disconnects; }
    [[nodiscard]] qint64 resetSnapshots() const { return m_resetSnapshots; }
    [[nodiscard]] qint64 setupPushes() const { return m_setupPushes; }
    [[nodiscard]] qint64 setupStale() const { return m_setupStale; }
    [[nodiscard]] std::vector<double> &latencyMs() { return m_latencyMs; }

private:
    struct Client {
        QWebSocket *socket = nullptr;
        int user = 0;
        bool away = false;
        QHash<int, qint64> lastSeq; // per watched user, to check that seq only grows
    };

    void openMore()
    {
        while (m_opened < int(m_clients.size()) && m_opened - m_ready < m_window) {
            // Alternate: A's first user, B's first user, A's second, ...
            const int perGateway = int(m_clients.size()) / 2;
            const int user = (m_opened % 2) * perGateway + m_opened / 2;
            open(user);
            ++m_opened;
        }
    }

    void open(int user)
    {
        Client &client = m_clients[size_t(user)];
        client.user = user;
        client.socket = new QWebSocket(QString(), QWebSocketProtocol::VersionLatest, &m_root);
        QWebSocket *socket = client.socket;
        QObject::connect(socket, &QWebSocket::connected, socket, [socket, user] {
            const QJsonObject hello { { u"type"_s, u"hello"_s }, { u"token"_s, tokenOf(user) },
                { u"protocol"_s, 1 }, { u"client"_s, u"bench_redis_fanout/1"_s } };
            socket->sendTextMessage(
                QString::fromUtf8(QJsonDocument(hello).toJson(QJsonDocument::Compact)));
        });
        QObject::connect(socket, &QWebSocket::textMessageReceived, socket,
            [this, user](const QString &text) { onText(user, text); });
        QObject::connect(socket, &QWebSocket::disconnected, socket, [this, user] {
            ++m_disconnects;
            if (m_disconnects <= 3)
                std::fprintf(stderr, "client of %s disconnected: %d %s\n", qPrintable(userId(user)),
                    int(m_clients[size_t(user)].socket->closeCode()),
                    qPrintable(m_clients[size_t(user)].socket->closeReason()));
            if (!m_measuring)
                m_failed = true;
        });
        socket->open(m_gateways.at(user < int(m_clients.size()) / 2 ? 0 : 1));
    }

    void onText(int user, const QString &text)
    {
        const qint64 receivedAt = nowNs();
        const QJsonObject frame = QJsonDocument::fromJson(text.toUtf8()).object();
        const QString type = frame.value(u"type"_s).toString();
        if (type == u"presence")
            onPresence(m_clients[size_t(user)], receivedAt, frame);
        else if (type == u"welcome")
            subscribe(user);
        else if (type == u"snapshot")
            onSnapshot(user, frame);
        else if (type == u"error") {
            ++m_errors;
            if (m_errors <= 3)
                std::fprintf(
                    stderr, "error to %s: %s\n", qPrintable(userId(user)), qPrintable(text));
        }
    }

    void subscribe(int user)
    {
        QJsonArray ids;
        for (const int friendIndex : m_directory.user(user).friends)
            ids.append(m_directory.user(friendIndex).id);
        const QJsonObject request { { u"type"_s, u"subscribe"_s }, { u"ids"_s, ids },
            { u"ref"_s, u"s"_s } };
        m_clients[size_t(user)].socket->sendTextMessage(
            QString::fromUtf8(QJsonDocument(request).toJson(QJsonDocument::Compact)));
    }

    void onSnapshot(int user, const QJsonObject &frame)
    {
        if (frame.value(u"ref"_s).toString() != u"s") {
            ++m_resetSnapshots; // the store was reset: not expected here
            return;
        }
        if (!frame.value(u"denied"_s).toArray().isEmpty()) {
            std::fprintf(stderr, "%s: friends denied\n", qPrintable(userId(user)));
            m_failed = true;
        }
        Client &client = m_clients[size_t(user)];
        for (const QJsonValue &entry : frame.value(u"users"_s).toArray()) {
            const QJsonObject presence = entry.toObject();
            qint64 &last
                = client.lastSeq[m_indexOfId.value(presence.value(u"id"_s).toString(), -1)];
            last = std::max(last, presence.value(u"seq"_s).toInteger());
        }
        ++m_ready;
        openMore();
    }

    void onPresence(Client &watcher, qint64 receivedAt, const QJsonObject &frame)
    {
        const int user = m_indexOfId.value(frame.value(u"id"_s).toString(), -1);
        const qint64 seq = frame.value(u"seq"_s).toInteger(-1);
        if (user < 0 || seq < 0) {
            ++m_unmatched;
            return;
        }
        qint64 &last = watcher.lastSeq[user];
        const bool stale = seq <= last;
        last = std::max(last, seq);
        if (!m_measuring) {
            // While subscribing, a push may overtake the snapshot or repeat its seq
            // (docs/protocol.md, Ordering): a client drops those by seq.
            ++m_setupPushes;
            m_setupStale += stale ? 1 : 0;
            return;
        }
        m_outOfOrder += stale ? 1 : 0;
        ++m_pushes;
        const std::vector<qint64> &sent = m_sent[size_t(user)];
        const qint64 change = seq - m_base[size_t(user)] - 1;
        if (change < 0 || change >= qint64(sent.size())) {
            ++m_unmatched;
            return;
        }
        m_latencyMs.push_back(double(receivedAt - sent[size_t(change)]) / 1e6);
        // The user started online: the first change is to away, the second back, ...
        const QString expected = change % 2 == 0 ? u"away"_s : u"online"_s;
        if (frame.value(u"status"_s).toString() != expected)
            ++m_wrongStatus;
    }

    const Options m_options;
    const UserDirectory &m_directory;
    const QList<QUrl> m_gateways;
    QObject m_root; // parent of the sockets
    std::vector<Client> m_clients; // by user index
    QHash<QString, int> m_indexOfId;
    std::vector<qint64> m_base; // seq before the run, by user
    std::vector<std::vector<qint64>> m_sent; // send time of each change, by user, in ns
    std::vector<double> m_latencyMs;
    std::mt19937 m_random;
    int m_window = 100;
    int m_opened = 0;
    int m_ready = 0;
    bool m_failed = false;
    bool m_measuring = false;
    qint64 m_changes = 0;
    qint64 m_pushes = 0;
    qint64 m_unmatched = 0;
    qint64 m_wrongStatus = 0;
    qint64 m_outOfOrder = 0;
    qint64 m_errors = 0;
    qint64 m_disconnects = 0;
    qint64 m_resetSnapshots = 0;
    qint64 m_setupPushes = 0;
    qint64 m_setupStale = 0;
};

// A gateway and its Redis store, on a thread of their own or on the caller's. Everything
// that touches them goes through run(), which runs it on their thread and waits.
class GatewayHost {
public:
    GatewayHost(bool ownThread, EventLoop loop)
    {
        if (!ownThread)
            return;
        m_thread = std::make_unique<QThread>();
        // As on the main thread: a thread's dispatcher can only be chosen before it starts.
        if (loop == EventLoop::Epoll)
            m_thread->setEventDispatcher(new EpollEventDispatcher);
        m_context.moveToThread(m_thread.get());
        m_thread->start();
    }

    ~GatewayHost()
    {
        run([this] { m_gateway.reset(); });
        if (m_thread) {
            m_thread->quit();
            m_thread->wait();
        }
    }

    GatewayHost(const GatewayHost &) = delete;
    GatewayHost &operator=(const GatewayHost &) = delete;

    void run(const std::function<void()> &work)
    {
        if (m_thread)
            QMetaObject::invokeMethod(&m_context, work, Qt::BlockingQueuedConnection);
        else
            work();
    }

    // Creates the gateway (on its thread) and starts listening; the URL, or empty with *error.
    QUrl start(const GatewayConfig &config, const UserDirectory &directory,
        const RedisStoreOptions &storeOptions, QString *error)
    {
        QUrl url;
        run([&] {
            m_store = new RedisPresenceStore(storeOptions);
            m_gateway = std::make_unique<Gateway>(config, directory, m_store, new MemoryChatStore);
            if (m_gateway->listen(error))
                url = m_gateway->url();
        });
        return url;
    }

    [[nodiscard]] bool isOnItsOwnThread() const { return m_thread != nullptr; }
    // The class name of the event dispatcher the gateway runs on.
    [[nodiscard]] QByteArray dispatcherName()
    {
        QByteArray name;
        run([&name] { name = QAbstractEventDispatcher::instance()->metaObject()->className(); });
        return name;
    }
    [[nodiscard]] Gateway &gateway() { return *m_gateway; }
    [[nodiscard]] RedisPresenceStore &store() { return *m_store; }

private:
    std::unique_ptr<QThread> m_thread;
    QObject m_context; // lives on m_thread: what run() invokes on
    std::unique_ptr<Gateway> m_gateway;
    RedisPresenceStore *m_store = nullptr; // owned by m_gateway
};

// Seq and status of every user as Redis holds them now (HMGET <prefix>pub:<id> status seq, one
// pipeline); nullopt if Redis did not answer.
std::optional<QList<UserPresence>> readPresence(
    RedisClient &client, const QByteArray &prefix, const QStringList &ids)
{
    QList<RedisClient::Command> commands;
    for (const QString &id : ids)
        commands.append({ "HMGET", prefix + "pub:" + id.toUtf8(), "status", "seq" });
    auto replies = std::make_shared<std::optional<QList<RedisReply>>>();
    client.pipeline(std::move(commands), &client,
        [replies](const QList<RedisReply> &answers) { *replies = answers; });
    if (!waitUntil([&replies] { return replies->has_value(); }, 30s))
        return std::nullopt;
    QList<UserPresence> users;
    for (qsizetype i = 0; i < ids.size(); ++i) {
        const RedisReply &reply = (**replies).at(i);
        if (!reply.isArray() || reply.elements.size() != 2)
            return std::nullopt;
        const auto status = reply.elements.at(0).toBytes();
        const auto seq = reply.elements.at(1).toInteger();
        const auto parsed = status
            ? Presence::Protocol::presenceStatusFromString(QString::fromLatin1(*status))
            : std::nullopt;
        if (!parsed || !seq)
            return std::nullopt;
        users.append({ ids.at(i), *parsed, *seq, std::nullopt });
    }
    return users;
}

// Waits (letting this thread's event loop run) until done() holds: for conditions that other
// threads change, which wake no event here.
bool pollUntil(const std::function<bool()> &done, std::chrono::milliseconds timeout)
{
    const auto deadline = Clock::now() + timeout;
    while (!done()) {
        if (Clock::now() > deadline)
            return false;
        RedisBench::pause(10ms);
    }
    return true;
}

// The command line, read twice as the gateway's main reads its own: the event loop before
// QCoreApplication exists (its dispatcher must be installed first), then everything.
class CommandLine {
public:
    CommandLine()
    {
        parser.setApplicationDescription(
            u"Two gateways over one Redis: latency of presence changes to watchers on the "
            "other gateway, and Redis CPU."_s);
        parser.addHelpOption();
        parser.addOptions({ connections, friends, rate, seconds, seed, redis, gatewayThreads,
            eventLoop, transport });
    }

    // The event loop asked for (epoll unless --event-loop says otherwise); nullopt with
    // *error for an unknown one.
    [[nodiscard]] std::optional<EventLoop> readEventLoop(QString *error) const
    {
        if (!parser.isSet(eventLoop))
            return EventLoop::Epoll;
        const QString value = parser.value(eventLoop);
        if (value == u"epoll")
            return EventLoop::Epoll;
        if (value == u"qt")
            return EventLoop::Qt;
        *error = u"--event-loop must be epoll or qt (got \"%1\")"_s.arg(value);
        return std::nullopt;
    }

    // Everything, once parsed; nullopt with *error for a value out of place.
    [[nodiscard]] std::optional<Options> read(QString *error) const
    {
        Options options;
        if (parser.isSet(connections))
            options.connections = std::clamp(parser.value(connections).toInt(), 1, 100'000);
        if (parser.isSet(friends))
            options.friends = std::clamp(parser.value(friends).toInt(), 1, 500);
        if (parser.isSet(rate))
            options.rate = std::max(1, parser.value(rate).toInt());
        if (parser.isSet(seconds))
            options.seconds = std::max(1, parser.value(seconds).toInt());
        if (parser.isSet(seed))
            options.seed = parser.value(seed).toUInt();
        if (parser.isSet(redis)) {
            options.redis = RedisUrl::parse(parser.value(redis), error);
            if (!options.redis) {
                *error = u"--redis: %1"_s.arg(*error);
                return std::nullopt;
            }
        }
        options.gatewayThreads = parser.isSet(gatewayThreads);
        const auto loop = readEventLoop(error);
        if (!loop)
            return std::nullopt;
        options.eventLoop = *loop;
        if (parser.isSet(transport)) {
            const QString value = parser.value(transport);
            if (value == u"own")
                options.transport = GatewayConfig::Transport::Own;
            else if (value == u"qt")
                options.transport = GatewayConfig::Transport::Qt;
            else {
                *error = u"--transport must be own or qt (got \"%1\")"_s.arg(value);
                return std::nullopt;
            }
        }
        if (options.friends > options.connections) {
            *error = u"--friends must not exceed --connections"_s;
            return std::nullopt;
        }
        return options;
    }

    QCommandLineParser parser;

private:
    const QCommandLineOption connections { u"connections"_s,
        u"Connections (distinct users) per gateway (default 2000)."_s, u"C"_s };
    const QCommandLineOption friends { u"friends"_s,
        u"Friends of each user, all on the other gateway, all watched (default 50)."_s, u"F"_s };
    const QCommandLineOption rate { u"rate"_s,
        u"Presence changes per second, both gateways together (default 500)."_s, u"R"_s };
    const QCommandLineOption seconds { u"seconds"_s, u"Duration of the changes (default 10)."_s,
        u"S"_s };
    const QCommandLineOption seed { u"seed"_s, u"Random seed (default 42)."_s, u"X"_s };
    const QCommandLineOption redis { u"redis"_s,
        u"Use this Redis (redis://HOST:PORT/DB) instead of starting a redis-server."_s, u"URL"_s };
    const QCommandLineOption gatewayThreads { u"gateway-threads"_s,
        u"Run each gateway (and its store) on a thread of its own; the clients stay on the main "
        "thread (default: everything on the main thread)."_s };
    const QCommandLineOption eventLoop { u"event-loop"_s,
        u"epoll (the default, as in presence-mock-server: the gateway's own epoll dispatcher, "
        "on the main thread and on each gateway thread) or qt (Qt's default dispatcher: glib's "
        "unless QT_NO_GLIB=1 is set)."_s,
        u"LOOP"_s };
    const QCommandLineOption transport { u"transport"_s,
        u"own (the default, as in presence-mock-server: the gateway's own WebSocket transport) "
        "or qt (QWebSocket on the gateways' side). The clients are QWebSocket either way."_s,
        u"TRANSPORT"_s };
};

} // namespace

int main(int argc, char *argv[])
{
    {
        QStringList args;
        for (int i = 0; i < argc; ++i)
            args.append(QString::fromLocal8Bit(argv[i]));
        CommandLine early;
        // Whatever else is wrong is for process() below to report.
        (void)early.parser.parse(args);
        QString error;
        const auto loop = early.readEventLoop(&error);
        if (!loop) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 2;
        }
        if (*loop == EventLoop::Epoll)
            QCoreApplication::setEventDispatcher(new EpollEventDispatcher);
    }
    QCoreApplication app(argc, argv);
    CommandLine commandLine;
    commandLine.parser.process(app);
    QString error;
    const auto parsed = commandLine.read(&error);
    if (!parsed) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 2;
    }
    const Options &options = *parsed;
    // A line per connection would drown the figures (QT_LOGGING_RULES overrides this).
    QLoggingCategory::setFilterRules(u"presence.*.info=false"_s);

    // Two sockets per connection (client and gateway side), plus Redis and the listeners.
    const long fileLimit = Presence::Server::raiseOpenFileLimit();
    const long filesNeeded = 4L * options.connections + 100;
    if (fileLimit >= 0 && fileLimit < filesNeeded) {
        std::fprintf(stderr, "open-file limit %ld, but %ld are needed\n", fileLimit, filesNeeded);
        return 1;
    }

    RedisServer localRedis;
    RedisUrl url;
    if (!RedisBench::redisToUse(options.redis, localRedis, &url))
        return 1;
    const QByteArray prefix = RedisBench::runPrefix("bench-fanout");
    RedisClient probe;
    probe.connectTo(url);
    // Runs last, once the stores and gateways below are gone.
    const RedisBench::KeyCleanup cleanup(probe, prefix, options.redis.has_value());

    const UserDirectory directory = makeDirectory(options.connections, options.friends);
    for (int i = 0; i < directory.size(); ++i) {
        const QList<int> &friends = directory.user(i).friends;
        const bool onA = i < options.connections;
        const bool crossing = std::all_of(friends.cbegin(), friends.cend(),
            [&](int other) { return (other < options.connections) != onA; });
        if (friends.size() != options.friends || !crossing) {
            std::fprintf(stderr, "bad population: %s\n", qPrintable(userId(i)));
            return 1;
        }
    }
    RedisStoreOptions storeOptions;
    storeOptions.url = url;
    storeOptions.prefix = prefix;
    GatewayConfig config;
    config.port = 0;
    config.transport = options.transport;
    std::vector<std::unique_ptr<GatewayHost>> hosts;
    QList<QUrl> urls;
    for (int i = 0; i < 2; ++i) {
        hosts.push_back(std::make_unique<GatewayHost>(options.gatewayThreads, options.eventLoop));
        const QUrl gatewayUrl = hosts.back()->start(config, directory, storeOptions, &error);
        if (gatewayUrl.isEmpty()) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        urls.append(gatewayUrl);
    }
    const auto storeAvailable = [](GatewayHost &host) {
        bool available = false;
        host.run([&] { available = host.store().isAvailable(); });
        return available;
    };
    const bool redisReady = pollUntil(
        [&] {
            return probe.state() == RedisClient::State::Ready && storeAvailable(*hosts[0])
                && storeAvailable(*hosts[1]);
        },
        10s);
    if (!redisReady) {
        std::fprintf(stderr, "Redis at %s did not become ready\n", qPrintable(url.toString()));
        return 1;
    }

    const char *dispatcher = QAbstractEventDispatcher::instance()->metaObject()->className();
    const QByteArray gatewayDispatchers = options.gatewayThreads
        ? hosts[0]->dispatcherName() + " and " + hosts[1]->dispatcherName()
        : QByteArray("the main thread's");
    std::printf("bench_redis_fanout: 2 gateways x %d connections, each user watching %d friends "
                "on the other gateway; %d changes/s for %d s\n",
        options.connections, options.friends, options.rate, options.seconds);
    std::printf("Redis %s at %s (%s), key prefix \"%s\"\n",
        RedisBench::redisVersion(probe).constData(), qPrintable(url.toString()),
        options.redis ? "given with --redis"
                      : "own redis-server: --save \"\" --appendonly no, temporary dir",
        prefix.constData());
    std::printf("Stores: TTL %lld ms (refresh every TTL/3), grace %lld ms, sweep every %lld ms, "
                "snapshot chunk %d; gateways on %s and %s; open-file limit %ld (need ~%ld)\n",
        static_cast<long long>(storeOptions.ttl.count()),
        static_cast<long long>(storeOptions.grace.count()),
        static_cast<long long>(storeOptions.sweepInterval.count()), storeOptions.snapshotChunk,
        qPrintable(urls.at(0).toString()), qPrintable(urls.at(1).toString()), fileLimit,
        filesNeeded);
    std::printf("Threads: %s; event loop %s: main thread on %s, gateways on %s%s; gateway "
                "transport %s\n",
        options.gatewayThreads
            ? "gateway A, gateway B (each with its store and hiredis) on a thread each; all "
              "clients "
              "and the driver on the main thread"
            : "ONE: all clients, the driver, both gateways and hiredis on the main thread",
        options.eventLoop == EventLoop::Epoll ? "epoll" : "qt", dispatcher,
        gatewayDispatchers.constData(),
        qEnvironmentVariableIsSet("QT_NO_GLIB") ? " (QT_NO_GLIB set)" : "",
        options.transport == GatewayConfig::Transport::Own ? "own" : "qt (QWebSocket)");

    Fanout fanout(options, directory, urls);
    const auto setupStart = Clock::now();
    if (!fanout.connectAll(100, 300s)) {
        std::fprintf(stderr, "setup failed: not every client signed in and subscribed\n");
        return 1;
    }
    const double setupSeconds = std::chrono::duration<double>(Clock::now() - setupStart).count();
    fanout.settle(500ms);
    // Where each user's seq stands: the run's changes continue from there.
    QStringList allIds;
    for (int i = 0; i < directory.size(); ++i)
        allIds.append(directory.user(i).id);
    const auto before = readPresence(probe, prefix, allIds);
    if (!before) {
        std::fprintf(stderr, "could not read every user's presence from Redis\n");
        return 1;
    }
    const auto online = std::count_if(before->cbegin(), before->cend(),
        [](const UserPresence &user) { return user.status == PresenceStatus::Online; });
    if (online != allIds.size()) {
        std::fprintf(stderr, "only %lld of %lld users are online in Redis after setup\n",
            static_cast<long long>(online), static_cast<long long>(allIds.size()));
        return 1;
    }
    fanout.setBase(*before);
    int watched[2] = {};
    qsizetype channels[2] = {};
    for (int i = 0; i < 2; ++i) {
        GatewayHost &host = *hosts[size_t(i)];
        host.run([&] {
            watched[i] = host.gateway().watchedUserCount();
            channels[i] = host.store().subscriber().channels().size();
        });
    }
    std::printf("Setup: %lld clients signed in and subscribed in %.1f s (%lld pushes while "
                "connecting, %lld of them stale by seq); gateway A watches %d users, B %d "
                "(channels subscribed: %lld, %lld); RSS %.0f MiB\n",
        static_cast<long long>(allIds.size()), setupSeconds,
        static_cast<long long>(fanout.setupPushes()), static_cast<long long>(fanout.setupStale()),
        watched[0], watched[1], static_cast<long long>(channels[0]),
        static_cast<long long>(channels[1]), RedisBench::residentMiB());
    std::printf("\nMethod: set_status online/away alternating per user on random connections of "
                "both gateways, paced by a 1 ms timer;\n"
                "latency = receipt of the `presence` push by each watcher's client (on the other "
                "gateway) - the moment the set_status frame was written,\n"
                "matched by user id and seq.\n\n");
    std::fflush(stdout);

    // CPU time of each gateway thread (or nothing, when they share the main thread).
    const auto gatewayCpu = [&hosts] {
        std::vector<double> seconds;
        for (const auto &host : hosts) {
            if (!host->isOnItsOwnThread())
                continue;
            double cpu = 0;
            host->run([&cpu] { cpu = RedisBench::cpuSeconds(CLOCK_THREAD_CPUTIME_ID); });
            seconds.push_back(cpu);
        }
        return seconds;
    };
    const auto roundTrips = [&hosts] {
        quint64 trips = 0;
        for (const auto &host : hosts)
            host->run([&] { trips += host->store().client().roundTrips(); });
        return trips;
    };

    const double loadBefore = RedisBench::loadAverage();
    const auto redisCpuBefore = RedisBench::redisCpuSeconds(probe);
    const double processCpuBefore = RedisBench::cpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
    const double mainCpuBefore = RedisBench::cpuSeconds(CLOCK_THREAD_CPUTIME_ID);
    const std::vector<double> gatewayCpuBefore = gatewayCpu();
    const quint64 tripsBefore = roundTrips();
    fanout.startMeasuring();
    const auto runStart = Clock::now();
    const auto duration = std::chrono::seconds(options.seconds);
    const qint64 total = qint64(options.rate) * options.seconds;
    bool driving = true;
    double maxTickGapMs = 0;
    qint64 maxPerTick = 0;
    auto lastTick = runStart;
    QTimer driver;
    driver.setTimerType(Qt::PreciseTimer);
    QObject::connect(&driver, &QTimer::timeout, [&] {
        const auto now = Clock::now();
        maxTickGapMs = std::max(
            maxTickGapMs, std::chrono::duration<double, std::milli>(now - lastTick).count());
        lastTick = now;
        const auto elapsed = std::min<Clock::duration>(now - runStart, duration);
        // Whatever is due by now: a late tick catches up, as a socket backlog would.
        const auto due = std::min(
            total, qint64(std::chrono::duration<double>(elapsed).count() * options.rate));
        const qint64 first = fanout.changes();
        while (fanout.changes() < due)
            fanout.sendChange();
        maxPerTick = std::max(maxPerTick, fanout.changes() - first);
        if (fanout.changes() >= total) {
            driver.stop();
            driving = false;
        }
    });
    driver.start(1);
    (void)waitUntil([&driving] { return !driving; }, duration + 60s);
    const double driveSeconds = std::chrono::duration<double>(Clock::now() - runStart).count();
    const double processCpu = RedisBench::cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - processCpuBefore;
    const double mainCpu = RedisBench::cpuSeconds(CLOCK_THREAD_CPUTIME_ID) - mainCpuBefore;
    std::vector<double> gatewayCpuUsed = gatewayCpu();
    for (size_t i = 0; i < gatewayCpuUsed.size(); ++i)
        gatewayCpuUsed[i] -= gatewayCpuBefore[i];
    const auto redisCpuAfter = RedisBench::redisCpuSeconds(probe);
    const quint64 trips = roundTrips() - tripsBefore;
    const qint64 pushesAtEnd = fanout.pushes();
    // The pushes still on their way.
    (void)waitUntil([&fanout] { return fanout.pushes() >= fanout.expectedPushes(); }, 15s);
    const double drainSeconds
        = std::chrono::duration<double>(Clock::now() - runStart).count() - driveSeconds;

    std::vector<double> &latency = fanout.latencyMs();
    std::sort(latency.begin(), latency.end());
    double sum = 0;
    for (const double value : latency)
        sum += value;
    std::printf("Changes: %lld in %.2f s (%.0f/s; max %lld sent in one tick, max gap between "
                "ticks %.1f ms); store command round trips %llu\n",
        static_cast<long long>(fanout.changes()), driveSeconds,
        double(fanout.changes()) / driveSeconds, static_cast<long long>(maxPerTick), maxTickGapMs,
        static_cast<unsigned long long>(trips));
    std::printf("Pushes: expected %lld (%d watchers per change), received %lld (%.1f %% of them "
                "by the last change, the rest within %.2f s after)\n",
        static_cast<long long>(fanout.expectedPushes()), options.friends,
        static_cast<long long>(fanout.pushes()),
        fanout.expectedPushes() ? 100.0 * double(pushesAtEnd) / double(fanout.expectedPushes())
                                : 0.0,
        drainSeconds);
    std::printf("Checks: matched %lld, unmatched %lld, wrong status %lld, out of order %lld, "
                "errors %lld, disconnects %lld, reset snapshots %lld\n",
        static_cast<long long>(fanout.matched()), static_cast<long long>(fanout.unmatched()),
        static_cast<long long>(fanout.wrongStatus()), static_cast<long long>(fanout.outOfOrder()),
        static_cast<long long>(fanout.errors()), static_cast<long long>(fanout.disconnects()),
        static_cast<long long>(fanout.resetSnapshots()));
    std::printf("Latency change -> watcher on the other gateway (ms): p50 %.2f  p90 %.2f  p99 %.2f"
                "  p99.9 %.2f  max %.2f  mean %.2f\n",
        percentile(latency, 0.50), percentile(latency, 0.90), percentile(latency, 0.99),
        percentile(latency, 0.999), latency.empty() ? 0.0 : latency.back(),
        latency.empty() ? 0.0 : sum / double(latency.size()));
    std::optional<double> redisCpuPerChange;
    if (redisCpuBefore && redisCpuAfter) {
        const double redisCpu = *redisCpuAfter - *redisCpuBefore;
        std::printf("Redis CPU: %.2f s in %.2f s = %.1f %% of one core (INFO cpu, used_cpu_user + "
                    "used_cpu_sys)\n",
            redisCpu, driveSeconds, 100 * redisCpu / driveSeconds);
        if (fanout.changes() > 0)
            redisCpuPerChange = 1e6 * redisCpu / double(fanout.changes());
    } else {
        std::printf("Redis CPU: INFO cpu did not answer\n");
    }
    bool saturated = mainCpu / driveSeconds > 0.9;
    QString threads
        = u"main thread (clients%1) %2 %"_s.arg(options.gatewayThreads ? u""_s : u" + gateways"_s)
              .arg(100 * mainCpu / driveSeconds, 0, 'f', 1);
    for (size_t i = 0; i < gatewayCpuUsed.size(); ++i) {
        threads += u", gateway %1 thread %2 %"_s.arg(QChar(u'A' + int(i)))
                       .arg(100 * gatewayCpuUsed[i] / driveSeconds, 0, 'f', 1);
        saturated = saturated || gatewayCpuUsed[i] / driveSeconds > 0.9;
    }
    std::printf("This process: %.1f %% of one core in all (%s)%s\n",
        100 * processCpu / driveSeconds, qPrintable(threads),
        saturated ? " - SATURATED: a thread near 100 % of a core, latency includes its queueing"
                  : "");
    std::printf("1-min load average %.2f before, %.2f after; RSS %.0f MiB\n", loadBefore,
        RedisBench::loadAverage(), RedisBench::residentMiB());

    const bool ok = fanout.pushes() == fanout.expectedPushes() && fanout.unmatched() == 0
        && fanout.wrongStatus() == 0 && fanout.outOfOrder() == 0 && fanout.errors() == 0
        && fanout.disconnects() == 0;
    if (!ok)
        std::printf("NOT ALL PUSHES ARRIVED AS EXPECTED (see Checks)\n");

    // What tools/bench.sh compares: the CPU each push costs this process (clients and
    // gateways) and each change costs Redis. Not the latency: with clients and gateways on one
    // thread, its median moved 13x between two quick runs on the shared machine.
    std::printf("\n");
    if (pushesAtEnd > 0) // the pushes of the window the CPU time was taken over
        std::printf("headline: redis_fanout_process_cpu_us_per_push %.1f us lower\n",
            1e6 * processCpu / double(pushesAtEnd));
    if (redisCpuPerChange)
        std::printf(
            "headline: redis_fanout_redis_cpu_us_per_change %.1f us lower\n", *redisCpuPerChange);
    return ok ? 0 : 1;
}
