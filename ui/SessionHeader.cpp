#include "ui/SessionHeader.h"

#include "session/GatewaySession.h"
#include "ui/ConnectionStatusText.h"

#include <QApplication>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace Presence::Ui {

using Protocol::ChosenStatus;
using Session::GatewaySession;

SessionHeader::SessionHeader(GatewaySession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_user(new QLabel(this))
    , m_status(new QComboBox(this))
    , m_connection(new QLabel(this))
    , m_retry(new QPushButton(tr("Retry now"), this))
    , m_signIn(new QPushButton(tr("Sign in…"), this))
{
    QFont bold = m_user->font();
    bold.setBold(true);
    m_user->setFont(bold);
    m_user->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_status->addItem(tr("Online"), int(ChosenStatus::Online));
    m_status->addItem(tr("Away"), int(ChosenStatus::Away));
    m_status->addItem(tr("Invisible"), int(ChosenStatus::Invisible));
    m_status->setAccessibleName(tr("My status"));
    connect(m_status, &QComboBox::activated, this,
        [this] { m_session->setChosenStatus(ChosenStatus(m_status->currentData().toInt())); });

    m_connection->setAccessibleName(tr("Connection"));
    m_retry->setAccessibleName(tr("Retry connecting now"));
    connect(m_retry, &QPushButton::clicked, session, &GatewaySession::retryNow);
    m_signIn->setAccessibleName(tr("Sign in with another token or gateway"));
    connect(m_signIn, &QPushButton::clicked, this, &SessionHeader::signInRequested);
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget *old, QWidget *now) {
        if (now == m_retry && old != m_retry)
            m_focusBeforeRetry = old;
    });

    m_countdown.setInterval(std::chrono::milliseconds(250));
    connect(&m_countdown, &QTimer::timeout, this, &SessionHeader::refresh);
    connect(session, &GatewaySession::retryScheduled, this,
        [this](int, std::chrono::milliseconds delay) {
            m_retryAt = std::chrono::steady_clock::now() + delay;
            m_countdown.start();
            refresh();
        });
    connect(session, &GatewaySession::stateChanged, this, &SessionHeader::refresh);
    connect(session, &GatewaySession::signedIn, this, &SessionHeader::refresh);
    connect(session, &GatewaySession::chosenStatusChanged, this, &SessionHeader::refresh);

    auto *layout = new QHBoxLayout(this);
    layout->addWidget(m_user);
    layout->addWidget(m_status);
    layout->addStretch(1);
    layout->addWidget(m_connection);
    layout->addWidget(m_retry);
    layout->addWidget(m_signIn);
    refresh();
}

QString SessionHeader::connectionText() const
{
    return m_connection->text();
}

void SessionHeader::refresh()
{
    const auto state = m_session->state();
    if (state != GatewaySession::State::Reconnecting)
        m_countdown.stop();
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        m_retryAt - std::chrono::steady_clock::now());
    m_connection->setText(connectionStatusText(state, left, m_session->errorString()));
    // Failed is final: the same token or address again cannot help, a new sign-in can.
    const bool retryShown = state == GatewaySession::State::Reconnecting;
    m_signIn->setVisible(
        state == GatewaySession::State::Failed || state == GatewaySession::State::Disconnected);
    if (!retryShown && m_retry->hasFocus()) {
        if (m_focusBeforeRetry && m_focusBeforeRetry->isVisible())
            m_focusBeforeRetry->setFocus(Qt::OtherFocusReason); // no select-all, unlike Tab
        else
            m_retry->clearFocus();
    }
    m_retry->setVisible(retryShown);
    const auto &self = m_session->self();
    m_user->setText(self.name.isEmpty() ? self.id : self.name);
    const int chosen = m_status->findData(int(m_session->chosenStatus()));
    if (chosen >= 0 && chosen != m_status->currentIndex())
        m_status->setCurrentIndex(chosen);
}

} // namespace Presence::Ui
