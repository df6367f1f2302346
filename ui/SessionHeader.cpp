#include "ui/SessionHeader.h"

#include "session/GatewaySession.h"
#include "ui/ConnectionBanner.h"
#include "ui/ConnectionStatusText.h"
#include "ui/OwnAvatar.h"
#include "ui/PresenceMark.h"
#include "ui/PresenceText.h"

#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QVBoxLayout>

namespace Presence::Ui {

using namespace Qt::StringLiterals;
using Models::PresenceState;
using Protocol::ChosenStatus;
using Session::GatewaySession;

namespace {

// What others see of a chosen status.
PresenceState shownAs(ChosenStatus status)
{
    switch (status) {
    case ChosenStatus::Online:
        return PresenceState::Online;
    case ChosenStatus::Away:
        return PresenceState::Away;
    case ChosenStatus::Invisible:
        return PresenceState::Offline;
    }
    return PresenceState::Offline;
}

} // namespace

SessionHeader::SessionHeader(GatewaySession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_avatar(new OwnAvatar(this))
    , m_user(new QLabel(this))
    , m_status(new QComboBox(this))
    , m_connection(new QLabel(this))
    , m_banner(new ConnectionBanner(this))
{
    m_user->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_user->setTextFormat(Qt::RichText);

    m_status->addItem(tr("Online"), int(ChosenStatus::Online));
    m_status->addItem(tr("Away"), int(ChosenStatus::Away));
    m_status->addItem(tr("Invisible"), int(ChosenStatus::Invisible));
    m_status->setAccessibleName(tr("My status"));
    paintStatusIcons();
    connect(m_status, &QComboBox::activated, this,
        [this] { m_session->setChosenStatus(ChosenStatus(m_status->currentData().toInt())); });

    m_connection->setAccessibleName(tr("Connection"));
    connect(retryButton(), &QPushButton::clicked, session, &GatewaySession::retryNow);
    connect(signInButton(), &QPushButton::clicked, this, &SessionHeader::signInRequested);
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget *old, QWidget *now) {
        if (now == retryButton() && old != retryButton())
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

    auto *row = new QHBoxLayout;
    row->addWidget(m_avatar);
    row->addWidget(m_user);
    row->addWidget(m_status);
    row->addStretch(1);
    row->addWidget(m_connection);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(m_banner);
    refresh();
}

QPushButton *SessionHeader::retryButton() const
{
    return m_banner->retryButton();
}

QPushButton *SessionHeader::signInButton() const
{
    return m_banner->signInButton();
}

QString SessionHeader::connectionText() const
{
    return m_connection->text();
}

void SessionHeader::paintStatusIcons()
{
    // Each choice with the mark others will see.
    const int side = std::max(8, fontMetrics().height() * 2 / 3);
    const qreal ratio = devicePixelRatioF();
    for (int i = 0; i < m_status->count(); ++i) {
        const PresenceState state = shownAs(ChosenStatus(m_status->itemData(i).toInt()));
        QPixmap pixmap(QSize(side, side) * ratio);
        pixmap.setDevicePixelRatio(ratio);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        PresenceMark::paint(&painter, QRect(0, 0, side, side), state,
            PresenceMark::color(state, m_status->palette()));
        painter.end();
        m_status->setItemIcon(i, QIcon(pixmap));
    }
}

void SessionHeader::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        paintStatusIcons(); // dark mode
    QWidget::changeEvent(event);
}

void SessionHeader::refresh()
{
    const auto state = m_session->state();
    if (state != GatewaySession::State::Reconnecting)
        m_countdown.stop();
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        m_retryAt - std::chrono::steady_clock::now());
    m_connection->setText(connectionStatusText(state, left, m_session->errorString()));
    refreshBanner();
    m_connection->setVisible(m_banner->isHidden()); // the banner says it in full
    const auto &self = m_session->self();
    const QString name = (self.name.isEmpty() ? self.id : self.name).toHtmlEscaped();
    m_user->setText(self.id.isEmpty() ? QString()
                                      : u"<b>%1</b> <span style=\"color:%2\">%3</span>"_s.arg(name,
                                          palette().color(QPalette::PlaceholderText).name(),
                                          PresenceText::handle(self.id).toHtmlEscaped()));
    m_avatar->setUser(self.id, self.name);
    m_avatar->setVisible(!self.id.isEmpty());
    m_avatar->setState(state == GatewaySession::State::Online ? shownAs(m_session->chosenStatus())
                                                              : PresenceState::Unknown);
    const int chosen = m_status->findData(int(m_session->chosenStatus()));
    if (chosen >= 0 && chosen != m_status->currentIndex())
        m_status->setCurrentIndex(chosen);
}

void SessionHeader::refreshBanner()
{
    using State = GatewaySession::State;
    using Action = ConnectionBanner::Action;
    const auto state = m_session->state();
    const bool hadFocus = retryButton()->hasFocus();
    const QString status = m_connection->text();
    switch (state) {
    case State::Online:
        m_banner->show({}, Action::None);
        break;
    case State::Reconnecting:
        //: The banner while the connection is down; %1 is "reconnecting in 4 s…".
        m_banner->show(tr("Connection to the gateway lost — %1").arg(status), Action::Retry);
        break;
    case State::Connecting:
    case State::Authenticating:
        // A first attempt says "connecting…" in the corner; one after a loss keeps the banner.
        if (m_session->retryAttempt() > 0)
            m_banner->show(tr("Connection to the gateway lost — reconnecting…"), Action::None);
        else
            m_banner->show({}, Action::None);
        break;
    case State::Failed:
        m_banner->show(status, Action::SignIn);
        break;
    case State::Disconnected:
        m_banner->show(tr("Not signed in."), Action::SignIn);
        break;
    }
    if (hadFocus && !retryButton()->isVisible()) {
        if (m_focusBeforeRetry && m_focusBeforeRetry->isVisible())
            m_focusBeforeRetry->setFocus(Qt::OtherFocusReason); // no select-all, unlike Tab
        else
            retryButton()->clearFocus();
    }
}

} // namespace Presence::Ui
