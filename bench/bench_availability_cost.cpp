// bench_availability_cost: what the availability set (watch_availability, docs/protocol.md §4)
// costs the clients and the gateway, against the per-row subscriptions a client holds anyway.
//
// Every run is against a fresh real presence-mock-server (the binary, a child process):
//   --generate N --friends K --seed S --churn RATE --availability-interval-ms I
//   --listen 127.0.0.1:0 --admin 127.0.0.1:0 --dump-users FILE
// The WebSocket address is read from what it prints, the users' tokens from the dump. The
// admin API has no token (only /healthz, /metrics and /api): MockServerProcess waits for its
// address line, and /metrics gives the gateway's own counts of what it sent (a cross-check).
// Everything else is the gateway's default (grace 5 s, pings every 25 s, 5000 friends covered).
//
// The same seed gives the same population and the same churn, timed from the gateway's start,
// so every run sees the same changes. The clients (seeded, the same in every run): C users
// picked at random; each subscribes to W of its friends picked at random (the rows on screen).
//
// Modes, alternated run by run (A B A B ...) so that the machine's load falls on both alike:
//   A "rows only"            hello, subscribe to the W rows, then only receive.
//   B "rows + availability"  the same, then watch_availability: covers all K friends.
//   baseline (--baseline)    the gateway and its churn, no client: the churn's own CPU.
// The window (D s) starts S s (the warm-up) after the gateway printed its address, so that it
// covers the same stretch of churn in every run; the clients must be set up before it.
//
// Measured in the window, per client and per minute: text frames received, by type, with their
// bytes (payload + 2, 4 or 10 bytes of frame header), and the friend ids they carry (presence:
// one; availability_changed: each id listed); the kernel's count of bytes received on the same
// sockets (TCP_INFO, exact; the gateway's pings, which QWebSocket does not show, included).
// Gateway CPU: utime + stime of the child (/proc/PID/stat) over the window, % of one core.
//
// Run: ./bench_availability_cost [--clients C] [--rows W] [--users N] [--friends K]
//      [--churn RATE] [--interval-ms I] [--seconds D] [--warmup-seconds S] [--runs R]
//      [--seed X] [--baseline] [--mock-server PATH]

// C++
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <vector>
// System
#include <time.h>
#include <unistd.h>

// Qt
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTimer>
#include <QUrl>
#include <QWebSocket>

// Presence
#include "DumpedPopulation.h"
#include "IntegerOption.h"
#include "RawHttpExchange.h"
#include "SocketCounters.h"
#include "Summary.h"
#include "tests/harness/EventLoopWait.h"
#include "tests/harness/MockServerProcess.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using BenchSupport::loadAverage;
using BenchSupport::processCpuSeconds;
using Harness::waitUntil;
using Population = BenchSupport::DumpedPopulation;
using PushPollingBench::RawHttpExchange;

namespace {

using Clock = std::chrono::steady_clock;

enum class Mode { Rows, RowsAndAvailability, Baseline };

const char *modeName(Mode mode)
{
    switch (mode) {
    case Mode::Rows:
        return "A rows only";
    case Mode::RowsAndAvailability:
        return "B rows + availability";
    case Mode::Baseline:
        return "baseline (no client)";
    }
    return "?";
}

struct Options {
    int clients = 200;
    int rows = 30;
    int users = 2000;
    int friends = 300;
    double churn = 20;
    int intervalMs = 1000;
    int seconds = 20;
    int warmupSeconds = 10;
    int runs = 3;
    quint64 seed = 7;
    bool baseline = false;
    QString mockServer = QStringLiteral(PRESENCE_MOCK_SERVER);
};

// Who the clients are and which rows each subscribes to; the same in every run.
struct Plan {
    std::vector<int> clients; // user index of each client
    std::vector<QStringList> rows; // per client, the ids it subscribes to
    int shortLists = 0; // clients with fewer friends than rows

