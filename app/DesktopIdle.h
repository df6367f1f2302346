#pragma once

// C++
#include <chrono>

// Qt
#include <QObject>

namespace Presence::App {

// What the desktop knows of the user at the machine, beyond this application's own input:
// how long since the last input anywhere, whether the screen is locked, and when the machine
// is about to sleep. IdleAwayController asks it; FreedesktopIdle answers over D-Bus, and
// tests give a fake.
class DesktopIdle : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    // Whether the desktop can tell the idle time at all (else only lock and sleep, if that).
    [[nodiscard]] virtual bool knowsIdleTime() const = 0;
    // Asks for the idle time; idleTimeReported() answers (asynchronously, or never).
    virtual void queryIdleTime() = 0;

Q_SIGNALS:
    void idleTimeReported(std::chrono::milliseconds sinceLastInput);
    void lockChanged(bool locked);
    // The machine suspends now (logind's PrepareForSleep).
    void sleepStarted();
};

} // namespace Presence::App
