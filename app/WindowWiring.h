#pragma once

// Qt
#include <QObject>

// Presence
#include "session/GatewaySession.h"
#include "ui/shell/ConnectionState.h"

namespace Presence::Models {
class FriendListModel;
}
namespace Presence::Session {
class ChatController;
}
namespace Presence::Ui {
class MainWindow;
} // namespace Presence::Ui

namespace Presence::App {

class DesktopNotifications;
class MessageNotifier;

// The main window wired to the client core, the one place where widgets meet the session:
// the connection, who is signed in, the retry countdown and the chosen status go to the
// header, and its choices back; the friends on screen (and the open chat) become the
// session's wanted set; the counts go to the status bar; and a new message whose chat is not
// in front is announced on the desktop (MessageNotifier, over DesktopNotifications).
class WindowWiring : public QObject {
    Q_OBJECT
public:
    // None is owned; all must outlive the wiring. The notifiers are children of the window.
    WindowWiring(Session::GatewaySession *session, Session::ChatController *chat,
        Models::FriendListModel *friends, Ui::MainWindow *window, QObject *parent = nullptr);

    [[nodiscard]] DesktopNotifications *notifications() const { return m_notifications; }
    [[nodiscard]] MessageNotifier *messageNotifier() const { return m_messageNotifier; }
    // Looks again for a way to show notifications (also done each time Settings opens).
    void updateNotificationAvailability();

    [[nodiscard]] static Ui::ConnectionState connectionState(Session::GatewaySession::State state);

private:
    void showConnection();

    Session::GatewaySession *m_session;
    Ui::MainWindow *m_window;
    DesktopNotifications *m_notifications;
    MessageNotifier *m_messageNotifier;
};

} // namespace Presence::App
