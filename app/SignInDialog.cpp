#include "app/SignInDialog.h"

// C++
#include <algorithm>

// Qt
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

// Presence
#include "app/ClientSettings.h"
#include "protocol/Identifiers.h"
#include "session/CertificatePin.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace Presence::App {

using Session::CertificatePin;
using Session::GatewaySession;

namespace {

// A fingerprint in two lines of 16 pairs, as it is read aloud and compared; without the line
// break it is exactly what CertificatePin::displayed() and openssl write.
QString fingerprintLines(const QByteArray &digest)
{
    const QString shown = CertificatePin::displayed(digest);
    const qsizetype half = (digest.size() / 2) * 3; // after the colon of the middle pair
    return digest.size() < 2 ? shown : shown.left(half) + u'\n' + shown.mid(half);
}

} // namespace

SignInDialog::SignInDialog(GatewaySession *session, ClientSettings *settings, QWidget *parent)
    : QDialog(parent)
    , m_session(session)
    , m_attempt(session)
    , m_settings(settings)
    , m_urlEdit(new QLineEdit(this))
    , m_tokenEdit(new QLineEdit(this))
    , m_rememberBox(new QCheckBox(tr("&Remember token on this computer"), this))
    , m_statusLabel(new QLabel(this))
    , m_fingerprint(new QLabel(this))
    , m_trustButton(new QPushButton(tr("Tr&ust this certificate for this server"), this))
    , m_trustNewButton(new QPushButton(tr("Trust the &new certificate"), this))
    , m_buttons(new QDialogButtonBox(this))
    , m_signInButton(m_buttons->addButton(tr("&Sign in"), QDialogButtonBox::AcceptRole))
{
    Q_ASSERT(m_session);
    Q_ASSERT(m_settings);
    setWindowTitle(tr("Sign in to Presence Chat"));

    m_urlEdit->setObjectName(u"gatewayUrl"_s);
    m_urlEdit->setAccessibleName(tr("Gateway address"));
    m_urlEdit->setPlaceholderText(ClientSettings::defaultGatewayUrl().toString());
    m_urlEdit->setText(m_settings->gatewayUrl().toString());

    m_tokenEdit->setObjectName(u"token"_s);
    m_tokenEdit->setAccessibleName(tr("Token"));
    m_tokenEdit->setEchoMode(QLineEdit::Password);
    m_tokenEdit->setText(m_settings->token());

    m_rememberBox->setObjectName(u"rememberToken"_s);
    m_rememberBox->setAccessibleName(tr("Remember token on this computer"));
    m_rememberBox->setChecked(m_settings->rememberToken());

    m_statusLabel->setObjectName(u"status"_s);
    m_statusLabel->setAccessibleName(tr("Sign-in status"));
    m_statusLabel->setTextFormat(Qt::PlainText); // it quotes what the user typed
    m_statusLabel->setWordWrap(true);
    m_statusLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_fingerprint->setObjectName(u"fingerprint"_s);
    m_fingerprint->setAccessibleName(tr("Certificate fingerprint"));
    m_fingerprint->setTextFormat(Qt::PlainText);
    m_fingerprint->setTextInteractionFlags(
        Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_fingerprint->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_trustButton->setObjectName(u"trustCertificate"_s);
    m_trustButton->setToolTip(
        tr("Only if this is your gateway's certificate: its administrator can tell you its "
           "fingerprint. Another certificate from this server will then be refused."));
    m_trustButton->setAutoDefault(false); // Enter still signs in
    m_trustNewButton->setObjectName(u"trustNewCertificate"_s);
    m_trustNewButton->setToolTip(tr("Only if the gateway's administrator confirms that its "
                                    "certificate changed, and this is the new fingerprint."));
    m_trustNewButton->setAutoDefault(false);
    hideCertificate();

    m_signInButton->setObjectName(u"signIn"_s);
    m_signInButton->setDefault(true);
    QPushButton *cancel = m_buttons->addButton(QDialogButtonBox::Cancel);
    cancel->setObjectName(u"cancel"_s);

    auto *form = new QFormLayout;
    form->addRow(tr("&Gateway:"), m_urlEdit);
    form->addRow(tr("&Token:"), m_tokenEdit);
    form->addRow(QString(), m_rememberBox);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_statusLabel);
    layout->addWidget(m_fingerprint);
    auto *trustRow = new QHBoxLayout;
    trustRow->addWidget(m_trustButton);
    trustRow->addWidget(m_trustNewButton);
    trustRow->addStretch(1);
    layout->addLayout(trustRow);
    layout->addWidget(m_buttons);
    m_urlEdit->setMinimumWidth(fontMetrics().averageCharWidth() * 36);

    // Start where the user has something to type.
    if (m_tokenEdit->text().isEmpty() && !m_urlEdit->text().isEmpty())
        m_tokenEdit->setFocus();
    else
        m_urlEdit->setFocus();

    connect(m_buttons, &QDialogButtonBox::accepted, this, &SignInDialog::signIn);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &SignInDialog::reject);
    connect(m_trustButton, &QPushButton::clicked, this, &SignInDialog::trustCertificate);
    connect(m_trustNewButton, &QPushButton::clicked, this, &SignInDialog::trustCertificate);
    // What the buttons offer belongs to the attempt that failed, not to what is typed now.
    connect(m_urlEdit, &QLineEdit::textEdited, this, &SignInDialog::hideCertificate);
    connect(m_tokenEdit, &QLineEdit::textEdited, this, &SignInDialog::hideCertificate);
    connect(m_session, &GatewaySession::stateChanged, this, [this](GatewaySession::State state) {
        if (m_attempt == m_session)
            onStateChanged(state);
    });
    connect(m_session, &GatewaySession::retryScheduled, this,
        [this](int attempt, std::chrono::milliseconds delay) {
            if (m_attempt == m_session)
                onRetryScheduled(attempt, delay);
        });
    m_countdownTimer.setSingleShot(true);
    connect(&m_countdownTimer, &QTimer::timeout, this, &SignInDialog::showRetryCountdown);
}

