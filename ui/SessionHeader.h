#pragma once

#include <QPointer>
#include <QTimer>
#include <QWidget>
#include <chrono>

class QComboBox;
class QLabel;
class QPushButton;

namespace Presence::Session {
class GatewaySession;
}

namespace Presence::Ui {

// The strip above the list: who is signed in, their own status (online / away / invisible),
// and the connection: "connected", "reconnecting in 4 s…" with Retry now, or the error with
// Sign in… when retrying cannot help (a refused token, an address that is no gateway).
class SessionHeader : public QWidget {
    Q_OBJECT
public:
    explicit SessionHeader(Session::GatewaySession *session, QWidget *parent = nullptr);

    [[nodiscard]] QString connectionText() const;
    [[nodiscard]] QComboBox *statusChooser() const { return m_status; }
    [[nodiscard]] QPushButton *retryButton() const { return m_retry; }
    [[nodiscard]] QPushButton *signInButton() const { return m_signIn; }

Q_SIGNALS:
    // Sign in… was clicked: the session failed for good, the user must change something.
    void signInRequested();

private:
    void refresh();

    Session::GatewaySession *m_session;
    QLabel *m_user;
    QComboBox *m_status;
    QLabel *m_connection;
    QPushButton *m_retry;
    QPushButton *m_signIn;
    // Where the keyboard was before the retry button took it: it goes back there when the
    // button hides, instead of Qt's next-in-chain (the search box, text selected).
    QPointer<QWidget> m_focusBeforeRetry;
    QTimer m_countdown; // while reconnecting, the seconds left tick down
    std::chrono::steady_clock::time_point m_retryAt;
};

} // namespace Presence::Ui
