#include "ui/chat/ChatPane.h"

// Qt
#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QDesktopServices>
#include <QFrame>
#include <QHBoxLayout>
#include <QIdentityProxyModel>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QListView>
#include <QMenu>
#include <QPushButton>
#include <QScrollBar>
#include <QStackedLayout>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

// Presence
#include "models/ChatModel.h"
#include "models/FriendListModel.h"
#include "session/ChatController.h"
#include "ui/AccessibleTextProxy.h"
#include "ui/PaletteColors.h"
#include "ui/chat/ChatHeader.h"
#include "ui/chat/ChatMessageDelegate.h"
#include "ui/chat/MessageInput.h"
#include "ui/chat/MessageLinkHandler.h"
#include "ui/chat/NewMessagesPill.h"
#include "ui/chat/ReadingPosition.h"

namespace Presence::Ui {

using Models::ChatModel;
using Models::Delivery;

ChatPane::ChatPane(Session::ChatController *chat, Models::FriendListModel *friends, QWidget *parent)
    : QWidget(parent)
    , m_chat(chat)
    , m_friends(friends)
    , m_pages(new QStackedLayout(this))
    , m_placeholder(new QLabel(tr("Select a friend to chat."), this))
    , m_header(new ChatHeader(friends, this))
    , m_history(new QLabel(this))
    , m_view(new QListView(this))
    , m_delegate(new ChatMessageDelegate(m_view))
    , m_rows(new AccessibleTextProxy<QIdentityProxyModel>(
          m_delegate,
          // The friend's name as shown when read: a renamed friend is read out by the new one.
          [this](const QModelIndex &row, const QDateTime &now) {
              return ChatMessageDelegate::accessibleText(row, friendName(), now);
          },
          this))
    , m_empty(new QLabel(m_view->viewport()))
    , m_pill(new NewMessagesPill(m_view))
    , m_links(new MessageLinkHandler(m_view, m_delegate))
    , m_reading(new ReadingPosition(m_view, m_delegate, m_pill))
    , m_notice(new QLabel(this))
    , m_input(new MessageInput(this))
    , m_send(new QPushButton(tr("Send"), this))
{
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setEnabled(false);

    m_history->setAlignment(Qt::AlignCenter);
    m_history->setEnabled(false);
    m_history->hide();

    m_view->setItemDelegate(m_delegate);
    m_view->setUniformItemSizes(false);
    m_view->setResizeMode(QListView::Adjust);
    m_view->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_view->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // Rows are not selected (a right-click would leave a band across the row); the context
    // menu copies the message under the pointer.
    m_view->setSelectionMode(QAbstractItemView::NoSelection);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    // The current message has a ring while the view has focus (the delegate draws it), and
    // Ctrl+C copies that one, never one off screen (eventFilter).
    m_view->installEventFilter(this);
    m_view->setAccessibleName(tr("Messages"));
    m_view->verticalScrollBar()->setSingleStep(m_view->fontMetrics().height());
    connect(m_view, &QWidget::customContextMenuRequested, this, &ChatPane::showMenu);
    connect(m_links, &MessageLinkHandler::linkActivated, this,
        [](const QUrl &url) { QDesktopServices::openUrl(url); });

    // Centred in the message area while it is empty; mouse events go to the view.
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setEnabled(false);
    m_empty->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_empty->hide();
    auto *emptyLayout = new QVBoxLayout(m_view->viewport());
    emptyLayout->addWidget(m_empty);
    connect(
        m_view->verticalScrollBar(), &QScrollBar::valueChanged, this, &ChatPane::loadOlderIfNeeded);
    // What is on screen, once the view has settled (opening a conversation passes the bottom
    // on its way to the first unread message).
    m_shownTimer.setSingleShot(true);
    m_shownTimer.setInterval(0);
    connect(&m_shownTimer, &QTimer::timeout, this, &ChatPane::updateShown);
    const auto scheduleShown = [this] { m_shownTimer.start(); };
    connect(m_view->verticalScrollBar(), &QScrollBar::valueChanged, this, scheduleShown);
    connect(m_view->verticalScrollBar(), &QScrollBar::rangeChanged, this, scheduleShown);

    m_notice->setWordWrap(true);
    m_notice->hide();
    QPalette noticePalette = m_notice->palette();
    noticePalette.setColor(QPalette::WindowText, PaletteColors::errorColor(palette()));
    m_notice->setPalette(noticePalette);

    m_input->setAccessibleName(tr("Message"));
    m_send->setEnabled(false);
    m_send->setAccessibleName(tr("Send message"));
    connect(m_input, &MessageInput::submitted, this, &ChatPane::submit);
    connect(m_input, &QPlainTextEdit::textChanged, this, &ChatPane::onTextChanged);
    connect(m_send, &QPushButton::clicked, this, &ChatPane::submit);

    auto *chatPage = new QWidget(this);
    auto *layout = new QVBoxLayout(chatPage);
    layout->setContentsMargins(0, 0, 0, 0);
    // Back to the list, for a window too narrow for both panes (MainWindow decides).
    m_back = new QToolButton(chatPage);
    m_back->setIcon(style()->standardIcon(QStyle::SP_ArrowBack));
    m_back->setAutoRaise(true);
    m_back->setToolTip(tr("Back to the list (Esc)"));
    m_back->setAccessibleName(tr("Back to the list"));
    m_back->hide();
    connect(m_back, &QToolButton::clicked, this, &ChatPane::backRequested);
    auto *headerRow = new QHBoxLayout;
    headerRow->addWidget(m_back, 0, Qt::AlignVCenter);
    headerRow->addWidget(m_header, 1);
    layout->addLayout(headerRow);
    auto *line = new QFrame(chatPage);
    line->setFrameShape(QFrame::HLine);
    line->setFrameShadow(QFrame::Sunken);
    layout->addWidget(line);
    layout->addWidget(m_history);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_notice);
    auto *inputRow = new QHBoxLayout;
    inputRow->addWidget(m_input, 1);
    inputRow->addWidget(m_send, 0, Qt::AlignBottom);
    layout->addLayout(inputRow);

