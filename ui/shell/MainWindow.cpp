#include "ui/shell/MainWindow.h"

// Qt
#include <QActionGroup>
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScrollBar>
#include <QShortcut>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

// Presence
#include "models/ConversationListModel.h"
#include "models/FriendListModel.h"
#include "session/ChatController.h"
#include "ui/chat/ChatPane.h"
#include "ui/chat/ConversationListPane.h"
#include "ui/chat/MessageInput.h"
#include "ui/friends/FriendListPane.h"
#include "ui/shell/SessionHeader.h"

namespace Presence::Ui {

MainWindow::MainWindow(
    Models::FriendListModel *model, Session::ChatController *chat, QWidget *parent)
    : QMainWindow(parent)
    , m_model(model)
    , m_chatController(chat)
    , m_header(new SessionHeader(this))
    , m_friends(new FriendListPane(model, this))
    , m_chats(new ConversationListPane(chat->conversationList(), this))
    , m_tabs(new QTabWidget(this))
    , m_chat(new ChatPane(chat, model, this))
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_status(new QLabel(this))
{
    //: Tab of the left pane: recent conversations.
    m_tabs->addTab(m_chats, tr("Chats"));
    //: Tab of the left pane: the friend list.
    m_tabs->addTab(m_friends, tr("Friends"));
    m_tabs->setCurrentWidget(m_friends);
    m_tabs->setDocumentMode(true);
    m_splitter->addWidget(m_tabs);
    m_splitter->addWidget(m_chat);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 2);
    m_splitter->setChildrenCollapsible(false);

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->addWidget(m_header);
    layout->addWidget(m_splitter, 1);
    setCentralWidget(central);
    statusBar()->addWidget(m_status, 1);

    connect(m_friends, &FriendListPane::chatRequested, this, &MainWindow::openChat);
    connect(m_chats, &ConversationListPane::chatRequested, this, &MainWindow::openChat);
    connect(chat, &Session::ChatController::chatOfferedChanged, m_chats,
        &ConversationListPane::setChatOffered);
    m_chats->setChatOffered(chat->chatOffered());
    connect(m_header, &SessionHeader::signInRequested, this, &MainWindow::signInRequested);
    createMenus();
    // Ctrl+F, and Ctrl+K as in other chat apps: type a name, Enter opens the top match.
    for (const QKeySequence &keys :
        { QKeySequence(QKeySequence::Find), QKeySequence(Qt::CTRL | Qt::Key_K) }) {
        auto *search = new QShortcut(keys, this);
        connect(search, &QShortcut::activated, this, [this] {
            m_tabs->setCurrentWidget(m_friends);
            m_friends->searchBox()->setFocus(Qt::ShortcutFocusReason);
            m_friends->searchBox()->selectAll();
        });
    }
    // Alt+Up / Alt+Down: the chat above or below the open one in the list shown (Chats or
    // Friends).
    for (const int step : { -1, 1 }) {
        auto *next = new QShortcut(Qt::ALT | (step < 0 ? Qt::Key_Up : Qt::Key_Down), this);
        connect(next, &QShortcut::activated, this, [this, step] {
            const QString open = m_chat->friendId();
            openChat(m_tabs->currentWidget() == m_chats ? m_chats->friendNextTo(open, step)
                                                        : m_friends->friendNextTo(open, step));
        });
    }
    connect(m_chat, &ChatPane::backRequested, this, &MainWindow::showLists);
    auto *back
        = new QShortcut(Qt::Key_Escape, m_chat, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
    connect(back, &QShortcut::activated, this, [this] {
        if (m_singlePane)
            showLists();
    });
    // Tab goes as the eye does: the own-status box (first on screen; moved just before the
    // search box, which leaves the rest of the chain as it is), the tabs, the list's search,
    // sort and rows, then the conversation: its messages, the input, the send button.
    QWidget *beforeSearch = m_friends->searchBox()->previousInFocusChain();
    if (beforeSearch != m_header->statusChooser())
        setTabOrder(beforeSearch, m_header->statusChooser());
    setTabOrder(m_header->statusChooser(), m_tabs);
    setTabOrder(m_tabs, m_friends->searchBox());
    setTabOrder(m_friends->view(), m_chats->view());
    setTabOrder(m_chats->view(), m_chat->messageView());
    setTabOrder(m_chat->messageView(), m_chat->input());
    setTabOrder(m_chat->input(), m_chat->sendButton());

    // The counts change with every presence push and scroll: recount at most 4 times a second.
    m_statusTimer.setSingleShot(true);
    m_statusTimer.setInterval(std::chrono::milliseconds(250));
    connect(&m_statusTimer, &QTimer::timeout, this, &MainWindow::updateStatus);
    const auto schedule = [this] { scheduleStatusUpdate(); };
    connect(model, &QAbstractItemModel::dataChanged, this, schedule);
    connect(model, &QAbstractItemModel::modelReset, this, schedule);
    connect(model, &QAbstractItemModel::rowsInserted, this, schedule);
    connect(model, &QAbstractItemModel::rowsRemoved, this, schedule);
    connect(m_friends->view()->verticalScrollBar(), &QScrollBar::valueChanged, this, schedule);
    connect(m_friends->proxy(), &QAbstractItemModel::layoutChanged, this, schedule);
    updateStatus();

    // What is in front of the user: the active window, the open chat, the messages on screen.
    connect(m_chat, &ChatPane::shownChanged, this, &MainWindow::updateFront);
    connect(chat->conversationList(), &Models::ConversationListModel::totalUnreadChanged, this,
        &MainWindow::updateTitle);
    connect(chat, &Session::ChatController::messageReceived, this, [this] {
        if (!isActiveWindow())
            QApplication::alert(this);
    });
    updateTitle();
    updateFront();
}

void MainWindow::changeEvent(QEvent *event)
{
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::ActivationChange)
        updateFront();
}