    static Plan make(const Population &population, int clients, int rows, quint64 seed)
    {
        std::mt19937_64 random(seed);
        const auto shuffle = [&random](std::vector<int> &values) {
            for (size_t i = values.size(); i > 1; --i)
                std::swap(values[i - 1], values[size_t(random() % quint64(i))]);
        };
        std::vector<int> order(size_t(population.ids.size()));
        for (size_t i = 0; i < order.size(); ++i)
            order[i] = int(i);
        shuffle(order);
        Plan plan;
        plan.clients.assign(
            order.begin(), order.begin() + std::min<qsizetype>(clients, order.size()));
        for (const int user : plan.clients) {
            // Any friend, other clients included: rows on screen are whoever is there.
            std::vector<int> candidates = population.friends[size_t(user)];
            shuffle(candidates);
            if (int(candidates.size()) < rows)
                ++plan.shortLists;
            candidates.resize(std::min(candidates.size(), size_t(rows)));
            QStringList ids;
            for (const int other : candidates)
                ids.append(population.ids.at(other));
            plan.rows.push_back(ids);
        }
        return plan;
    }
};

struct Window {
    Clock::time_point start = Clock::time_point::max();
    Clock::time_point end = Clock::time_point::max();
    [[nodiscard]] bool contains(Clock::time_point at) const { return at >= start && at < end; }
    [[nodiscard]] double seconds() const
    {
        return std::chrono::duration<double>(end - start).count();
    }
};

enum Kind { Presence, AvailabilityChanged, Availability, Other, kKinds };
constexpr std::array<const char *, kKinds> kKindNames { "presence", "availability_changed",
    "availability", "other" };

Kind kindOf(const QString &type)
{
    if (type == u"presence")
        return Presence;
    if (type == u"availability_changed")
        return AvailabilityChanged;
    if (type == u"availability")
        return Availability;
    return Other;
}

// Header bytes of a frame the gateway sends (unmasked) with this payload.
qint64 serverFrameHeader(qint64 payload)
{
    return payload <= 125 ? 2 : payload <= 65535 ? 4 : 10;
}

struct Traffic {
    std::array<qint64, kKinds> frames {};
    std::array<qint64, kKinds> bytes {};
    std::array<qint64, kKinds> ids {};
};

// What all clients of one run saw.
struct RunCounters {
    Traffic window;
    qint64 snapshotBytes = 0; // the subscribe's answers, before the window
    qint64 availabilityBytes = 0; // the watch_availability's answers, before the window
    qint64 ready = 0;
    qint64 errors = 0;
    qint64 disconnects = 0;
    qint64 denied = 0; // rows the gateway refused (never, for friends)
    qint64 badAvailability = 0; // an answer not covering every friend
    qint64 wrongInterval = 0; // welcome without the --availability-interval-ms asked for
    qint64 emptyChanges = 0; // availability_changed with no id
    double minGapMs = std::numeric_limits<double>::infinity(); // between two on one connection
    qint64 shortGaps = 0; // gaps under 90 % of the interval
};

// One client: a QWebSocket; hello, subscribe to its rows, maybe watch_availability, then only
// receives (Qt answers the gateway's pings by itself).
class Client {
public:
    Client(QString token, QStringList rows, int friendCount, bool watchAvailability,
        const Options &options, const Window &window, RunCounters &counters)
        : m_token(std::move(token))
        , m_rows(std::move(rows))
        , m_friendCount(friendCount)
        , m_watchAvailability(watchAvailability)
        , m_options(options)
        , m_window(window)
        , m_counters(counters)
    {
        QObject::connect(&m_socket, &QWebSocket::connected, &m_socket, [this] {
            send(QJsonObject { { u"type"_s, u"hello"_s }, { u"token"_s, m_token },
                { u"protocol"_s, 1 }, { u"client"_s, u"bench_availability_cost/1"_s },
                { u"ref"_s, u"h"_s } });
        });
        QObject::connect(&m_socket, &QWebSocket::textMessageReceived, &m_socket,
            [this](const QString &text) { onText(Clock::now(), text); });
        QObject::connect(&m_socket, &QWebSocket::disconnected, &m_socket, [this] {
            if (!m_closing)
                ++m_counters.disconnects;
        });
    }