    m_pages->addWidget(m_placeholder);
    m_pages->addWidget(chatPage);

    connect(chat, &Session::ChatController::conversationsCleared, this, [this] { setFriend({}); });
    connect(chat, &Session::ChatController::chatOfferedChanged, this, &ChatPane::applyChatOffered);
}

void ChatPane::setFriend(const QString &friendId)
{
    for (const auto &connection : std::as_const(m_modelConnections))
        disconnect(connection);
    m_modelConnections.clear();
    if (friendId != m_friendId) {
        m_input->clear();
        m_notice->hide();
    }
    m_friendId = friendId;
    m_shownTimer.start();
    if (!m_shownUpTo.isEmpty()) {
        m_shownUpTo.clear();
        Q_EMIT shownChanged();
    }
    m_header->setFriend(friendId);
    // Read before opening the conversation reads them: where the divider goes.
    const auto friendRow = m_friends->rowOf(friendId);
    const int unread = friendRow
        ? m_friends->data(m_friends->index(*friendRow), Models::FriendListModel::UnreadRole).toInt()
        : 0;
    m_chat->setActiveConversation(friendId);
    if (friendId.isEmpty()) {
        m_model = nullptr;
        m_view->setModel(nullptr);
        m_rows->setSourceModel(nullptr);
        m_reading->follow(nullptr, 0);
        m_pages->setCurrentIndex(0);
        return;
    }
    m_model = m_chat->conversation(friendId);
    // The model outlives this pane's interest in it: hold nothing but a guarded pointer.
    m_rows->setSourceModel(m_model);
    m_view->setModel(m_rows);
    m_pages->setCurrentIndex(1);
    // First: the reader's place is settled before the notices look at the scroll bar.
    m_reading->follow(m_model, unread);
    m_modelConnections = {
        connect(m_model, &QAbstractItemModel::rowsInserted, this, &ChatPane::updateHistoryNotice),
        connect(m_model, &QAbstractItemModel::rowsRemoved, this, &ChatPane::updateHistoryNotice),
        connect(m_model, &ChatModel::historyStateChanged, this, &ChatPane::updateHistoryNotice),
        // After ReadingPosition has placed the view: a message arriving at the bottom is
        // shown at once (no "(1)" in the title for an instant), unless the view is still on
        // its way to the first unread message.
        connect(m_model, &QAbstractItemModel::rowsInserted, this,
            [this] {
                if (m_reading->isPlacingOpeningDivider())
                    m_shownTimer.start();
                else
                    updateShown();
            }),
        connect(
            m_model, &QAbstractItemModel::dataChanged, &m_shownTimer, qOverload<>(&QTimer::start)),
    };
    applyChatOffered();
}