QString SignInDialog::statusText() const
{
    return m_statusLabel->text();
}

std::optional<QString> SignInDialog::urlProblem(const QString &text) const
{
    const QString example = ClientSettings::defaultGatewayUrl().toString();
    if (text.isEmpty())
        return tr("Enter the gateway address, for example %1").arg(example);
    const QUrl url(text, QUrl::StrictMode);
    if (!text.contains("://"_L1) || !url.isValid() || url.scheme().isEmpty())
        return tr("“%1” is not a gateway address. It should look like %2").arg(text, example);
    if (url.scheme() != "ws"_L1 && url.scheme() != "wss"_L1)
        return tr("The gateway address must start with ws:// or wss://, not %1://.")
            .arg(url.scheme());
    if (url.host().isEmpty())
        return tr("The gateway address has no host name. It should look like %1").arg(example);
    return std::nullopt;
}

bool SignInDialog::sessionInUse() const
{
    const auto state = m_session->state();
    return state != GatewaySession::State::Disconnected && state != GatewaySession::State::Failed;
}

GatewaySession *SignInDialog::trial()
{
    if (m_trial)
        return m_trial;
    m_trial = new GatewaySession(m_session->options(), this);
    // Only a test of the token: friends must not see the new account come online twice.
    m_trial->setChosenStatus(Protocol::ChosenStatus::Invisible);
    connect(m_trial, &GatewaySession::stateChanged, this, [this](GatewaySession::State state) {
        if (m_attempt == m_trial)
            onStateChanged(state);
    });
    connect(m_trial, &GatewaySession::retryScheduled, this,
        [this](int attempt, std::chrono::milliseconds delay) {
            if (m_attempt == m_trial)
                onRetryScheduled(attempt, delay);
        });
    return m_trial;
}

void SignInDialog::switchSession()
{
    if (m_attempt != m_trial || m_trial->state() != GatewaySession::State::Online)
        return; // cancelled, or tried again, meanwhile
    m_attempt = m_session;
    m_openedSession = true;
    m_trial->close();
    m_session->open(m_attemptUrl, m_attemptToken);
}

void SignInDialog::signIn()
{
    const QString urlText = m_urlEdit->text().trimmed();
    if (const auto problem = urlProblem(urlText)) {
        showStatus(*problem, true);
        m_urlEdit->setFocus();
        m_urlEdit->selectAll();
        return;
    }
    const QString token = m_tokenEdit->text().trimmed();
    if (token.isEmpty()) {
        showStatus(tr("Enter your token."), true);
        m_tokenEdit->setFocus();
        return;
    }
    if (token.size() > Protocol::kMaxTokenLength) {
        showStatus(tr("This token is too long to be right (a token has at most %1 characters).")
                       .arg(Protocol::kMaxTokenLength),
            true);
        m_tokenEdit->setFocus();
        m_tokenEdit->selectAll();
        return;
    }

    m_attemptUrl = QUrl(urlText, QUrl::StrictMode);
    m_attemptToken = token;
    m_countdownTimer.stop();
    hideCertificate();
    m_phase = Phase::Connecting;
    setInputsEnabled(false);
    showStatus(tr("Connecting…"), false);
    // A session this dialog opened (one that keeps retrying an address, say) is tried again;
    // one that works for the account signed in is kept until the new account signs in.
    if (m_openedSession || !sessionInUse()) {
        m_attempt = m_session;
        m_openedSession = true;
    } else {
        m_attempt = trial();
    }
    m_attempt->open(m_attemptUrl, token);
}

