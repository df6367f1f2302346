#include "bench/availability_cost/Run.h"

// C++
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

// Qt
#include <QByteArray>
#include <QObject>
#include <QStringList>
#include <QTimer>

// Presence
#include "bench/DumpedPopulation.h"
#include "bench/GeneratedGateway.h"
#include "bench/SocketCounters.h"
#include "bench/availability_cost/Client.h"
#include "bench/availability_cost/GatewayMetrics.h"
#include "bench/availability_cost/Traffic.h"
#include "tests/harness/EventLoopWait.h"
#include "tests/harness/MockServerProcess.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace AvailabilityCostBench {

using BenchSupport::loadAverage;
using BenchSupport::processCpuSeconds;
using Harness::waitUntil;
using PushPollingBench::tcpCountersOfConnectionsTo;

std::optional<RunResult> runOnce(Mode mode, int run, const Options &options,
    std::optional<Population> &population, std::optional<Plan> &plan)
{
    BenchSupport::GeneratedGateway gateway(options.mockServer);
    const QStringList arguments { u"--generate"_s, QString::number(options.users), u"--friends"_s,
        QString::number(options.friends), u"--seed"_s, QString::number(options.seed), u"--churn"_s,
        QString::number(options.churn), u"--availability-interval-ms"_s,
        QString::number(options.intervalMs), u"--listen"_s, u"127.0.0.1:0"_s, u"--admin"_s,
        u"127.0.0.1:0"_s };
    if (!gateway.start(arguments, population))
        return std::nullopt;
    if (!plan)
        plan = Plan::make(*population, options.clients, options.rows, options.seed);
    MockServerProcess &server = gateway.server();
    // The churn starts just before the gateway prints its address: the window is timed from
    // then, so every run covers the same stretch of it.
    const auto startedAt = gateway.servingSince();
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
        reading.kernelBytesIn = tcpCountersOfConnectionsTo(wsPort).bytesReceived;
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
    const QStringList serious = BenchSupport::warningsOrWorse(gatewayLog);
    const bool checksOk = counters.errors == 0 && counters.disconnects == 0 && counters.denied == 0
        && counters.badAvailability == 0 && counters.wrongInterval == 0
        && counters.emptyChanges == 0 && serious.isEmpty() && atStart->metrics && atEnd->metrics;
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
        modeName(mode), run, gatewayPid, setupSeconds, RunResult::sum(result.frames),
        RunResult::sum(result.bytes), result.kernelBytesIn, RunResult::sum(result.ids),
        result.gatewayCpuPercent, result.gatewayRssMiB, result.publishedPerSecond,
        result.benchCpuPercent, result.loadBefore, result.loadAfter);
    std::printf("%-22s        checks %s: errors %lld, disconnects %lld, denied rows %lld, "
                "availability not covering all friends %lld, welcome with another interval "
                "%lld, empty availability_changed %lld, gateway log warnings %lld%s%s\n",
        "", checksOk ? "ok" : "FAILED", static_cast<long long>(counters.errors),
        static_cast<long long>(counters.disconnects), static_cast<long long>(counters.denied),
        static_cast<long long>(counters.badAvailability),
        static_cast<long long>(counters.wrongInterval),
        static_cast<long long>(counters.emptyChanges), static_cast<long long>(serious.size()),
        serious.isEmpty() ? "" : qPrintable(u" (first: "_s + serious.constFirst() + u")"_s),
        qPrintable(gaps));
    std::fflush(stdout);
    return result;
}

} // namespace AvailabilityCostBench
