#include "ui/AccessibleConversationProxy.h"

// Presence
#include "ui/ConversationDelegate.h"

namespace Presence::Ui {

AccessibleConversationProxy::AccessibleConversationProxy(
    const ConversationDelegate *delegate, QObject *parent)
    : QIdentityProxyModel(parent)
    , m_delegate(delegate)
{
}

QVariant AccessibleConversationProxy::data(const QModelIndex &index, int role) const
{
    if (role == Qt::AccessibleTextRole && index.isValid())
        return ConversationDelegate::accessibleText(mapToSource(index), m_delegate->now());
    return QIdentityProxyModel::data(index, role);
}

} // namespace Presence::Ui
