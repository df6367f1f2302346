#include "app/FriendOnlineNotifier.h"

// C++
#include <algorithm>

// Qt
#include <QSystemTrayIcon>

// Presence
#include "app/DesktopNotifications.h"
#include "models/FriendListModel.h"

namespace Presence::App {

using Models::FriendListModel;
using Models::PresenceState;

namespace {

// Beyond this many names the message counts the rest: a notification is read at a glance.
constexpr int kMaxNamesShown = 3;

} // namespace

FriendOnlineNotifier::FriendOnlineNotifier(FriendListModel *model, QObject *parent)
    : QObject(parent)
    , m_model(model)
{
    // One window from the first arrival, never extended: a steady trickle of friends must
    // not postpone the notification forever.
    m_window.setSingleShot(true);
    m_window.setInterval(kDefaultCoalescingWindow);
    connect(&m_window, &QTimer::timeout, this, &FriendOnlineNotifier::onWindowClosed);

    connect(model, &QAbstractItemModel::dataChanged, this, &FriendOnlineNotifier::onDataChanged);
    connect(model, &QAbstractItemModel::rowsInserted, this, &FriendOnlineNotifier::onRowsInserted);
    connect(model, &QAbstractItemModel::rowsAboutToBeRemoved, this,
        &FriendOnlineNotifier::onRowsAboutToBeRemoved);
    // A reset announces no transitions: whatever the rows hold afterwards is the baseline.
    connect(model, &QAbstractItemModel::modelReset, this, &FriendOnlineNotifier::rebaseline);
    rebaseline();
}

void FriendOnlineNotifier::setEnabled(bool enabled)
{
    m_enabled = enabled;
    if (!enabled) {
        m_window.stop();
        m_pending.clear();
        m_pendingSet.clear();
    }
}

void FriendOnlineNotifier::setTrayIcon(QSystemTrayIcon *icon)
{
    m_tray = icon;
}

QSystemTrayIcon *FriendOnlineNotifier::trayIcon() const
{
    return m_tray;
}

void FriendOnlineNotifier::setNotifications(DesktopNotifications *notifications)
{
    m_notifications = notifications;
}

void FriendOnlineNotifier::setSelfId(const QString &id)
{
    m_selfId = id;
}

void FriendOnlineNotifier::setCoalescingWindow(std::chrono::milliseconds window)
{
    m_window.setInterval(std::max(window, std::chrono::milliseconds(0)));
}

std::chrono::milliseconds FriendOnlineNotifier::coalescingWindow() const
{
    return m_window.intervalAsDuration();
}

void FriendOnlineNotifier::onDataChanged(
    const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles)
{
    if (!roles.isEmpty() && !roles.contains(FriendListModel::StatusRole)
        && !roles.contains(FriendListModel::FreshRole))
        return;
    for (int row = topLeft.row(); row <= bottomRight.row(); ++row) {
        if (!track(row) || !m_enabled)
            continue;
        const QString id = m_model->index(row).data(FriendListModel::IdRole).toString();
        if (id == m_selfId || m_pendingSet.contains(id))
            continue;
        m_pendingSet.insert(id);
        m_pending.append(id);
        if (!m_window.isActive())
            m_window.start();
    }
}

void FriendOnlineNotifier::onRowsInserted(const QModelIndex &parent, int first, int last)
{
    if (parent.isValid())
        return;
    for (int row = first; row <= last; ++row)
        track(row); // a new row is a baseline, whatever it holds
}

void FriendOnlineNotifier::onRowsAboutToBeRemoved(const QModelIndex &parent, int first, int last)
{
    if (parent.isValid())
        return;
    for (int row = first; row <= last; ++row)
        m_lastLive.remove(m_model->index(row).data(FriendListModel::IdRole).toString());
}

void FriendOnlineNotifier::rebaseline()
{
    m_lastLive.clear();
    for (int row = 0; row < m_model->rowCount(); ++row)
        track(row);
}

bool FriendOnlineNotifier::track(int row)
{
    const QModelIndex index = m_model->index(row);
    const QString id = index.data(FriendListModel::IdRole).toString();
    const auto state = PresenceState(index.data(FriendListModel::StatusRole).toInt());
    // Unknown (no connection) and stale (no longer watched) rows say nothing live: forget
    // them, so that their next live state is a baseline rather than a transition.
    if (state == PresenceState::Unknown || !index.data(FriendListModel::FreshRole).toBool()) {
        m_lastLive.remove(id);
        return false;
    }
    const auto previous = m_lastLive.constFind(id);
    const bool cameOnline = state == PresenceState::Online && previous != m_lastLive.constEnd()
        && (*previous == PresenceState::Offline || *previous == PresenceState::Away);
    m_lastLive.insert(id, state);
    return cameOnline;
}

bool FriendOnlineNotifier::isOnlineNow(const QString &id) const
{
    const std::optional<int> row = m_model->rowOf(id);
    return row && m_model->stateAt(*row) == PresenceState::Online
        && m_model->index(*row).data(FriendListModel::FreshRole).toBool();
}

void FriendOnlineNotifier::onWindowClosed()
{
    QStringList names;
    for (const QString &id : std::as_const(m_pending)) {
        // Gone offline again, or the connection was lost, within the window: saying "is
        // online" now would be false.
        if (!isOnlineNow(id))
            continue;
        const QString name
            = m_model->index(*m_model->rowOf(id)).data(FriendListModel::NameRole).toString();
        names.append(name.isEmpty() ? id : name);
    }
    m_pending.clear();
    m_pendingSet.clear();
    if (names.isEmpty())
        return;

    QString message;
    if (names.size() == 1)
        message = tr("%1 is online").arg(names.at(0));
    else if (names.size() == 2)
        message = tr("%1 and %2 are online").arg(names.at(0), names.at(1));
    else if (names.size() <= kMaxNamesShown)
        message = tr("%1, %2 and %3 are online").arg(names.at(0), names.at(1), names.at(2));
    else
        message = tr("%1, %2 and %n others are online", nullptr, int(names.size()) - 2)
                      .arg(names.at(0), names.at(1));
    const QString title = names.size() == 1 ? tr("Friend online") : tr("Friends online");

    Q_EMIT notificationReady(title, message);
    if (m_notifications) {
        m_notifications->show(title, message, QStringLiteral("friends-online"));
        return;
    }
    if (m_tray && m_tray->isVisible() && QSystemTrayIcon::isSystemTrayAvailable())
        m_tray->showMessage(title, message, m_tray->icon());
}

} // namespace Presence::App
