#pragma once

// C++
#include <functional>

// Qt
#include <QIdentityProxyModel>

namespace Presence::Ui {

class ChatMessageDelegate;

// One conversation as its view shows it: the model's rows as they are, and for each the words
// a screen reader says (Qt::AccessibleTextRole): who wrote it, when, what, and where it stands
// (ChatMessageDelegate::accessibleText), by the delegate's clock. The model carries the
// messages; the wording is the UI's, as for friend rows (AccessibleFriendProxy).
class AccessibleChatProxy : public QIdentityProxyModel {
    Q_OBJECT
public:
    // The friend's name as shown now: asked at every reading, so a renamed friend is read out
    // by the new name.
    using FriendName = std::function<QString()>;

    // delegate: the view's, which must outlive the proxy.
    AccessibleChatProxy(
        const ChatMessageDelegate *delegate, FriendName friendName, QObject *parent = nullptr);

    [[nodiscard]] QVariant data(const QModelIndex &index, int role) const override;

private:
    const ChatMessageDelegate *m_delegate;
    FriendName m_friendName;
};

} // namespace Presence::Ui
