#pragma once

// C++
#include <optional>

// Qt
#include <QElapsedTimer>
#include <QPointF>
#include <QSet>
#include <QTimer>
#include <QWidget>

// Presence
#include "models/FriendSortFilterProxy.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QListView;

namespace Presence::Models {
class FriendListModel;
}

namespace Presence::Ui {

template <typename Proxy> class AccessibleTextProxy;
class MoreOnlineChip;
class ViewportSubscriptions;

// The left side of the main window: a search box, the sort choice and the friend list,
// whose visible rows (plus margins) and pinned friends are the ones to watch (wantedChanged).
class FriendListPane : public QWidget {
    Q_OBJECT
public:
    explicit FriendListPane(Models::FriendListModel *model, QWidget *parent = nullptr);

    [[nodiscard]] QListView *view() const { return m_view; }
    [[nodiscard]] Models::FriendSortFilterProxy *proxy() const;
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
    // The viewport's pointer events: whether to eat one, or nothing to say.
    [[nodiscard]] std::optional<bool> filterPointerEvent(QEvent *event);
    // Makes row the current and only selected row, and scrolls it into view.
    void makeCurrent(const QModelIndex &row);
    void selectShownFriend();
    [[nodiscard]] bool handleSearchKey(const QKeyEvent *key);
    void updateNoMatches();
    // The user's hand is on the list: re-sorting waits until it has been idle a while.
    void holdOrder();
    [[nodiscard]] bool isAtTop() const;
    // The pointer rests on the rows, or a button went down on one and is not up yet.
    [[nodiscard]] bool handOnList() const;
    [[nodiscard]] QModelIndex rowUnderPointer() const;
    // Rows all have one height (uniform item sizes), so where a row is and which row is at a
    // height follow from the scroll bar alone, even while the view's own layout is pending
    // (it lays rows out in batches, and not at all between a model's "about to" and its change).
    [[nodiscard]] int rowHeight() const;
    [[nodiscard]] int scrolledPixels() const;
    [[nodiscard]] int topOfRow(int row) const; // in the viewport
    [[nodiscard]] QModelIndex rowAtHeight(int y) const; // y in the viewport
    [[nodiscard]] QModelIndex rowOfFriend(const QString &id) const;
    void rememberAnchor();
    void restoreAnchor();
    // Scrolls so the anchor's row is where it was on screen (nothing when it is gone).
    void applyAnchor();
    // A reset forgets rows, the current one and the selection: they are kept by id.
    void rememberAcrossReset();
    void restoreAcrossReset();
    // After rows moved: if another friend is now under a pointer that did not move, a click
    // in the next moments would open someone the user did not point at.
    void notePointerRow();
    [[nodiscard]] bool pointerRowChangedLately() const;
    // The chip was clicked: the top of the list in sight, nothing else.
    void goToTop();
    void scrollToTopOurselves();

    // The view's model: the friends sorted and filtered, with what screen readers say.
    AccessibleTextProxy<Models::FriendSortFilterProxy> *m_proxy;
    QLineEdit *m_search;
    QComboBox *m_sort;
    QListView *m_view;
    ViewportSubscriptions *m_subscriptions;
    QSet<QString> m_pinned;
    QString m_shownFriend;
    QLabel *m_noMatches;
    MoreOnlineChip *m_moreOnline;
    QTimer m_orderSettle;
    // The row the user looks at (under the hand, else selected, else the top one), by id, and
    // where it was on screen, kept in place when rows move above it. A list at its top with no
    // hand on it stays at its top instead (m_keepTop).
    QString m_anchorId;
    int m_anchorTop = 0;
    bool m_keepTop = false;
    bool m_restoringAnchor = false; // our own scrolling is not the user's hand
    bool m_anchorPending = false; // applied again while the view's batched layout goes on
    // The list was at its top when the hand came (or when the user last scrolled): it goes
    // back there when the hand leaves.
    bool m_backToTopOnLeave = false;
    bool m_pointerInside = false; // between the viewport's Enter and Leave
    bool m_pressed = false; // a button went down on the rows
    bool m_swallowingClick = false; // that press came too soon after the rows moved
    QString m_currentId; // across a reset
    bool m_currentSelected = false;
    QString m_idUnderPointer; // who the pointer is on, as last seen
    QElapsedTimer m_pointerRowChanged; // since another friend slid under a still pointer
    QPointF m_pointerAt; // where the pointer last entered or moved over the list (global)
};

} // namespace Presence::Ui
