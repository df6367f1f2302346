#pragma once

// Qt
#include <QWidget>

class QIdentityProxyModel;
class QLabel;
class QListView;
class QModelIndex;

namespace Presence::Models {
class ConversationListModel;
}

namespace Presence::Ui {

template <typename Proxy> class AccessibleTextProxy;
class ConversationDelegate;

// The "Chats" side of the main window's left pane: conversations with unread messages first,
// then by last activity (ConversationListModel's order). A click, or Enter on the current
// row, asks for that chat. Without any conversation it says how to start one.
class ConversationListPane : public QWidget {
    Q_OBJECT
public:
    explicit ConversationListPane(Models::ConversationListModel *model, QWidget *parent = nullptr);

    [[nodiscard]] QListView *view() const { return m_view; }
    [[nodiscard]] ConversationDelegate *delegate() const { return m_delegate; }
    [[nodiscard]] QLabel *emptyState() const { return m_empty; }
    [[nodiscard]] bool isShowingEmptyState() const;
    // Whether the gateway offers chat: the empty list says why it is empty.
    void setChatOffered(bool offered);

    // The open chat's row is the current one (none: no row is).
    void showFriend(const QString &friendId);
    // The friend whose chat is `step` rows below (negative: above) `friendId`'s in the list
    // as shown; from the first (or last) row when `friendId` has none; empty past either end.
    [[nodiscard]] QString friendNextTo(const QString &friendId, int step) const;

Q_SIGNALS:
    void chatRequested(const QString &friendId);

private:
    void updateEmptyState();
    void request(const QModelIndex &index);

    Models::ConversationListModel *m_model;
    QListView *m_view;
    ConversationDelegate *m_delegate;
    // The view's model: m_model with what screen readers say.
    AccessibleTextProxy<QIdentityProxyModel> *m_rows;
    QLabel *m_empty;
    QString m_shownFriend;
};

} // namespace Presence::Ui
