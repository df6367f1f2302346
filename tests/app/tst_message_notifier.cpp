// Messages you cannot miss: a notification is asked for exactly when a friend's message
// arrives and its chat is not in front (window inactive, or another chat open); the desktop's
// notification service over D-Bus when there is one, the tray when not, and the Settings menu
// saying so when there is neither. Runs with no session bus (see main below) and offscreen,
// where there is no tray; one test starts a private bus with a fake notification service.

// C++
#include <memory>

// Qt
#include <QAction>
#include <QApplication>
#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QIcon>
#include <QLoggingCategory>
#include <QPixmap>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QSystemTrayIcon>
#include <QTemporaryDir>
#include <QTest>

// Presence
#include "GatewayFixture.h"
#include "SessionFixture.h"
#include "WindowFixture.h"
#include "app/ClientSettings.h"
#include "app/DesktopNotifications.h"
#include "app/FriendOnlineNotifier.h"
#include "app/MessageNotifier.h"
#include "app/SessionModelBridge.h"
#include "models/ChatModel.h"
#include "models/FriendListModel.h"
#include "models/PresenceState.h"
#include "protocol/ClientMessages.h"
#include "session/ChatController.h"
#include "session/GatewaySession.h"
#include "ui/chat/ChatPane.h"
#include "ui/shell/MainWindow.h"

using namespace Qt::StringLiterals;
using Presence::App::ClientSettings;
using Presence::App::DesktopNotifications;
using Presence::App::FriendOnlineNotifier;
using Presence::App::MessageNotifier;
using Presence::Models::FriendListModel;
using Presence::Models::PresenceState;
using Presence::Protocol::SendMessageRequest;
using Presence::Server::Gateway;
using Presence::Session::GatewaySession;
using Presence::Ui::MainWindow;
using Route = Presence::App::DesktopNotifications::Route;

namespace {

QList<TestUser> population()
{
    return {
        { u"alice"_s, { u"bob"_s, u"dave"_s }, u"Alice Liddell"_s },
        { u"bob"_s, {}, u"Bob Dylan"_s },
        { u"dave"_s, {}, u"Dave Brubeck"_s },
    };
}

// A client without widgets: the friend who writes.
struct Writer {
    Writer(const QUrl &url, const QString &id)
        : session(quickSessionOptions())
    {
        session.open(url, tokenOf(id));
    }
    [[nodiscard]] bool waitOnline() const
    {
        return QTest::qWaitFor(
            [this] { return session.state() == GatewaySession::State::Online; }, 5000);
    }
    // A message to `to`: the ref its answer will carry, or nothing when not online.
    QString send(const QString &to, const QString &text)
    {
        return session.request(toJson(SendMessageRequest { to, text }), u'm');
    }
    GatewaySession session;
};

// alice's window, wired as the application wires it.
struct Reader : WindowFixture {
    explicit Reader(const QUrl &url)
        : WindowFixture(url, u"alice"_s)
    {
    }
    [[nodiscard]] bool waitOnline() const { return WindowFixture::waitOnline(2); }
};

// org.freedesktop.Notifications, as far as Notify goes: records what it was asked to show.
class FakeNotificationService : public QObject {
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")
public:
    struct Call {
        QString app;
        uint replaces = 0;
        QString summary;
        QString body;
    };
    QList<Call> calls;

public Q_SLOTS:
    uint Notify(const QString &app, uint replaces, const QString &icon, const QString &summary,
        const QString &body, const QStringList &actions, const QVariantMap &hints, int timeout)
    {
        Q_UNUSED(icon)
        Q_UNUSED(actions)
        Q_UNUSED(hints)
        Q_UNUSED(timeout)
        calls.append({ app, replaces, summary, body });
        return replaces != 0 ? replaces : uint(40 + calls.size());
    }
};

} // namespace

class TestMessageNotifier : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QLoggingCategory::setFilterRules(u"presence.*.info=false"_s);
    }
    void init()
    {
        m_gateway = startGateway(population());
        QVERIFY(m_gateway);
    }
    void cleanup() { m_gateway.reset(); }

    void noBusNoTrayMeansNothingCanBeShown();
    void settingsMenuSaysWhenNothingCanBeShown();
    void trayIsTheFallback();
    void desktopServiceGetsTheNotification();
    void notifiesExactlyWhenTheChatIsNotInFront();
    void turnedOffNotifiesNothing();
    void bodyIsOneShortLine();
    void settingIsOnByDefaultAndRemembered();
    void friendOnlineGoesTheSameWay();

private:
    std::unique_ptr<Gateway> m_gateway;
};

