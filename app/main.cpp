#include "app/ClientOptions.h"
#include "app/ClientSettings.h"
#include "app/FreedesktopIdle.h"
#include "app/FriendOnlineNotifier.h"
#include "app/IdleAwayController.h"
#include "app/SessionModelBridge.h"
#include "app/SignInFlow.h"
#include "app/Translations.h"
#include "models/FriendListModel.h"
#include "session/ChatController.h"
#include "session/GatewaySession.h"
#include "ui/ChatsPane.h"
#include "ui/DesktopNotifications.h"
#include "ui/FriendListPane.h"
#include "ui/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QDBusConnection>
#include <QIcon>
#include <QLocale>
#include <QSplitter>
#include <QStandardPaths>
#include <QSystemTrayIcon>
#include <QTabWidget>
#include <QTextStream>

#include <optional>

using namespace Qt::StringLiterals;
using namespace Presence;

namespace {

void describeApplication()
{
    QCoreApplication::setApplicationName(u"presence-chat"_s);
    QCoreApplication::setOrganizationName(u"Presence Chat"_s);
    QCoreApplication::setApplicationVersion(QStringLiteral(PRESENCE_VERSION));
}

// Parses the command line; prints help, the version or the error. Returns the exit code when
// there is nothing more to do.
std::optional<int> answerCommandLine(
    const QStringList &arguments, std::optional<App::ClientOptions> *parsed)
{
    QString error;
    *parsed = App::ClientOptions::parse(arguments, qEnvironmentVariable("PRESENCE_TOKEN"), &error);
    if (!*parsed) {
        QTextStream(stderr) << "presence-chat: " << error << "\nTry 'presence-chat --help'.\n";
        return 2;
    }
    if ((*parsed)->action == App::ClientOptions::Action::ShowHelp) {
        QTextStream(stdout) << (*parsed)->helpText;
        return 0;
    }
    if ((*parsed)->action == App::ClientOptions::Action::ShowVersion) {
        QTextStream(stdout) << "presence-chat " << QCoreApplication::applicationVersion() << '\n';
        return 0;
    }
    return std::nullopt;
}

// --help and --version must work without a display (a terminal over ssh, a packaging
// script): QApplication aborts there, so they are answered by a QCoreApplication first.
bool asksOnlyForWords(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        const QByteArrayView arg(argv[i]);
        if (arg == "--help" || arg == "-h" || arg == "--help-all" || arg == "-?"
            || arg == "--version" || arg == "-v")
            return true;
    }
    return false;
}

} // namespace

