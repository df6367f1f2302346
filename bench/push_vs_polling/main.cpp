// bench_push_vs_polling: the same clients watching the same friends through the same presence
// changes, once by polling the gateway's HTTP API and once by holding a WebSocket and receiving
// pushes; what each costs the clients and the gateway, and how late each learns of a change.
//
// Every mode runs against a fresh real presence-mock-server (the binary, a child process):
//   --generate N --friends F --seed S --listen 127.0.0.1:0 --admin 127.0.0.1:0
//   --admin-token-file FILE --heartbeat-ttl-ms 35000 --grace-ms 0 --dump-users FILE
// Its addresses are read from what it prints; the generated users' tokens from the dump. The
// grace is 0 so that every change, going offline included, is published when it is made: the
// latency measured is the delivery, not the gateway's deliberate wait (equal in both designs).
//
// Population and plan (seeded, identical in every mode): C clients are C users picked at
// random; each watches W of its friends, picked at random among its friends who are not
// clients (a client's own presence is held up by its connection or heartbeats, so changes
// could not show on it). The watched users are the targets of the changes.
//
// The changes: R per second (default 20), made by the benchmark itself with
// POST /admin/users/{id}/presence (the admin token; one request at a time, each on its own
// connection from 127.0.0.1), a target and a new status (online, away or offline, never the
// current one) picked by a seeded RNG: the same sequence in every mode. Every change is
// published, so the k-th change of a user is the one watchers see with seq k (checked: the
// status seen must be that change's). Its time is taken when the request's connection starts.
//
// Modes:
//   polling  Each client, every P (default 5 s, first one at a random offset within P), opens
//            a connection and sends GET /api/presence?ids=<its W friends>; every H (default
//            15 s, random offset) POST /api/heartbeat; both with its own token. The HTTP
//            server answers one request per connection, so each request is a new TCP
//            connection. Requests are written by hand on QTcpSockets: bytes are exact. Each
//            client connects from a loopback address of its own (127.77.x.y), as a real
//            client would from its own host: the gateway allows 50 requests per second per peer
//            address, and 200 clients make about 53 (--same-address puts them all on one
//            address, as behind a NAT, and shows the 429s).
//   push     Each client opens one QWebSocket, sends hello, subscribes to the same W friends
//            and then only receives (Qt answers the gateway's pings by itself).
//   baseline The gateway with the changes alone and no client (--baseline-seconds, default
//            20; 0 skips it): the CPU the changes' own HTTP requests cost, to be subtracted.
//
// A watcher "knows" a change when a poll answer or a push shows that user with the change's
// seq; latency = that moment (the answer complete, or the push's arrival) - the change's time,
// both on this process's steady clock. A poll that shows a later seq has missed the changes
// in between (changed again before the watcher looked): counted as missed, with no latency.
// Changes are made through a warm-up (default 10 s), the measured window (default 60 s) and
// a drain of P + 2 s; only the changes made inside the window are measured, and the traffic
// and CPU are those of the window.
//
// Traffic, per client and per minute of the window:
//   polling  requests and connections started in the window, with every byte the socket wrote
//            and read for them (request, answer head and body); TCP segments from TCP_INFO up
//            to the complete answer, plus 4 for the close (estimated: FIN and ACK each way).
//   push     text frames sent and received in the window: payload + frame header (2, 4 or 10
//            bytes; a client frame also carries a 4-byte mask); the gateway's pings (empty,
//            every heartbeat_ms from the sign-in) and the client's pongs cannot be
//            observed through QWebSocket and are counted from that schedule. The kernel's count
//            for the same sockets (TCP_INFO payload bytes and segments, exact) is printed
//            beside it.
// Gateway CPU: utime + stime of the child (/proc/PID/stat) over the window, % of one core.
//
// Run: ./bench_push_vs_polling [--clients C] [--watch W] [--users N] [--friends F]
//      [--poll-ms P] [--heartbeat-ms H] [--changes-per-second R] [--seconds D]
//      [--warmup-seconds S] [--baseline-seconds B] [--seed X] [--mode both|polling|push]
//      [--same-address] [--mock-server PATH]

