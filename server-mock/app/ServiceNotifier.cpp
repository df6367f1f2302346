#include "server-mock/app/ServiceNotifier.h"

// C++
#include <algorithm>
#include <chrono>
#include <cstdint>

// libsystemd
#include <systemd/sd-daemon.h>

using namespace Qt::StringLiterals;

namespace Presence::Server {

ServiceNotifier::ServiceNotifier(QObject *parent)
    : QObject(parent)
{
    std::uint64_t usec = 0;
    if (sd_watchdog_enabled(0, &usec) <= 0 || usec == 0)
        return;
    // Twice per period: one late ping is no restart.
    const auto interval = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::microseconds(usec / 2));
    m_watchdog.setInterval(std::max(interval, std::chrono::milliseconds(1)));
    connect(&m_watchdog, &QTimer::timeout, this, [] { sd_notify(0, "WATCHDOG=1"); });
    m_watchdog.start();
}

void ServiceNotifier::ready(const QString &status)
{
    // One line: a newline in the status would start another assignment.
    QString line = status;
    line.replace(u'\n', u' ');
    sd_notify(0, ("READY=1\nSTATUS=" + line.toUtf8()).constData());
}

void ServiceNotifier::reloading()
{
    sd_notify(0, "RELOADING=1\nSTATUS=reading the users file again");
}

void ServiceNotifier::stopping()
{
    sd_notify(0, "STOPPING=1\nSTATUS=draining connections");
}

} // namespace Presence::Server