void TestMessageNotifier::noBusNoTrayMeansNothingCanBeShown()
{
    // main() pointed the session bus at nothing; offscreen has no tray.
    QVERIFY(!QDBusConnection::sessionBus().isConnected());
    QVERIFY(!QSystemTrayIcon::isSystemTrayAvailable());
    DesktopNotifications notifications;
    QSystemTrayIcon tray;
    notifications.setTrayIcon(&tray);
    QCOMPARE(notifications.route(), Route::None);
    QVERIFY(!notifications.canNotify());
    QSignalSpy shown(&notifications, &DesktopNotifications::shown);
    QVERIFY(shown.isValid());
    notifications.show(u"Bob"_s, u"hi"_s);
    QCOMPARE(shown.size(), 1);
    QCOMPARE(shown.at(0).at(0).value<Route>(), Route::None);
}

void TestMessageNotifier::settingsMenuSaysWhenNothingCanBeShown()
{
    Reader alice(m_gateway->url());
    MainWindow &window = alice.window;
    QAction *explanation = window.notificationsUnavailableAction();
    QVERIFY(explanation);
    QVERIFY(explanation->isVisible());
    QVERIFY(!explanation->isEnabled());
    QVERIFY2(explanation->text().contains(u"cannot be shown"_s), qPrintable(explanation->text()));
    // Neither setting pretends to work.
    QVERIFY(!window.notifyAction()->isEnabled());
    QVERIFY(!window.messageNotifyAction()->isEnabled());
    // On by default, all the same: it applies once the desktop can show notifications.
    QVERIFY(window.messageNotifyAction()->isChecked());

    // A tray turns up: the settings work again, and the explanation goes.
    QSystemTrayIcon tray;
    alice.wiring.notifications()->setTrayIcon(&tray);
    alice.wiring.notifications()->setTrayAvailableCheck([] { return true; });
    alice.wiring.updateNotificationAvailability();
    QVERIFY(!explanation->isVisible());
    QVERIFY(window.notifyAction()->isEnabled());
    QVERIFY(window.messageNotifyAction()->isEnabled());
}

void TestMessageNotifier::trayIsTheFallback()
{
    DesktopNotifications notifications;
    QPixmap pixels(16, 16);
    pixels.fill(Qt::darkCyan);
    QSystemTrayIcon tray(QIcon(pixels), nullptr);
    notifications.setTrayAvailableCheck([] { return true; });
    QCOMPARE(notifications.route(), Route::None); // a tray, but no icon to show it on
    notifications.setTrayIcon(&tray);
    QCOMPARE(notifications.route(), Route::Tray);
    QSignalSpy shown(&notifications, &DesktopNotifications::shown);
    notifications.show(u"Bob Dylan"_s, u"hi there"_s, u"bob"_s);
    QCOMPARE(shown.size(), 1);
    QCOMPARE(shown.at(0).at(0).value<Route>(), Route::Tray);
    QCOMPARE(shown.at(0).at(1).toString(), u"Bob Dylan"_s);
    QCOMPARE(shown.at(0).at(2).toString(), u"hi there"_s);
    QVERIFY(tray.isVisible()); // a balloon needs its icon
}