void SignInDialog::reject()
{
    m_phase = Phase::Idle;
    m_countdownTimer.stop();
    if (m_trial)
        m_trial->close();
    if (m_session->state() != GatewaySession::State::Online && (m_openedSession || !sessionInUse()))
        m_session->close();
    QDialog::reject();
}

void SignInDialog::onStateChanged(GatewaySession::State state)
{
    if (m_phase == Phase::Idle)
        return; // not ours: the session is in use elsewhere, or we gave up
    switch (state) {
    case GatewaySession::State::Online:
        if (m_attempt == m_trial) // once the trial's own handling of its welcome is done
            QMetaObject::invokeMethod(this, &SignInDialog::switchSession, Qt::QueuedConnection);
        else
            onSignedIn();
        break;
    case GatewaySession::State::Failed:
        onFailed();
        break;
    case GatewaySession::State::Connecting:
        if (m_phase == Phase::Retrying) {
            m_countdownTimer.stop();
            showStatus(tr("Cannot reach the gateway at %1 (trying again now…)")
                           .arg(m_attemptUrl.toDisplayString()),
                true);
        }
        break;
    case GatewaySession::State::Authenticating:
        showStatus(tr("Signing in…"), false);
        break;
    case GatewaySession::State::Reconnecting: // retryScheduled follows with the delay
    case GatewaySession::State::Disconnected: // open() passes through it
        break;
    }
}

void SignInDialog::onRetryScheduled(int, std::chrono::milliseconds delay)
{
    if (m_phase == Phase::Idle)
        return;
    // The session keeps trying by itself; meanwhile the user may correct the address.
    const bool wasLocked = m_phase == Phase::Connecting;
    m_phase = Phase::Retrying;
    setInputsEnabled(true);
    if (wasLocked)
        m_urlEdit->setFocus();
    m_retryDeadline = QDeadlineTimer(delay);
    showRetryCountdown();
}

void SignInDialog::showRetryCountdown()
{
    const auto remaining = std::chrono::milliseconds(m_retryDeadline.remainingTime());
    const auto seconds = std::max<qint64>(1, (remaining.count() + 999) / 1000);
    showStatus(tr("Cannot reach the gateway at %1 (retrying in %2 s)")
                   .arg(m_attemptUrl.toDisplayString())
                   .arg(seconds),
        true);
    // Next update when the number shown drops by one.
    const auto untilNext = remaining - std::chrono::milliseconds((seconds - 1) * 1000);
    if (seconds > 1 && untilNext > 0ms)
        m_countdownTimer.start(untilNext);
}

void SignInDialog::onSignedIn()
{
    m_phase = Phase::Idle;
    m_countdownTimer.stop();
    m_settings->setGatewayUrl(m_attemptUrl);
    // The box may have been changed while the session was retrying: what it says now counts.
    // No token: the session signed in again with its own (--token-file, say), not shown here.
    if (!m_attemptToken.isEmpty())
        m_settings->setToken(m_attemptToken, m_rememberBox->isChecked());
    m_signedInUrl = m_attemptUrl;
    showStatus(tr("Signed in."), false);
    setInputsEnabled(true);
    accept();
}

void SignInDialog::onFailed()
{
    m_phase = Phase::Idle;
    m_countdownTimer.stop();
    setInputsEnabled(true);
    explainFailure();
}

void SignInDialog::setGatewayUrl(const QUrl &url)
{
    m_urlEdit->setText(url.toString());
}

