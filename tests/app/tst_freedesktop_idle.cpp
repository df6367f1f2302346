// FreedesktopIdle over a real D-Bus: a private dbus-daemon started by the test, on which the
// test plays the desktop (org.freedesktop.ScreenSaver, GNOME's IdleMonitor, logind), so the
// calls, replies and signals are the ones a desktop exchanges. No desktop is needed.

// C++
#include <memory>

// Qt
#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusContext>
#include <QDBusMessage>
#include <QDBusObjectPath>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

// Presence
#include "app/FreedesktopIdle.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::App::FreedesktopIdle;

namespace {

// The desktop's side of org.freedesktop.ScreenSaver (KDE and others): idle time in ms.
class FakeScreenSaver : public QObject, protected QDBusContext {
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.ScreenSaver")
public:
    uint idleMs = 0;
    bool broken = false; // listed, but the call fails (as on GNOME)

public Q_SLOTS:
    uint GetSessionIdleTime()
    {
        if (broken)
            sendErrorReply(QDBusError::NotSupported, u"not supported"_s);
        return idleMs;
    }
};

// The desktop's side of logind's Manager: which session the caller is in.
class FakeLoginManager : public QObject {
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.login1.Manager")
public Q_SLOTS:
    QDBusObjectPath GetSession(const QString &id)
    {
        asked = id;
        return QDBusObjectPath(u"/org/freedesktop/login1/session/c7"_s);
    }

public:
    QString asked;
};

// The desktop's side of GNOME's org.gnome.Mutter.IdleMonitor.
class FakeIdleMonitor : public QObject {
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.gnome.Mutter.IdleMonitor")
public:
    qulonglong idleMs = 0;

public Q_SLOTS:
    qulonglong GetIdletime() const { return idleMs; }
};

} // namespace

class TestFreedesktopIdle : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void cleanupTestCase();
    void nothingOnTheBusKnowsNothing();
    void screenSaverTellsIdleTimeAndLock();
    void mutterIsPreferredForIdleTime();
    void aServiceThatCannotTellIsDropped();
    void logindLockAndSleep();

private:
    // A connection of its own to the private bus (each test's desktop and client differ).
    [[nodiscard]] QDBusConnection connect(const QString &name) const
    {
        return QDBusConnection::connectToBus(m_address, name);
    }
    void emitSignal(QDBusConnection &bus, const QString &path, const QString &interface,
        const QString &name, const QVariantList &arguments)
    {
        QDBusMessage signal = QDBusMessage::createSignal(path, interface, name);
        signal.setArguments(arguments);
        QVERIFY(bus.send(signal));
    }

    QProcess m_daemon;
    QString m_address;
    int m_round = 0;
    std::unique_ptr<QDBusConnection> m_desktop; // the test's desktop side
};