void TestMessageNotifier::desktopServiceGetsTheNotification()
{
    const QString daemon = QStandardPaths::findExecutable(u"dbus-daemon"_s);
    if (daemon.isEmpty())
        QSKIP("dbus-daemon is not installed");
    QProcess bus;
    bus.start(daemon, { u"--session"_s, u"--nofork"_s, u"--nopidfile"_s, u"--print-address=1"_s });
    QVERIFY(bus.waitForStarted());
    QTRY_VERIFY(bus.canReadLine());
    const QString address = QString::fromUtf8(bus.readLine()).trimmed();
    QVERIFY(!address.isEmpty());
    const auto stopBus = qScopeGuard([&bus] {
        bus.terminate();
        bus.waitForFinished();
    });

    {
        QDBusConnection plain = QDBusConnection::connectToBus(address, u"plain"_s);
        QVERIFY(plain.isConnected());
        DesktopNotifications withoutService(plain);
        QCOMPARE(withoutService.route(), Route::None);
    }
    QDBusConnection::disconnectFromBus(u"plain"_s);

    QDBusConnection serviceSide = QDBusConnection::connectToBus(address, u"service"_s);
    QVERIFY(serviceSide.isConnected());
    FakeNotificationService service;
    QVERIFY(serviceSide.registerObject(QString::fromLatin1(DesktopNotifications::kPath), &service,
        QDBusConnection::ExportAllSlots));
    QVERIFY(serviceSide.registerService(QString::fromLatin1(DesktopNotifications::kService)));

    QDBusConnection clientSide = QDBusConnection::connectToBus(address, u"client"_s);
    QVERIFY(clientSide.isConnected());
    {
        DesktopNotifications notifications(clientSide);
        QSystemTrayIcon tray;
        notifications.setTrayIcon(&tray);
        notifications.setTrayAvailableCheck([] { return true; });
        QCOMPARE(notifications.route(), Route::DesktopService); // the service wins over the tray
        notifications.show(u"Bob Dylan"_s, u"hi"_s, u"bob"_s);
        QTRY_COMPARE(service.calls.size(), 1);
        QCOMPARE(service.calls.at(0).summary, u"Bob Dylan"_s);
        QCOMPARE(service.calls.at(0).body, u"hi"_s);
        QCOMPARE(service.calls.at(0).replaces, 0u);
        // Once the service has answered, Bob's next message replaces his notification
        // instead of piling up; another tag starts its own.
        QTRY_COMPARE(notifications.serviceId(u"bob"_s), 41u);
        notifications.show(u"Bob Dylan"_s, u"again"_s, u"bob"_s);
        notifications.show(u"Dave Brubeck"_s, u"yo"_s, u"dave"_s);
        QTRY_COMPARE(service.calls.size(), 3);
        QCOMPARE(service.calls.at(1).replaces, 41u);
        QCOMPARE(service.calls.at(1).body, u"again"_s);
        QCOMPARE(service.calls.at(2).replaces, 0u);
        QVERIFY(!tray.isVisible()); // the tray was not used
    }
    QDBusConnection::disconnectFromBus(u"client"_s);
    serviceSide.unregisterService(QString::fromLatin1(DesktopNotifications::kService));
    QDBusConnection::disconnectFromBus(u"service"_s);
}

void TestMessageNotifier::notifiesExactlyWhenTheChatIsNotInFront()
{
    Reader alice(m_gateway->url());
    Writer bob(m_gateway->url(), u"bob"_s);
    Writer dave(m_gateway->url(), u"dave"_s);
    QVERIFY(alice.waitOnline());
    QVERIFY(bob.waitOnline());
    QVERIFY(dave.waitOnline());
    MainWindow &window = alice.window;
    window.activateWindow();
    QTRY_VERIFY(window.isActiveWindow());
    QSignalSpy requested(alice.wiring.messageNotifier(), &MessageNotifier::notificationRequested);
    QVERIFY(requested.isValid());
    const auto arrived = [&alice](const QString &from, int count) {
        return QTest::qWaitFor(
            [&] { return alice.chat.conversation(from)->rowCount() == count; }, 5000);
    };

    // Bob's chat in front: nothing to announce.
    window.openChat(u"bob"_s);
    QTRY_COMPARE(alice.wiring.messageNotifier()->frontChat(), u"bob"_s);
    QVERIFY(!bob.send(u"alice"_s, u"one"_s).isEmpty());
    QVERIFY(arrived(u"bob"_s, 1));
    QCOMPARE(requested.size(), 0);
    QCOMPARE(window.windowTitle(), u"Presence Chat"_s);

    // Another chat open: Bob's message is announced, once, with his name.
    window.openChat(u"dave"_s);
    QVERIFY(!bob.send(u"alice"_s, u"two"_s).isEmpty());
    QVERIFY(arrived(u"bob"_s, 2));
    QCOMPARE(requested.size(), 1);
    QCOMPARE(requested.at(0).at(0).toString(), u"bob"_s);
    QCOMPARE(requested.at(0).at(1).toString(), u"Bob Dylan"_s);
    QCOMPARE(requested.at(0).at(2).toString(), u"two"_s);
    QTRY_COMPARE(window.windowTitle(), u"(1) Presence Chat"_s);

    // The window in the background: even the open chat's messages are announced.
    QWidget other;
    other.resize(200, 100);
    other.show();
    other.activateWindow();
    QTRY_VERIFY(!window.isActiveWindow());
    QCOMPARE(alice.wiring.messageNotifier()->frontChat(), QString());
    QVERIFY(!dave.send(u"alice"_s, u"three"_s).isEmpty());
    QVERIFY(arrived(u"dave"_s, 1));
    QCOMPARE(requested.size(), 2);
    QCOMPARE(requested.at(1).at(0).toString(), u"dave"_s);
    QTRY_COMPARE(window.windowTitle(), u"(2) Presence Chat"_s);

    // Back in front: Dave's chat is read again and his next message is not announced; Bob's
    // after it is, so Dave's was seen and passed over, not merely late.
    window.activateWindow();
    QTRY_VERIFY(window.isActiveWindow());
    QTRY_COMPARE(window.windowTitle(), u"(1) Presence Chat"_s);
    QVERIFY(!dave.send(u"alice"_s, u"four"_s).isEmpty());
    QVERIFY(arrived(u"dave"_s, 2));
    QVERIFY(!bob.send(u"alice"_s, u"five"_s).isEmpty());
    QVERIFY(arrived(u"bob"_s, 3));
    QCOMPARE(requested.size(), 3);
    QCOMPARE(requested.at(2).at(2).toString(), u"five"_s);
    QTRY_COMPARE(window.windowTitle(), u"(2) Presence Chat"_s);
}

