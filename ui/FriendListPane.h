#pragma once

// Qt
#include <QPersistentModelIndex>
#include <QPointF>
#include <QSet>
#include <QTimer>
#include <QWidget>

// Presence
#include "models/FriendSortFilterProxy.h"
#include "ui/AccessibleFriendProxy.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QListView;

namespace Presence::Models {
class FriendListModel;
}

namespace Presence::Ui {

class MoreOnlineChip;
class ViewportSubscriptions;

// The left side of the main window: a search box, the sort choice and the friend list,
// whose visible rows (plus margins) and pinned friends are the ones to watch (wantedChanged).
class FriendListPane : public QWidget {
    Q_OBJECT
public:
    explicit FriendListPane(Models::FriendListModel *model, QWidget *parent = nullptr);

    [[nodiscard]] QListView *view() const { return m_view; }
    [[nodiscard]] Models::FriendSortFilterProxy *proxy() const { return m_proxy; }
    [[nodiscard]] ViewportSubscriptions *subscriptions() const { return m_subscriptions; }
    [[nodiscard]] QLineEdit *searchBox() const { return m_search; }

    void setSortMode(Models::FriendSortFilterProxy::SortMode mode);
    [[nodiscard]] Models::FriendSortFilterProxy::SortMode sortMode() const;
    // Friends watched whether on screen or not (the one whose chat is open).
    void setPinned(const QSet<QString> &ids);
    // The friends to watch now: the rows on screen plus margins, and the pinned ones.
    [[nodiscard]] QSet<QString> wanted() const;
    // The gateway watches at most this many users for us.
    void setMaxSubscriptions(int max);
    // The friend whose chat is open: their row is the current, selected one whenever the
    // filter shows it (searching and clearing the search never leave another row highlighted).
    void showFriend(const QString &friendId);
    // The friend `step` rows from `friendId` in the order shown (the first or last row when
    // friendId is not shown); empty past either end.
    [[nodiscard]] QString friendNextTo(const QString &friendId, int step) const;
    // "No friends match …", shown over an empty list while searching.
    [[nodiscard]] QLabel *noMatchesLabel() const { return m_noMatches; }
    // "3 more online ↑": friends who came online above the rows in sight.
    [[nodiscard]] MoreOnlineChip *moreOnlineChip() const { return m_moreOnline; }

Q_SIGNALS:
    void chatRequested(const QString &friendId);
    void sortModeChanged(Presence::Models::FriendSortFilterProxy::SortMode mode);
    // The friends to watch changed (wanted()).
    void wantedChanged(const QSet<QString> &wanted);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void onSearchChanged(const QString &text);
    // Makes row the current and only selected row, and scrolls it into view.
    void makeCurrent(const QModelIndex &row);
    void selectShownFriend();
    [[nodiscard]] bool handleSearchKey(const QKeyEvent *key);
    void updateNoMatches();
    // The user's hand is on the list: re-sorting waits until it has been idle a while.
    void holdOrder();
    [[nodiscard]] bool isAtTop() const;
    void rememberAnchor();
    void restoreAnchor();
    // The chip was clicked: the top of the list in sight, nothing else.
    void goToTop();

    AccessibleFriendProxy *m_proxy;
    QLineEdit *m_search;
    QComboBox *m_sort;
    QListView *m_view;
    ViewportSubscriptions *m_subscriptions;
    QSet<QString> m_pinned;
    QString m_shownFriend;
    QLabel *m_noMatches;
    MoreOnlineChip *m_moreOnline;
    QTimer m_orderSettle;
    // Away from the top: the row the user looks at (hovered, else selected, else the top one)
    // and where it was on screen, kept in place when rows move above it. At the top: the top.
    QPersistentModelIndex m_anchor;
    int m_anchorTop = 0;
    bool m_keepTop = false;
    bool m_restoringAnchor = false; // our own scrolling is not the user's hand
    QPointF m_pointerAt; // where the pointer last moved over the list (global)
};

} // namespace Presence::Ui
