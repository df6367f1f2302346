#pragma once

// What the command line asks for; the defaults are those of docs/benchmarks.md.

// C++
#include <chrono>

// Qt
#include <QString>
#include <QtGlobal>

namespace PushPollingBench {

enum class Mode { Polling, Push, Baseline };

struct Options {
    int clients = 200;
    int watch = 50;
    int users = 2000;
    int friends = 300;
    std::chrono::milliseconds poll { 5000 };
    std::chrono::milliseconds heartbeat { 15000 };
    std::chrono::milliseconds heartbeatTtl { 35000 };
    double changesPerSecond = 20;
    int seconds = 60;
    int warmupSeconds = 10;
    int baselineSeconds = 20;
    quint64 seed = 7;
    bool polling = true;
    bool push = true;
    bool sameAddress = false;
    QString mockServer = QStringLiteral(PRESENCE_MOCK_SERVER);
};

} // namespace PushPollingBench
