#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <chrono>

namespace Presence::Session {
class GatewaySession;
}

namespace Presence::Ui {

// Automatic away: after `idleAfter` without keyboard or mouse input anywhere in the
// application, an online user becomes away, and online again at the next input. A status
// the user chose by hand (away, invisible) is never touched.
class IdleAwayController : public QObject {
    Q_OBJECT
public:
    IdleAwayController(Session::GatewaySession *session, std::chrono::milliseconds idleAfter,
        QObject *parent = nullptr);
    ~IdleAwayController() override;

    void setIdleAfter(std::chrono::milliseconds idleAfter);
    [[nodiscard]] bool isAutoAway() const { return m_autoAway; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void onActivity();
    void onCheck();

    Session::GatewaySession *m_session;
    std::chrono::milliseconds m_idleAfter;
    QElapsedTimer m_sinceInput;
    QTimer m_check;
    bool m_autoAway = false; // the current away is ours, not the user's
};

} // namespace Presence::Ui
