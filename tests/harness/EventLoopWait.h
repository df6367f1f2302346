#pragma once

// Waiting in benchmarks without disturbing what they measure: the event loop runs, and no
// polling timer wakes it.

#include <QCoreApplication>
#include <QObject>
#include <QProcess>
#include <QTimer>

#include <chrono>
#include <functional>

namespace BenchSupport {

// Runs the event loop until done() holds (checked after every batch of events) or timeout has
// passed; returns done().
inline bool waitUntil(const std::function<bool()> &done, std::chrono::milliseconds timeout)
{
    bool expired = false;
    QTimer wake;
    wake.setSingleShot(true);
    wake.setTimerType(Qt::PreciseTimer);
    QObject::connect(&wake, &QTimer::timeout, [&expired] { expired = true; });
    wake.start(timeout);
    while (!done()) {
        if (expired)
            return false;
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    }
    return true;
}

// Lets the event loop run for `duration`.
inline void pause(std::chrono::milliseconds duration)
{
    (void)waitUntil([] { return false; }, duration);
}

// SIGTERM, then SIGKILL if the process is still there after 5 s.
inline void stopProcess(QProcess &process)
{
    if (process.state() == QProcess::NotRunning)
        return;
    process.terminate();
    if (!process.waitForFinished(5000)) {
        process.kill();
        process.waitForFinished(5000);
    }
}

} // namespace BenchSupport
