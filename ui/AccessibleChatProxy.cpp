#include "ui/AccessibleChatProxy.h"

// C++
#include <utility>

// Presence
#include "ui/ChatMessageDelegate.h"

namespace Presence::Ui {

AccessibleChatProxy::AccessibleChatProxy(
    const ChatMessageDelegate *delegate, FriendName friendName, QObject *parent)
    : QIdentityProxyModel(parent)
    , m_delegate(delegate)
    , m_friendName(std::move(friendName))
{
}

QVariant AccessibleChatProxy::data(const QModelIndex &index, int role) const
{
    if (role == Qt::AccessibleTextRole && index.isValid()) {
        return ChatMessageDelegate::accessibleText(
            mapToSource(index), m_friendName(), m_delegate->now());
    }
    return QIdentityProxyModel::data(index, role);
}

} // namespace Presence::Ui
