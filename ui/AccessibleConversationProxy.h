#pragma once

// Qt
#include <QIdentityProxyModel>

namespace Presence::Ui {

class ConversationDelegate;

// The list of chats as its view shows it: the model's rows as they are, and for each the words
// a screen reader says (Qt::AccessibleTextRole): the friend, when they last wrote, what, and how
// many are unread (ConversationDelegate::accessibleText), by the delegate's clock. The same
// pattern as friend rows (AccessibleFriendProxy) and messages (AccessibleChatProxy).
class AccessibleConversationProxy : public QIdentityProxyModel {
    Q_OBJECT
public:
    // delegate: the view's, which must outlive the proxy.
    explicit AccessibleConversationProxy(
        const ConversationDelegate *delegate, QObject *parent = nullptr);

    [[nodiscard]] QVariant data(const QModelIndex &index, int role) const override;

private:
    const ConversationDelegate *m_delegate;
};

} // namespace Presence::Ui
