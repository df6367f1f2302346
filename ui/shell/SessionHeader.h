#pragma once

// C++
#include <chrono>

// Qt
#include <QPointer>
#include <QTimer>
#include <QWidget>

// Presence
#include "protocol/PresenceStatus.h"
#include "ui/shell/ConnectionState.h"

class QComboBox;
class QLabel;
class QPushButton;

namespace Presence::Ui {

class ConnectionBanner;
class OwnAvatar;

// The strip above the list: who is signed in (avatar with the presence mark others see, name,
// @handle), their own status (online / away / invisible, each with its mark), and the
// connection: "connected" in a corner, and while the gateway is not there a banner across
// the window: "reconnecting in 4 s…" with Retry now, or the error with Sign in… when retrying
// cannot help (a refused token, an address that is no gateway, signed out). It shows what it is
// told (set…) and says what the user did through signals; the application connects it to the
// session.
class SessionHeader : public QWidget {
    Q_OBJECT
public:
    explicit SessionHeader(QWidget *parent = nullptr);

    // The connection now: its state, the attempts since it was last online, and the error
    // that ended the last one.
    void setConnection(ConnectionState state, int retryAttempt, const QString &error);
    // The next attempt starts in `delay`: the banner counts down to it.
    void setRetryIn(std::chrono::milliseconds delay);
    // Who is signed in; an empty id: nobody (no name, no avatar, no status to choose).
    void setSelf(const QString &id, const QString &name);
    void setChosenStatus(Protocol::ChosenStatus status);

    [[nodiscard]] QString connectionText() const;
    [[nodiscard]] QComboBox *statusChooser() const { return m_status; }
    [[nodiscard]] ConnectionBanner *banner() const { return m_banner; }
    [[nodiscard]] OwnAvatar *avatar() const { return m_avatar; }
    [[nodiscard]] QPushButton *retryButton() const;
    [[nodiscard]] QPushButton *signInButton() const;

Q_SIGNALS:
    // The user picked their own status.
    void statusChosen(Presence::Protocol::ChosenStatus status);
    // Retry now was clicked.
    void retryClicked();
    // Sign in… was clicked: the session failed for good, the user must change something.
    void signInRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    void refresh();
    void refreshBanner();
    void paintStatusIcons();
    // Makes the status popup wide enough for its longest choice, as the style draws it.
    void fitStatusPopup();

    ConnectionState m_state = ConnectionState::Disconnected;
    int m_retryAttempt = 0;
    QString m_error;
    QString m_selfId;
    QString m_selfName;
    Protocol::ChosenStatus m_chosenStatus = Protocol::ChosenStatus::Online;
    OwnAvatar *m_avatar;
    QLabel *m_user;
    QComboBox *m_status;
    QLabel *m_connection;
    ConnectionBanner *m_banner;
    // Where the keyboard was before the retry button took it: it goes back there when the
    // button hides, instead of Qt's next-in-chain (the search box, text selected).
    QPointer<QWidget> m_focusBeforeRetry;
    QTimer m_countdown; // while reconnecting, the seconds left tick down
    std::chrono::steady_clock::time_point m_retryAt;
};

} // namespace Presence::Ui
