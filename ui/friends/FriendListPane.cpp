#include "ui/friends/FriendListPane.h"

// C++
#include <optional>
#include <utility>

// Qt
#include <QComboBox>
#include <QCoreApplication>
#include <QEnterEvent>
#include <QFocusEvent>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMouseEvent>
#include <QScrollBar>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>

// Presence
#include "models/FriendListModel.h"
#include "ui/AccessibleTextProxy.h"
#include "ui/friends/FriendDelegate.h"
#include "ui/friends/MoreOnlineChip.h"
#include "ui/friends/ViewportSubscriptions.h"
#include "ui/friends/VisibleRows.h"

namespace Presence::Ui {

using Models::FriendListModel;
using Models::FriendSortFilterProxy;

FriendListPane::FriendListPane(FriendListModel *model, QWidget *parent)
    : QWidget(parent)
    , m_proxy(new AccessibleTextProxy<FriendSortFilterProxy>(
          nullptr, &FriendDelegate::accessibleText, this)) // its clock is the delegate's, below
    , m_search(new QLineEdit(this))
    , m_sort(new QComboBox(this))
    , m_view(new QListView(this))
    , m_noMatches(new QLabel(m_view->viewport()))
{
    m_proxy->setSourceModel(model);

    m_search->setPlaceholderText(tr("Search friends"));
    m_search->setClearButtonEnabled(true);
    m_search->setAccessibleName(tr("Search friends"));
    connect(m_search, &QLineEdit::textChanged, this, &FriendListPane::onSearchChanged);
    m_search->installEventFilter(this);

    m_sort->addItem(tr("Online first"), int(FriendSortFilterProxy::SortMode::Availability));
    m_sort->addItem(tr("By name"), int(FriendSortFilterProxy::SortMode::Name));
    m_sort->setAccessibleName(tr("Sort friends"));
    connect(m_sort, &QComboBox::currentIndexChanged, this, [this] {
        const auto mode = FriendSortFilterProxy::SortMode(m_sort->currentData().toInt());
        m_proxy->setSortMode(mode);
        Q_EMIT sortModeChanged(mode);
    });

    // Rows all have one height, and laying 100,000 of them out in batches keeps every
    // slice short (see docs/benchmarks.md).
    m_view->setUniformItemSizes(true);
    // Rows elide their text to the width they get: a sideways scroll bar would only hide the
    // status line's end. Below this width names are cut too short to tell friends apart.
    m_view->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_view->setMinimumWidth(220);
    m_view->setLayoutMode(QListView::Batched);
    m_view->setBatchSize(2000);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAccessibleName(tr("Friends"));
    m_view->setModel(m_proxy);
    auto *delegate = new FriendDelegate(m_view);
    m_view->setItemDelegate(delegate);
    m_proxy->setClock(delegate); // spoken times as the rows paint them
    // "last seen 5 min ago" moves on by itself.
    auto *minute = new QTimer(this);
    connect(minute, &QTimer::timeout, m_view->viewport(), qOverload<>(&QWidget::update));
    minute->start(std::chrono::minutes(1));
    m_view->installEventFilter(this);
    m_view->viewport()->installEventFilter(this);
    m_view->viewport()->setMouseTracking(true); // hovering counts as the hand on the list
    // About 1.5 s without scrolling, moving the pointer or keys before rows move (README). A
    // pointer resting on the list is a hand that has settled, not one still at work.
    m_orderSettle.setSingleShot(true);
    m_orderSettle.setInterval(std::chrono::milliseconds(1500));
    connect(&m_orderSettle, &QTimer::timeout, this, [this] { m_proxy->setMovesHeld(false); });
    QScrollBar *bar = m_view->verticalScrollBar();
    // The user's own scrolling (wheel, keys, the bar) ends any anchor still being applied.
    connect(bar, &QScrollBar::actionTriggered, this, [this] { m_anchorPending = false; });
    connect(bar, &QScrollBar::rangeChanged, this, [this] {
        if (m_anchorPending)
            applyAnchor();
    });
    connect(bar, &QScrollBar::valueChanged, this, [this] {
        if (m_restoringAnchor)
            return;
        if (m_anchorPending) {
            applyAnchor(); // the view moved by itself, mid-layout
            return;
        }
        holdOrder();
        // The user scrolled: whoever is under the pointer now is whom they see there.
        m_idUnderPointer = rowUnderPointer().data(FriendListModel::IdRole).toString();
        // Scrolled by the user: back to the top when the hand leaves only if it is there now.
        m_backToTopOnLeave = isAtTop();
    });
    // Rows that move, come or go never carry the looked-at row away (the view's own handlers
    // run first: it was given the model above).
    using M = QAbstractItemModel;
    connect(m_proxy, &M::layoutAboutToBeChanged, this, &FriendListPane::rememberAnchor);
    connect(m_proxy, &M::layoutChanged, this, &FriendListPane::restoreAnchor);
    connect(m_proxy, &M::rowsAboutToBeInserted, this, &FriendListPane::rememberAnchor);
    connect(m_proxy, &M::rowsInserted, this, &FriendListPane::restoreAnchor);
    connect(m_proxy, &M::rowsAboutToBeRemoved, this, &FriendListPane::rememberAnchor);
    connect(m_proxy, &M::rowsRemoved, this, &FriendListPane::restoreAnchor);
    connect(m_proxy, &M::modelAboutToBeReset, this, &FriendListPane::rememberAcrossReset);
    connect(m_proxy, &M::modelReset, this, &FriendListPane::restoreAcrossReset);
    m_noMatches->setAlignment(Qt::AlignCenter);
    m_noMatches->setWordWrap(true);
    m_noMatches->setForegroundRole(QPalette::PlaceholderText);
    m_noMatches->hide();
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &FriendListPane::updateNoMatches);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &FriendListPane::updateNoMatches);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &FriendListPane::updateNoMatches);
    m_moreOnline = new MoreOnlineChip(m_view, m_proxy, this);
    connect(m_moreOnline, &QPushButton::clicked, this, &FriendListPane::goToTop);
    connect(m_view, &QListView::activated, this, [this](const QModelIndex &index) {
        Q_EMIT chatRequested(index.data(FriendListModel::IdRole).toString());
    });
    // A click opens the chat too (activated() needs a double click on most styles). The view
    // reports it only when the button went down and came up on the same friend's row.
    connect(m_view, &QListView::clicked, this, [this](const QModelIndex &index) {
        Q_EMIT chatRequested(index.data(FriendListModel::IdRole).toString());
    });

    m_subscriptions = new ViewportSubscriptions(m_view, {}, this);
    connect(m_subscriptions, &ViewportSubscriptions::wantedChanged, this,
        [this](const QSet<QString> &wanted) { Q_EMIT wantedChanged(wanted | m_pinned); });

    // Tab goes search → sort → list; the window continues into the chat.
    setTabOrder(m_search, m_sort);
    setTabOrder(m_sort, m_view);
    auto *controls = new QHBoxLayout;
    controls->addWidget(m_search, 1);
    controls->addWidget(m_sort);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    // The chip has a strip of its own above the rows (MoreOnlineChip.h), kept while it is
    // hidden: were the strip to come and go with it, every row would jump by its height, the
    // very jump the chip exists to spare the user.
    auto *chipStrip = new QWidget(this);
    auto *chipLayout = new QHBoxLayout(chipStrip);
    chipLayout->setContentsMargins(0, 0, 0, 0);
    chipLayout->addWidget(m_moreOnline, 0, Qt::AlignCenter);
    chipStrip->setFixedHeight(m_moreOnline->sizeHint().height());
    layout->addWidget(chipStrip);
    layout->addWidget(m_view, 1);
}

