#include "ui/friends/MoreOnlineChip.h"

// C++
#include <utility>

// Qt
#include <QListView>
#include <QScrollBar>

// Presence
#include "models/FriendListModel.h"
#include "models/FriendSortFilterProxy.h"

namespace Presence::Ui {

using Models::FriendListModel;
using Models::FriendSortFilterProxy;
using Models::PresenceState;

MoreOnlineChip::MoreOnlineChip(QListView *view, FriendSortFilterProxy *proxy, QWidget *parent)
    : QPushButton(parent)
    , m_view(view)
    , m_proxy(proxy)
{
    setCursor(Qt::PointingHandCursor);
    // A pointer's shortcut: keyboard users have Home, and tabbing should not stop here.
    setFocusPolicy(Qt::NoFocus);
    hide();

    if (FriendListModel *model = friends()) {
        // The source model, not the proxy: friends hidden by a search still come online.
        connect(model, &QAbstractItemModel::dataChanged, this, &MoreOnlineChip::onFriendsChanged);
        connect(model, &QAbstractItemModel::modelReset, this, [this] {
            m_cameOnline.clear();
            rememberSortStatus();
            recount();
        });
        connect(model, &QAbstractItemModel::rowsInserted, this,
            [this, model](const QModelIndex &, int first, int last) {
                std::vector<PresenceState> added;
                for (int row = first; row <= last; ++row)
                    added.push_back(model->sortStatusAt(row));
                m_sortStatus.insert(m_sortStatus.begin() + first, added.cbegin(), added.cend());
            });
        connect(model, &QAbstractItemModel::rowsRemoved, this,
            [this](const QModelIndex &, int first, int last) {
                m_sortStatus.erase(m_sortStatus.begin() + first, m_sortStatus.begin() + last + 1);
            });
    }
    rememberSortStatus();
    // Where rows are, as the user sees them: after the proxy moved them, and while scrolling.
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &MoreOnlineChip::recount);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &MoreOnlineChip::recount);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &MoreOnlineChip::recount);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &MoreOnlineChip::recount);
    connect(m_view->verticalScrollBar(), &QScrollBar::valueChanged, this, &MoreOnlineChip::recount);
}

FriendListModel *MoreOnlineChip::friends() const
{
    return qobject_cast<FriendListModel *>(m_proxy->sourceModel());
}

void MoreOnlineChip::rememberSortStatus()
{
    m_sortStatus.clear();
    const FriendListModel *model = friends();
    for (int row = 0; model && row < model->rowCount(); ++row)
        m_sortStatus.push_back(model->sortStatusAt(row));
}

void MoreOnlineChip::onFriendsChanged(
    const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles)
{
    if (!roles.isEmpty() && !roles.contains(FriendListModel::SortStatusRole))
        return;
    const FriendListModel *model = friends();
    if (!model || topLeft.model() != model)
        return; // not from the model this chip follows
    const bool inSight = isAtTop() && !m_handOnList; // the list will show them at once
    // Every flush of a presence storm comes here: the rows are read directly, not as QVariants.
    for (int row = topLeft.row(); row <= bottomRight.row(); ++row) {
        if (size_t(row) >= m_sortStatus.size())
            break;
        const QString &id = model->idAt(row);
        const PresenceState now = model->sortStatusAt(row);
        const PresenceState before = std::exchange(m_sortStatus[size_t(row)], now);
        if (now != PresenceState::Online)
            m_cameOnline.remove(id);
        else if (!inSight && (before == PresenceState::Away || before == PresenceState::Offline))
            m_cameOnline.insert(id);
    }
    recount();
}

void MoreOnlineChip::setHandOnList(bool on)
{
    if (m_handOnList == on)
        return;
    m_handOnList = on;
    recount();
}

bool MoreOnlineChip::isAtTop() const
{
    const QScrollBar *bar = m_view->verticalScrollBar();
    return bar->value() <= bar->minimum();
}

void MoreOnlineChip::recount()
{
    if (isAtTop() && !m_handOnList)
        m_cameOnline.clear(); // the top is in sight: nothing there is news
    int count = 0;
    const QModelIndex top = m_view->indexAt(QPoint(1, 1));
    const FriendListModel *model = friends();
    if (model && top.isValid()
        && m_proxy->sortMode() == FriendSortFilterProxy::SortMode::Availability) {
        for (const QString &id : std::as_const(m_cameOnline)) {
            const auto row = model->rowOf(id);
            const QModelIndex shown
                = row ? m_proxy->mapFromSource(model->index(*row)) : QModelIndex();
            if (shown.isValid() && shown.row() < top.row())
                ++count;
        }
    }
    if (count == m_count)
        return;
    m_count = count;
    if (count > 0) {
        //: Over the top of the friend list: friends above the rows in sight came online.
        setText(tr("%n more online ↑", nullptr, count));
        setAccessibleName(text());
    }
    setVisible(count > 0);
}

} // namespace Presence::Ui
