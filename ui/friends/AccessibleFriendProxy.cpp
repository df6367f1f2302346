#include "ui/friends/AccessibleFriendProxy.h"

// Qt
#include <QDateTime>

// Presence
#include "ui/ClockedDelegate.h"
#include "ui/friends/FriendDelegate.h"

namespace Presence::Ui {

AccessibleFriendProxy::AccessibleFriendProxy(QObject *parent)
    : FriendSortFilterProxy(parent)
{
}

QVariant AccessibleFriendProxy::data(const QModelIndex &index, int role) const
{
    if (role == Qt::AccessibleTextRole && index.isValid()) {
        const QDateTime now = m_clock ? m_clock->now() : QDateTime::currentDateTime();
        return FriendDelegate::accessibleText(mapToSource(index), now);
    }
    return FriendSortFilterProxy::data(index, role);
}

} // namespace Presence::Ui