void MainWindow::updateFront()
{
    const bool active = isActiveWindow() && m_chat->isVisibleTo(this);
    const QString open = m_chat->friendId();
    const QString front = active ? open : QString();
    if (front != m_frontChat) {
        m_frontChat = front;
        Q_EMIT frontChatChanged(front);
    }
    // Messages are read as far as they have been on screen in front of the user.
    m_chatController->setInFront(active && !open.isEmpty());
    m_chatController->setShownUpTo(active ? m_chat->shownUpTo() : QString());
}

void MainWindow::updateTitle()
{
    const int unread = m_chatController->totalUnread();
    //: The window title while messages are unread: (3) Presence Chat.
    setWindowTitle(unread > 0 ? tr("(%1) Presence Chat").arg(unread) : tr("Presence Chat"));
    //: The Chats tab while messages are unread.
    m_tabs->setTabText(0, unread > 0 ? tr("Chats (%1)").arg(unread) : tr("Chats"));
}

void MainWindow::setNotificationsAvailable(bool possible, const QString &whyNot)
{
    m_notifyAction->setEnabled(possible);
    m_messageNotifyAction->setEnabled(possible);
    m_unavailableAction->setText(whyNot);
    m_unavailableAction->setVisible(!possible);
}

void MainWindow::setConnection(ConnectionState state)
{
    if (state == m_connection)
        return;
    m_connection = state;
    // Not on the next tick of the counts: the banner changes now, and the two must agree.
    m_statusTimer.stop();
    updateStatus();
}

void MainWindow::setWatchedCount(int count)
{
    m_watchedCount = count;
    scheduleStatusUpdate();
}

void MainWindow::openChat(const QString &friendId)
{
    if (friendId.isEmpty())
        return;
    m_friends->showFriend(friendId);
    m_friends->setPinned({ friendId });
    m_chats->showFriend(friendId);
    if (m_chat->friendId() != friendId)
        m_chat->setFriend(friendId);
    m_chatInFront = true;
    updatePanes();
    m_chat->focusInput();
    updateFront();
    Q_EMIT chatRequested(friendId);
}

void MainWindow::resizeEvent(QResizeEvent *event)
{
    QMainWindow::resizeEvent(event);
    const bool single = width() < kSinglePaneBelow;
    if (single != m_singlePane) {
        m_singlePane = single;
        updatePanes();
    }
}

void MainWindow::showLists()
{
    m_chatInFront = false;
    updatePanes();
    if (m_tabs->currentWidget() == m_chats)
        m_chats->view()->setFocus(Qt::OtherFocusReason);
    else
        m_friends->view()->setFocus(Qt::OtherFocusReason);
}

void MainWindow::updatePanes()
{
    const bool chatShown = !m_singlePane || m_chatInFront;
    m_tabs->setVisible(!m_singlePane || !m_chatInFront);
    m_chat->setVisible(chatShown);
    m_chat->setBackVisible(m_singlePane);
    updateFront();
}