// Out of line: the header only declares the proxy's template, so cannot see its base.
FriendSortFilterProxy *FriendListPane::proxy() const
{
    return m_proxy;
}

void FriendListPane::setSortMode(FriendSortFilterProxy::SortMode mode)
{
    const int index = m_sort->findData(int(mode));
    if (index >= 0)
        m_sort->setCurrentIndex(index);
}

FriendSortFilterProxy::SortMode FriendListPane::sortMode() const
{
    return m_proxy->sortMode();
}

void FriendListPane::setPinned(const QSet<QString> &ids)
{
    if (ids == m_pinned)
        return;
    m_pinned = ids;
    Q_EMIT wantedChanged(wanted());
}

QSet<QString> FriendListPane::wanted() const
{
    return m_subscriptions->wanted() | m_pinned;
}

void FriendListPane::setMaxSubscriptions(int max)
{
    m_subscriptions->setMaxSubscriptions(max);
}

void FriendListPane::showFriend(const QString &friendId)
{
    m_shownFriend = friendId;
    selectShownFriend();
}

void FriendListPane::selectShownFriend()
{
    const auto *model = qobject_cast<const FriendListModel *>(m_proxy->sourceModel());
    const auto row = model && !m_shownFriend.isEmpty() ? model->rowOf(m_shownFriend) : std::nullopt;
    const QModelIndex index = row ? m_proxy->mapFromSource(model->index(*row)) : QModelIndex();
    if (index.isValid()) {
        makeCurrent(index);
    } else {
        // Filtered out: nothing else may look like the open chat.
        m_view->selectionModel()->clear();
    }
}

