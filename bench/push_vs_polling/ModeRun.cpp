#include "bench/push_vs_polling/ModeRun.h"

// C++
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <utility>
#include <vector>

// Qt
#include <QFile>
#include <QHostAddress>
#include <QObject>
#include <QRandomGenerator>
#include <QTimer>

// Presence
#include "bench/DumpedPopulation.h"
#include "bench/GeneratedGateway.h"
#include "bench/SocketCounters.h"
#include "bench/push_vs_polling/ChangeDriver.h"
#include "bench/push_vs_polling/Clock.h"
#include "bench/push_vs_polling/HttpExchange.h"
#include "bench/push_vs_polling/PollingClient.h"
#include "bench/push_vs_polling/PushClient.h"
#include "bench/push_vs_polling/Tracker.h"
#include "bench/push_vs_polling/Window.h"
#include "tests/harness/EventLoopWait.h"
#include "tests/harness/MockServerProcess.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace PushPollingBench {

using BenchSupport::loadAverage;
using BenchSupport::processCpuSeconds;
using Harness::waitUntil;

// Runs one mode against a fresh gateway. The first run loads the population and makes the
// plan; later runs check that they got the same population.
std::optional<ModeResult> runMode(Mode mode, const Options &options,
    std::optional<Population> &population, std::optional<Plan> &plan)
{
    std::printf("\n== %s ==\n", modeName(mode));
    std::fflush(stdout);
    BenchSupport::GeneratedGateway gateway(options.mockServer);
    const QByteArray adminToken
        = QByteArray::number(QRandomGenerator::system()->generate64(), 16).rightJustified(16, '0')
        + QByteArray::number(QRandomGenerator::system()->generate64(), 16).rightJustified(16, '0');
    const QString tokenPath = gateway.filePath(u"admin-token"_s);
    if (tokenPath.isEmpty()) {
        std::fprintf(stderr, "no temporary directory\n");
        return std::nullopt;
    }
    QFile tokenFile(tokenPath);
    if (!tokenFile.open(QIODevice::WriteOnly) || tokenFile.write(adminToken + '\n') < 0) {
        std::fprintf(stderr, "cannot write the admin token file\n");
        return std::nullopt;
    }
    tokenFile.close();
    const QStringList arguments { u"--generate"_s, QString::number(options.users), u"--friends"_s,
        QString::number(options.friends), u"--seed"_s, QString::number(options.seed), u"--listen"_s,
        u"127.0.0.1:0"_s, u"--admin"_s, u"127.0.0.1:0"_s, u"--admin-token-file"_s,
        tokenFile.fileName(), u"--heartbeat-ttl-ms"_s,
        QString::number(options.heartbeatTtl.count()), u"--grace-ms"_s, u"0"_s };
    if (!gateway.start(arguments, population))
        return std::nullopt;
    if (!plan)
        plan = Plan::make(*population, options.clients, options.watch, options.seed);
    MockServerProcess &server = gateway.server();
    const HttpEndpoint http = HttpEndpoint::of(server.httpUrl());
    std::printf("gateway pid %lld: %s, %s (%lld users)\n", server.pid(),
        qPrintable(server.url().toString()), qPrintable(server.httpUrl().toString()),
        static_cast<long long>(population->ids.size()));

    const qint64 firstMeasured
        = qint64(std::ceil(options.warmupSeconds * options.changesPerSecond));
    const int seconds = mode == Mode::Baseline ? options.baselineSeconds : options.seconds;
    const qint64 endMeasured
        = qint64(std::ceil((options.warmupSeconds + seconds) * options.changesPerSecond));
    Tracker tracker(*plan, int(population->ids.size()), firstMeasured, endMeasured);
    Window window;
    HttpCounters adminCounters;
    HttpCounters pollCounters;
    HttpCounters heartbeatCounters;
    FrameCounters frames;
    std::vector<std::unique_ptr<PollingClient>> pollers;
    std::vector<std::unique_ptr<PushClient>> pushers;
    const int clientCount = mode == Mode::Baseline ? 0 : int(plan->clients.size());

    const auto setupStart = Clock::now();
    if (mode == Mode::Polling) {
        std::mt19937_64 random(options.seed + 99);
        for (int i = 0; i < clientCount; ++i) {
            // 127.77.x.y, one per client, or 127.77.0.1 for all (never the driver's 127.0.0.1).
            const int slot = options.sameAddress ? 0 : i;
            const std::optional<QHostAddress> source = QHostAddress(
                (127u << 24) | (77u << 16) | (quint32(slot / 250) << 8) | quint32(1 + slot % 250));
            pollers.push_back(std::make_unique<PollingClient>(i, *population, *plan, http, source,
                tracker, window, pollCounters, heartbeatCounters));
            pollers.back()->start(
                std::chrono::milliseconds(random() % quint64(options.poll.count())),
                std::chrono::milliseconds(random() % quint64(options.heartbeat.count())),
                options.poll, options.heartbeat);
        }
    } else if (mode == Mode::Push) {
        // At most 50 handshakes in flight.
        int opened = 0;
        const auto openMore = [&] {
            while (opened < clientCount && opened - frames.ready < 50) {
                pushers.push_back(std::make_unique<PushClient>(
                    opened, *population, *plan, tracker, window, frames));
                pushers.back()->open(server.url());
                ++opened;
            }
        };
        const bool ready = waitUntil(
            [&] {
                openMore();
                return frames.ready == clientCount || frames.disconnects > 0;
            },
            120s);
        if (!ready || frames.disconnects > 0) {
            std::fprintf(stderr, "setup failed: %lld of %d clients subscribed, %lld disconnects\n",
                static_cast<long long>(frames.ready), clientCount,
                static_cast<long long>(frames.disconnects));
            return std::nullopt;
        }
    }
    const double setupSeconds = std::chrono::duration<double>(Clock::now() - setupStart).count();
    TcpCounters setupKernel;
    if (mode == Mode::Push) {
        setupKernel = tcpCountersOfConnectionsTo(quint16(server.url().port()));
        std::printf("setup: %d clients connected, signed in and subscribed in %.1f s; per client "
                    "%.0f bytes sent, %.0f received (handshake, hello/welcome, "
                    "subscribe/snapshot; TCP_INFO over %d sockets)\n",
            clientCount, setupSeconds, double(setupKernel.bytesSent) / clientCount,
            double(setupKernel.bytesReceived) / clientCount, setupKernel.sockets);
    } else if (mode == Mode::Polling) {
        std::printf("setup: %d clients started, first poll within %lld ms, first heartbeat within "
                    "%lld ms (random offsets)\n",
            clientCount, static_cast<long long>(options.poll.count()),
            static_cast<long long>(options.heartbeat.count()));
    }
    std::fflush(stdout);

    ChangeDriver driver(
        options, *population, *plan, tracker, http, adminToken, adminCounters, window);
    const auto origin = Clock::now();
    window.start = origin + std::chrono::seconds(options.warmupSeconds);
    window.end = window.start + std::chrono::seconds(seconds);
    const auto drain = mode == Mode::Baseline ? 2s : options.poll + 2s;
    driver.start(origin);

    // Readings at the window's edges.
    struct Reading {
        std::optional<double> gatewayCpu;
        double processCpu = 0;
        TcpCounters kernel;
        double load = 0;
        qint64 pushes = 0;
    };
    const quint16 wsPort = quint16(server.url().port());
    const auto read = [&] {
        Reading reading;
        reading.gatewayCpu = server.cpuSeconds();
        reading.processCpu = processCpuSeconds();
        if (mode == Mode::Push)
            reading.kernel = tcpCountersOfConnectionsTo(wsPort);
        reading.load = loadAverage();
        reading.pushes = frames.pushes;
        return reading;
    };
    std::optional<Reading> atStart;
    std::optional<Reading> atEnd;
    double gatewayRss = -1;
    const auto untilNow = [](Clock::time_point at) {
        return std::chrono::ceil<std::chrono::milliseconds>(at - Clock::now());
    };
    QObject edges; // the readings die with this function
    QTimer::singleShot(untilNow(window.start), Qt::PreciseTimer, &edges, [&] { atStart = read(); });
    QTimer::singleShot(untilNow(window.end), Qt::PreciseTimer, &edges, [&] {
        atEnd = read();
        gatewayRss = server.residentMiB();
    });
    std::printf("changes: %.0f/s from now; warm-up %d s, measured window %d s, drain %lld s\n",
        options.changesPerSecond, options.warmupSeconds, seconds,
        static_cast<long long>(std::chrono::duration_cast<std::chrono::seconds>(drain).count()));
    std::fflush(stdout);
    const auto finish = window.end + drain;
    (void)waitUntil([&] { return Clock::now() >= finish || !server.isRunning(); },
        std::chrono::duration_cast<std::chrono::milliseconds>(finish - Clock::now()) + 1s);
    driver.stop();
    for (auto &client : pollers)
        client->stop();
    const bool gatewayAlive = server.isRunning();
    (void)waitUntil(
        [&] {
            return adminCounters.inFlight == 0 && pollCounters.inFlight == 0
                && heartbeatCounters.inFlight == 0;
        },
        20s);
    for (auto &client : pushers)
        client->close();
    const QByteArray gatewayErrors = server.takeErrorOutput();
    server.stop();

    ModeResult result;
    result.mode = mode;
    result.clients = clientCount;
    if (!atStart || !atEnd || !gatewayAlive) {
        std::fprintf(stderr, "%s: the gateway exited during the run\n%s\n", modeName(mode),
            gatewayErrors.constData());
        return std::nullopt;
    }
    result.windowSeconds = window.seconds();
    result.loadBefore = atStart->load;
    result.loadAfter = atEnd->load;
    if (atStart->gatewayCpu && atEnd->gatewayCpu)
        result.gatewayCpuPercent
            = 100 * (*atEnd->gatewayCpu - *atStart->gatewayCpu) / result.windowSeconds;
    result.gatewayRssMiB = gatewayRss;
    result.benchCpuPercent = 100 * (atEnd->processCpu - atStart->processCpu) / result.windowSeconds;
    result.latencyMs = tracker.sortedLatencyMs();
    result.expectedPairs = tracker.expectedPairs();
    result.missed = tracker.missed();
    result.measuredChanges = tracker.measuredChanges();

    const auto note = [&result](const QString &text) { result.notes.append(text); };
    const auto statuses = [](const HttpCounters &counters) {
        QStringList parts;
        for (auto it = counters.statuses.cbegin(); it != counters.statuses.cend(); ++it)
            parts.append(
                u"%1 x%2"_s.arg(it.key() ? QString::number(it.key()) : u"none"_s).arg(it.value()));
        return parts.join(u", "_s);
    };
    const auto roundTrip = [](const HttpCounters &counters) {
        std::vector<double> sorted = counters.roundTripMs;
        std::sort(sorted.begin(), sorted.end());
        return u"round trip (connect to complete answer) median %1 ms, p99 %2 ms"_s
            .arg(percentile(sorted, 0.5), 0, 'f', 2)
            .arg(percentile(sorted, 0.99), 0, 'f', 2);
    };
    note(u"changes: %1 made, %2 measured (sent in the window), max lag behind schedule %3 ms; "
         "admin requests in the window: %4 (%5), %6"_s.arg(tracker.changes())
             .arg(result.measuredChanges)
             .arg(driver.maxLagMs(), 0, 'f', 1)
             .arg(adminCounters.requests)
             .arg(statuses(adminCounters), roundTrip(adminCounters)));
    if (driver.refused())
        result.ok = false;

    if (mode == Mode::Polling) {
        const HttpCounters &p = pollCounters;
        const HttpCounters &h = heartbeatCounters;
        result.requestsOut = perClientMinute(double(p.requests + h.requests), result);
        result.messagesIn = result.requestsOut;
        result.bytesOut = perClientMinute(double(p.bytesOut + h.bytesOut), result);
        result.bytesIn = perClientMinute(double(p.bytesIn + h.bytesIn), result);
        result.connections = result.requestsOut;
        result.segments = perClientMinute(
            double(p.segmentsOut + p.segmentsIn + h.segmentsOut + h.segmentsIn), result);
        qint64 skipped = 0;
        qint64 denied = 0;
        qint64 bad = 0;
        for (const auto &client : pollers) {
            skipped += client->skippedPolls();
            denied += client->deniedIds();
            bad += client->badAnswers();
        }
        note(u"polls in the window: %1 (%2), %3 bytes out / %4 in per poll, %5"_s.arg(p.requests)
                 .arg(statuses(p))
                 .arg(p.requests ? double(p.bytesOut) / double(p.requests) : 0.0, 0, 'f', 0)
                 .arg(p.requests ? double(p.bytesIn) / double(p.requests) : 0.0, 0, 'f', 0)
                 .arg(roundTrip(p)));
        note(u"heartbeats in the window: %1 (%2), %3 bytes out / %4 in each"_s.arg(h.requests)
                 .arg(statuses(h))
                 .arg(h.requests ? double(h.bytesOut) / double(h.requests) : 0.0, 0, 'f', 0)
                 .arg(h.requests ? double(h.bytesIn) / double(h.requests) : 0.0, 0, 'f', 0));
        note(u"checks: failed exchanges %1, polls skipped (previous unanswered) %2, denied ids %3, "
             "bad answers %4"_s.arg(p.failures + h.failures)
                 .arg(skipped)
                 .arg(denied)
                 .arg(bad));
        const qint64 non2xx
            = p.requests - p.statuses.value(200) + h.requests - h.statuses.value(200);
        if (non2xx || p.failures || h.failures || denied || bad)
            result.ok = false;
    } else if (mode == Mode::Push) {
        // Pings are empty control frames (2 bytes); a pong echoes the empty payload, masked
        // (2 + 4 bytes).
        qint64 pings = 0;
        for (const auto &client : pushers)
            pings += client->pingsIn(window, std::chrono::milliseconds(frames.heartbeatMs));
        const qint64 framesOut = frames.bytesOut + pings * 6;
        const qint64 framesIn = frames.bytesIn + pings * 2;
        result.requestsOut = perClientMinute(double(frames.framesOut + pings), result);
        result.messagesIn = perClientMinute(double(frames.framesIn + pings), result);
        result.bytesOut = perClientMinute(double(framesOut), result);
        result.bytesIn = perClientMinute(double(framesIn), result);
        result.connections = 0;
        const quint64 segments = (atEnd->kernel.segmentsOut - atStart->kernel.segmentsOut)
            + (atEnd->kernel.segmentsIn - atStart->kernel.segmentsIn);
        result.segments = perClientMinute(double(segments), result);
        const quint64 kernelOut = atEnd->kernel.bytesSent - atStart->kernel.bytesSent;
        const quint64 kernelIn = atEnd->kernel.bytesReceived - atStart->kernel.bytesReceived;
        result.kernelBytes = perClientMinute(double(kernelOut + kernelIn), result);
        note(u"text frames in the window: %1 received (%2 pushes in all), %3 sent; pings and "
             "pongs (from the schedule, not observed): %4 each way (every %5 ms per connection, "
             "2 bytes in + 6 bytes out each)"_s.arg(frames.framesIn)
                 .arg(frames.pushes)
                 .arg(frames.framesOut)
                 .arg(pings)
                 .arg(frames.heartbeatMs));
        note(u"kernel (TCP_INFO, %1 sockets at the start, %2 at the end): %3 bytes out, %4 in, "
             "%5 segments out, %6 in, over the window; frame count: %7 out, %8 in"_s
                 .arg(atStart->kernel.sockets)
                 .arg(atEnd->kernel.sockets)
                 .arg(kernelOut)
                 .arg(kernelIn)
                 .arg(atEnd->kernel.segmentsOut - atStart->kernel.segmentsOut)
                 .arg(atEnd->kernel.segmentsIn - atStart->kernel.segmentsIn)
                 .arg(framesOut)
                 .arg(framesIn));
        note(u"checks: errors %1, disconnects %2"_s.arg(frames.errors).arg(frames.disconnects));
        if (frames.errors || frames.disconnects)
            result.ok = false;
    }
    if (mode != Mode::Baseline) {
        const qint64 seen = qint64(result.latencyMs.size());
        note(u"watchers: %1 (change, watcher) pairs expected; %2 known, %3 missed (changed again "
             "before the watcher looked), %4 not known by the end; observations %5 (%6 without "
             "news), wrong status %7, unexplained seq %8"_s.arg(result.expectedPairs)
                 .arg(seen)
                 .arg(result.missed)
                 .arg(result.expectedPairs - seen - result.missed)
                 .arg(tracker.observations())
                 .arg(tracker.noNews())
                 .arg(tracker.wrongStatus())
                 .arg(tracker.unknownSeq()));
        if (tracker.wrongStatus() || tracker.unknownSeq())
            result.ok = false;
    }
    // The gateway logs every sign-in (info); anything worse is shown.
    const QStringList serious = BenchSupport::warningsOrWorse(gatewayErrors);
    const QByteArray log = gatewayErrors.trimmed();
    const qsizetype logLines = log.isEmpty() ? 0 : log.count('\n') + 1;
    note(u"gateway log: %1 lines on stderr, %2 warnings or worse%3"_s.arg(logLines)
             .arg(serious.size())
             .arg(serious.isEmpty() ? QString() : u": "_s + serious.mid(0, 5).join(u" | "_s)));
    for (const QString &line : std::as_const(result.notes))
        std::printf("  %s\n", qPrintable(line));
    std::printf("  gateway CPU %.2f %% of one core over %.1f s, RSS %.0f MiB; this process %.1f %% "
                "of one core; load %.2f -> %.2f\n",
        result.gatewayCpuPercent, result.windowSeconds, result.gatewayRssMiB,
        result.benchCpuPercent, result.loadBefore, result.loadAfter);
    std::fflush(stdout);
    return result;
}

} // namespace PushPollingBench
