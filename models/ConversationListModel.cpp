#include "models/ConversationListModel.h"

// C++
#include <algorithm>

// Presence
#include "models/FriendListModel.h"
#include "models/PresenceState.h"

namespace Presence::Models {

namespace {

const QList<int> kFriendRoles = { ConversationListModel::NameRole,
    ConversationListModel::PresenceRole, ConversationListModel::FreshRole, Qt::DisplayRole };

} // namespace

ConversationListModel::ConversationListModel(FriendListModel *friends, QObject *parent)
    : QAbstractListModel(parent)
    , m_friends(friends)
{
    if (!friends)
        return;
    connect(
        friends, &QAbstractItemModel::dataChanged, this, &ConversationListModel::onFriendsChanged);
    connect(friends, &QAbstractItemModel::modelReset, this,
        &ConversationListModel::announceFriendRoles);
    connect(friends, &QAbstractItemModel::rowsInserted, this,
        &ConversationListModel::announceFriendRoles);
    connect(friends, &QAbstractItemModel::rowsRemoved, this,
        &ConversationListModel::announceFriendRoles);
}

int ConversationListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant ConversationListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.model() != this || index.row() >= m_rows.size())
        return {};
    const ConversationSummary &row = m_rows.at(index.row());
    const auto friendRow = m_friends ? m_friends->rowOf(row.friendId) : std::nullopt;
    switch (role) {
    case Qt::DisplayRole:
    case NameRole: {
        const QString name = friendRow
            ? m_friends->index(*friendRow).data(FriendListModel::NameRole).toString()
            : QString();
        return name.isEmpty() ? row.friendId : name;
    }
    case FriendIdRole:
        return row.friendId;
    case PresenceRole:
        return friendRow ? m_friends->index(*friendRow).data(FriendListModel::StatusRole)
                         : QVariant(int(PresenceState::Unknown));
    case FreshRole:
        return friendRow && m_friends->index(*friendRow).data(FriendListModel::FreshRole).toBool();
    case LastIdRole:
        return row.last.id;
    case LastTextRole:
        return row.last.text;
    case LastFromSelfRole:
        return !m_selfId.isEmpty() && row.last.from == m_selfId;
    case LastTimestampRole:
        return row.last.ts;
    case UnreadRole:
        return row.unread;
    default:
        return {};
    }
}

QHash<int, QByteArray> ConversationListModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(FriendIdRole, "friendId");
    names.insert(NameRole, "name");
    names.insert(PresenceRole, "presence");
    names.insert(FreshRole, "fresh");
    names.insert(LastIdRole, "lastId");
    names.insert(LastTextRole, "lastText");
    names.insert(LastFromSelfRole, "lastFromSelf");
    names.insert(LastTimestampRole, "lastTimestamp");
    names.insert(UnreadRole, "unread");
    return names;
}

void ConversationListModel::setSelfId(const QString &id)
{
    if (id == m_selfId)
        return;
    m_selfId = id;
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0), index(int(m_rows.size()) - 1), { LastFromSelfRole });
}

bool ConversationListModel::goesBefore(const ConversationSummary &a, const ConversationSummary &b)
{
    const bool aUnread = a.unread > 0;
    const bool bUnread = b.unread > 0;
    if (aUnread != bUnread)
        return aUnread;
    if (a.last.ts != b.last.ts)
        return a.last.ts > b.last.ts;
    // The same millisecond: the one that came in later, as the gateway orders them too.
    if (a.activity != b.activity)
        return a.activity > b.activity;
    return a.friendId < b.friendId;
}

void ConversationListModel::setConversations(const QList<ConversationSummary> &conversations)
{
    beginResetModel();
    m_rows.clear();
    m_rowOf.clear();
    // Newest activity first: the first gets the largest number.
    const quint64 newest = m_activity + quint64(conversations.size());
    m_activity = newest;
    for (const ConversationSummary &summary : conversations) {
        if (summary.friendId.isEmpty() || m_rowOf.contains(summary.friendId))
            continue;
        m_rowOf.insert(summary.friendId, int(m_rows.size()));
        m_rows.append(summary);
        m_rows.last().unread = std::max(0, summary.unread);
        m_rows.last().activity = newest - quint64(m_rows.size()) + 1;
    }
    std::stable_sort(m_rows.begin(), m_rows.end(), &ConversationListModel::goesBefore);
    reindex(0, int(m_rows.size()) - 1);
    endResetModel();
    updateTotal();
}