QString FriendListPane::friendNextTo(const QString &friendId, int step) const
{
    const int rows = m_proxy->rowCount();
    if (rows == 0 || step == 0)
        return {};
    const auto *model = qobject_cast<const FriendListModel *>(m_proxy->sourceModel());
    const auto source = model ? model->rowOf(friendId) : std::nullopt;
    const QModelIndex shown
        = source ? m_proxy->mapFromSource(model->index(*source)) : QModelIndex();
    const int row = shown.isValid() ? shown.row() + step : (step > 0 ? 0 : rows - 1);
    if (row < 0 || row >= rows)
        return {};
    return m_proxy->index(row, 0).data(FriendListModel::IdRole).toString();
}

void FriendListPane::makeCurrent(const QModelIndex &row)
{
    m_anchorPending = false; // the user asked for this row
    m_view->selectionModel()->setCurrentIndex(row, QItemSelectionModel::ClearAndSelect);
    m_view->scrollTo(row);
}

void FriendListPane::onSearchChanged(const QString &text)
{
    m_proxy->setSearchText(text);
    if (text.trimmed().isEmpty()) {
        selectShownFriend(); // back where the open chat is
    } else {
        // The best matches are at the top: start there, wherever the list was scrolled to.
        m_view->scrollToTop();
        const QModelIndex current = m_view->currentIndex();
        if (current.isValid() && current.data(FriendListModel::IdRole).toString() != m_shownFriend)
            m_view->selectionModel()->clear();
    }
    updateNoMatches();
}

void FriendListPane::holdOrder()
{
    m_proxy->setMovesHeld(true);
    m_orderSettle.start();
}

void FriendListPane::goToTop()
{
    // Only the scrolling: the rows the chip counts already sort above, and the order keeps
    // whatever hold the user's hand put on it.
    scrollToTopOurselves();
}

void FriendListPane::scrollToTopOurselves()
{
    m_anchorPending = false;
    m_restoringAnchor = true; // not the user's hand on the list: nothing to hold
    m_view->scrollToTop();
    m_restoringAnchor = false;
}

bool FriendListPane::isAtTop() const
{
    const QScrollBar *bar = m_view->verticalScrollBar();
    return bar->value() <= bar->minimum();
}

bool FriendListPane::handOnList() const
{
    return m_pressed || m_view->viewport()->underMouse();
}

QModelIndex FriendListPane::rowUnderPointer() const
{
    if (!m_view->viewport()->underMouse())
        return {};
    return rowAtHeight(m_view->viewport()->mapFromGlobal(m_pointerAt.toPoint()).y());
}

int FriendListPane::rowHeight() const
{
    return m_proxy->rowCount() > 0 ? std::max(1, m_view->sizeHintForRow(0)) : 1;
}

int FriendListPane::scrolledPixels() const
{
    const int value = m_view->verticalScrollBar()->value();
    return m_view->verticalScrollMode() == QAbstractItemView::ScrollPerItem ? value * rowHeight()
                                                                            : value;
}

int FriendListPane::topOfRow(int row) const
{
    return row * rowHeight() - scrolledPixels();
}

QModelIndex FriendListPane::rowAtHeight(int y) const
{
    if (y < 0 || y >= m_view->viewport()->height())
        return {};
    return m_proxy->index((scrolledPixels() + y) / rowHeight(), 0);
}

QModelIndex FriendListPane::rowOfFriend(const QString &id) const
{
    const auto *model = qobject_cast<const FriendListModel *>(m_proxy->sourceModel());
    const auto row = model && !id.isEmpty() ? model->rowOf(id) : std::nullopt;
    return row ? m_proxy->mapFromSource(model->index(*row)) : QModelIndex();
}

