#include "app/ClientApp.h"

// Qt
#include <QAction>
#include <QApplication>
#include <QDBusConnection>
#include <QEventLoop>
#include <QSplitter>
#include <QSslConfiguration>
#include <QStandardPaths>
#include <QSystemTrayIcon>
#include <QTabWidget>
#include <QTextStream>

// Presence
#include "app/DesktopNotifications.h"
#include "app/FreedesktopIdle.h"
#include "app/FriendOnlineNotifier.h"
#include "app/IdleAwayController.h"
#include "app/WindowWiring.h"
#include "session/CommandTokenSource.h"
#include "session/FileTokenSource.h"
#include "ui/chat/ConversationListPane.h"
#include "ui/friends/FriendListPane.h"
#include "ui/shell/MainWindow.h"

using namespace Qt::StringLiterals;

namespace Presence::App {

namespace {

// Every session of the app, the sign-in dialog's trial too (it copies these), trusts the
// certificates the user trusted, after a restart as well.
Session::GatewaySession::Options sessionOptions(const ClientSettings &settings)
{
    Session::GatewaySession::Options options;
    options.pinnedCertificates = settings.trustedCertificates();
    return options;
}

} // namespace

ClientApp::ClientApp(ClientOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_settings(
          QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + u"/presence.ini"_s)
    , m_session(sessionOptions(m_settings))
    , m_bridge(&m_session, &m_model)
    , m_chat(&m_session, &m_model)
    , m_signIn(&m_session, &m_settings, &m_model)
{
    if (!m_options.tokenFile.isEmpty())
        m_tokenSource = std::make_unique<Session::FileTokenSource>(m_options.tokenFile);
    else if (!m_options.tokenCommand.isEmpty())
        m_tokenSource = std::make_unique<Session::CommandTokenSource>(m_options.tokenCommand);
    m_session.setTokenSource(m_tokenSource.get());
    if (!m_options.caCertificates.isEmpty()) {
        // Every connection of the app, the sign-in dialog's attempts included.
        QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
        configuration.addCaCertificates(m_options.caCertificates);
        QSslConfiguration::setDefaultConfiguration(configuration);
    }
}

ClientApp::~ClientApp() = default;

bool ClientApp::start()
{
    if (m_options.token.isEmpty() && !m_options.tokenCommand.isEmpty())
        m_options.token = firstTokenFromCommand();
    if (!m_signIn.start(m_options.server, m_options.token))
        return false; // the sign-in dialog was closed

    m_window = std::make_unique<Ui::MainWindow>(&m_model, &m_chat);
    m_wiring = std::make_unique<WindowWiring>(&m_session, &m_chat, &m_model, m_window.get());
    m_signIn.attach(m_window.get());
    restoreWindow();
    connectSettings();
    startIdleAway();
    startNotifications();
    m_window->show();
    openChatOnceLoaded();
    return true;
}

QString ClientApp::firstTokenFromCommand()
{
    QEventLoop loop;
    QString token;
    connect(
        m_tokenSource.get(), &Session::TokenSource::tokenReady, &loop, [&](const QString &fetched) {
            token = fetched;
            loop.quit();
        });
    connect(
        m_tokenSource.get(), &Session::TokenSource::tokenFailed, &loop, [&](const QString &error) {
            QTextStream(stderr) << "presence-chat: " << error << '\n';
            loop.quit();
        });
    m_tokenSource->fetch();
    loop.exec();
    return token;
}

void ClientApp::restoreWindow()
{
    m_window->resize(900, 640);
    m_window->restoreGeometry(m_settings.windowGeometry());
    if (m_options.geometry)
        m_window->setGeometry(*m_options.geometry);
    m_window->splitter()->restoreState(m_settings.splitterState());
    if (m_options.showChats)
        m_window->leftTabs()->setCurrentWidget(m_window->conversationListPane());
}

void ClientApp::connectSettings()
{
    Ui::FriendListPane *list = m_window->friendList();
    list->setSortMode(Models::FriendSortFilterProxy::SortMode(m_settings.sortMode()));
    connect(list, &Ui::FriendListPane::sortModeChanged, this,
        [this](
            Models::FriendSortFilterProxy::SortMode mode) { m_settings.setSortMode(int(mode)); });
    connect(qApp, &QCoreApplication::aboutToQuit, this, [this] {
        m_settings.setWindowGeometry(m_window->saveGeometry());
        m_settings.setSplitterState(m_window->splitter()->saveState());
    });
}

void ClientApp::startIdleAway()
{
    m_idle = std::make_unique<IdleAwayController>(
        &m_session, std::chrono::minutes(m_settings.autoAwayMinutes()));
    // Input anywhere on the desktop, the screen lock and suspend, where the desktop tells.
    m_desktopIdle = std::make_unique<FreedesktopIdle>(
        QDBusConnection::sessionBus(), QDBusConnection::systemBus());
    m_idle->setDesktop(m_desktopIdle.get());
    m_window->setAutoAwayMinutes(m_settings.autoAwayMinutes());
    connect(m_window.get(), &Ui::MainWindow::autoAwayMinutesChosen, this, [this](int minutes) {
        m_settings.setAutoAwayMinutes(minutes);
        m_idle->setIdleAfter(std::chrono::minutes(m_settings.autoAwayMinutes()));
    });
}

void ClientApp::startNotifications()
{
    // Notifications go to the desktop's notification service, else the system tray: "a friend
    // came online" (off unless the user turns it on) and new messages (on by default).
    m_tray = std::make_unique<QSystemTrayIcon>(QApplication::windowIcon());
    m_tray->setToolTip(QApplication::translate("main", "Presence Chat"));
    m_wiring->notifications()->setTrayIcon(m_tray.get());
    m_onlineNotifier = std::make_unique<FriendOnlineNotifier>(&m_model);
    m_onlineNotifier->setTrayIcon(m_tray.get());
    m_onlineNotifier->setNotifications(m_wiring->notifications());
    connect(&m_session, &Session::GatewaySession::signedIn, m_onlineNotifier.get(),
        [this](const Protocol::UserInfo &self) { m_onlineNotifier->setSelfId(self.id); });
    connect(m_tray.get(), &QSystemTrayIcon::activated, m_window.get(), [this] {
        m_window->showNormal();
        m_window->raise();
        m_window->activateWindow();
    });
    // The tray icon shows while either kind of notification may need it as the fallback.
    const auto showTray = [this] {
        m_tray->setVisible((m_settings.trayNotifications() || m_settings.messageNotifications())
            && QSystemTrayIcon::isSystemTrayAvailable());
    };
    m_window->notifyAction()->setChecked(m_settings.trayNotifications());
    m_onlineNotifier->setEnabled(m_settings.trayNotifications());
    connect(m_window->notifyAction(), &QAction::toggled, this, [this, showTray](bool on) {
        m_settings.setTrayNotifications(on);
        m_onlineNotifier->setEnabled(on);
        showTray();
    });
    m_window->messageNotifyAction()->setChecked(m_settings.messageNotifications());
    connect(m_window->messageNotifyAction(), &QAction::toggled, this, [this, showTray](bool on) {
        m_settings.setMessageNotifications(on);
        showTray();
    });
    showTray();
}

void ClientApp::openChatOnceLoaded()
{
    // --open-chat ID (demos, screenshots): that friend's chat, once the friend list is there
    // and the unread counts too, so that it opens at the first unread message as a chat
    // opened from the list of chats does (before the counts, all would look read).
    if (m_options.openChat.isEmpty())
        return;
    const auto openChat = [this, id = m_options.openChat] {
        if (m_model.rowCount() == 0 || !m_chat.conversationsLoaded())
            return; // the other one calls again
        if (!m_model.rowOf(id)) {
            QTextStream(stderr) << "presence-chat: --open-chat: " << id
                                << " is not one of your friends\n";
            return;
        }
        m_window->openChat(id);
    };
    if (m_model.rowCount() > 0 && m_chat.conversationsLoaded()) {
        openChat(); // the sign-in dialog already loaded both
        return;
    }
    // Whichever comes last opens it; the first answer of each is the one asked for.
    if (m_model.rowCount() == 0)
        connect(&m_session, &Session::GatewaySession::friendsLoaded, m_window.get(), openChat,
            Qt::SingleShotConnection);
    if (!m_chat.conversationsLoaded())
        connect(&m_chat, &Session::ChatController::conversationsArrived, m_window.get(), openChat,
            Qt::SingleShotConnection);
}

} // namespace Presence::App