int main(int argc, char *argv[])
{
    std::optional<App::ClientOptions> options;
    if (asksOnlyForWords(argc, argv)) {
        QCoreApplication core(argc, argv);
        describeApplication();
        if (const auto exitCode = answerCommandLine(QCoreApplication::arguments(), &options))
            return *exitCode;
    }

    QApplication app(argc, argv);
    describeApplication();
    // The system's language (LANG, LC_MESSAGES, LANGUAGE), before the first widget exists.
    App::Translations translations;
    translations.install(QLocale::system());
    QApplication::setWindowIcon(QIcon(u":/presence/presence-chat.svg"_s));
    QGuiApplication::setDesktopFileName(u"presence-chat"_s);
    if (const auto exitCode = answerCommandLine(QApplication::arguments(), &options))
        return *exitCode;
    Ui::ClientSettings settings(
        QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + u"/presence.ini"_s);
    Session::GatewaySession session;
    Models::FriendListModel model;
    Session::SessionModelBridge bridge(&session, &model);
    Session::ChatController chat(&session, &model);

    App::SignInFlow signIn(&session, &settings, &model);
    if (!signIn.start(options->server, options->token))
        return 0; // the sign-in dialog was closed

    Ui::MainWindow window(&session, &model, &chat);
    signIn.attach(&window);
    window.resize(900, 640);
    window.restoreGeometry(settings.windowGeometry());
    if (options->geometry)
        window.setGeometry(*options->geometry);
    window.splitter()->restoreState(settings.splitterState());
    if (options->showChats)
        window.leftTabs()->setCurrentWidget(window.chatsPane());
    window.friendList()->setSortMode(Models::FriendSortFilterProxy::SortMode(settings.sortMode()));
    QObject::connect(window.friendList(), &Ui::FriendListPane::sortModeChanged, &app,
        [&settings](
            Models::FriendSortFilterProxy::SortMode mode) { settings.setSortMode(int(mode)); });
    QObject::connect(&app, &QApplication::aboutToQuit, &app, [&] {
        settings.setWindowGeometry(window.saveGeometry());
        settings.setSplitterState(window.splitter()->saveState());
    });
    Ui::IdleAwayController idle(&session, std::chrono::minutes(settings.autoAwayMinutes()));
    // Input anywhere on the desktop, the screen lock and suspend, where the desktop tells.
    Ui::FreedesktopIdle desktopIdle(QDBusConnection::sessionBus(), QDBusConnection::systemBus());
    idle.setDesktop(&desktopIdle);
    window.setAutoAwayMinutes(settings.autoAwayMinutes());
    QObject::connect(&window, &Ui::MainWindow::autoAwayMinutesChosen, &app, [&](int minutes) {
        settings.setAutoAwayMinutes(minutes);
        idle.setIdleAfter(std::chrono::minutes(settings.autoAwayMinutes()));
    });

    // Notifications go to the desktop's notification service, else the system tray: "a friend
    // came online" (off unless the user turns it on) and new messages (on by default).
    QSystemTrayIcon tray(QApplication::windowIcon());
    tray.setToolTip(QApplication::translate("main", "Presence Chat"));
    window.notifications()->setTrayIcon(&tray);
    Ui::FriendOnlineNotifier onlineNotifier(&model);
    onlineNotifier.setTrayIcon(&tray);
    onlineNotifier.setNotifications(window.notifications());
    QObject::connect(&session, &Session::GatewaySession::signedIn, &onlineNotifier,
        [&onlineNotifier](const Protocol::UserInfo &self) { onlineNotifier.setSelfId(self.id); });
    QObject::connect(&tray, &QSystemTrayIcon::activated, &window, [&window] {
        window.showNormal();
        window.raise();
        window.activateWindow();
    });
    // The tray icon shows while either kind of notification may need it as the fallback.
    const auto showTray = [&] {
        tray.setVisible((settings.trayNotifications() || settings.messageNotifications())
            && QSystemTrayIcon::isSystemTrayAvailable());
    };
    window.notifyAction()->setChecked(settings.trayNotifications());
    onlineNotifier.setEnabled(settings.trayNotifications());
    QObject::connect(window.notifyAction(), &QAction::toggled, &app, [&](bool on) {
        settings.setTrayNotifications(on);
        onlineNotifier.setEnabled(on);
        showTray();
    });
    window.messageNotifyAction()->setChecked(settings.messageNotifications());
    QObject::connect(window.messageNotifyAction(), &QAction::toggled, &app, [&](bool on) {
        settings.setMessageNotifications(on);
        showTray();
    });
    showTray();
    window.show();

    // --open-chat ID (demos, screenshots): that friend's chat, once the friend list is there.
    if (!options->openChat.isEmpty()) {
        const auto openChat = [&window, &model, id = options->openChat] {
            if (!model.rowOf(id)) {
                QTextStream(stderr)
                    << "presence-chat: --open-chat: " << id << " is not one of your friends\n";
                return;
            }
            window.openChat(id);
        };
        if (model.rowCount() > 0)
            openChat(); // the sign-in dialog already loaded the list
        else
            QObject::connect(&session, &Session::GatewaySession::friendsLoaded, &window, openChat,
                Qt::SingleShotConnection);
    }
    return app.exec();
}