    void open(const QUrl &url) { m_socket.open(url); }
    void close()
    {
        m_closing = true;
        m_socket.abort();
    }

private:
    void send(const QJsonObject &object)
    {
        m_socket.sendTextMessage(
            QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact)));
    }

    void onText(Clock::time_point at, const QString &text)
    {
        const QByteArray payload = text.toUtf8();
        const qint64 bytes = payload.size() + serverFrameHeader(payload.size());
        const QJsonObject frame = QJsonDocument::fromJson(payload).object();
        const QString type = frame.value(u"type"_s).toString();
        const Kind kind = kindOf(type);
        qint64 ids = 0;
        if (kind == Presence)
            ids = 1;
        else if (kind == AvailabilityChanged || kind == Availability) {
            for (const QString &list : { u"online"_s, u"away"_s, u"offline"_s })
                ids += frame.value(list).toArray().size();
        }
        if (m_window.contains(at)) {
            Traffic &traffic = m_counters.window;
            ++traffic.frames[kind];
            traffic.bytes[kind] += bytes;
            traffic.ids[kind] += ids;
        }
        const QString ref = frame.value(u"ref"_s).toString();
        if (type == u"welcome") {
            const int interval
                = frame.value(u"limits"_s).toObject().value(u"availability_interval_ms"_s).toInt();
            if (interval != m_options.intervalMs)
                ++m_counters.wrongInterval;
            send(QJsonObject { { u"type"_s, u"subscribe"_s },
                { u"ids"_s, QJsonArray::fromStringList(m_rows) }, { u"ref"_s, u"s"_s } });
        } else if (type == u"snapshot" && ref == u"s") {
            m_counters.snapshotBytes += bytes;
            m_counters.denied += frame.value(u"denied"_s).toArray().size();
            if (m_watchAvailability)
                send(QJsonObject { { u"type"_s, u"watch_availability"_s }, { u"ref"_s, u"a"_s } });
            else
                ++m_counters.ready;
        } else if (type == u"availability" && ref == u"a") {
            m_counters.availabilityBytes += bytes;
            if (frame.value(u"covered"_s).toInt() != m_friendCount
                || frame.value(u"total"_s).toInt() != m_friendCount)
                ++m_counters.badAvailability;
            ++m_counters.ready;
        } else if (kind == AvailabilityChanged) {
            if (ids == 0)
                ++m_counters.emptyChanges;
            if (m_lastChange && m_window.contains(at)) {
                const double gap
                    = std::chrono::duration<double, std::milli>(at - *m_lastChange).count();
                m_counters.minGapMs = std::min(m_counters.minGapMs, gap);
                if (gap < 0.9 * m_options.intervalMs)
                    ++m_counters.shortGaps;
            }
            m_lastChange = at;
        } else if (type == u"error") {
            ++m_counters.errors;
        }
    }

    QString m_token;
    QStringList m_rows;
    int m_friendCount;
    bool m_watchAvailability;
    const Options &m_options;
    const Window &m_window;
    RunCounters &m_counters;
    QWebSocket m_socket;
    std::optional<Clock::time_point> m_lastChange;
    bool m_closing = false;
};

// The gateway's /metrics (Prometheus text): series name with its labels -> value.
using Metrics = QHash<QString, double>;

Metrics parseMetrics(const QByteArray &body)
{
    Metrics metrics;
    for (const QByteArray &line : body.split('\n')) {
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        const qsizetype space = line.lastIndexOf(' ');
        if (space > 0)
            metrics.insert(QString::fromUtf8(line.left(space)), line.mid(space + 1).toDouble());
    }
    return metrics;
}

// GET /metrics; `done` gets the parsed answer, or nothing.
void fetchMetrics(const QUrl &http, std::function<void(std::optional<Metrics>)> done)
{
    const QByteArray host = http.host().toUtf8() + ':' + QByteArray::number(http.port());
    RawHttpExchange::start(QHostAddress(http.host()), quint16(http.port()), std::nullopt,
        "GET /metrics HTTP/1.1\r\nHost: " + host + "\r\n\r\n", {},
        [done = std::move(done)](const PushPollingBench::HttpOutcome &outcome) {
            done(outcome.status == 200 ? std::optional<Metrics>(parseMetrics(outcome.body))
                                       : std::nullopt);
        });
}

// What one run measured; traffic per client and per minute of the window.
struct RunResult {
    Mode mode = Mode::Rows;
    int clients = 0;
    double windowSeconds = 0;
    std::array<double, kKinds> frames {};
    std::array<double, kKinds> bytes {};
    std::array<double, kKinds> ids {};
    double kernelBytesIn = 0;
    double gatewayCpuPercent = 0;
    double gatewayRssMiB = -1;
    double benchCpuPercent = 0;
    double loadBefore = 0;
    double loadAfter = 0;
    double publishedPerSecond = -1; // the whole population's, from /metrics
    std::array<double, kKinds> gatewayFramesOut {}; // per client per minute, from /metrics
    double snapshotBytes = 0; // per client, once
    double availabilityBytes = 0; // per client, once
    double setupSeconds = 0;
    bool ok = true;

    [[nodiscard]] double sum(const std::array<double, kKinds> &values) const
    {
        double total = 0;
        for (const double value : values)
            total += value;
        return total;
    }
};