void ChatPane::applyChatOffered()
{
    // A gateway without chat: said once, in the message area, and nothing invites typing.
    const bool offered = m_chat->chatOffered();
    m_input->setEnabled(offered);
    if (offered) {
        // The longest that fits the input's width: narrow panes drop the keys, then elide.
        m_input->setPlaceholderChoices(
            { tr("Message %1 — Enter sends, Shift+Enter adds a line").arg(friendName()),
                tr("Message %1").arg(friendName()) });
    } else {
        m_input->setPlaceholderChoices({ tr("No chat on this gateway") });
    }
    onTextChanged();
    updateHistoryNotice();
}

Models::ChatModel *ChatPane::conversation() const
{
    return m_model;
}

void ChatPane::focusInput()
{
    m_input->setFocus(Qt::OtherFocusReason);
}

QString ChatPane::noticeText() const
{
    return m_notice->isVisibleTo(this) ? m_notice->text() : QString();
}

QString ChatPane::historyText() const
{
    if (m_empty->isVisibleTo(this))
        return m_empty->text();
    return m_history->isVisibleTo(this) ? m_history->text() : QString();
}

bool ChatPane::isShowingPlaceholder() const
{
    return m_pages->currentIndex() == 0;
}

void ChatPane::setBackVisible(bool visible)
{
    m_back->setVisible(visible);
}

void ChatPane::submit()
{
    if (m_friendId.isEmpty())
        return;
    const QString text = m_input->toPlainText();
    if (const auto problem = m_chat->send(m_friendId, text)) {
        m_notice->setText(*problem);
        m_notice->show();
        return;
    }
    m_input->clear();
    m_notice->hide();
    m_reading->onOwnMessageSent();
}

void ChatPane::onTextChanged()
{
    const QString text = m_input->toPlainText();
    const auto problem = Session::ChatController::checkText(text);
    m_send->setEnabled(!problem && m_chat->chatOffered());
    // Say "too long" while typing; "type something first" only when Enter is pressed.
    if (problem && !text.trimmed().isEmpty()) {
        m_notice->setText(*problem);
        m_notice->show();
    } else {
        m_notice->hide();
    }
}

