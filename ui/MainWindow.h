#pragma once

#include <QMainWindow>
#include <QTimer>

class QAction;
class QActionGroup;
class QLabel;
class QSplitter;

namespace Presence::Models {
class FriendListModel;
}
namespace Presence::Session {
class ChatController;
class GatewaySession;
} // namespace Presence::Session

namespace Presence::Ui {

class ChatPane;
class FriendListPane;
class SessionHeader;

// The window people keep open: the header, the friend list on the left, the chat on the
// right, and a status bar that shows how few friends are actually watched.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    MainWindow(Session::GatewaySession *session, Models::FriendListModel *model,
        Session::ChatController *chat, QWidget *parent = nullptr);

    [[nodiscard]] FriendListPane *friendList() const { return m_friends; }
    [[nodiscard]] SessionHeader *header() const { return m_header; }
    [[nodiscard]] QSplitter *splitter() const { return m_splitter; }
    [[nodiscard]] ChatPane *chatPane() const { return m_chat; }
    [[nodiscard]] QString statusText() const;

    // Opens the chat with a friend: selects their row, keeps them watched while the chat is
    // open, and puts the cursor in the message input.
    void openChat(const QString &friendId);

    // Settings > "Notify when a friend comes online" (checkable; the owner applies it).
    [[nodiscard]] QAction *notifyAction() const { return m_notifyAction; }
    // Settings > "Away when idle for": shows `minutes` as the current choice.
    void setAutoAwayMinutes(int minutes);

Q_SIGNALS:
    void chatRequested(const QString &friendId);
    void autoAwayMinutesChosen(int minutes);
    // Presence > Switch account…, or Sign in… after the session failed for good.
    void signInRequested();
    // Presence > Sign out: forget the remembered token and sign in again.
    void signOutRequested();

private:
    void createMenus();
    void scheduleStatusUpdate();
    void updateStatus();

    Session::GatewaySession *m_session;
    Models::FriendListModel *m_model;
    SessionHeader *m_header;
    FriendListPane *m_friends;
    ChatPane *m_chat;
    QSplitter *m_splitter;
    QAction *m_notifyAction = nullptr;
    QActionGroup *m_awayChoices = nullptr;
    QLabel *m_status;
    QTimer m_statusTimer;
};

} // namespace Presence::Ui
