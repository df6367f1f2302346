#include "ui/FriendListPane.h"

#include "models/FriendListModel.h"
#include "session/GatewaySession.h"
#include "ui/FriendDelegate.h"
#include "ui/ViewportSubscriptions.h"
#include "ui/VisibleRows.h"

#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLineEdit>
#include <QListView>
#include <QTimer>
#include <QVBoxLayout>

namespace Presence::Ui {

using Models::FriendListModel;
using Models::FriendSortFilterProxy;
using Models::PresenceState;

FriendListPane::FriendListPane(
    Session::GatewaySession *session, FriendListModel *model, QWidget *parent)
    : QWidget(parent)
    , m_proxy(new FriendSortFilterProxy(this))
    , m_search(new QLineEdit(this))
    , m_sort(new QComboBox(this))
    , m_view(new QListView(this))
    , m_session(session)
{
    m_proxy->setSourceModel(model);
    // What a screen reader says of a row: the same words as the tooltip.
    m_proxy->setAccessibleDescriber([](const QModelIndex &index) {
        return FriendDelegate::accessibleText(index, QDateTime::currentDateTime());
    });

    m_search->setPlaceholderText(tr("Search friends"));
    m_search->setClearButtonEnabled(true);
    m_search->setAccessibleName(tr("Search friends"));
    connect(m_search, &QLineEdit::textChanged, m_proxy, &FriendSortFilterProxy::setSearchText);

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
    m_view->setItemDelegate(new FriendDelegate(m_view));
    // "last seen 5 min ago" moves on by itself.
    auto *minute = new QTimer(this);
    connect(minute, &QTimer::timeout, m_view->viewport(), qOverload<>(&QWidget::update));
    minute->start(std::chrono::minutes(1));
    m_view->installEventFilter(this);
    connect(m_view, &QListView::activated, this, [this](const QModelIndex &index) {
        Q_EMIT chatRequested(index.data(FriendListModel::IdRole).toString());
    });

    m_subscriptions = new ViewportSubscriptions(m_view, {}, this);
    connect(m_subscriptions, &ViewportSubscriptions::wantedChanged, session,
        [this](const QSet<QString> &wanted) { m_session->setWanted(wanted | m_pinned); });
    connect(session, &Session::GatewaySession::signedIn, m_subscriptions, [this, session] {
        m_subscriptions->setMaxSubscriptions(session->limits().maxSubscriptions);
    });

    auto *controls = new QHBoxLayout;
    controls->addWidget(m_search, 1);
    controls->addWidget(m_sort);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(m_view, 1);
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
    m_session->setWanted(m_subscriptions->wanted() | m_pinned);
}

bool FriendListPane::eventFilter(QObject *watched, QEvent *event)
{
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