void MainWindow::createMenus()
{
    //: The first menu: switching account, signing out, quitting.
    QMenu *app = menuBar()->addMenu(tr("&Presence"));
    app->addAction(tr("S&witch account…"), this, &MainWindow::signInRequested);
    app->addAction(tr("Sign &out"), this, &MainWindow::signOutRequested);
    app->addSeparator();
    QAction *quit = app->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setShortcutContext(Qt::ApplicationShortcut);

    QMenu *settings = menuBar()->addMenu(tr("&Settings"));
    m_notifyAction = settings->addAction(tr("&Notify when a friend comes online"));
    m_notifyAction->setCheckable(true);
    m_notifyAction->setToolTip(tr("A desktop notification (system tray) when a friend comes "
                                  "online"));
    m_messageNotifyAction = settings->addAction(tr("Notify on new &messages"));
    m_messageNotifyAction->setCheckable(true);
    m_messageNotifyAction->setChecked(true);
    m_messageNotifyAction->setToolTip(
        tr("A desktop notification for a message whose chat is not in front"));
    m_unavailableAction = settings->addAction(QString());
    m_unavailableAction->setEnabled(false);
    m_unavailableAction->setVisible(false);
    connect(settings, &QMenu::aboutToShow, this, &MainWindow::settingsMenuOpened);

    QMenu *away = settings->addMenu(tr("&Away when idle for"));
    m_awayChoices = new QActionGroup(this);
    for (const int minutes : { 1, 2, 5, 10, 15, 30, 60 }) {
        QAction *choice
            = away->addAction(minutes == 1 ? tr("1 minute") : tr("%1 minutes").arg(minutes));
        choice->setCheckable(true);
        choice->setData(minutes);
        m_awayChoices->addAction(choice);
        connect(choice, &QAction::triggered, this,
            [this, minutes] { Q_EMIT autoAwayMinutesChosen(minutes); });
    }
}

void MainWindow::setAutoAwayMinutes(int minutes)
{
    const auto choices = m_awayChoices->actions();
    for (QAction *choice : choices)
        choice->setChecked(choice->data().toInt() == minutes);
}

QString MainWindow::statusText() const
{
    return m_status->text();
}

void MainWindow::scheduleStatusUpdate()
{
    if (!m_statusTimer.isActive())
        m_statusTimer.start();
}

void MainWindow::updateStatus()
{
    // Counted over every friend known live: the availability set covers the whole list (up to
    // the gateway's cap), the subscriptions the rows on screen.
    const int friends = m_model->rowCount();
    const int online = m_model->countLiveIn(Models::PresenceState::Online);
    const int unknown = friends - m_model->liveCount();
    QString text;
    switch (m_connection) {
    case ConnectionState::Online:
        if (unknown > 0)
            //: Status bar: friends, those online, and those whose presence is not known.
            text
                = tr("%1 friends · %2 online · %3 not known").arg(friends).arg(online).arg(unknown);
        else
            text = tr("%1 friends · %2 online").arg(friends).arg(online);
        break;
    case ConnectionState::Connecting:
    case ConnectionState::Authenticating:
    case ConnectionState::Reconnecting:
        // No count of who is online, not even 0: it is not known.
        text = friends > 0
            //: Status bar while the connection is gone and being made again.
            ? tr("%1 friends · status unknown while reconnecting").arg(friends)
            //: Status bar while signing in for the first time.
            : tr("Connecting…");
        break;
    case ConnectionState::Failed:
    case ConnectionState::Disconnected:
        // Signed out, or a sign-in that retrying cannot fix (the banner says which): nothing
        // is being retried and nobody's presence is known.
        text = friends > 0
            //: Status bar when not signed in, with the friend list of the last sign-in.
            ? tr("%1 friends · not signed in").arg(friends)
            //: Status bar when not signed in.
            : tr("Not signed in");
        break;
    }
    m_status->setText(text);
    //: The status bar's tooltip, for the curious: what the client asks the gateway for.
    m_status->setToolTip(tr("%1 watched exactly (the rows on screen) · %2 covered by the "
                            "availability set")
                             .arg(m_watchedCount)
                             .arg(m_model->coveredCount()));
}

} // namespace Presence::Ui