std::optional<RunResult> runOnce(Mode mode, int run, const Options &options,
    std::optional<Population> &population, std::optional<Plan> &plan)
{
    QTemporaryDir dir;
    if (!dir.isValid()) {
        std::fprintf(stderr, "no temporary directory\n");
        return std::nullopt;
    }
    const QString usersFile = dir.filePath(u"users.json"_s);
    MockServerProcess server(options.mockServer);
    const QStringList arguments { u"--generate"_s, QString::number(options.users), u"--friends"_s,
        QString::number(options.friends), u"--seed"_s, QString::number(options.seed), u"--churn"_s,
        QString::number(options.churn), u"--availability-interval-ms"_s,
        QString::number(options.intervalMs), u"--listen"_s, u"127.0.0.1:0"_s, u"--admin"_s,
        u"127.0.0.1:0"_s, u"--dump-users"_s, usersFile };
    QString error;
    if (!server.startServing(arguments, 60s, &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return std::nullopt;
    }
    // The churn starts just before the gateway prints its address: the window is timed from
    // here, so every run covers the same stretch of it.
    const auto startedAt = Clock::now();
    auto loaded = Population::load(usersFile, &error);
    if (!loaded) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return std::nullopt;
    }
    if (!population) {
        population = std::move(loaded);
        plan = Plan::make(*population, options.clients, options.rows, options.seed);
    } else if (loaded->digest != population->digest) {
        std::fprintf(stderr, "the gateway generated another population this time\n");
        return std::nullopt;
    }
    Window window;
    window.start = startedAt + std::chrono::seconds(options.warmupSeconds);
    window.end = window.start + std::chrono::seconds(options.seconds);

    RunCounters counters;
    std::vector<std::unique_ptr<Client>> clients;
    const int clientCount = mode == Mode::Baseline ? 0 : int(plan->clients.size());
    const auto setupStart = Clock::now();
    // At most 50 handshakes in flight, as a fleet of real clients would not all land at once.
    int opened = 0;
    const auto openMore = [&] {
        while (opened < clientCount && opened - counters.ready < 50) {
            const int user = plan->clients[size_t(opened)];
            clients.push_back(
                std::make_unique<Client>(QString::fromUtf8(population->tokens.at(user)),
                    plan->rows[size_t(opened)], int(population->friends[size_t(user)].size()),
                    mode == Mode::RowsAndAvailability, options, window, counters));
            clients.back()->open(server.url());
            ++opened;
        }
    };
    const auto setupDeadline
        = std::chrono::duration_cast<std::chrono::milliseconds>(window.start - 1s - Clock::now());
    const bool ready = waitUntil(
        [&] {
            openMore();
            return counters.ready == clientCount || counters.disconnects > 0 || counters.errors > 0;
        },
        std::max(setupDeadline, 0ms));
    if (!ready || counters.disconnects > 0 || counters.errors > 0) {
        std::fprintf(stderr,
            "%s run %d: setup failed (must end 1 s before the window): %lld of %d clients ready, "
            "%lld disconnects, %lld errors\n",
            modeName(mode), run, static_cast<long long>(counters.ready), clientCount,
            static_cast<long long>(counters.disconnects), static_cast<long long>(counters.errors));
        return std::nullopt;
    }
    const double setupSeconds = std::chrono::duration<double>(Clock::now() - setupStart).count();

    struct Reading {
        std::optional<double> gatewayCpu;
        double processCpu = 0;
        quint64 kernelBytesIn = 0;
        double load = 0;
        std::optional<Metrics> metrics;
        bool metricsDone = false;
    };
    const quint16 wsPort = quint16(server.url().port());
    std::optional<Reading> atStart;
    std::optional<Reading> atEnd;
    int fetching = 0; // /metrics requests in flight: their answers write into the readings
    double gatewayRss = -1;
    // The CPU first: the /metrics request that follows is the gateway's work, the same in every
    // mode, and at the end it falls after the window.
    const auto read = [&](std::optional<Reading> &into) {
        Reading reading;
        reading.gatewayCpu = server.cpuSeconds();
        reading.processCpu = processCpuSeconds();
        reading.kernelBytesIn = PushPollingBench::tcpCountersOfConnectionsTo(wsPort).bytesReceived;
        reading.load = loadAverage();
        into = reading;
        ++fetching;
        fetchMetrics(server.httpUrl(), [&into, &fetching](std::optional<Metrics> metrics) {
            into->metrics = std::move(metrics);
            into->metricsDone = true;
            --fetching;
        });
    };
    const auto untilNow = [](Clock::time_point at) {
        return std::max(0ms, std::chrono::ceil<std::chrono::milliseconds>(at - Clock::now()));
    };
    QObject edges; // the timers die with this function
    QTimer::singleShot(untilNow(window.start), Qt::PreciseTimer, &edges, [&] { read(atStart); });
    QTimer::singleShot(untilNow(window.end), Qt::PreciseTimer, &edges, [&] {
        read(atEnd);
        gatewayRss = server.residentMiB();
    });
    (void)waitUntil(
        [&] {
            return (atEnd && atEnd->metricsDone && atStart->metricsDone) || !server.isRunning();
        },
        untilNow(window.end) + 20s);
    const bool gatewayAlive = server.isRunning();
    const qint64 gatewayPid = server.pid(); // 0 once it is stopped
    // RawHttpExchange gives up after 15 s: no answer can come after this.
    (void)waitUntil([&] { return fetching == 0; }, 20s);
    for (auto &client : clients)
        client->close();
    const QByteArray gatewayLog = server.takeErrorOutput();
    server.stop();
    if (!atStart || !atEnd || !gatewayAlive) {
        std::fprintf(stderr, "%s run %d: the gateway exited during the run\n%s\n", modeName(mode),
            run, gatewayLog.constData());
        return std::nullopt;
    }

    RunResult result;
    result.mode = mode;
    result.clients = clientCount;
    result.windowSeconds = window.seconds();
    result.setupSeconds = setupSeconds;
    const double minutes = result.windowSeconds / 60;
    const auto perClientMinute
        = [&](double value) { return clientCount ? value / clientCount / minutes : 0.0; };
    for (int kind = 0; kind < kKinds; ++kind) {
        result.frames[size_t(kind)] = perClientMinute(double(counters.window.frames[size_t(kind)]));
        result.bytes[size_t(kind)] = perClientMinute(double(counters.window.bytes[size_t(kind)]));
        result.ids[size_t(kind)] = perClientMinute(double(counters.window.ids[size_t(kind)]));
    }
    result.kernelBytesIn = perClientMinute(double(atEnd->kernelBytesIn - atStart->kernelBytesIn));
    if (atStart->gatewayCpu && atEnd->gatewayCpu)
        result.gatewayCpuPercent
            = 100 * (*atEnd->gatewayCpu - *atStart->gatewayCpu) / result.windowSeconds;
    else
        result.ok = false;
    result.gatewayRssMiB = gatewayRss;
    result.benchCpuPercent = 100 * (atEnd->processCpu - atStart->processCpu) / result.windowSeconds;
    result.loadBefore = atStart->load;
    result.loadAfter = atEnd->load;
    if (atStart->metrics && atEnd->metrics) {
        const auto delta = [&](const QString &series) {
            return atEnd->metrics->value(series) - atStart->metrics->value(series);
        };
        result.publishedPerSecond
            = delta(u"presence_changes_published_total"_s) / result.windowSeconds;
        for (int kind = 0; kind < Other; ++kind)
            result.gatewayFramesOut[size_t(kind)]
                = perClientMinute(delta(u"presence_frames_out_total{type=\"%1\"}"_s.arg(
                    QLatin1String(kKindNames[size_t(kind)]))));
    }
    result.snapshotBytes = clientCount ? double(counters.snapshotBytes) / clientCount : 0;
    result.availabilityBytes = clientCount ? double(counters.availabilityBytes) / clientCount : 0;

    // The gateway logs every sign-in (info); anything worse fails the run.
    qint64 serious = 0;
    QString firstSerious;
    for (const QByteArray &line : gatewayLog.split('\n')) {
        const QByteArray lower = line.toLower();
        if (lower.contains("warning") || lower.contains("critical") || lower.contains("error")
            || lower.contains("fatal")) {
            if (!serious++)
                firstSerious = QString::fromUtf8(line);
        }
    }
    const bool checksOk = counters.errors == 0 && counters.disconnects == 0 && counters.denied == 0
        && counters.badAvailability == 0 && counters.wrongInterval == 0
        && counters.emptyChanges == 0 && serious == 0 && atStart->metrics && atEnd->metrics;
    result.ok = result.ok && checksOk;

    // Pacing: one availability_changed per connection per interval at most (a stalled
    // benchmark may show a shorter gap between two frames it reads late).
    const QString gaps = std::isfinite(counters.minGapMs)
        ? u"; availability_changed on one connection: min gap %1 ms, %2 gaps under 90 % of "
          "the interval"_s.arg(counters.minGapMs, 0, 'f', 0)
              .arg(counters.shortGaps)
        : QString();
    std::printf("%-22s run %d: gateway pid %lld, setup %.2f s; frames %.1f, bytes %.0f (kernel "
                "%.0f), ids %.1f per client per min; gateway CPU %.2f %%, RSS %.0f MiB; "
                "published %.1f/s; this process %.1f %%, load %.2f -> %.2f\n",
        modeName(mode), run, gatewayPid, setupSeconds, result.sum(result.frames),
        result.sum(result.bytes), result.kernelBytesIn, result.sum(result.ids),
        result.gatewayCpuPercent, result.gatewayRssMiB, result.publishedPerSecond,
        result.benchCpuPercent, result.loadBefore, result.loadAfter);
    std::printf("%-22s        checks %s: errors %lld, disconnects %lld, denied rows %lld, "
                "availability not covering all friends %lld, welcome with another interval "
                "%lld, empty availability_changed %lld, gateway log warnings %lld%s%s\n",
        "", checksOk ? "ok" : "FAILED", static_cast<long long>(counters.errors),
        static_cast<long long>(counters.disconnects), static_cast<long long>(counters.denied),
        static_cast<long long>(counters.badAvailability),
        static_cast<long long>(counters.wrongInterval),
        static_cast<long long>(counters.emptyChanges), static_cast<long long>(serious),
        firstSerious.isEmpty() ? "" : qPrintable(u" (first: "_s + firstSerious + u")"_s),
        qPrintable(gaps));
    std::fflush(stdout);
    return result;
}

