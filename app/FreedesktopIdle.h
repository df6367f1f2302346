#pragma once

// Qt
#include <QDBusConnection>
#include <QString>

// Presence
#include "app/DesktopIdle.h"

class QDBusPendingCallWatcher;

namespace Presence::App {

// The desktop's idle time and lock state over D-Bus, from whichever of these is there:
// - idle time: GNOME's org.gnome.Mutter.IdleMonitor (GetIdletime), else the freedesktop
//   org.freedesktop.ScreenSaver (GetSessionIdleTime, KDE and others);
// - lock: ActiveChanged of org.freedesktop.ScreenSaver or org.gnome.ScreenSaver, and logind's
//   Lock/Unlock of this session (system bus);
// - sleep: logind's PrepareForSleep (system bus).
// Without any of them (no session bus, a bare X server) it knows nothing and the controller
// falls back to this application's own input (README: Automatic away).
class FreedesktopIdle : public DesktopIdle {
    Q_OBJECT
public:
    FreedesktopIdle(const QDBusConnection &sessionBus, const QDBusConnection &systemBus,
        QObject *parent = nullptr);

    [[nodiscard]] bool knowsIdleTime() const override { return !m_idleService.isEmpty(); }
    void queryIdleTime() override;
    // For logs and the README's "what it uses": e.g. "org.gnome.Mutter.IdleMonitor".
    [[nodiscard]] QString idleSource() const { return m_idleService; }

Q_SIGNALS:
    // logind told which session is ours: its Lock and Unlock are followed from now on.
    void sessionFollowed();

private Q_SLOTS:
    // D-Bus signal receivers (connected by name, so they must be slots).
    void onScreenSaverActiveChanged(bool active);
    void onSessionLocked();
    void onSessionUnlocked();
    void onPrepareForSleep(bool starting);

private:
    void onIdleReply(QDBusPendingCallWatcher *call);

    QDBusConnection m_sessionBus;
    QDBusConnection m_systemBus;
    QString m_idleService; // empty: no idle time known
    bool m_queryInFlight = false;
};

} // namespace Presence::App
