#pragma once

// C++
#include <chrono>

// Qt
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace Presence::Session {
class GatewaySession;
}

namespace Presence::App {

class DesktopIdle;

// Automatic away: after `idleAfter` without keyboard or mouse input, an online user becomes
// away, and online again at the next input. With a DesktopIdle, input anywhere on the desktop
// counts (typing in another application keeps the user online), and locking the screen or
// suspending makes them away at once, unlocking online again; without one, only this
// application's input counts. A status the user chose by hand (away, invisible) is never
// touched.
class IdleAwayController : public QObject {
    Q_OBJECT
public:
    IdleAwayController(Session::GatewaySession *session, std::chrono::milliseconds idleAfter,
        QObject *parent = nullptr);
    ~IdleAwayController() override;

    void setIdleAfter(std::chrono::milliseconds idleAfter);
    // Not owned; null: this application's input only.
    void setDesktop(DesktopIdle *desktop);
    [[nodiscard]] bool isAutoAway() const { return m_autoAway; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void onActivity();
    void onCheck();
    // `idle`: since the last input the controller knows of.
    void apply(std::chrono::milliseconds idle);
    void goAway();
    void comeBack();
    void onLockChanged(bool locked);

    Session::GatewaySession *m_session;
    std::chrono::milliseconds m_idleAfter;
    QElapsedTimer m_sinceInput;
    QTimer m_check;
    DesktopIdle *m_desktop = nullptr;
    bool m_autoAway = false; // the current away is ours, not the user's
    bool m_locked = false;
};

} // namespace Presence::App
