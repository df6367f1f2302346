#include "ui/chat/ConversationListPane.h"

// Qt
#include <QIdentityProxyModel>
#include <QItemSelectionModel>
#include <QLabel>
#include <QListView>
#include <QStackedLayout>
#include <QVBoxLayout>

// Presence
#include "models/ConversationListModel.h"
#include "ui/AccessibleTextProxy.h"
#include "ui/chat/ConversationDelegate.h"

namespace Presence::Ui {

using Models::ConversationListModel;

ConversationListPane::ConversationListPane(ConversationListModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_view(new QListView(this))
    , m_delegate(new ConversationDelegate(m_view))
    , m_rows(new AccessibleTextProxy<QIdentityProxyModel>(
          m_delegate, &ConversationDelegate::accessibleText, this))
    , m_empty(new QLabel(this))
{
    m_rows->setSourceModel(model);
    m_view->setModel(m_rows);
    m_view->setItemDelegate(m_delegate);
    m_view->setUniformItemSizes(true);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_view->setAccessibleName(tr("Chats"));

    setChatOffered(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setForegroundRole(QPalette::PlaceholderText);

    auto *pages = new QStackedLayout;
    pages->setStackingMode(QStackedLayout::StackAll);
    pages->addWidget(m_empty);
    pages->addWidget(m_view);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(pages);

    connect(m_view, &QAbstractItemView::clicked, this, &ConversationListPane::request);
    connect(m_view, &QAbstractItemView::activated, this, &ConversationListPane::request);
    for (const auto signal :
        { &QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved })
        connect(model, signal, this, &ConversationListPane::updateEmptyState);
    connect(model, &QAbstractItemModel::modelReset, this, &ConversationListPane::updateEmptyState);
    // A re-sort or a new list keeps the open chat's row current.
    const auto keepShown = [this] { showFriend(m_shownFriend); };
    connect(model, &QAbstractItemModel::modelReset, this, keepShown);
    connect(model, &QAbstractItemModel::rowsMoved, this, keepShown);
    connect(model, &QAbstractItemModel::rowsInserted, this, keepShown);
    updateEmptyState();
}

bool ConversationListPane::isShowingEmptyState() const
{
    return !m_empty->isHidden();
}

void ConversationListPane::showFriend(const QString &friendId)
{
    m_shownFriend = friendId;
    const auto row = m_model->rowOf(friendId);
    if (!row) {
        m_view->selectionModel()->clearSelection();
        return;
    }
    const QModelIndex index = m_rows->index(*row, 0); // the view's, not m_model's
    if (m_view->currentIndex() != index || !m_view->selectionModel()->isSelected(index))
        m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect);
}

QString ConversationListPane::friendNextTo(const QString &friendId, int step) const
{
    const int rows = m_model->rowCount();
    if (rows == 0 || step == 0)
        return {};
    const auto at = m_model->rowOf(friendId);
    const int row = at ? *at + step : (step > 0 ? 0 : rows - 1);
    if (row < 0 || row >= rows)
        return {};
    return m_model->index(row).data(ConversationListModel::FriendIdRole).toString();
}

void ConversationListPane::setChatOffered(bool offered)
{
    m_empty->setText(offered ? tr("No chats yet.\nOpen a friend in Friends and say hello.")
                             : tr("This gateway offers no chat.\nFriends shows who is online."));
}

void ConversationListPane::updateEmptyState()
{
    const bool empty = m_model->rowCount() == 0;
    m_empty->setVisible(empty);
    m_view->setVisible(!empty);
}

void ConversationListPane::request(const QModelIndex &index)
{
    const QString id = index.data(ConversationListModel::FriendIdRole).toString();
    if (!id.isEmpty())
        Q_EMIT chatRequested(id);
}

} // namespace Presence::Ui
