#include "ui/shell/SessionHeader.h"

// C++
#include <algorithm>

// Qt
#include <QAbstractItemView>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QStyleOptionMenuItem>
#include <QVBoxLayout>

// Presence
#include "ui/PresenceMark.h"
#include "ui/PresenceText.h"
#include "ui/shell/ConnectionBanner.h"
#include "ui/shell/ConnectionStatusText.h"
#include "ui/shell/OwnAvatar.h"

namespace Presence::Ui {

using namespace Qt::StringLiterals;
using Models::PresenceState;
using Protocol::ChosenStatus;

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

SessionHeader::SessionHeader(QWidget *parent)
    : QWidget(parent)
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
    fitStatusPopup();
    connect(m_status, &QComboBox::activated, this,
        [this] { Q_EMIT statusChosen(ChosenStatus(m_status->currentData().toInt())); });

    m_connection->setAccessibleName(tr("Connection"));
    // Its words never set the window's minimum width: they may be a failure's whole sentence
    // (the banner's, shown instead), and a label that does not wrap asks for all of it. The
    // window was widened from 900 to 1,246 px by an untrusted certificate's words (V9).
    m_connection->setMinimumWidth(1);
    connect(retryButton(), &QPushButton::clicked, this, &SessionHeader::retryClicked);
    connect(signInButton(), &QPushButton::clicked, this, &SessionHeader::signInRequested);
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget *old, QWidget *now) {
        if (now == retryButton() && old != retryButton())
            m_focusBeforeRetry = old;
    });

    m_countdown.setInterval(std::chrono::milliseconds(250));
    connect(&m_countdown, &QTimer::timeout, this, &SessionHeader::refresh);

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

void SessionHeader::setConnection(ConnectionState state, int retryAttempt, const QString &error)
{
    m_state = state;
    m_retryAttempt = retryAttempt;
    m_error = error;
    refresh();
}

void SessionHeader::setRetryIn(std::chrono::milliseconds delay)
{
    m_retryAt = std::chrono::steady_clock::now() + delay;
    m_countdown.start();
    refresh();
}

void SessionHeader::setSelf(const QString &id, const QString &name)
{
    m_selfId = id;
    m_selfName = name;
    refresh();
}

void SessionHeader::setChosenStatus(ChosenStatus status)
{
    m_chosenStatus = status;
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

void SessionHeader::fitStatusPopup()
{
    // A popup of menu items (Fusion's) is only as wide as the box, yet each item also needs
    // the style's check column and margins: "Invisible" came out as "Inv…ble". So the popup
    // gets what the style asks for a menu item of the longest choice.
    QAbstractItemView *view = m_status->view();
    QStyleOptionMenuItem item;
    item.initFrom(view);
    item.menuItemType = QStyleOptionMenuItem::Normal;
    item.checkType = QStyleOptionMenuItem::NonExclusive;
    item.maxIconWidth = m_status->iconSize().width() + 4;
    // Items are drawn in the box's font or the application's font for combo menu items.
    const QFontMetrics boxFont(m_status->font());
    const QFontMetrics menuFont(QApplication::font("QComboMenuItem"));
    int widest = 0;
    for (int i = 0; i < m_status->count(); ++i) {
        item.text = m_status->itemText(i);
        item.icon = m_status->itemIcon(i);
        const QSize text(
            std::max(boxFont.horizontalAdvance(item.text), menuFont.horizontalAdvance(item.text)),
            std::max(boxFont.height(), menuFont.height()));
        widest = std::max(widest,
            m_status->style()->sizeFromContents(QStyle::CT_MenuItem, &item, text, view).width());
    }
    view->setMinimumWidth(widest + 2 * view->frameWidth());
}

void SessionHeader::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        paintStatusIcons(); // dark mode
    if (event->type() == QEvent::StyleChange || event->type() == QEvent::FontChange)
        fitStatusPopup();
    QWidget::changeEvent(event);
}

void SessionHeader::refresh()
{
    const auto state = m_state;
    if (state != ConnectionState::Reconnecting)
        m_countdown.stop();
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        m_retryAt - std::chrono::steady_clock::now());
    m_connection->setText(connectionStatusText(state, left, m_error));
    refreshBanner();
    m_connection->setVisible(m_banner->isHidden()); // the banner says it in full
    const QString name = (m_selfName.isEmpty() ? m_selfId : m_selfName).toHtmlEscaped();
    m_user->setText(m_selfId.isEmpty() ? QString()
                                       : u"<b>%1</b> <span style=\"color:%2\">%3</span>"_s.arg(name,
                                           palette().color(QPalette::PlaceholderText).name(),
                                           PresenceText::handle(m_selfId).toHtmlEscaped()));
    m_avatar->setUser(m_selfId, m_selfName);
    // Nobody signed in: no identity, and no status of nobody's to choose.
    m_avatar->setVisible(!m_selfId.isEmpty());
    m_user->setVisible(!m_selfId.isEmpty());
    m_status->setVisible(!m_selfId.isEmpty());
    m_avatar->setState(
        state == ConnectionState::Online ? shownAs(m_chosenStatus) : PresenceState::Unknown);
    const int chosen = m_status->findData(int(m_chosenStatus));
    if (chosen >= 0 && chosen != m_status->currentIndex())
        m_status->setCurrentIndex(chosen);
}

void SessionHeader::refreshBanner()
{
    using State = ConnectionState;
    using Action = ConnectionBanner::Action;
    const auto state = m_state;
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
        if (m_retryAttempt > 0)
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
