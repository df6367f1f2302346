#pragma once

// C++
#include <chrono>

// Qt
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QStringList>
#include <QTimer>

// Presence
#include "models/PresenceState.h"

class QModelIndex;
class QSystemTrayIcon;

namespace Presence::Models {
class FriendListModel;
}

namespace Presence::App {

class DesktopNotifications;

// Tells the user when a friend comes online: "Alice is online", as a desktop (tray)
// notification. Off by default, like the trayNotifications setting it follows.
//
// Only real transitions count: a friend whose last *live* state was offline or away and
// who is now online and fresh. The first state a friend gets after sign-in, after every
// reconnect and after being watched again is a baseline, not news, so signing in to a list
// full of online friends notifies nothing; stale rows and friend-list resets notify nothing.
//
// The client watches only the friends whose rows are on screen (plus a page above and
// below), so only those can be announced: a friend scrolled far away who comes online is
// not seen, and one who came online while unwatched is a baseline when watched again.
//
// Friends coming online within one coalescing window (2 s by default) make one
// notification ("Alice, Bob and 3 others are online"), naming each friend at most once,
// and only those still online when the window closes.
//
// It reads the model only through what views hear (dataChanged once per flush, resets), so
// it relies on the model flushing "everyone unknown" before a reconnect's snapshot lands:
// true whenever the flush interval (16 ms) is shorter than the session's reconnect floor.
class FriendOnlineNotifier : public QObject {
    Q_OBJECT
public:
    static constexpr std::chrono::milliseconds kDefaultCoalescingWindow { 2000 };

    explicit FriendOnlineNotifier(Models::FriendListModel *model, QObject *parent = nullptr);

    // Disabled, it still tracks every friend's state, so enabling it never replays
    // transitions from before; disabling drops what was waiting to be shown.
    void setEnabled(bool enabled);
    [[nodiscard]] bool isEnabled() const { return m_enabled; }

    // Where notifications are shown besides notificationReady (not owned; may be null or
    // destroyed at any time). Shown only while the platform has a tray and the icon is visible.
    void setTrayIcon(QSystemTrayIcon *icon);
    [[nodiscard]] QSystemTrayIcon *trayIcon() const;
    // Where notifications are shown instead of the tray icon when set (not owned; may be null
    // or destroyed at any time): the desktop's notification service, else its tray.
    void setNotifications(DesktopNotifications *notifications);

    // The signed-in user: never announced, should the list ever hold them.
    void setSelfId(const QString &id);

    void setCoalescingWindow(std::chrono::milliseconds window);
    [[nodiscard]] std::chrono::milliseconds coalescingWindow() const;

Q_SIGNALS:
    // One notification, ready to be shown: e.g. "Friend online", "Alice is online".
    void notificationReady(const QString &title, const QString &message);

private:
    void onDataChanged(
        const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles);
    void onRowsInserted(const QModelIndex &parent, int first, int last);
    void onRowsAboutToBeRemoved(const QModelIndex &parent, int first, int last);
    void rebaseline();
    // Records the row's live state; true when it is a transition worth announcing.
    bool track(int row);
    void onWindowClosed();
    [[nodiscard]] bool isOnlineNow(const QString &id) const;

    Models::FriendListModel *m_model;
    QPointer<QSystemTrayIcon> m_tray;
    QPointer<DesktopNotifications> m_notifications;
    QString m_selfId;
    bool m_enabled = false;
    // Last fresh state per friend id; a friend absent here has no live baseline.
    QHash<QString, Models::PresenceState> m_lastLive;
    // Friends to announce when the window closes, in the order they came online.
    QStringList m_pending;
    QSet<QString> m_pendingSet;
    QTimer m_window;
};

} // namespace Presence::App
