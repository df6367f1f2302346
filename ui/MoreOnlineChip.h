#pragma once

// Qt
#include <QPushButton>
#include <QSet>
#include <QString>

class QListView;

namespace Presence::Models {
class FriendListModel;
class FriendSortFilterProxy;
} // namespace Presence::Models

namespace Presence::Ui {

// "3 more online ↑" over the top of the friend list: friends who came online while the list
// was scrolled away from its top, and who now sort above the rows the user looks at. The list
// does not jump to show them (the order waits under the hand and the looked-at row keeps its
// place); the chip says they are there. Clicking it emits clicked(); the pane goes up.
class MoreOnlineChip : public QPushButton {
    Q_OBJECT
public:
    MoreOnlineChip(QListView *view, Models::FriendSortFilterProxy *proxy);

    // Friends announced by the chip now (0: hidden).
    [[nodiscard]] int count() const { return m_count; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    [[nodiscard]] Models::FriendListModel *friends() const;
    void rememberOnlineRows();
    void onFriendsChanged(
        const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles);
    void recount();
    void place();
    [[nodiscard]] bool isAtTop() const;

    QListView *m_view;
    Models::FriendSortFilterProxy *m_proxy;
    QSet<QString> m_online; // every friend who sorts as online now
    QSet<QString> m_cameOnline; // of those, who came online since the list was last at the top
    int m_count = 0;
};

} // namespace Presence::Ui
