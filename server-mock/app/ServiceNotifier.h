#pragma once

// Qt
#include <QObject>
#include <QString>
#include <QTimer>

namespace Presence::Server {

// Tells systemd how the gateway is doing, for a Type=notify service
// (resources/presence-mock-server.service): READY=1 once it listens, RELOADING=1 while it
// reads its users file again (then READY=1), STOPPING=1 when it starts to drain, and WATCHDOG=1
// from the event loop at half the unit's WatchdogSec, so that a loop that hangs gets the service
// restarted. Outside systemd (no NOTIFY_SOCKET) it does nothing. Through libsystemd's sd_notify
// (libsystemd-dev).
class ServiceNotifier : public QObject {
    Q_OBJECT
public:
    explicit ServiceNotifier(QObject *parent = nullptr);

    void ready(const QString &status);
    void stopping();
    // Reading the configuration again (SIGHUP); ready() says when it is done.
    void reloading();

private:
    QTimer m_watchdog;
};

} // namespace Presence::Server
