#pragma once

#include <QMainWindow>
#include <QTimer>

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
class GatewaySession;
} // namespace Presence::Session

namespace Presence::Ui {

class ChatPane;
class ChatsPane;
class DesktopNotifications;
class FriendListPane;
class MessageNotifier;
class SessionHeader;

// The window people keep open: the header, on the left the chats and the friend list (two
// tabs), the chat on the right, and a status bar that shows how few friends are actually
// watched. The title counts unread messages ("(3) Presence Chat"); a message that arrives
// while the window is not active asks for attention, and one whose chat is not in front is
// announced on the desktop (MessageNotifier).
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    MainWindow(Session::GatewaySession *session, Models::FriendListModel *model,
        Session::ChatController *chat, QWidget *parent = nullptr);

    [[nodiscard]] FriendListPane *friendList() const { return m_friends; }
    [[nodiscard]] SessionHeader *header() const { return m_header; }
    [[nodiscard]] QSplitter *splitter() const { return m_splitter; }
    [[nodiscard]] ChatPane *chatPane() const { return m_chat; }
    [[nodiscard]] ChatsPane *chatsPane() const { return m_chats; }
    // The left pane: Chats (index 0) and Friends (index 1, the current one at first).
    [[nodiscard]] QTabWidget *leftTabs() const { return m_tabs; }
    [[nodiscard]] DesktopNotifications *notifications() const { return m_notifications; }
    [[nodiscard]] MessageNotifier *messageNotifier() const { return m_messageNotifier; }
    [[nodiscard]] QString statusText() const;

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
    // Settings > "Notify on new messages" (checkable, checked at first; applied to
    // messageNotifier() here, stored by the owner).
    [[nodiscard]] QAction *messageNotifyAction() const { return m_messageNotifyAction; }
    // The disabled Settings entry that says why notifications cannot be shown; visible only
    // while the desktop offers no way to show them (both notify actions are disabled then).
    [[nodiscard]] QAction *notificationsUnavailableAction() const { return m_unavailableAction; }
    // Looks again for a way to show notifications (also done each time Settings opens).
    void updateNotificationAvailability();
    // Settings > "Away when idle for": shows `minutes` as the current choice.
    void setAutoAwayMinutes(int minutes);

Q_SIGNALS:
    void chatRequested(const QString &friendId);
    void autoAwayMinutesChosen(int minutes);
    // Presence > Switch account…, or Sign in… after the session failed for good.
    void signInRequested();
    // Presence > Sign out: forget the remembered token and sign in again.
    void signOutRequested();

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

    Session::GatewaySession *m_session;
    Models::FriendListModel *m_model;
    Session::ChatController *m_chatController;
    SessionHeader *m_header;
    FriendListPane *m_friends;
    ChatsPane *m_chats;
    QTabWidget *m_tabs;
    ChatPane *m_chat;
    QSplitter *m_splitter;
    DesktopNotifications *m_notifications;
    MessageNotifier *m_messageNotifier;
    QAction *m_notifyAction = nullptr;
    QAction *m_messageNotifyAction = nullptr;
    QAction *m_unavailableAction = nullptr;
    QActionGroup *m_awayChoices = nullptr;
    QLabel *m_status;
    QTimer m_statusTimer;
    bool m_singlePane = false;
    bool m_chatInFront = false; // single pane: the chat is the pane shown
};

} // namespace Presence::Ui
