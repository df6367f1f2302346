#pragma once

// C++
#include <optional>
#include <vector>

// Qt
#include <QStringList>
#include <QtGlobal>

// Presence
#include "bench/push_vs_polling/Options.h"

namespace PushPollingBench {

// What one mode measured.
struct ModeResult {
    Mode mode = Mode::Polling;
    double windowSeconds = 0;
    int clients = 0;
    // per client, per minute of the window
    double requestsOut = 0; // HTTP requests, or WebSocket frames sent
    double messagesIn = 0; // HTTP answers, or WebSocket frames received
    double bytesOut = 0;
    double bytesIn = 0;
    double connections = 0;
    double segments = 0; // both directions
    std::optional<double> kernelBytes; // push: TCP_INFO payload bytes both ways
    double gatewayCpuPercent = -1;
    double gatewayRssMiB = -1;
    double benchCpuPercent = 0;
    double loadBefore = 0;
    double loadAfter = 0;
    // latency
    std::vector<double> latencyMs; // sorted
    qint64 expectedPairs = 0;
    qint64 missed = 0;
    qint64 measuredChanges = 0;
    QStringList notes; // checks and details, printed under the mode
    bool ok = true;
};

inline const char *modeName(Mode mode)
{
    switch (mode) {
    case Mode::Polling:
        return "polling";
    case Mode::Push:
        return "push";
    case Mode::Baseline:
        return "baseline";
    }
    return "?";
}

inline double perClientMinute(double value, const ModeResult &result)
{
    return result.clients && result.windowSeconds > 0
        ? value / result.clients / (result.windowSeconds / 60.0)
        : 0;
}

} // namespace PushPollingBench
