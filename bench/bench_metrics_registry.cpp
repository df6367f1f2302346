// bench_metrics_registry: what the gateway's metrics cost on its hot path and at a scrape.
//
// Counting a frame through a series handle kept from start-up, against looking the series up
// by its labels each time (what MetricsRegistry asks callers not to do): nanoseconds per
// increment, 1,000,000 increments a round over 8 frame types. And rendering a registry shaped
// like the gateway's (4 gauges, 10 frame types in and out, 9 error codes, 6 close codes, 2
// plain counters, the push latency histogram) for GET /metrics. Medians over the rounds;
// `headline:` lines for tools/bench.sh. It moved here from tst_metrics_registry, where it was
// a QBENCHMARK that always skipped: figures belong to benchmarks, not to unit tests.

// C++
#include <array>
#include <cstdio>
#include <vector>

// Qt
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>

// Presence
#include "IntegerOption.h"
#include "Summary.h"
#include "server-mock/metrics/MetricsRegistry.h"

using namespace Qt::StringLiterals;
using Presence::Server::Counter;
using Presence::Server::CounterFamily;
using Presence::Server::Histogram;
using Presence::Server::MetricsRegistry;

namespace {

constexpr int kIncrements = 1'000'000;
constexpr int kRenders = 200;

// Nanoseconds per increment over one round: through kept handles, or by lookup.
double incrementNs(bool byLookup)
{
    MetricsRegistry registry;
    CounterFamily &frames
        = registry.counterFamily("presence_frames_in_total", "Frames.", { "type" });
    const QList<QStringList> types { { u"hello"_s }, { u"subscribe"_s }, { u"unsubscribe"_s },
        { u"set_status"_s }, { u"friends"_s }, { u"send_message"_s }, { u"history"_s },
        { u"ping"_s } };
    std::array<Counter *, 8> handles {};
    for (size_t i = 0; i < handles.size(); ++i)
        handles[i] = &frames.series(types[qsizetype(i)]);
    QElapsedTimer timer;
    timer.start();
    for (int frame = 0; frame < kIncrements; ++frame) {
        if (byLookup)
            frames.series(types[frame & 7]).increment();
        else
            handles[size_t(frame & 7)]->increment();
    }
    const double ns = double(timer.nsecsElapsed()) / kIncrements;
    if (handles[0]->value() != kIncrements / 8)
        qFatal("counted %llu of %d increments", qulonglong(handles[0]->value()), kIncrements / 8);
    return ns;
}

// Microseconds per render of a registry shaped like the gateway's.
double renderUs()
{
    MetricsRegistry registry;
    for (const char *name : { "presence_connections", "presence_authenticated_users",
             "presence_subscriptions", "presence_watched_users" })
        registry.gauge(name, "Gauge.", [] { return 1234.0; });
    CounterFamily &in = registry.counterFamily("presence_frames_in_total", "In.", { "type" });
    CounterFamily &out = registry.counterFamily("presence_frames_out_total", "Out.", { "type" });
    for (int i = 0; i < 10; ++i) {
        in.series({ u"type_%1"_s.arg(i) }).add(100000);
        out.series({ u"type_%1"_s.arg(i) }).add(100000);
    }
    CounterFamily &errors = registry.counterFamily("presence_errors_total", "Errors.", { "code" });
    for (int i = 0; i < 9; ++i)
        errors.series({ u"code_%1"_s.arg(i) }).add(7);
    CounterFamily &closes = registry.counterFamily("presence_closes_total", "Closes.", { "code" });
    for (int i = 0; i < 6; ++i)
        closes.series({ QString::number(1000 + i) }).add(7);
    registry.counter("presence_changes_published_total", "Changes.").add(99999);
    registry.counter("presence_pushes_total", "Pushes.").add(999999);
    Histogram &latency = registry.histogram("presence_push_latency_seconds", "Latency.");
    for (int i = 0; i < 1000; ++i)
        latency.observe(i * 0.0001);

    QByteArray text;
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < kRenders; ++i)
        text = registry.render();
    const double us = double(timer.nsecsElapsed()) / 1000.0 / kRenders;
    if (!text.contains("presence_push_latency_seconds_bucket") || !text.contains("type_9"))
        qFatal("the render lacks series: %s", text.left(200).constData());
    return us;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Times counting through the gateway's metrics and rendering them."_s);
    parser.addHelpOption();
    const QCommandLineOption roundsOption(u"rounds"_s, u"Rounds of each (default 15)."_s, u"R"_s);
    parser.addOption(roundsOption);
    parser.process(app);
    const int rounds = integerOption(parser, roundsOption, 1, 1000, 15);

    std::vector<double> handle;
    std::vector<double> lookup;
    std::vector<double> render;
    for (int round = 0; round < rounds; ++round) {
        handle.push_back(incrementNs(false));
        lookup.push_back(incrementNs(true));
        render.push_back(renderUs());
    }
    const Summary h = summarize(handle);
    const Summary l = summarize(lookup);
    const Summary r = summarize(render);
    std::printf("bench_metrics_registry: %d rounds; median (min-max)\n", rounds);
    std::printf(
        "  increment through a kept handle   %8.2f ns (%.2f-%.2f)\n", h.median, h.min, h.max);
    std::printf(
        "  increment by looking labels up    %8.2f ns (%.2f-%.2f)\n", l.median, l.min, l.max);
    std::printf(
        "  render, a registry like the gateway's %8.1f us (%.1f-%.1f)\n", r.median, r.min, r.max);
    // The hot path's figure as a ratio to its reference in the same run: how much the kept
    // handle saves over a lookup.
    std::printf("\nheadline: metrics_handle_speedup %.1f x higher\n", l.median / h.median);
    std::printf("headline: metrics_render_us %.1f us lower\n", r.median);
    return 0;
}