void FriendListPane::rememberAnchor()
{
    m_anchorPending = false;
    m_anchorId.clear();
    // The row under the hand never moves, at the top too: a user who points at a friend must
    // not have another slide under the pointer (the chip announces arrivals above it).
    QModelIndex anchor = handOnList() ? rowUnderPointer() : QModelIndex();
    // A list at its top with no hand on it shows the first rows whatever they are now: "online
    // first" is what the user opened it for, so no row may carry the view away from them.
    m_keepTop = !anchor.isValid() && isAtTop();
    if (m_keepTop)
        return;
    const QModelIndex current = m_view->currentIndex();
    if (!anchor.isValid() && current.isValid() && topOfRow(current.row()) > -rowHeight()
        && topOfRow(current.row()) < m_view->viewport()->height())
        anchor = current;
    // Scrolled down with nothing in hand: the row being read stays, and friends coming online
    // above it are announced by the chip rather than pushing it down.
    if (!anchor.isValid())
        anchor = rowAtHeight(0);
    m_anchorId = anchor.data(FriendListModel::IdRole).toString();
    m_anchorTop = anchor.isValid() ? topOfRow(anchor.row()) : 0;
}

void FriendListPane::restoreAnchor()
{
    if (m_keepTop) {
        m_keepTop = false;
        if (!isAtTop())
            scrollToTopOurselves();
        notePointerRow();
        return;
    }
    applyAnchor();
    // The view lays rows out in batches, after this and again later, and puts back the scroll
    // position it had before the change: the anchor is applied again as the layout goes on,
    // until the user scrolls or the rows change again.
    m_anchorPending = !m_anchorId.isEmpty() && m_view->layoutMode() == QListView::Batched;
    notePointerRow();
}

void FriendListPane::applyAnchor()
{
    const QModelIndex anchor = rowOfFriend(m_anchorId);
    const int moved = anchor.isValid() ? topOfRow(anchor.row()) - m_anchorTop : 0;
    if (moved == 0)
        return;
    QScrollBar *bar = m_view->verticalScrollBar();
    const int step
        = m_view->verticalScrollMode() == QAbstractItemView::ScrollPerItem ? rowHeight() : 1;
    m_restoringAnchor = true;
    bar->setValue(bar->value() + moved / step);
    m_restoringAnchor = false;
}

void FriendListPane::rememberAcrossReset()
{
    const QModelIndex current = m_view->currentIndex();
    m_currentId = current.data(FriendListModel::IdRole).toString();
    m_currentSelected = current.isValid() && m_view->selectionModel()->isSelected(current);
    rememberAnchor();
}

void FriendListPane::restoreAcrossReset()
{
    if (m_view->layoutMode() == QListView::Batched) {
        // After a reset the view would lay its rows out a batch at a time, its scroll range
        // growing with them: lay them all out now (a few ms for 100,000 uniform rows), so the
        // rows being read are back in place in the first frame, not after a flash of the top.
        m_view->setLayoutMode(QListView::SinglePass);
        m_view->doItemsLayout();
        m_view->setLayoutMode(QListView::Batched);
    }
    // The current row first: making it current scrolls to it, and the anchor then puts the
    // rows back where they were.
    const QModelIndex current = rowOfFriend(std::exchange(m_currentId, {}));
    if (current.isValid()) {
        m_restoringAnchor = true;
        m_view->selectionModel()->setCurrentIndex(current,
            m_currentSelected ? QItemSelectionModel::ClearAndSelect
                              : QItemSelectionModel::NoUpdate);
        m_restoringAnchor = false;
    }
    restoreAnchor();
}

void FriendListPane::notePointerRow()
{
    const QString id = rowUnderPointer().data(FriendListModel::IdRole).toString();
    if (id == m_idUnderPointer)
        return;
    m_idUnderPointer = id;
    if (id.isEmpty())
        return;
    m_pointerRowChanged.start();
    // A tooltip names the row it was shown for: it must not stay over another friend, so it
    // now speaks of the one under the pointer (hiding it would leave it up a moment longer).
    if (QToolTip::isVisible()) {
        QWidget *rows = m_view->viewport();
        const QPoint global = m_pointerAt.toPoint();
        QHelpEvent help(QEvent::ToolTip, rows->mapFromGlobal(global), global);
        QCoreApplication::sendEvent(rows, &help);
    }
}

bool FriendListPane::pointerRowChangedLately() const
{
    // About the time it takes to see that the row changed and stop the hand.
    constexpr qint64 kSeeAndStopMs = 700;
    return m_pointerRowChanged.isValid() && m_pointerRowChanged.elapsed() < kSeeAndStopMs;
}

void FriendListPane::updateNoMatches()
{
    const bool empty = m_proxy->rowCount() == 0 && !m_proxy->searchText().isEmpty();
    if (empty) {
        //: Over the empty friend list; %1 is what the user typed.
        m_noMatches->setText(tr("No friends match “%1”").arg(m_proxy->searchText()));
        m_noMatches->setGeometry(m_view->viewport()->rect().adjusted(8, 8, -8, -8));
    }
    m_noMatches->setVisible(empty);
}