void TestMessageNotifier::turnedOffNotifiesNothing()
{
    Reader alice(m_gateway->url());
    Writer bob(m_gateway->url(), u"bob"_s);
    QVERIFY(alice.waitOnline());
    QVERIFY(bob.waitOnline());
    MainWindow &window = alice.window;
    QSignalSpy requested(alice.wiring.messageNotifier(), &MessageNotifier::notificationRequested);
    window.openChat(u"dave"_s);

    window.messageNotifyAction()->setChecked(false);
    QVERIFY(!alice.wiring.messageNotifier()->isEnabled());
    QVERIFY(!bob.send(u"alice"_s, u"quiet"_s).isEmpty());
    QTRY_COMPARE(alice.chat.conversation(u"bob"_s)->rowCount(), 1);
    window.messageNotifyAction()->setChecked(true);
    QVERIFY(!bob.send(u"alice"_s, u"loud"_s).isEmpty());
    QTRY_COMPARE(alice.chat.conversation(u"bob"_s)->rowCount(), 2);
    QCOMPARE(requested.size(), 1);
    QCOMPARE(requested.at(0).at(2).toString(), u"loud"_s);
}

void TestMessageNotifier::bodyIsOneShortLine()
{
    QCOMPARE(MessageNotifier::bodyOf(u"  see\nyou  soon "_s), u"see you soon"_s);
    const QString body = MessageNotifier::bodyOf(QString(500, u'x'));
    QCOMPARE(body.size(), MessageNotifier::kMaxBodyLength);
    QVERIFY(body.endsWith(u"…"_s));
    QCOMPARE(MessageNotifier::bodyOf(QString(MessageNotifier::kMaxBodyLength, u'y')),
        QString(MessageNotifier::kMaxBodyLength, u'y'));
}

void TestMessageNotifier::settingIsOnByDefaultAndRemembered()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"presence.ini"_s);
    {
        ClientSettings fresh(path);
        QVERIFY(fresh.messageNotifications());
        fresh.setMessageNotifications(false);
        fresh.sync();
    }
    {
        ClientSettings again(path);
        QVERIFY(!again.messageNotifications());
    }
    {
        QSettings junk(path, QSettings::IniFormat);
        junk.setValue(u"notifications/messages"_s, u"sometimes"_s);
    }
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u".*notifications/messages.*"_s));
    ClientSettings junked(path);
    QVERIFY(junked.messageNotifications()); // junk reads as the default
}

void TestMessageNotifier::friendOnlineGoesTheSameWay()
{
    FriendListModel friends;
    friends.setFriends({ { u"bob"_s, u"Bob Dylan"_s } });
    friends.updatePresence(u"bob"_s, PresenceState::Offline, std::nullopt);
    friends.flush();
    FriendOnlineNotifier notifier(&friends);
    notifier.setCoalescingWindow(std::chrono::milliseconds(0));
    notifier.setEnabled(true);
    DesktopNotifications notifications;
    QPixmap pixels(16, 16);
    pixels.fill(Qt::darkCyan);
    QSystemTrayIcon tray(QIcon(pixels), nullptr);
    notifications.setTrayIcon(&tray);
    notifications.setTrayAvailableCheck([] { return true; });
    notifier.setNotifications(&notifications);
    QSignalSpy shown(&notifications, &DesktopNotifications::shown);

    friends.updatePresence(u"bob"_s, PresenceState::Online, std::nullopt);
    friends.flush();
    QTRY_COMPARE(shown.size(), 1);
    QCOMPARE(shown.at(0).at(0).value<Route>(), Route::Tray);
    QCOMPARE(shown.at(0).at(2).toString(), u"Bob Dylan is online"_s);
}

int main(int argc, char *argv[])
{
    // No desktop: the session bus points at nothing, before anything can connect to it.
    qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/presence-test-bus");
    QApplication app(argc, argv);
    TestMessageNotifier test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_message_notifier.moc"
