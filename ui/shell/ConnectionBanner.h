#pragma once

// Qt
#include <QWidget>

class QLabel;
class QPushButton;

namespace Presence::Ui {

// A strip across the window while the gateway is not there: "Connection lost — reconnecting
// in 4 s…" with Retry now, or why signing in failed with Sign in…. Hidden while connected.
// Tinted from the palette's away colour, so it is seen, not just a word in a corner.
class ConnectionBanner : public QWidget {
    Q_OBJECT
public:
    explicit ConnectionBanner(QWidget *parent = nullptr);

    // What it says and which button it offers (none: only the words).
    enum class Action { None, Retry, SignIn };
    void show(const QString &text, Action action);

    [[nodiscard]] QString text() const;
    [[nodiscard]] QPushButton *retryButton() const { return m_retry; }
    [[nodiscard]] QPushButton *signInButton() const { return m_signIn; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QLabel *m_text;
    QPushButton *m_retry;
    QPushButton *m_signIn;
};

} // namespace Presence::Ui
