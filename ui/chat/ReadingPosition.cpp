#include "ui/chat/ReadingPosition.h"

// Qt
#include <QListView>
#include <QScrollBar>

// Presence
#include "models/ChatModel.h"
#include "ui/chat/ChatMessageDelegate.h"
#include "ui/chat/NewMessagesPill.h"

namespace Presence::Ui {

using Models::ChatModel;
using Models::Delivery;

ReadingPosition::ReadingPosition(
    QListView *view, ChatMessageDelegate *delegate, NewMessagesPill *pill)
    : QObject(view)
    , m_view(view)
    , m_delegate(delegate)
    , m_pill(pill)
{
    QScrollBar *bar = view->verticalScrollBar();
    connect(bar, &QScrollBar::rangeChanged, this, &ReadingPosition::onRangeChanged);
    connect(bar, &QScrollBar::valueChanged, this, &ReadingPosition::onValueChanged);
    connect(pill, &QPushButton::clicked, this, &ReadingPosition::scrollToBottom);
}

void ReadingPosition::follow(Models::ChatModel *model, int unread)
{
    for (const auto &connection : std::as_const(m_connections))
        disconnect(connection);
    m_connections.clear();
    m_model = model;
    m_keepFromBottom.reset();
    m_unseen = 0;
    m_pill->setCount(0);
    m_delegate->setFirstUnreadId({});
    m_dividerSeen = true;
    m_unreadAtOpen = unread;
    if (model) {
        m_connections = {
            connect(model, &QAbstractItemModel::rowsAboutToBeInserted, this,
                &ReadingPosition::onRowsAboutToBeInserted),
            connect(
                model, &QAbstractItemModel::rowsInserted, this, &ReadingPosition::onRowsInserted),
            connect(model, &ChatModel::historyStateChanged, this,
                &ReadingPosition::placeOpeningDivider),
        };
    }
    scrollToBottom();
    placeOpeningDivider();
}

void ReadingPosition::scrollToBottom()
{
    m_view->doItemsLayout();
    m_view->scrollToBottom();
    m_atBottom = true;
}

void ReadingPosition::onOwnMessageSent()
{
    if (!m_delegate->firstUnreadId().isEmpty())
        setFirstUnread({});
    scrollToBottom();
}

bool ReadingPosition::isAtBottom() const
{
    const QScrollBar *bar = m_view->verticalScrollBar();
    return bar->value() >= bar->maximum() - 2;
}

void ReadingPosition::onValueChanged()
{
    m_atBottom = isAtBottom();
    if (m_atBottom) {
        m_unseen = 0;
        m_pill->setCount(0);
        m_dividerSeen = true;
    }
}

void ReadingPosition::onRangeChanged(int, int max)
{
    // Rows going in are placed by onRowsInserted; any other change of range (the view got
    // shorter because the input grew, a row changed height) keeps a reader at the bottom
    // there.
    if (!m_keepFromBottom && m_atBottom)
        m_view->verticalScrollBar()->setValue(max);
}

void ReadingPosition::onRowsAboutToBeInserted(const QModelIndex &, int first, int)
{
    const QScrollBar *bar = m_view->verticalScrollBar();
    if (first == 0 && m_model->rowCount() > 0)
        m_keepFromBottom = bar->maximum() - bar->value(); // older ones: keep the reading place
    else if (m_atBottom)
        m_keepFromBottom = 0; // follow the conversation
    else
        m_keepFromBottom.reset(); // reading further up: stay there
}

void ReadingPosition::onRowsInserted(const QModelIndex &, int first, int last)
{
    const bool older = first == 0 && last + 1 < m_model->rowCount();
    bool own = false;
    QString firstNew;
    int newCount = 0;
    for (int row = first; row <= last; ++row) {
        const Models::ChatMessageRecord &record = m_model->at(row);
        if (record.delivery != Delivery::Delivered)
            own = true; // our own new message always brings the view down to it
        else if (!older && record.from != m_model->selfId()) {
            if (firstNew.isEmpty())
                firstNew = record.id;
            ++newCount;
        }
    }
    if (own) {
        m_keepFromBottom = 0;
    } else if (newCount > 0 && !m_keepFromBottom && !m_atBottom) {
        // Arrived while scrolled up: count it, and mark where the unread ones start.
        m_unseen += newCount;
        m_pill->setCount(m_unseen);
        if (m_dividerSeen) {
            setFirstUnread(firstNew);
            m_dividerSeen = false;
        }
    }
    if (m_keepFromBottom) {
        m_view->doItemsLayout();
        QScrollBar *bar = m_view->verticalScrollBar();
        bar->setValue(bar->maximum() - *m_keepFromBottom);
    }
    m_keepFromBottom.reset();
    placeOpeningDivider();
}

void ReadingPosition::setFirstUnread(const QString &id)
{
    m_delegate->setFirstUnreadId(id);
    // The divider changes a row's height: lay out again, keeping a reader at the bottom.
    const bool atBottom = m_atBottom;
    m_view->doItemsLayout();
    if (atBottom)
        m_view->scrollToBottom();
    m_view->viewport()->update();
}

void ReadingPosition::placeOpeningDivider()
{
    if (m_unreadAtOpen <= 0 || !m_model)
        return;
    // The friend's latest `unread` messages, counted back from the newest delivered one.
    int found = 0;
    int firstRow = -1;
    for (int row = m_model->deliveredCount() - 1; row >= 0 && found < m_unreadAtOpen; --row) {
        if (m_model->at(row).from != m_model->selfId()) {
            ++found;
            firstRow = row;
        }
    }
    const bool complete = found == m_unreadAtOpen
        || (m_model->historyState() == ChatModel::HistoryState::Loaded && !m_model->hasOlder());
    if (!complete || firstRow < 0)
        return;
    m_unreadAtOpen = 0;
    setFirstUnread(m_model->at(firstRow).id);
    m_dividerSeen = false;
    // Show where reading resumes: the divider at the top when the unread do not all fit.
    m_view->scrollToBottom();
    const QModelIndex index = m_view->model()->index(firstRow, 0); // the view's, not m_model's
    if (m_view->visualRect(index).top() < 0)
        m_view->scrollTo(index, QAbstractItemView::PositionAtTop);
    m_atBottom = isAtBottom();
    if (m_atBottom)
        m_dividerSeen = true;
}

} // namespace Presence::Ui
