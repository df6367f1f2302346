#include "bench/availability_cost/Table.h"

// C++
#include <algorithm>
#include <cstdio>
#include <functional>

// Qt
#include <QString>

// Presence
#include "bench/RatioText.h"
#include "bench/Summary.h"
#include "bench/availability_cost/Traffic.h"

using namespace Qt::StringLiterals;

namespace AvailabilityCostBench {

namespace {

// B/A, or "new" for what only B has.
QString ratio(double b, double a)
{
    return BenchSupport::ratioText(b, a, u"new"_s);
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

} // namespace

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

void printHeadlines(const std::vector<RunResult> &a, const std::vector<RunResult> &b)
{
    using Value = std::function<double(const RunResult &)>;
    const auto median = [](const std::vector<RunResult> &runs, const Value &value) {
        std::vector<double> values;
        values.reserve(runs.size());
        for (const RunResult &run : runs)
            values.push_back(value(run));
        return summarize(values).median;
    };
    const Value bytes = [](const RunResult &r) {
        double total = 0;
        for (const double value : r.bytes)
            total += value;
        return total;
    };
    const Value cpu = [](const RunResult &r) { return r.gatewayCpuPercent; };
    std::printf("\n");
    if (const double base = median(a, bytes); base > 0)
        std::printf("headline: availability_bytes_ratio %.2f x lower\n", median(b, bytes) / base);
    if (const double base = median(a, cpu); base > 0)
        std::printf(
            "headline: availability_gateway_cpu_ratio %.2f x lower\n", median(b, cpu) / base);
}

} // namespace AvailabilityCostBench