void TestFreedesktopIdle::initTestCase()
{
    const QString daemon = QStandardPaths::findExecutable(u"dbus-daemon"_s);
    QVERIFY2(!daemon.isEmpty(), "dbus-daemon is needed (the test set-up installs it)");
    m_daemon.start(daemon, { u"--session"_s, u"--nofork"_s, u"--print-address=1"_s });
    QVERIFY(m_daemon.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(m_daemon.canReadLine(), 10000);
    m_address = QString::fromUtf8(m_daemon.readLine()).trimmed();
    QVERIFY2(!m_address.isEmpty(), "dbus-daemon printed no address");
}

void TestFreedesktopIdle::init()
{
    ++m_round;
    m_desktop = std::make_unique<QDBusConnection>(connect(u"desktop%1"_s.arg(m_round)));
    QVERIFY(m_desktop->isConnected());
}

void TestFreedesktopIdle::cleanup()
{
    const QString name = m_desktop->name();
    m_desktop.reset();
    QDBusConnection::disconnectFromBus(name);
}

void TestFreedesktopIdle::cleanupTestCase()
{
    m_daemon.kill();
    m_daemon.waitForFinished();
}

void TestFreedesktopIdle::nothingOnTheBusKnowsNothing()
{
    const QDBusConnection none
        = QDBusConnection::connectToBus(u"unix:path=/nonexistent"_s, u"none"_s);
    QVERIFY(!none.isConnected());
    FreedesktopIdle offline(none, none);
    QVERIFY(!offline.knowsIdleTime());
    QSignalSpy reported(&offline, &FreedesktopIdle::idleTimeReported);
    offline.queryIdleTime(); // asks nobody, and says so by never answering
    QVERIFY(reported.isEmpty());

    FreedesktopIdle empty(connect(u"client-empty"_s), none);
    QVERIFY(!empty.knowsIdleTime());
}

void TestFreedesktopIdle::screenSaverTellsIdleTimeAndLock()
{
    FakeScreenSaver saver;
    saver.idleMs = 4321;
    QVERIFY(m_desktop->registerObject(
        u"/org/freedesktop/ScreenSaver"_s, &saver, QDBusConnection::ExportAllSlots));
    QVERIFY(m_desktop->registerService(u"org.freedesktop.ScreenSaver"_s));

    const QDBusConnection none
        = QDBusConnection::connectToBus(u"unix:path=/nonexistent"_s, u"none"_s);
    FreedesktopIdle idle(connect(u"client-saver"_s), none);
    QVERIFY(idle.knowsIdleTime());
    QCOMPARE(idle.idleSource(), u"org.freedesktop.ScreenSaver"_s);
    QSignalSpy reported(&idle, &FreedesktopIdle::idleTimeReported);
    idle.queryIdleTime();
    QVERIFY(reported.wait());
    QCOMPARE(reported.at(0).at(0).value<std::chrono::milliseconds>(), 4321ms);

    QSignalSpy locked(&idle, &FreedesktopIdle::lockChanged);
    emitSignal(*m_desktop, u"/org/freedesktop/ScreenSaver"_s, u"org.freedesktop.ScreenSaver"_s,
        u"ActiveChanged"_s, { true });
    QVERIFY(locked.wait());
    QCOMPARE(locked.at(0).at(0).toBool(), true);
    emitSignal(*m_desktop, u"/org/freedesktop/ScreenSaver"_s, u"org.freedesktop.ScreenSaver"_s,
        u"ActiveChanged"_s, { false });
    QTRY_COMPARE(locked.size(), 2);
    QCOMPARE(locked.at(1).at(0).toBool(), false);
    m_desktop->unregisterService(u"org.freedesktop.ScreenSaver"_s);
    m_desktop->unregisterObject(u"/org/freedesktop/ScreenSaver"_s);
}

void TestFreedesktopIdle::mutterIsPreferredForIdleTime()
{
    FakeScreenSaver saver;
    saver.idleMs = 1;
    FakeIdleMonitor monitor;
    monitor.idleMs = 90'000;
    QVERIFY(m_desktop->registerObject(
        u"/org/freedesktop/ScreenSaver"_s, &saver, QDBusConnection::ExportAllSlots));
    QVERIFY(m_desktop->registerObject(
        u"/org/gnome/Mutter/IdleMonitor/Core"_s, &monitor, QDBusConnection::ExportAllSlots));
    QVERIFY(m_desktop->registerService(u"org.freedesktop.ScreenSaver"_s));
    QVERIFY(m_desktop->registerService(u"org.gnome.Mutter.IdleMonitor"_s));

    const QDBusConnection none
        = QDBusConnection::connectToBus(u"unix:path=/nonexistent"_s, u"none"_s);
    FreedesktopIdle idle(connect(u"client-mutter"_s), none);
    QCOMPARE(idle.idleSource(), u"org.gnome.Mutter.IdleMonitor"_s);
    QSignalSpy reported(&idle, &FreedesktopIdle::idleTimeReported);
    idle.queryIdleTime();
    idle.queryIdleTime(); // one question at a time: the second is not sent
    QVERIFY(reported.wait());
    QCOMPARE(reported.at(0).at(0).value<std::chrono::milliseconds>(), 90'000ms);
    QTest::qWait(50);
    QCOMPARE(reported.size(), 1);
    m_desktop->unregisterService(u"org.freedesktop.ScreenSaver"_s);
    m_desktop->unregisterService(u"org.gnome.Mutter.IdleMonitor"_s);
    m_desktop->unregisterObject(u"/org/freedesktop/ScreenSaver"_s);
    m_desktop->unregisterObject(u"/org/gnome/Mutter/IdleMonitor/Core"_s);
}

void TestFreedesktopIdle::aServiceThatCannotTellIsDropped()
{
    FakeScreenSaver saver;
    saver.broken = true;
    QVERIFY(m_desktop->registerObject(
        u"/org/freedesktop/ScreenSaver"_s, &saver, QDBusConnection::ExportAllSlots));
    QVERIFY(m_desktop->registerService(u"org.freedesktop.ScreenSaver"_s));

    const QDBusConnection none
        = QDBusConnection::connectToBus(u"unix:path=/nonexistent"_s, u"none"_s);
    FreedesktopIdle idle(connect(u"client-broken"_s), none);
    QVERIFY(idle.knowsIdleTime());
    QSignalSpy reported(&idle, &FreedesktopIdle::idleTimeReported);
    idle.queryIdleTime();
    // The error makes it stop asking: the controller falls back to the application's input.
    QTRY_VERIFY(!idle.knowsIdleTime());
    QVERIFY(reported.isEmpty());
    m_desktop->unregisterService(u"org.freedesktop.ScreenSaver"_s);
    m_desktop->unregisterObject(u"/org/freedesktop/ScreenSaver"_s);
}

void TestFreedesktopIdle::logindLockAndSleep()
{
    // logind lives on the system bus: the private bus plays that part too.
    FakeLoginManager manager;
    QVERIFY(m_desktop->registerObject(
        u"/org/freedesktop/login1"_s, &manager, QDBusConnection::ExportAllSlots));
    QVERIFY(m_desktop->registerService(u"org.freedesktop.login1"_s));
    FreedesktopIdle idle(connect(u"client-logind-session"_s), connect(u"client-logind-system"_s));
    QSignalSpy followed(&idle, &FreedesktopIdle::sessionFollowed);
    QSignalSpy locked(&idle, &FreedesktopIdle::lockChanged);
    QSignalSpy sleeping(&idle, &FreedesktopIdle::sleepStarted);
    QVERIFY(followed.wait());
    QCOMPARE(manager.asked, u"auto"_s);

    // Another user's session locking is not ours.
    emitSignal(*m_desktop, u"/org/freedesktop/login1/session/c2"_s,
        u"org.freedesktop.login1.Session"_s, u"Lock"_s, {});
    emitSignal(*m_desktop, u"/org/freedesktop/login1/session/c7"_s,
        u"org.freedesktop.login1.Session"_s, u"Lock"_s, {});
    QVERIFY(locked.wait());
    QCOMPARE(locked.size(), 1);
    QCOMPARE(locked.at(0).at(0).toBool(), true);
    emitSignal(*m_desktop, u"/org/freedesktop/login1/session/c7"_s,
        u"org.freedesktop.login1.Session"_s, u"Unlock"_s, {});
    QTRY_COMPARE(locked.size(), 2);
    QCOMPARE(locked.at(1).at(0).toBool(), false);

    // PrepareForSleep(true) before suspending, (false) after resuming: only the first counts.
    emitSignal(*m_desktop, u"/org/freedesktop/login1"_s, u"org.freedesktop.login1.Manager"_s,
        u"PrepareForSleep"_s, { true });
    QVERIFY(sleeping.wait());
    emitSignal(*m_desktop, u"/org/freedesktop/login1"_s, u"org.freedesktop.login1.Manager"_s,
        u"PrepareForSleep"_s, { false });
    QTest::qWait(100); // a wrong second signal would have arrived by now
    QCOMPARE(sleeping.size(), 1);
    m_desktop->unregisterService(u"org.freedesktop.login1"_s);
    m_desktop->unregisterObject(u"/org/freedesktop/login1"_s);
}

QTEST_MAIN(TestFreedesktopIdle)
#include "tst_freedesktop_idle.moc"
