#include "tests/harness/EventLoopWait.h"

// Qt
#include <QCoreApplication>
#include <QEvent>
#include <QObject>
#include <QProcess>
#include <QTimer>

using namespace std::chrono_literals;

namespace Harness {

namespace {

// How long a process may take to go after SIGTERM, and again after SIGKILL.
constexpr std::chrono::milliseconds kStopGrace = 5s;

} // namespace

bool waitUntil(const std::function<bool()> &done, std::chrono::milliseconds timeout)
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
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }
    return true;
}

void pause(std::chrono::milliseconds duration)
{
    (void)waitUntil([] { return false; }, duration);
}

void stopProcess(QProcess &process)
{
    if (process.state() == QProcess::NotRunning)
        return;
    process.terminate();
    if (!process.waitForFinished(int(kStopGrace.count()))) {
        process.kill();
        process.waitForFinished(int(kStopGrace.count()));
    }
}

} // namespace Harness