void SignInDialog::explainFailure()
{
    const QString at = m_attempt->url().toDisplayString();
    hideCertificate();
    switch (m_attempt->failure()) {
    case GatewaySession::Failure::None:
        return;
    case GatewaySession::Failure::UnsupportedProtocol:
        showStatus(
            tr("The gateway at %1 speaks another version of the protocol than this app.").arg(at),
            true);
        break;
    case GatewaySession::Failure::UntrustedCertificate:
    case GatewaySession::Failure::CertificateChanged:
        if (!m_attempt->presentedCertificate().isNull()) {
            offerCertificate(m_attempt->failure());
            break;
        }
        showStatus(m_attempt->errorString(), true);
        break;
    case GatewaySession::Failure::NotAGateway:
    case GatewaySession::Failure::WrongScheme:
        showStatus(m_attempt->errorString(), true); // names the address and what is wrong
        break;
    case GatewaySession::Failure::TokenRefused:
    case GatewaySession::Failure::SignInExpired:
        // An expired sign-in is not a wrong token: the session's words say so.
        showStatus(m_attempt->failure() == GatewaySession::Failure::SignInExpired
                ? m_attempt->errorString()
                : tr("The gateway did not accept this token."),
            true);
        m_tokenEdit->setFocus();
        m_tokenEdit->selectAll();
        return;
    }
    m_urlEdit->setFocus();
    m_urlEdit->selectAll();
}

void SignInDialog::offerCertificate(GatewaySession::Failure failure)
{
    const QString server = m_attempt->url().toDisplayString(QUrl::RemovePath | QUrl::RemoveQuery);
    const QString presented = fingerprintLines(m_attempt->presentedDigest());
    if (failure == GatewaySession::Failure::CertificateChanged) {
        // Loud: it may be someone in between, and nothing is trusted until the user says so.
        showStatus(tr("The certificate of %1 changed since you trusted it. This may mean that "
                      "someone is intercepting the connection: trust the new certificate only if "
                      "the gateway's administrator confirms it.")
                       .arg(server),
            true);
        //: Two SHA-256 fingerprints, each in two lines of hex pairs ("AB:CD:…").
        m_fingerprint->setText(tr("Trusted before (SHA-256):\n%1\nPresented now:\n%2")
                                   .arg(fingerprintLines(m_attempt->pinnedDigest()), presented));
        m_trustNewButton->show();
    } else {
        //: %1 is the gateway's address, %2 what is wrong with its certificate, as Qt says it.
        showStatus(tr("The certificate of %1 is not trusted: %2. Trust it only if its "
                      "fingerprint is the one your gateway's administrator gives you.")
                       .arg(server, m_attempt->certificateError()),
            true);
        //: A SHA-256 fingerprint in two lines of hex pairs ("AB:CD:…").
        m_fingerprint->setText(tr("SHA-256 fingerprint:\n%1").arg(presented));
        m_trustButton->show();
    }
    m_fingerprint->setProperty("error", true); // for style sheets
    m_fingerprint->show();
}

void SignInDialog::hideCertificate()
{
    m_fingerprint->hide();
    m_fingerprint->clear();
    m_trustButton->hide();
    m_trustNewButton->hide();
}

void SignInDialog::trustCertificate()
{
    GatewaySession *failed = m_attempt;
    const QString server = CertificatePin::serverOf(failed->url());
    const QByteArray digest = failed->presentedDigest();
    hideCertificate();
    if (server.isEmpty() || digest.isEmpty())
        return;
    m_settings->trustCertificate(server, digest);
    // Every session here trusts it from now on: the one the app runs (and its reconnects), and
    // the trial of a switch of account.
    m_session->setPinnedCertificates(m_settings->trustedCertificates());
    if (m_trial)
        m_trial->setPinnedCertificates(m_settings->trustedCertificates());
    if (!m_attemptUrl.isEmpty()) {
        signIn(); // this dialog's attempt, again: the fields are still what it tried
        return;
    }
    // The session failed by itself (started with --server and --token-file, say): it tries
    // again with its own token, which this dialog never saw.
    m_attemptUrl = failed->url();
    m_attemptToken.clear();
    m_phase = Phase::Connecting;
    setInputsEnabled(false);
    showStatus(tr("Connecting…"), false);
    failed->retryNow();
}

void SignInDialog::showStatus(const QString &text, bool isError)
{
    m_statusLabel->setText(text);
    m_statusLabel->setProperty("error", isError); // for style sheets
}

void SignInDialog::setInputsEnabled(bool enabled)
{
    m_urlEdit->setEnabled(enabled);
    m_tokenEdit->setEnabled(enabled);
    m_rememberBox->setEnabled(enabled);
    m_signInButton->setEnabled(enabled);
}

} // namespace Presence::App
