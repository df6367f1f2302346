#pragma once

// C++
#include <memory>

// Qt
#include <QObject>

// Presence
#include "app/ClientOptions.h"
#include "app/ClientSettings.h"
#include "app/SessionModelBridge.h"
#include "app/SignInFlow.h"
#include "models/FriendListModel.h"
#include "session/ChatController.h"
#include "session/GatewaySession.h"

class QSystemTrayIcon;

namespace Presence::Ui {
class MainWindow;
} // namespace Presence::Ui

namespace Presence::App {

class FreedesktopIdle;
class FriendOnlineNotifier;
class IdleAwayController;
class WindowWiring;

// The desktop client composed: the settings file, the session and its models, the sign-in
// flow, and once signed in the main window wired to them (WindowWiring), with what the user
// chose kept in the settings (geometry, sort, away when idle, notifications), going away when
// the desktop is idle, the tray icon and the notifications of friends coming online, and
// --open-chat. main() only reads the command line and runs it.
class ClientApp : public QObject {
    Q_OBJECT
public:
    explicit ClientApp(ClientOptions options, QObject *parent = nullptr);
    ~ClientApp() override;

    // Signs in (through the dialog when the command line and the settings do not) and shows
    // the window; false when the user closed the sign-in dialog instead.
    [[nodiscard]] bool start();

    [[nodiscard]] Ui::MainWindow *window() const { return m_window.get(); }

private:
    void restoreWindow();
    void connectSettings();
    void startIdleAway();
    void startNotifications();
    void openChatOnceLoaded();
    // --token-command without a token yet: runs it once before signing in; empty on failure
    // (said on stderr), and the sign-in dialog asks.
    QString firstTokenFromCommand();

    ClientOptions m_options;
    // --token-file read again, or --token-command run, for the next token; null for neither.
    std::unique_ptr<Session::TokenSource> m_tokenSource;
    ClientSettings m_settings;
    Session::GatewaySession m_session;
    Models::FriendListModel m_model;
    SessionModelBridge m_bridge;
    Session::ChatController m_chat;
    SignInFlow m_signIn;
    // Once signed in:
    std::unique_ptr<Ui::MainWindow> m_window;
    std::unique_ptr<WindowWiring> m_wiring;
    std::unique_ptr<IdleAwayController> m_idle;
    std::unique_ptr<FreedesktopIdle> m_desktopIdle;
    std::unique_ptr<QSystemTrayIcon> m_tray;
    std::unique_ptr<FriendOnlineNotifier> m_onlineNotifier;
};

} // namespace Presence::App
