#include "ui/AccessibleFriendProxy.h"

// Qt
#include <QDateTime>

// Presence
#include "ui/FriendDelegate.h"

namespace Presence::Ui {

AccessibleFriendProxy::AccessibleFriendProxy(QObject *parent)
    : FriendSortFilterProxy(parent)
{
}

QVariant AccessibleFriendProxy::data(const QModelIndex &index, int role) const
{
    if (role == Qt::AccessibleTextRole && index.isValid())
        return FriendDelegate::accessibleText(mapToSource(index), QDateTime::currentDateTime());
    return FriendSortFilterProxy::data(index, role);
}

} // namespace Presence::Ui
