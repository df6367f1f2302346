#include "bench/push_vs_polling/Comparison.h"

// C++
#include <cstdio>
#include <functional>
#include <optional>

// Qt
#include <QString>

// Presence
#include "bench/RatioText.h"
#include "bench/push_vs_polling/Clock.h"

using namespace Qt::StringLiterals;

namespace PushPollingBench {

namespace {

QString ratio(double a, double b)
{
    return BenchSupport::ratioText(a, b, u"-"_s);
}

QString number(double value, int decimals = 0)
{
    return QString::number(value, 'f', decimals);
}

} // namespace

// The table: polling and push side by side, "-" for a mode that did not run.
void printComparison(const ModeResult *polling, const ModeResult *push, const ModeResult *baseline)
{
    using Value = std::function<std::optional<double>(const ModeResult &)>;
    const auto cell = [](const ModeResult *result, const Value &value, int decimals) {
        const auto v = result ? value(*result) : std::nullopt;
        return v ? number(*v, decimals) : u"-"_s;
    };
    const auto row = [&](const char *label, const Value &value, int decimals, bool withRatio) {
        const auto a = polling ? value(*polling) : std::nullopt;
        const auto b = push ? value(*push) : std::nullopt;
        std::printf("%-60s %14s %14s %10s\n", label, qPrintable(cell(polling, value, decimals)),
            qPrintable(cell(push, value, decimals)),
            qPrintable(withRatio && a && b ? ratio(*a, *b) : QString()));
    };
    const auto known = [](const ModeResult &r) { return double(r.latencyMs.size()); };
    const auto field = [](double ModeResult::*member) {
        return Value([member](const ModeResult &r) { return std::optional<double>(r.*member); });
    };
    const ModeResult *any = polling ? polling : push;
    std::printf("\nPer client, per minute of the measured window (%.0f s); latency over every "
                "(change, watcher) pair of the changes made in the window\n\n",
        any ? any->windowSeconds : 0.0);
    std::printf("%-60s %14s %14s %10s\n", "", "polling", "push", "poll/push");
    row("requests sent (HTTP requests; WebSocket frames, pongs incl.)",
        field(&ModeResult::requestsOut), 2, true);
    row("messages received (HTTP answers; frames, pings incl.)", field(&ModeResult::messagesIn), 2,
        true);
    row("bytes sent", field(&ModeResult::bytesOut), 0, true);
    row("bytes received", field(&ModeResult::bytesIn), 0, true);
    row(
        "bytes, both directions",
        [](const ModeResult &r) { return std::optional<double>(r.bytesOut + r.bytesIn); }, 0, true);
    row(
        "  the same, kernel's count (TCP_INFO payload bytes)",
        [](const ModeResult &r) { return r.kernelBytes; }, 0, false);
    row("TCP connections opened (push: 1 held from the setup)", field(&ModeResult::connections), 2,
        false);
    row("TCP segments, both directions (loopback)", field(&ModeResult::segments), 0, true);

    std::printf("\nGateway, over the window\n\n");
    row("CPU, % of one core", field(&ModeResult::gatewayCpuPercent), 2, true);
    if (baseline) {
        const double base = baseline->gatewayCpuPercent;
        std::printf("%-60s %14s\n", "  changes alone, no client (baseline run)",
            qPrintable(number(base, 2)));
        row(
            "  CPU for the clients (minus the baseline)",
            [base](
                const ModeResult &r) { return std::optional<double>(r.gatewayCpuPercent - base); },
            2, true);
    }
    row("RSS at the end of the window, MiB", field(&ModeResult::gatewayRssMiB), 0, false);

    std::printf("\nChange -> watcher knows it\n\n");
    const auto latency = [](double p) {
        return Value([p](const ModeResult &r) {
            return r.latencyMs.empty() ? std::nullopt
                                       : std::optional<double>(percentile(r.latencyMs, p));
        });
    };
    row("latency median, ms", latency(0.5), 1, true);
    row("latency p99, ms", latency(0.99), 1, true);
    row("latency max, ms", latency(1.0), 1, false);
    row(
        "(change, watcher) pairs expected",
        [](const ModeResult &r) { return std::optional<double>(double(r.expectedPairs)); }, 0,
        false);
    row(
        "  known", [&](const ModeResult &r) { return std::optional<double>(known(r)); }, 0, false);
    row(
        "  missed: changed again before the watcher looked",
        [](const ModeResult &r) { return std::optional<double>(double(r.missed)); }, 0, false);
    row(
        "  not known by the end",
        [&](const ModeResult &r) {
            return std::optional<double>(double(r.expectedPairs) - known(r) - double(r.missed));
        },
        0, false);
    row(
        "  share known, %",
        [&](const ModeResult &r) {
            return r.expectedPairs ? std::optional<double>(100 * known(r) / double(r.expectedPairs))
                                   : std::nullopt;
        },
        2, false);
    std::printf("\nbytes: polling counts every byte its sockets wrote and read (exact, HTTP heads "
                "included); push counts text frames (payload + header + client mask) and the "
                "gateway's pings and the pongs from their schedule; the kernel row is exact. TCP "
                "segments: polling from TCP_INFO up to each answer + 4 estimated for the close; "
                "push exact (TCP_INFO). Loopback: larger answers fit in fewer segments than on a "
                "1500-byte MTU network.\n");
}

void printHeadlines(const ModeResult *polling, const ModeResult *push)
{
    if (!polling || !push)
        return;
    std::printf("\n");
    const double pushBytes = push->bytesOut + push->bytesIn;
    if (pushBytes > 0)
        std::printf("headline: push_vs_polling_bytes_ratio %.2f x higher\n",
            (polling->bytesOut + polling->bytesIn) / pushBytes);
    if (push->gatewayCpuPercent > 0 && polling->gatewayCpuPercent >= 0)
        std::printf("headline: push_vs_polling_gateway_cpu_ratio %.2f x higher\n",
            polling->gatewayCpuPercent / push->gatewayCpuPercent);
    if (!push->latencyMs.empty())
        std::printf(
            "headline: push_latency_p50_ms %.2f ms lower\n", percentile(push->latencyMs, 0.5));
}

} // namespace PushPollingBench
