#include "app/DesktopNotifications.h"

// Qt
#include <QCoreApplication>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QGuiApplication>
#include <QSystemTrayIcon>
#include <QVariantMap>

using namespace Qt::StringLiterals;

namespace Presence::App {

namespace {

// The freedesktop notification spec: -1 lets the server choose how long it stays.
constexpr int kDefaultTimeout = -1;

} // namespace

DesktopNotifications::DesktopNotifications(QObject *parent)
    : DesktopNotifications(QDBusConnection::sessionBus(), parent)
{
}

DesktopNotifications::DesktopNotifications(const QDBusConnection &bus, QObject *parent)
    : QObject(parent)
    , m_bus(bus)
{
}

void DesktopNotifications::setTrayIcon(QSystemTrayIcon *icon)
{
    m_tray = icon;
}

void DesktopNotifications::setTrayAvailableCheck(std::function<bool()> check)
{
    m_trayAvailable = std::move(check);
}

bool DesktopNotifications::hasService() const
{
    if (!m_bus.isConnected())
        return false;
    const QDBusConnectionInterface *bus = m_bus.interface();
    if (!bus)
        return false;
    const QString service = QString::fromLatin1(kService);
    if (bus->isServiceRegistered(service).value())
        return true;
    // Not running yet, but the bus starts it on the first call.
    return bus->activatableServiceNames().value().contains(service);
}

bool DesktopNotifications::hasTray() const
{
    const bool available
        = m_trayAvailable ? m_trayAvailable() : QSystemTrayIcon::isSystemTrayAvailable();
    return m_tray && available;
}

DesktopNotifications::Route DesktopNotifications::route() const
{
    if (hasService())
        return Route::DesktopService;
    if (hasTray())
        return Route::Tray;
    return Route::None;
}

QString DesktopNotifications::unavailableText()
{
    return tr("Notifications cannot be shown: this desktop has no notification service and no "
              "system tray");
}

void DesktopNotifications::show(const QString &title, const QString &body, const QString &tag)
{
    const Route how = route();
    switch (how) {
    case Route::DesktopService: {
        QDBusMessage call = QDBusMessage::createMethodCall(QString::fromLatin1(kService),
            QString::fromLatin1(kPath), QString::fromLatin1(kService), u"Notify"_s);
        QVariantMap hints;
        hints.insert(u"desktop-entry"_s, QGuiApplication::desktopFileName());
        hints.insert(u"category"_s, u"im.received"_s);
        const uint replaces = tag.isEmpty() ? 0 : m_idOfTag.value(tag);
        call << QCoreApplication::applicationName() << replaces << u"presence-chat"_s << title
             << body << QStringList() << hints << kDefaultTimeout;
        auto *watcher = new QDBusPendingCallWatcher(m_bus.asyncCall(call), this);
        connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [this, tag](QDBusPendingCallWatcher *done) {
                const QDBusPendingReply<uint> reply = *done;
                if (!tag.isEmpty() && reply.isValid())
                    m_idOfTag.insert(tag, reply.value());
                done->deleteLater();
            });
        break;
    }
    case Route::Tray:
        // A balloon needs a visible icon.
        if (!m_tray->isVisible())
            m_tray->setVisible(true);
        m_tray->showMessage(title, body, m_tray->icon());
        break;
    case Route::None:
        break;
    }
    Q_EMIT shown(how, title, body);
}

} // namespace Presence::App
