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
#include <cstdio>
#include <optional>
#include <vector>
// System
#include <unistd.h>

// Qt
#include <QCoreApplication>

// Presence
#include "bench/DumpedPopulation.h"
#include "bench/availability_cost/CommandLine.h"
#include "bench/availability_cost/Options.h"
#include "bench/availability_cost/Plan.h"
#include "bench/availability_cost/Run.h"
#include "bench/availability_cost/RunResult.h"
#include "bench/availability_cost/Table.h"

using namespace AvailabilityCostBench;
using BenchSupport::loadAverage;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const Options options = parseCommandLine(app);

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
    printHeadlines(a, b);
    if (!ok)
        std::printf("SOME CHECKS FAILED (see the lines under each run)\n");
    return ok ? 0 : 1;
}
