#include "app/FreedesktopIdle.h"

// Qt
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QDBusObjectPath>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QLoggingCategory>

namespace Presence::App {

using namespace Qt::StringLiterals;

namespace {

Q_LOGGING_CATEGORY(lcIdle, "presence.client.idle", QtInfoMsg)

const QString kMutter = u"org.gnome.Mutter.IdleMonitor"_s;
const QString kScreenSaver = u"org.freedesktop.ScreenSaver"_s;
const QString kGnomeScreenSaver = u"org.gnome.ScreenSaver"_s;
const QString kLogin = u"org.freedesktop.login1"_s;

bool hasService(const QDBusConnection &bus, const QString &name)
{
    return bus.isConnected() && bus.interface() && bus.interface()->isServiceRegistered(name);
}

} // namespace

FreedesktopIdle::FreedesktopIdle(
    const QDBusConnection &sessionBus, const QDBusConnection &systemBus, QObject *parent)
    : DesktopIdle(parent)
    , m_sessionBus(sessionBus)
    , m_systemBus(systemBus)
{
    if (hasService(m_sessionBus, kMutter))
        m_idleService = kMutter;
    else if (hasService(m_sessionBus, kScreenSaver))
        m_idleService = kScreenSaver;

    // Lock from the screen saver that is there (connecting to an absent one costs nothing).
    if (m_sessionBus.isConnected()) {
        m_sessionBus.connect(kScreenSaver, u"/org/freedesktop/ScreenSaver"_s, kScreenSaver,
            u"ActiveChanged"_s, this, SLOT(onScreenSaverActiveChanged(bool)));
        m_sessionBus.connect(kGnomeScreenSaver, u"/org/gnome/ScreenSaver"_s, kGnomeScreenSaver,
            u"ActiveChanged"_s, this, SLOT(onScreenSaverActiveChanged(bool)));
    }
    if (m_systemBus.isConnected()) {
        m_systemBus.connect(kLogin, u"/org/freedesktop/login1"_s,
            u"org.freedesktop.login1.Manager"_s, u"PrepareForSleep"_s, this,
            SLOT(onPrepareForSleep(bool)));
        // logind signals Lock and Unlock on the session's own path (other users' sessions on
        // the same machine have theirs): ask which one is ours ("auto": the caller's).
        const QDBusMessage call
            = QDBusMessage::createMethodCall(kLogin, u"/org/freedesktop/login1"_s,
                  u"org.freedesktop.login1.Manager"_s, u"GetSession"_s)
            << u"auto"_s;
        auto *watcher = new QDBusPendingCallWatcher(m_systemBus.asyncCall(call, 5000), this);
        connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [this](QDBusPendingCallWatcher *answer) {
                answer->deleteLater();
                const QDBusPendingReply<QDBusObjectPath> session = *answer;
                if (session.isError()) {
                    qCInfo(lcIdle) << "no logind session to follow:" << session.error().message();
                    return;
                }
                const QString path = session.value().path();
                m_systemBus.connect(kLogin, path, u"org.freedesktop.login1.Session"_s, u"Lock"_s,
                    this, SLOT(onSessionLocked()));
                m_systemBus.connect(kLogin, path, u"org.freedesktop.login1.Session"_s, u"Unlock"_s,
                    this, SLOT(onSessionUnlocked()));
                Q_EMIT sessionFollowed();
            });
    }
    qCInfo(lcIdle) << "desktop idle time from"
                   << (m_idleService.isEmpty() ? u"nowhere (this application's input only)"_s
                                               : m_idleService);
}

void FreedesktopIdle::queryIdleTime()
{
    if (m_idleService.isEmpty() || m_queryInFlight)
        return;
    const QDBusMessage call = m_idleService == kMutter
        ? QDBusMessage::createMethodCall(
            kMutter, u"/org/gnome/Mutter/IdleMonitor/Core"_s, kMutter, u"GetIdletime"_s)
        : QDBusMessage::createMethodCall(
            kScreenSaver, u"/org/freedesktop/ScreenSaver"_s, kScreenSaver, u"GetSessionIdleTime"_s);
    m_queryInFlight = true;
    // Never block the window on the desktop: an answer comes later, or not at all.
    auto *watcher = new QDBusPendingCallWatcher(m_sessionBus.asyncCall(call, 2000), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, &FreedesktopIdle::onIdleReply);
}

void FreedesktopIdle::onIdleReply(QDBusPendingCallWatcher *call)
{
    call->deleteLater();
    m_queryInFlight = false;
    const QDBusMessage reply = call->reply();
    const QVariant value = reply.arguments().value(0);
    bool ok = false;
    const qulonglong ms = value.toULongLong(&ok);
    if (reply.type() != QDBusMessage::ReplyMessage || !ok) {
        // Some desktops list the service but do not implement the call (GNOME's
        // ScreenSaver): stop asking, and fall back to the application's own input.
        qCInfo(lcIdle) << m_idleService << "does not tell the idle time:" << reply.errorMessage();
        m_idleService.clear();
        return;
    }
    Q_EMIT idleTimeReported(
        std::chrono::milliseconds(qint64(std::min<qulonglong>(ms, 1ULL << 40))));
}

void FreedesktopIdle::onScreenSaverActiveChanged(bool active)
{
    Q_EMIT lockChanged(active);
}

void FreedesktopIdle::onSessionLocked()
{
    Q_EMIT lockChanged(true);
}

void FreedesktopIdle::onSessionUnlocked()
{
    Q_EMIT lockChanged(false);
}

void FreedesktopIdle::onPrepareForSleep(bool starting)
{
    if (starting)
        Q_EMIT sleepStarted();
}

} // namespace Presence::App
