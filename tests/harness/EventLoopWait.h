#pragma once

// Waiting in tests and benchmarks without sleeping: the event loop runs, and no polling timer
// wakes it, so a benchmark's measurement is not disturbed and a test's clients keep talking.

// C++
#include <chrono>
#include <functional>

class QProcess;

namespace Harness {

// Runs the event loop until done() holds (checked before the first and after every batch of
// events, objects deleted with deleteLater() going meanwhile) or timeout has passed; returns
// done().
[[nodiscard]] bool waitUntil(const std::function<bool()> &done, std::chrono::milliseconds timeout);

// Lets the event loop run for `duration`.
void pause(std::chrono::milliseconds duration);

// SIGTERM, then SIGKILL if the process is still there after 5 s.
void stopProcess(QProcess &process);

} // namespace Harness