// C++
#include <cstdio>
#include <optional>
#include <utility>
#include <vector>
// System
#include <sys/resource.h>

// Qt
#include <QCoreApplication>

// Presence
#include "bench/push_vs_polling/CommandLine.h"
#include "bench/push_vs_polling/Comparison.h"
#include "bench/push_vs_polling/ModeResult.h"
#include "bench/push_vs_polling/ModeRun.h"
#include "bench/push_vs_polling/Options.h"
#include "bench/push_vs_polling/Plan.h"

using namespace PushPollingBench;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const std::optional<Options> parsed = parseCommandLine(app);
    if (!parsed)
        return 2;
    const Options &options = *parsed;

    rlimit files {};
    getrlimit(RLIMIT_NOFILE, &files);
    std::printf("bench_push_vs_polling: %d clients watching %d friends each among %d users (%d "
                "friends each, seed %llu); %.0f changes/s; window %d s after %d s of warm-up\n",
        options.clients, options.watch, options.users, options.friends,
        static_cast<unsigned long long>(options.seed), options.changesPerSecond, options.seconds,
        options.warmupSeconds);
    std::printf("polling: GET /api/presence every %lld ms, POST /api/heartbeat every %lld ms "
                "(gateway --heartbeat-ttl-ms %lld), a new TCP connection per request, %s; push: "
                "one WebSocket per client\n",
        static_cast<long long>(options.poll.count()),
        static_cast<long long>(options.heartbeat.count()),
        static_cast<long long>(options.heartbeatTtl.count()),
        options.sameAddress ? "all clients from 127.77.0.1"
                            : "each client from its own 127.77.x.y");
    std::printf("gateway: %s, --grace-ms 0 (changes published when made)\n",
        qPrintable(options.mockServer));
    std::printf("open-file limit of this process: soft %llu, hard %llu (needs about %d: one socket "
                "per WebSocket client, a few HTTP connections at a time)\n",
        static_cast<unsigned long long>(files.rlim_cur),
        static_cast<unsigned long long>(files.rlim_max), options.clients + 64);
    std::fflush(stdout);

    std::optional<Population> population;
    std::optional<Plan> plan;
    std::vector<ModeResult> results;
    std::vector<Mode> modes;
    if (options.polling)
        modes.push_back(Mode::Polling);
    if (options.push)
        modes.push_back(Mode::Push);
    if (options.baselineSeconds > 0)
        modes.push_back(Mode::Baseline);
    for (const Mode mode : modes) {
        auto result = runMode(mode, options, population, plan);
        if (!result)
            return 1;
        if (mode == Mode::Polling) {
            qint64 watchSlots = 0;
            for (const auto &list : plan->watched)
                watchSlots += qint64(list.size());
            std::printf("  plan: %zu watched users (the targets), %lld watch slots, %.2f watchers "
                        "per target on average; %d clients with fewer than %d non-client friends\n",
                plan->targets.size(), static_cast<long long>(watchSlots),
                double(watchSlots) / double(plan->targets.size()), plan->shortLists, options.watch);
        }
        results.push_back(std::move(*result));
    }

    const ModeResult *polling = nullptr;
    const ModeResult *push = nullptr;
    const ModeResult *baseline = nullptr;
    for (const ModeResult &result : results) {
        if (result.mode == Mode::Polling)
            polling = &result;
        else if (result.mode == Mode::Push)
            push = &result;
        else
            baseline = &result;
    }
    printComparison(polling, push, baseline);
    printHeadlines(polling, push);

    bool ok = true;
    for (const ModeResult &result : results)
        ok = ok && result.ok;
    if (!ok)
        std::printf("SOME CHECKS FAILED (see the lines under each mode)\n");
    return ok ? 0 : 1;
}
