#pragma once

// C++
#include <vector>

// Qt
#include <QPushButton>
#include <QSet>
#include <QString>

// Presence
#include "models/PresenceState.h"

class QListView;

namespace Presence::Models {
class FriendListModel;
class FriendSortFilterProxy;
} // namespace Presence::Models

namespace Presence::Ui {

// "3 more online ↑" at the top edge of the friend list: friends who came online (from away or
// offline) while the list was scrolled away from its top, and who now sort above the rows the
// user looks at. The list does not jump to show them (the order waits under the hand and the
// looked-at row keeps its place); the chip says they are there. Clicking it emits clicked();
// the pane goes up. The pane lays it out above the view, never inside the viewport: there it
// would scroll with the rows, hide a name and let clicks through to the row under it.
class MoreOnlineChip : public QPushButton {
    Q_OBJECT
public:
    MoreOnlineChip(QListView *view, Models::FriendSortFilterProxy *proxy, QWidget *parent);

    // Friends announced by the chip now (0: hidden).
    [[nodiscard]] int count() const { return m_count; }
    // The user's hand is on the list, which then keeps the row under it in place even at the
    // top: friends coming online are news there too, since they land above, out of sight.
    void setHandOnList(bool on);

private:
    [[nodiscard]] Models::FriendListModel *friends() const;
    void rememberSortStatus();
    void onFriendsChanged(
        const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles);
    void recount();
    [[nodiscard]] bool isAtTop() const;

    QListView *m_view;
    Models::FriendSortFilterProxy *m_proxy;
    // What each friend sorts as now: a friend "comes online" from away or offline, while
    // unknown → online (the first availability set, a reconnect) is only learning.
    // Kept per row of the source model, as it inserts and removes rows: a reload of 100,000
    // friends must not hash every id again.
    std::vector<Models::PresenceState> m_sortStatus;
    QSet<QString> m_cameOnline; // of those, who came online since the list was last at the top
    int m_count = 0;
    bool m_handOnList = false;
};

} // namespace Presence::Ui