void ChatPane::showMenu(const QPoint &pos)
{
    const QModelIndex index = m_view->indexAt(pos);
    if (!index.isValid() || !m_model)
        return;
    QMenu menu(this);
    const QString text = index.data(ChatModel::TextRole).toString();
    if (Delivery(index.data(ChatModel::DeliveryRole).toInt()) == Delivery::Failed) {
        const int row = index.row();
        menu.addAction(tr("Send again"), this, [this, row] { m_chat->resend(m_friendId, row); });
        menu.addAction(tr("Discard"), this, [this, row] { m_chat->discard(m_friendId, row); });
        menu.addSeparator();
    }
    if (const auto link = m_links->linkAt(pos)) {
        menu.addAction(tr("Open link"), this, [url = *link] { QDesktopServices::openUrl(url); });
        menu.addAction(tr("Copy link"), this,
            [url = *link] { QApplication::clipboard()->setText(url.toString()); });
    }
    menu.addAction(tr("Copy text"), this, [text] { QApplication::clipboard()->setText(text); });
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

void ChatPane::updateHistoryNotice()
{
    if (!m_model) {
        m_history->hide();
        m_empty->hide();
        return;
    }
    QString text;
    switch (m_model->historyState()) {
    case ChatModel::HistoryState::NotLoaded:
        if (m_model->rowCount() == 0)
            text = tr("Messages load once connected.");
        break;
    case ChatModel::HistoryState::Loading:
        text = m_model->rowCount() == 0 ? tr("Loading messages…") : tr("Loading earlier messages…");
        break;
    case ChatModel::HistoryState::Loaded:
        if (m_model->rowCount() == 0)
            text = tr("No messages with %1 yet. Say hello!").arg(friendName());
        break;
    }
    if (!m_chat->chatOffered())
        text = tr("This gateway offers no chat: you see when %1 is online, but cannot "
                  "exchange messages through it.")
                   .arg(friendName());
    // Without messages the words stand in for them, in the middle of the message area.
    const bool empty = m_model->rowCount() == 0;
    m_empty->setText(empty ? text : QString());
    m_empty->setVisible(empty && !text.isEmpty());
    m_history->setText(empty ? QString() : text);
    m_history->setVisible(!empty && !text.isEmpty());
    if (m_model->historyState() == ChatModel::HistoryState::Loaded && m_chat->chatOffered())
        loadOlderIfNeeded();
}

void ChatPane::loadOlderIfNeeded()
{
    // At the top, or a first page too short to scroll: fetch the page before. Opened on more
    // unread messages than a page holds, the first of them is further back: fetch pages until
    // the divider can go above it.
    const QScrollBar *bar = m_view->verticalScrollBar();
    if (m_model && m_model->hasOlder()
        && (bar->value() == bar->minimum() || m_reading->isPlacingOpeningDivider()))
        m_chat->loadOlder(m_friendId);
}

bool ChatPane::eventFilter(QObject *watched, QEvent *event)
{
    if (watched != m_view || !m_model)
        return QWidget::eventFilter(watched, event);
    if (event->type() == QEvent::FocusIn && !currentOnScreen().isValid()) {
        // Tabbing in: the ring goes on the newest message wholly on screen (else the newest
        // partly on it), not on the oldest held, and the reading place stays.
        const QRect viewport = m_view->viewport()->rect();
        QModelIndex chosen;
        for (int row = m_model->rowCount() - 1; row >= 0; --row) {
            const QRect rect = m_view->visualRect(m_rows->index(row, 0));
            if (viewport.contains(rect)) {
                chosen = m_rows->index(row, 0);
                break;
            }
            if (!chosen.isValid() && rect.intersects(viewport))
                chosen = m_rows->index(row, 0);
            else if (chosen.isValid() && !rect.intersects(viewport))
                break;
        }
        if (chosen.isValid()) {
            m_view->setAutoScroll(false);
            m_view->selectionModel()->setCurrentIndex(chosen, QItemSelectionModel::NoUpdate);
            m_view->setAutoScroll(true);
        }
    } else if (event->type() == QEvent::KeyPress
        && static_cast<QKeyEvent *>(event)->matches(QKeySequence::Copy)) {
        if (const QModelIndex index = currentOnScreen(); index.isValid())
            QApplication::clipboard()->setText(index.data(ChatModel::TextRole).toString());
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

QModelIndex ChatPane::currentOnScreen() const
{
    const QModelIndex index = m_view->currentIndex();
    return index.isValid() && m_view->visualRect(index).intersects(m_view->viewport()->rect())
        ? index
        : QModelIndex();
}

void ChatPane::updateShown()
{
    // On its way to the first unread message the view passes the bottom: nothing it shows
    // then has been read.
    if (m_reading->isPlacingOpeningDivider())
        return;
    QString shown;
    if (m_model && !isShowingPlaceholder()) {
        // The newest delivered row whose end is within the viewport (a pixel or two of slack
        // at the bottom); rows above it were shown before, or read before the view got here.
        const int bottom = m_view->viewport()->rect().bottom() + 2;
        for (int row = m_model->deliveredCount() - 1; row >= 0; --row) {
            const QRect rect = m_view->visualRect(m_rows->index(row, 0));
            if (rect.isValid() && rect.bottom() <= bottom) {
                shown = m_model->at(row).id;
                break;
            }
        }
    }
    if (shown == m_shownUpTo)
        return;
    m_shownUpTo = shown;
    Q_EMIT shownChanged();
}

QString ChatPane::friendName() const
{
    const auto row = m_friends->rowOf(m_friendId);
    const QString name = row
        ? m_friends->data(m_friends->index(*row), Models::FriendListModel::NameRole).toString()
        : QString();
    return name.isEmpty() ? m_friendId : name;
}

} // namespace Presence::Ui