bool FriendListPane::handleSearchKey(const QKeyEvent *key)
{
    switch (key->key()) {
    case Qt::Key_Return:
    case Qt::Key_Enter:
        // Enter opens the top match, the one the user sees first; with nothing typed there is
        // no match, and the top row is only whoever sorts first.
        if (m_search->text().trimmed().isEmpty())
            return true;
        if (m_proxy->rowCount() > 0)
            Q_EMIT chatRequested(m_proxy->index(0, 0).data(FriendListModel::IdRole).toString());
        return true;
    case Qt::Key_Down:
        if (m_proxy->rowCount() > 0) {
            m_view->setFocus(Qt::TabFocusReason);
            makeCurrent(m_proxy->index(0, 0));
        }
        return true;
    case Qt::Key_Escape:
        if (m_search->text().isEmpty())
            return false; // let the window have it
        m_search->clear();
        return true;
    default:
        return false;
    }
}

std::optional<bool> FriendListPane::filterPointerEvent(QEvent *event)
{
    switch (event->type()) {
    case QEvent::Enter:
        m_pointerAt = static_cast<QEnterEvent *>(event)->globalPosition();
        // Qt sends Enter again without a Leave (after a click, say): the hand came once.
        if (!std::exchange(m_pointerInside, true))
            m_backToTopOnLeave = isAtTop();
        m_moreOnline->setHandOnList(true);
        m_idUnderPointer = rowUnderPointer().data(FriendListModel::IdRole).toString();
        holdOrder();
        break;
    case QEvent::Leave:
        m_pointerInside = false;
        m_idUnderPointer.clear();
        m_moreOnline->setHandOnList(m_pressed);
        // The hand left a list it found at its top: the top again, with whoever sorts first.
        if (m_backToTopOnLeave && !m_pressed && !isAtTop())
            scrollToTopOurselves();
        break;
    case QEvent::Wheel:
        holdOrder();
        break;
    case QEvent::MouseMove: {
        // Only a pointer that really moved: rows moving under a resting one make Qt send
        // moves at the same spot, which would hold the order for ever.
        const QPointF at = static_cast<QMouseEvent *>(event)->globalPosition();
        if (at != m_pointerAt) {
            m_pointerAt = at;
            m_idUnderPointer = rowUnderPointer().data(FriendListModel::IdRole).toString();
            m_pointerRowChanged.invalidate(); // the user has moved to what is there now
            holdOrder();
        }
        break;
    }
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonDblClick:
        m_pressed = true;
        holdOrder();
        // Another friend slid under the pointer a moment ago: the user aimed at someone
        // else, so the press opens and selects nothing.
        m_swallowingClick = pointerRowChangedLately();
        if (m_swallowingClick)
            return true;
        break;
    case QEvent::MouseButtonRelease:
        m_pressed = false;
        m_moreOnline->setHandOnList(m_view->viewport()->underMouse());
        holdOrder();
        if (std::exchange(m_swallowingClick, false))
            return true;
        break;
    default:
        break;
    }
    return std::nullopt;
}

bool FriendListPane::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_search && event->type() == QEvent::KeyPress)
        return handleSearchKey(static_cast<QKeyEvent *>(event))
            || QWidget::eventFilter(watched, event);
    if (watched == m_view->viewport() && event->type() == QEvent::Resize)
        updateNoMatches();
    if (watched == m_view->viewport()) {
        if (const std::optional<bool> eaten = filterPointerEvent(event))
            return *eaten;
    }
    if (watched == m_view && event->type() == QEvent::KeyPress) {
        m_anchorPending = false; // the keys move the view now
        holdOrder();
    }
    // Keyboard users see where they are: the current row is the selected one, so the first
    // Down moves from a row they can see.
    // A click gives focus too, and picks its own row: scrolling to the first one would move
    // another friend under the pointer before the press lands.
    if (watched == m_view && event->type() == QEvent::FocusIn && m_proxy->rowCount() > 0
        && static_cast<QFocusEvent *>(event)->reason() != Qt::MouseFocusReason) {
        const QModelIndex current = m_view->currentIndex();
        if (!current.isValid())
            makeCurrent(m_proxy->index(0, 0));
        else if (!m_view->selectionModel()->isSelected(current))
            makeCurrent(current);
    }
    // Enter opens the chat with the current friend (activated() depends on the platform).
    if (watched == m_view && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter)
            && m_view->currentIndex().isValid()) {
            Q_EMIT chatRequested(m_view->currentIndex().data(FriendListModel::IdRole).toString());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace Presence::Ui