QString ratio(double b, double a)
{
    if (a <= 0)
        return b > 0 ? u"new"_s : u""_s;
    const double r = b / a;
    return r >= 100 ? u"%1x"_s.arg(r, 0, 'f', 0)
        : r >= 10   ? u"%1x"_s.arg(r, 0, 'f', 1)
                    : u"%1x"_s.arg(r, 0, 'f', 2);
}

// "median [min-max]" of one figure over runs, or "median" alone when they agree.
QString summaryText(const Summary &summary, int decimals)
{
    QString median = QString::number(summary.median, 'f', decimals);
    if (QString::number(summary.min, 'f', decimals) == QString::number(summary.max, 'f', decimals))
        return median;
    return u"%1 [%2-%3]"_s.arg(median, QString::number(summary.min, 'f', decimals),
        QString::number(summary.max, 'f', decimals));
}

void printTable(const Options &options, const std::vector<RunResult> &a,
    const std::vector<RunResult> &b, const std::vector<RunResult> &baseline)
{
    using Value = std::function<double(const RunResult &)>;
    const auto summaryOf = [](const std::vector<RunResult> &runs, const Value &value) {
        std::vector<double> values;
        values.reserve(runs.size());
        for (const RunResult &run : runs)
            values.push_back(value(run));
        return summarize(values);
    };
    const auto row = [&](const QString &label, const Value &value, int decimals) {
        const Summary sa = summaryOf(a, value);
        const Summary sb = summaryOf(b, value);
        // The ratio of each A/B pair (run k of both), for the spread the machine adds.
        std::vector<double> pairs;
        for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
            if (value(a[i]) > 0)
                pairs.push_back(value(b[i]) / value(a[i]));
        }
        const Summary sp = summarize(pairs);
        const QString low = QString::number(sp.min, 'f', 2);
        const QString high = QString::number(sp.max, 'f', 2);
        const QString spread
            = pairs.size() > 1 && low != high ? u"%1-%2"_s.arg(low, high) : QString();
        std::printf("%-52s %22s %22s %9s %11s\n", qPrintable(label),
            qPrintable(summaryText(sa, decimals)), qPrintable(summaryText(sb, decimals)),
            qPrintable(ratio(sb.median, sa.median)), qPrintable(spread));
    };
    const auto kindRows = [&](const char *what, std::array<double, kKinds> RunResult::*member,
                              int decimals, bool withOther) {
        row(
            QString::fromLatin1(what),
            [member](const RunResult &r) {
                double total = 0;
                for (const double value : r.*member)
                    total += value;
                return total;
            },
            decimals);
        for (int kind = 0; kind < kKinds; ++kind) {
            if (kind == Other && !withOther)
                continue;
            row(
                u"  %1"_s.arg(QLatin1String(kKindNames[size_t(kind)])),
                [member, kind](const RunResult &r) { return (r.*member)[size_t(kind)]; }, decimals);
        }
    };

    const double window = a.empty() ? 0 : a.front().windowSeconds;
    std::printf("\nPer client, per minute of the %.0f s window; medians of %d runs [min-max]; B/A: "
                "ratio of the medians, and its range over the run pairs\n\n",
        window, options.runs);
    std::printf(
        "%-52s %22s %22s %9s %11s\n", "", "A: rows only", "B: rows + availability", "B/A", "pairs");
    kindRows("frames received", &RunResult::frames, 1, true);
    kindRows("bytes received (payload + frame header)", &RunResult::bytes, 0, true);
    row(
        u"  kernel's count (TCP_INFO; pings incl.)"_s,
        [](const RunResult &r) { return r.kernelBytesIn; }, 0);
    kindRows("friend ids carried (presence 1; changed: each id)", &RunResult::ids, 1, false);
    row(
        u"gateway's own count: presence frames sent"_s,
        [](const RunResult &r) { return r.gatewayFramesOut[Presence]; }, 1);
    row(
        u"  availability_changed frames sent"_s,
        [](const RunResult &r) { return r.gatewayFramesOut[AvailabilityChanged]; }, 1);

    std::printf("\nGateway, over the window\n\n");
    row(
        u"CPU, % of one core (utime + stime)"_s,
        [](const RunResult &r) { return r.gatewayCpuPercent; }, 2);
    if (!baseline.empty()) {
        const Summary base
            = summaryOf(baseline, [](const RunResult &r) { return r.gatewayCpuPercent; });
        std::printf("%-52s %22s\n", "  the churn alone, no client (baseline)",
            qPrintable(summaryText(base, 2)));
        row(
            u"  CPU for the clients (minus the baseline median)"_s,
            [base](const RunResult &r) { return r.gatewayCpuPercent - base.median; }, 2);
    }
    row(
        u"RSS at the end of the window, MiB"_s, [](const RunResult &r) { return r.gatewayRssMiB; },
        0);
    row(
        u"presence changes published, per second (all users)"_s,
        [](const RunResult &r) { return r.publishedPerSecond; }, 1);

    std::printf("\nOnce per connection, before the window (per client)\n\n");
    row(
        u"bytes of the subscribe's snapshot"_s, [](const RunResult &r) { return r.snapshotBytes; },
        0);
    row(
        u"bytes of the watch_availability's availability"_s,
        [](const RunResult &r) { return r.availabilityBytes; }, 0);
    row(
        u"setup of all clients, s"_s, [](const RunResult &r) { return r.setupSeconds; }, 2);
    std::printf("\nbytes: text frames as received, payload + the gateway's 2/4/10-byte header; "
                "the kernel row is every byte the sockets received (exact), the gateway's pings "
                "(every 25 s, 2 bytes) included. Clients send nothing in the window but pongs.\n");
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"The availability set (watch_availability) against per-row subscriptions alone: the "
        "same clients, rows and churn against the real presence-mock-server; frames and bytes "
        "each client receives, by type, and the gateway's CPU."_s);
    parser.addHelpOption();
    const QCommandLineOption clientsOption(u"clients"_s, u"Clients (default 200)."_s, u"C"_s);
    const QCommandLineOption rowsOption(u"rows"_s,
        u"Friends each client subscribes to, its rows on screen (default 30)."_s, u"W"_s);
    const QCommandLineOption usersOption(
        u"users"_s, u"Users the gateway generates (default 2000)."_s, u"N"_s);
    const QCommandLineOption friendsOption(
        u"friends"_s, u"Friends per generated user (default 300)."_s, u"K"_s);
    const QCommandLineOption churnOption(u"churn"_s,
        u"The gateway's --churn: about RATE presence changes per second across the population "
        "(default 20)."_s,
        u"RATE"_s);
    const QCommandLineOption intervalOption(
        u"interval-ms"_s, u"The gateway's --availability-interval-ms (default 1000)."_s, u"MS"_s);
    const QCommandLineOption secondsOption(
        u"seconds"_s, u"Measured window of each run (default 20)."_s, u"D"_s);
    const QCommandLineOption warmupOption(u"warmup-seconds"_s,
        u"From the gateway's start to the window; the clients connect in it (default 10)."_s,
        u"S"_s);
    const QCommandLineOption runsOption(u"runs"_s, u"Runs of each mode (default 3)."_s, u"R"_s);
    const QCommandLineOption seedOption(
        u"seed"_s, u"Seed of the population, the churn and the clients (default 7)."_s, u"X"_s);
    const QCommandLineOption baselineOption(u"baseline"_s,
        u"Also run the gateway with its churn and no client, for the churn's own CPU."_s);
    const QCommandLineOption serverOption(u"mock-server"_s,
        u"The presence-mock-server binary (default: the one built with this benchmark)."_s,
        u"PATH"_s);
    parser.addOptions(
        { clientsOption, rowsOption, usersOption, friendsOption, churnOption, intervalOption,
            secondsOption, warmupOption, runsOption, seedOption, baselineOption, serverOption });
    parser.process(app);

    Options options;
    const auto intOption
        = [&parser](const QCommandLineOption &option, int low, int high, int fallback) {
              return integerOption(parser, option, low, high, fallback);
          };
    options.clients = intOption(clientsOption, 1, 20'000, options.clients);
    options.rows = intOption(rowsOption, 1, 500, options.rows);
    options.users = intOption(usersOption, 2, 1'000'000, options.users);
    options.friends = intOption(friendsOption, 1, 5000, options.friends);
    options.intervalMs = intOption(intervalOption, 10, 60'000, options.intervalMs);
    options.seconds = intOption(secondsOption, 1, 3600, options.seconds);
    options.warmupSeconds = intOption(warmupOption, 2, 600, options.warmupSeconds);
    options.runs = intOption(runsOption, 1, 100, options.runs);
    if (parser.isSet(churnOption)) {
        bool ok = false;
        options.churn = parser.value(churnOption).toDouble(&ok);
        if (!ok || options.churn < 0.001 || options.churn > 1'000'000) {
            std::fprintf(stderr, "--churn must be a number from 0.001 to 1000000\n");
            return 2;
        }
    }
    if (parser.isSet(seedOption))
        options.seed = parser.value(seedOption).toULongLong();
    options.baseline = parser.isSet(baselineOption);
    if (parser.isSet(serverOption))
        options.mockServer = parser.value(serverOption);

    std::printf(
        "bench_availability_cost: the availability set against per-row subscriptions alone\n"
        "gateway:    %s --generate %d --friends %d --seed %llu --churn %g "
        "--availability-interval-ms %d --listen 127.0.0.1:0 --admin 127.0.0.1:0 --dump-users "
        "FILE\n"
        "            (defaults otherwise: grace 5000 ms, pings every 25 s, "
        "max_availability_friends "
        "5000); a fresh one per run, the same population and churn in every run\n"
        "clients:    %d QWebSockets in this process (one thread, Qt event loop, loopback), each a "
        "user picked at random (seed %llu); each subscribes to %d of its friends picked at "
        "random, its rows on screen\n"
        "modes:      A rows only: hello, subscribe, then only receive; B rows + availability: "
        "the same, then watch_availability (covers all its friends)%s\n"
        "runs:       %d of each, alternated (A B A B ...); window %d s starting %d s after the "
        "gateway printed its address (clients set up in between)\n"
        "measured:   in the window, per client per minute: text frames received by type, their "
        "bytes (payload + frame header), the friend ids they carry, the kernel's byte count "
        "(TCP_INFO); gateway CPU: utime + stime from /proc/PID/stat over the window, %% of one "
        "core\n"
        "reported:   medians of the runs [min-max]; B/A = ratio of the medians\n",
        qPrintable(options.mockServer), options.users, options.friends,
        static_cast<unsigned long long>(options.seed), options.churn, options.intervalMs,
        options.clients, static_cast<unsigned long long>(options.seed), options.rows,
        options.baseline ? "; baseline: the gateway and its churn, no client" : "", options.runs,
        options.seconds, options.warmupSeconds);
    std::printf("machine:    %d cores (sysconf), load %.2f at the start\n\n",
        int(sysconf(_SC_NPROCESSORS_ONLN)), loadAverage());
    std::fflush(stdout);

    std::vector<Mode> modes { Mode::Rows, Mode::RowsAndAvailability };
    if (options.baseline)
        modes.push_back(Mode::Baseline);
    std::optional<Population> population;
    std::optional<Plan> plan;
    std::vector<RunResult> a;
    std::vector<RunResult> b;
    std::vector<RunResult> baseline;
    bool ok = true;
    for (int run = 1; run <= options.runs; ++run) {
        for (const Mode mode : modes) {
            auto result = runOnce(mode, run, options, population, plan);
            if (!result)
                return 1;
            if (run == 1 && mode == Mode::Rows) {
                std::printf("%-22s        plan: %zu clients, %d with fewer than %d friends\n", "",
                    plan->clients.size(), plan->shortLists, options.rows);
            }
            ok = ok && result->ok;
            (mode == Mode::Rows                         ? a
                    : mode == Mode::RowsAndAvailability ? b
                                                        : baseline)
                .push_back(*result);
        }
    }
    printTable(options, a, b, baseline);
    if (!ok)
        std::printf("SOME CHECKS FAILED (see the lines under each run)\n");
    return ok ? 0 : 1;
}
