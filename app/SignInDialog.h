#pragma once

// C++
#include <optional>

// Qt
#include <QDeadlineTimer>
#include <QDialog>
#include <QTimer>
#include <QUrl>

// Presence
#include "session/GatewaySession.h"

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace Presence::App {

class ClientSettings;

// Asks for the gateway address and a token, signs the session in, and closes (accepted)
// once it is online, after saving the address (and the token, if the user asked for that).
// A refused token or an unreachable gateway is explained in plain words, and the user can
// correct the fields and sign in again. A wss:// certificate the system does not trust is shown
// by its fingerprint, and the user may trust it for that server (kept in the settings); one
// that differs from the certificate trusted there is refused loudly, and replaces it only when
// the user asks. Cancel (or Esc) closes the session, unless it is signed
// in: while an account is signed in (Switch account…), the new one is tried on a session of the
// dialog's own, and the account signed in is kept until the new one is.
class SignInDialog : public QDialog {
    Q_OBJECT
public:
    // Neither is owned; both must outlive the dialog.
    SignInDialog(
        Session::GatewaySession *session, ClientSettings *settings, QWidget *parent = nullptr);

    // The address the session signed in to (valid once accepted).
    [[nodiscard]] QUrl signedInUrl() const { return m_signedInUrl; }
    [[nodiscard]] QString statusText() const;

    // Signs in with what the fields hold, as the Sign in button does.
    void signIn();
    // The address to show instead of the one remembered (the one the session tried last).
    void setGatewayUrl(const QUrl &url);
    // Opened because the session failed (a refused token, an address that is no gateway):
    // says why, and puts the cursor in the field to correct.
    void explainFailure();

    // Closes the session, unless it is signed in (or the account a switch was tried against).
    void reject() override;

private:
    enum class Phase {
        Idle, // waiting for the user
        Connecting, // the user pressed Sign in: inputs locked until the first outcome
        Retrying, // the gateway could not be reached; the session keeps trying, inputs open
    };

    [[nodiscard]] std::optional<QString> urlProblem(const QString &text) const;
    // The session works for an account signed in (or on its way back to it): a sign-in here
    // must not throw it away before the new one succeeds.
    [[nodiscard]] bool sessionInUse() const;
    // The trial session, made on first use, with the session's options.
    Session::GatewaySession *trial();
    // The trial signed in: now the session itself switches to that account.
    void switchSession();
    void onStateChanged(Session::GatewaySession::State state);
    void onRetryScheduled(int attempt, std::chrono::milliseconds delay);
    void onSignedIn();
    void onFailed();
    // The failed attempt's certificate: its fingerprint(s) and the button to trust it.
    void offerCertificate(Session::GatewaySession::Failure failure);
    void hideCertificate();
    // Trusts the certificate the failed attempt was refused, for its server, and signs in
    // again at once with it trusted.
    void trustCertificate();
    void showRetryCountdown();
    void showStatus(const QString &text, bool isError);
    void setInputsEnabled(bool enabled);

    Session::GatewaySession *m_session;
    // Where signIn() tries: m_session, or m_trial while m_session is in use. Only its signals
    // move the dialog on.
    Session::GatewaySession *m_attempt;
    Session::GatewaySession *m_trial = nullptr; // a child, made when first needed
    bool m_openedSession = false; // signIn() opened m_session itself
    ClientSettings *m_settings;
    QLineEdit *m_urlEdit;
    QLineEdit *m_tokenEdit;
    QCheckBox *m_rememberBox;
    QLabel *m_statusLabel;
    QLabel *m_fingerprint; // of the certificate refused, selectable to compare or copy
    QPushButton *m_trustButton; // "Trust this certificate for this server"
    QPushButton *m_trustNewButton; // "Trust the new certificate", for a changed one
    QDialogButtonBox *m_buttons;
    QPushButton *m_signInButton;

    Phase m_phase = Phase::Idle;
    QUrl m_attemptUrl; // what signIn() opened: saved on success, whatever the fields say then
    QString m_attemptToken;
    QUrl m_signedInUrl;
    QDeadlineTimer m_retryDeadline;
    QTimer m_countdownTimer;
};

} // namespace Presence::App