void ConversationListModel::noteMessage(const QString &friendId, const ChatMessageRecord &message)
{
    if (friendId.isEmpty())
        return;
    const auto it = m_rowOf.constFind(friendId);
    if (it == m_rowOf.constEnd()) {
        ConversationSummary summary { friendId, message, 0, ++m_activity };
        // Where it goes in the order, inserted there directly.
        const auto at = std::lower_bound(
            m_rows.cbegin(), m_rows.cend(), summary, &ConversationListModel::goesBefore);
        const int row = int(at - m_rows.cbegin());
        beginInsertRows({}, row, row);
        m_rows.insert(row, summary);
        reindex(row, int(m_rows.size()) - 1);
        endInsertRows();
        return;
    }
    ConversationSummary &held = m_rows[*it];
    // The gateway's times never go back within a conversation: an older one is no news.
    if (held.last.id == message.id || message.ts < held.last.ts)
        return;
    held.last = message;
    held.activity = ++m_activity;
    const int row = place(*it);
    const QModelIndex at = index(row);
    Q_EMIT dataChanged(at, at, { LastIdRole, LastTextRole, LastFromSelfRole, LastTimestampRole });
}

void ConversationListModel::setUnread(const QString &friendId, int count)
{
    const auto it = m_rowOf.constFind(friendId);
    count = std::max(0, count);
    if (it == m_rowOf.constEnd() || m_rows.at(*it).unread == count)
        return;
    m_rows[*it].unread = count;
    const int row = place(*it);
    const QModelIndex at = index(row);
    Q_EMIT dataChanged(at, at, { UnreadRole });
    updateTotal();
}

int ConversationListModel::unread(const QString &friendId) const
{
    const auto it = m_rowOf.constFind(friendId);
    return it == m_rowOf.constEnd() ? 0 : m_rows.at(*it).unread;
}

std::optional<int> ConversationListModel::rowOf(const QString &friendId) const
{
    const auto it = m_rowOf.constFind(friendId);
    if (it == m_rowOf.constEnd())
        return std::nullopt;
    return *it;
}

void ConversationListModel::clear()
{
    setConversations({});
}

void ConversationListModel::onFriendsChanged(
    const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles)
{
    if (!roles.isEmpty() && !roles.contains(FriendListModel::NameRole)
        && !roles.contains(FriendListModel::StatusRole)
        && !roles.contains(FriendListModel::FreshRole))
        return;
    for (int friendRow = topLeft.row(); friendRow <= bottomRight.row(); ++friendRow) {
        const QString id = m_friends->index(friendRow).data(FriendListModel::IdRole).toString();
        if (const auto row = rowOf(id)) {
            const QModelIndex at = index(*row);
            Q_EMIT dataChanged(at, at, kFriendRoles);
        }
    }
}

void ConversationListModel::announceFriendRoles()
{
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0), index(int(m_rows.size()) - 1), kFriendRoles);
}

int ConversationListModel::place(int row)
{
    const ConversationSummary &moving = m_rows.at(row);
    // Its place among the others (the list without it is in order).
    int target = 0;
    {
        int lo = 0;
        int hi = int(m_rows.size()) - 1; // positions among the others
        while (lo < hi) {
            const int mid = (lo + hi) / 2;
            const int other = mid < row ? mid : mid + 1;
            if (goesBefore(m_rows.at(other), moving))
                lo = mid + 1;
            else
                hi = mid;
        }
        target = lo;
    }
    if (target == row)
        return row;
    // beginMoveRows names the destination before the move: one past it when moving down.
    beginMoveRows({}, row, row, {}, target > row ? target + 1 : target);
    m_rows.move(row, target);
    reindex(std::min(row, target), std::max(row, target));
    endMoveRows();
    return target;
}

void ConversationListModel::reindex(int from, int to)
{
    for (int row = std::max(0, from); row <= to && row < m_rows.size(); ++row)
        m_rowOf.insert(m_rows.at(row).friendId, row);
}

void ConversationListModel::updateTotal()
{
    int total = 0;
    for (const ConversationSummary &row : std::as_const(m_rows))
        total += row.unread;
    if (total == m_totalUnread)
        return;
    m_totalUnread = total;
    Q_EMIT totalUnreadChanged(total);
}

} // namespace Presence::Models
