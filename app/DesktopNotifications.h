#pragma once

// C++
#include <functional>

// Qt
#include <QDBusConnection>
#include <QHash>
#include <QObject>
#include <QPointer>

class QSystemTrayIcon;

namespace Presence::App {

// Shows a desktop notification the way this desktop can: through the freedesktop
// notification service (org.freedesktop.Notifications on the session bus) when it is there,
// else as a system-tray balloon, else not at all. route() says which, so the settings can say
// when notifications cannot be shown instead of silently doing nothing.
class DesktopNotifications : public QObject {
    Q_OBJECT
public:
    enum class Route {
        DesktopService, // org.freedesktop.Notifications
        Tray, // QSystemTrayIcon::showMessage
        None, // no way to show one
    };
    Q_ENUM(Route)

    static inline constexpr const char *kService = "org.freedesktop.Notifications";
    static inline constexpr const char *kPath = "/org/freedesktop/Notifications";

    // Over the session bus.
    explicit DesktopNotifications(QObject *parent = nullptr);
    // Over `bus` (tests give a private one).
    explicit DesktopNotifications(const QDBusConnection &bus, QObject *parent = nullptr);

    // The fallback (not owned; may be null or destroyed at any time).
    void setTrayIcon(QSystemTrayIcon *icon);
    // Whether the platform has a system tray; QSystemTrayIcon::isSystemTrayAvailable by
    // default (tests replace it).
    void setTrayAvailableCheck(std::function<bool()> check);

    // How a notification would be shown now (the service is looked up on the bus each time).
    [[nodiscard]] Route route() const;
    [[nodiscard]] bool canNotify() const { return route() != Route::None; }
    // Why nothing can be shown, in words for the Settings menu.
    [[nodiscard]] static QString unavailableText();

    // Shows `title` and `body`. A notification with the same non-empty `tag` replaces the
    // previous one where the service allows (one per conversation, not a pile).
    void show(const QString &title, const QString &body, const QString &tag = {});
    // The service's id of the last notification shown with `tag`; 0 before it answered.
    [[nodiscard]] uint serviceId(const QString &tag) const { return m_idOfTag.value(tag); }

Q_SIGNALS:
    // Handed to `route` (None: dropped).
    void shown(Presence::App::DesktopNotifications::Route route, const QString &title,
        const QString &body);

private:
    [[nodiscard]] bool hasService() const;
    [[nodiscard]] bool hasTray() const;

    QDBusConnection m_bus;
    QPointer<QSystemTrayIcon> m_tray;
    std::function<bool()> m_trayAvailable;
    QHash<QString, uint> m_idOfTag; // the service's id of the last notification per tag
};

} // namespace Presence::App
