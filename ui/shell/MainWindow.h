#pragma once

// Qt
#include <QMainWindow>
#include <QTimer>

// Presence
#include "ui/shell/ConnectionState.h"

class QAction;
class QActionGroup;
class QLabel;
class QSplitter;
class QTabWidget;

namespace Presence::Models {
class FriendListModel;
}
namespace Presence::Session {
class ChatController;
}

namespace Presence::Ui {

class ChatPane;
class ConversationListPane;
class FriendListPane;
class SessionHeader;

// The window people keep open: the header, on the left the chats and the friend list (two
// tabs), the chat on the right, and a status bar that shows how few friends are actually
// watched. The title counts unread messages ("(3) Presence Chat"); a message that arrives
// while the window is not active asks for attention. It knows nothing of the gateway session:
// the application tells it what to show (set…, the header's and the list's setters) and
// listens to its signals.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    MainWindow(
        Models::FriendListModel *model, Session::ChatController *chat, QWidget *parent = nullptr);

    [[nodiscard]] FriendListPane *friendList() const { return m_friends; }
    [[nodiscard]] SessionHeader *header() const { return m_header; }
    [[nodiscard]] QSplitter *splitter() const { return m_splitter; }
    [[nodiscard]] ChatPane *chatPane() const { return m_chat; }
    [[nodiscard]] ConversationListPane *conversationListPane() const { return m_chats; }
    // The left pane: Chats (index 0) and Friends (index 1, the current one at first).
    [[nodiscard]] QTabWidget *leftTabs() const { return m_tabs; }
    [[nodiscard]] QString statusText() const;
    // The chat in front of the user now (the window active, the chat shown), else empty.
    [[nodiscard]] QString frontChat() const { return m_frontChat; }

    // Opens the chat with a friend: selects their row, keeps them watched while the chat is
    // open, and puts the cursor in the message input.
    void openChat(const QString &friendId);

    // Narrower than this, the window shows one pane at a time: the lists, or the open chat
    // with a back arrow (Esc) to the lists.
    static constexpr int kSinglePaneBelow = 700;
    [[nodiscard]] bool isSinglePane() const { return m_singlePane; }
    // Single pane: back from the chat to the lists (the chat stays open behind them).
    void showLists();

    // Settings > "Notify when a friend comes online" (checkable; the owner applies it).
    [[nodiscard]] QAction *notifyAction() const { return m_notifyAction; }
    // Settings > "Notify on new messages" (checkable, checked at first; the owner applies and
    // stores it).
    [[nodiscard]] QAction *messageNotifyAction() const { return m_messageNotifyAction; }
    // The disabled Settings entry that says why notifications cannot be shown; visible only
    // while the desktop offers no way to show them (both notify actions are disabled then).
    [[nodiscard]] QAction *notificationsUnavailableAction() const { return m_unavailableAction; }
    // Whether the desktop can show notifications now, and if not, why (the owner asks again
    // each time Settings opens: settingsMenuOpened).
    void setNotificationsAvailable(bool possible, const QString &whyNot);
    // The connection as the header's banner shows it: the status bar says the same, at once.
    void setConnection(ConnectionState state);
    // The gateway watches this many users exactly for us (the status bar's tooltip).
    void setWatchedCount(int count);
    // Settings > "Away when idle for": shows `minutes` as the current choice.
    void setAutoAwayMinutes(int minutes);

Q_SIGNALS:
    void chatRequested(const QString &friendId);
    void autoAwayMinutesChosen(int minutes);
    // Presence > Switch account…, or Sign in… after the session failed for good.
    void signInRequested();
    // Presence > Sign out: forget the remembered token and sign in again.
    void signOutRequested();
    // The Settings menu opened.
    void settingsMenuOpened();
    // Another chat (or none) came in front of the user.
    void frontChatChanged(const QString &friendId);

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void createMenus();
    // Tells the chat and the notifier what is in front of the user now.
    void updateFront();
    void updateTitle();
    void scheduleStatusUpdate();
    void updateStatus();
    // Shows both panes, or the one in front when the window is narrow.
    void updatePanes();

    Models::FriendListModel *m_model;
    Session::ChatController *m_chatController;
    SessionHeader *m_header;
    FriendListPane *m_friends;
    ConversationListPane *m_chats;
    QTabWidget *m_tabs;
    ChatPane *m_chat;
    QSplitter *m_splitter;
    QAction *m_notifyAction = nullptr;
    QAction *m_messageNotifyAction = nullptr;
    QAction *m_unavailableAction = nullptr;
    QActionGroup *m_awayChoices = nullptr;
    QLabel *m_status;
    QTimer m_statusTimer;
    ConnectionState m_connection = ConnectionState::Disconnected;
    int m_watchedCount = 0;
    QString m_frontChat;
    bool m_singlePane = false;
    bool m_chatInFront = false; // single pane: the chat is the pane shown
};

} // namespace Presence::Ui
