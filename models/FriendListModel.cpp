#include "models/FriendListModel.h"

// C++
#include <algorithm>
#include <utility>

// Qt
#include <QDateTime>
#include <QSet>

using namespace Qt::StringLiterals;

namespace Presence::Models {

namespace {

const QList<int> kPresenceRoles = { FriendListModel::StatusRole, FriendListModel::LastSeenRole,
    FriendListModel::FreshRole, FriendListModel::SortStatusRole };

// The first and last of some rows, told to views as one range.
struct RowSpan {
    int first = -1;
    int last = -1;
    void add(int row)
    {
        first = first < 0 ? row : std::min(first, row);
        last = std::max(last, row);
    }
    explicit operator bool() const { return first >= 0; }
};

} // namespace

FriendListModel::FriendListModel(QObject *parent)
    : QAbstractListModel(parent)
{
    m_flushTimer.setSingleShot(true);
    m_flushTimer.setTimerType(Qt::PreciseTimer);
    m_flushTimer.setInterval(std::chrono::milliseconds(16));
    connect(&m_flushTimer, &QTimer::timeout, this, &FriendListModel::flush);
}

int FriendListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant FriendListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.model() != this || index.row() >= m_rows.size())
        return {};
    const Row &row = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case NameRole:
        return row.name;
    case IdRole:
        return row.id;
    case StatusRole:
        return int(row.state);
    case LastSeenRole:
        return row.lastSeen ? QVariant(*row.lastSeen) : QVariant();
    case FreshRole:
        return row.fresh;
    case SortStatusRole:
        return int(row.announced);
    case UnreadRole:
        return row.unread;
    case StaleSinceRole:
        return row.staleSince && !row.fresh ? QVariant(*row.staleSince) : QVariant();
    case NameSharedRole:
        return row.nameShared;
    default:
        return {};
    }
}

QHash<int, QByteArray> FriendListModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(IdRole, "friendId");
    names.insert(NameRole, "name");
    names.insert(StatusRole, "status");
    names.insert(LastSeenRole, "lastSeen");
    names.insert(FreshRole, "fresh");
    names.insert(SortStatusRole, "sortStatus");
    names.insert(UnreadRole, "unread");
    names.insert(StaleSinceRole, "staleSince");
    names.insert(NameSharedRole, "nameShared");
    return names;
}

void FriendListModel::setFriends(const QList<FriendRecord> &input)
{
    const auto sameAsRows = [this](const QList<FriendRecord> &list) {
        return list.size() == m_rows.size()
            && std::equal(list.cbegin(), list.cend(), m_rows.cbegin(),
                [](const FriendRecord &f, const Row &r) {
                    return f.id == r.id && f.name == r.name;
                });
    };
    // The common case, a reconnect reloading the same friends, costs one comparison.
    if (sameAsRows(input))
        return;
    // A duplicate id would make two rows for one friend: the first one wins.
    QList<FriendRecord> friends;
    friends.reserve(input.size());
    QSet<QString> seen;
    seen.reserve(input.size());
    for (const FriendRecord &f : input) {
        if (!seen.contains(f.id)) {
            seen.insert(f.id);
            friends.append(f);
        }
    }
    if (friends.size() != input.size() && sameAsRows(friends))
        return;
    // A first list, or one with nobody left, is new: a reset says so in one step.
    if (m_rows.isEmpty() || !applyInPlace(friends))
        reset(friends);
}

bool FriendListModel::applyInPlace(const QList<FriendRecord> &friends)
{
    // Friends who stay must keep their order; then rows come and go around them and the
    // views keep their scroll position, selection and the rows they show.
    QHash<QString, qsizetype> newPosition;
    newPosition.reserve(friends.size());
    for (qsizetype i = 0; i < friends.size(); ++i)
        newPosition.insert(friends.at(i).id, i);
    std::vector<bool> stays(size_t(m_rows.size()), false);
    qsizetype last = -1;
    size_t edits = 0; // runs of rows that go, then groups of rows that come
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        const auto it = newPosition.constFind(m_rows.at(i).id);
        if (it == newPosition.constEnd()) {
            edits += i == 0 || stays[size_t(i - 1)] ? 1 : 0;
            continue;
        }
        if (*it < last)
            return false;
        last = *it;
        stays[size_t(i)] = true;
    }
    if (last < 0)
        return false; // nobody stays
    for (qsizetype i = 0; i < friends.size(); ++i) {
        const bool isNew = !m_rowOfId.contains(friends.at(i).id);
        edits += isNew && (i == 0 || m_rowOfId.contains(friends.at(i - 1).id)) ? 1 : 0;
    }
    // Each edit costs its listeners a pass over the rows (a proxy renumbers, the list moves
    // its tail): past this much work one reset, one sort, is cheaper than the edits.
    constexpr size_t kMaxEditWork = 2'000'000;
    if (edits * size_t(std::max<qsizetype>(m_rows.size(), friends.size())) > kMaxEditWork)
        return false;

    // Changes not yet told name rows by number, and the numbers move: keep them by id.
    QStringList dirtyIds;
    dirtyIds.reserve(qsizetype(m_dirtyRows.size()));
    for (const int row : m_dirtyRows)
        dirtyIds.append(m_rows.at(row).id);
    // Rows that go, a run at a time from the end, so earlier numbers hold.
    for (qsizetype end = m_rows.size(); end > 0;) {
        if (stays[size_t(end - 1)]) {
            --end;
            continue;
        }
        qsizetype first = end - 1;
        while (first > 0 && !stays[size_t(first - 1)])
            --first;
        beginRemoveRows({}, int(first), int(end - 1));
        m_rows.remove(first, end - first);
        endRemoveRows();
        end = first;
    }
    // Rows that come, a group at a time; a row that stays may get a new name.
    std::vector<bool> renamed(size_t(friends.size()), false);
    for (qsizetype i = 0; i < friends.size();) {
        if (i < m_rows.size() && m_rows.at(i).id == friends.at(i).id) {
            if (m_rows.at(i).name != friends.at(i).name) {
                m_rows[i].name = friends.at(i).name;
                renamed[size_t(i)] = true;
            }
            ++i;
            continue;
        }
        // New friends up to the next row that stays (all the rest when none is left).
        const bool tail = i >= m_rows.size();
        qsizetype end = i + 1;
        while (end < friends.size() && (tail || friends.at(end).id != m_rows.at(i).id))
            ++end;
        beginInsertRows({}, int(i), int(end - 1));
        m_rows.insert(i, end - i, Row {}); // one move of the tail for the whole group
        for (qsizetype k = i; k < end; ++k) {
            m_rows[k].id = friends.at(k).id;
            m_rows[k].name = friends.at(k).name;
        }
        endInsertRows();
        i = end;
    }
    m_rowOfId.clear();
    m_rowOfId.reserve(m_rows.size());
    for (qsizetype i = 0; i < m_rows.size(); ++i)
        m_rowOfId.insert(m_rows.at(i).id, int(i));
    m_isDirty.assign(size_t(m_rows.size()), false);
    m_dirtyRows.clear();
    for (const QString &id : std::as_const(dirtyIds)) {
        if (const auto it = m_rowOfId.constFind(id); it != m_rowOfId.constEnd()) {
            m_dirtyRows.push_back(*it);
            m_isDirty[size_t(*it)] = true;
        }
    }
    m_coveredCount = int(std::count_if(
        m_rows.cbegin(), m_rows.cend(), [](const Row &row) { return row.coarse.has_value(); }));

    std::vector<bool> wasShared(size_t(m_rows.size()));
    for (qsizetype i = 0; i < m_rows.size(); ++i)
        wasShared[size_t(i)] = m_rows.at(i).nameShared;
    findSharedNames();
    // One change over the span of renamed rows, however many: a sorting proxy ranks the names
    // again once, not once per row. A row that only now shares its name draws its handle.
    RowSpan names;
    RowSpan shared;
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        if (renamed[size_t(i)])
            names.add(int(i));
        else if (m_rows.at(i).nameShared != wasShared[size_t(i)])
            shared.add(int(i));
    }
    if (names)
        Q_EMIT dataChanged(
            index(names.first), index(names.last), { Qt::DisplayRole, NameRole, NameSharedRole });
    if (shared)
        Q_EMIT dataChanged(index(shared.first), index(shared.last), { NameSharedRole });
    return true;
}

void FriendListModel::reset(const QList<FriendRecord> &friends)
{
    beginResetModel();
    QHash<QString, Row> previous;
    previous.reserve(m_rows.size());
    for (Row &row : m_rows)
        previous.emplace(row.id, std::move(row));
    m_rows.clear();
    m_rows.reserve(friends.size());
    m_rowOfId.clear();
    m_rowOfId.reserve(friends.size());
    for (const FriendRecord &f : friends) {
        Row row = previous.take(f.id);
        row.id = f.id;
        row.name = f.name;
        row.announced = sortStateOf(row); // a reset tells views everything
        m_rowOfId.insert(f.id, int(m_rows.size()));
        m_rows.append(std::move(row));
    }
    findSharedNames();
    m_coveredCount = int(std::count_if(
        m_rows.cbegin(), m_rows.cend(), [](const Row &row) { return row.coarse.has_value(); }));
    m_dirtyRows.clear();
    m_isDirty.assign(size_t(m_rows.size()), false);
    m_flushTimer.stop();
    endResetModel();
}

void FriendListModel::findSharedNames()
{
    // What a row shows: a nameless friend is called by the id. "Elena Haddad" and
    // "elena  haddad" look alike at a glance, so they count as the same name.
    QList<QString> keys;
    keys.reserve(m_rows.size());
    QHash<QString, int> count;
    count.reserve(m_rows.size());
    for (const Row &row : std::as_const(m_rows)) {
        keys.append((row.name.isEmpty() ? row.id : row.name).simplified().toCaseFolded());
        ++count[keys.last()];
    }
    for (qsizetype i = 0; i < m_rows.size(); ++i)
        m_rows[i].nameShared = count.value(keys.at(i)) > 1;
}

void FriendListModel::updatePresence(
    const QString &id, PresenceState state, std::optional<qint64> lastSeen)
{
    const auto it = m_rowOfId.constFind(id);
    if (it == m_rowOfId.constEnd())
        return;
    m_rows[*it].exactLive = true;
    show(*it, state, lastSeen, true);
}

void FriendListModel::updateAvailability(const QHash<QString, PresenceState> &states, bool complete)
{
    if (complete) {
        for (int i = 0; i < m_rows.size(); ++i) {
            Row &row = m_rows[i];
            if (row.coarse && !states.contains(row.id)) {
                row.coarse.reset();
                --m_coveredCount;
                if (!row.exactLive)
                    show(i, row.state, row.lastSeen, false); // no longer live
            }
        }
    }
    for (auto it = states.cbegin(); it != states.cend(); ++it) {
        const auto found = m_rowOfId.constFind(it.key());
        if (found == m_rowOfId.constEnd())
            continue;
        Row &row = m_rows[*found];
        if (!row.coarse)
            ++m_coveredCount;
        row.coarse = it.value();
        if (row.exactLive)
            continue; // the exact word is newer, or as new
        // A last-seen time holds only while the friend stays offline.
        const bool keepLastSeen = it.value() == PresenceState::Offline && row.state == it.value();
        show(*found, it.value(), keepLastSeen ? row.lastSeen : std::nullopt, true);
    }
}

void FriendListModel::show(
    int index, PresenceState state, std::optional<qint64> lastSeen, bool fresh)
{
    Row &row = m_rows[index];
    if (row.state == state && row.lastSeen == lastSeen && row.fresh == fresh)
        return;
    // How old the knowledge is counts from when it stopped being live.
    if (fresh)
        row.staleSince.reset();
    else if (row.fresh)
        row.staleSince = QDateTime::currentMSecsSinceEpoch();
    row.state = state;
    row.lastSeen = lastSeen;
    row.fresh = fresh;
    markDirty(index);
}

void FriendListModel::setUnreadCount(const QString &id, int count)
{
    const auto it = m_rowOfId.constFind(id);
    if (it == m_rowOfId.constEnd())
        return;
    Row &row = m_rows[*it];
    count = std::max(0, count);
    if (row.unread == count)
        return;
    row.unread = count;
    const QModelIndex at = index(*it);
    Q_EMIT dataChanged(at, at, { UnreadRole });
}

int FriendListModel::unreadCount(const QString &id) const
{
    const auto it = m_rowOfId.constFind(id);
    return it == m_rowOfId.constEnd() ? 0 : m_rows.at(*it).unread;
}

void FriendListModel::markStale(const QStringList &ids)
{
    for (const QString &id : ids) {
        const auto it = m_rowOfId.constFind(id);
        if (it == m_rowOfId.constEnd())
            continue;
        Row &row = m_rows[*it];
        if (!row.exactLive)
            continue;
        row.exactLive = false;
        if (row.coarse) {
            // What the subscription said last is at least as new as the availability set; its
            // next change corrects it if not.
            if (row.state != PresenceState::Unknown)
                row.coarse = row.state;
            continue; // still live
        }
        show(*it, row.state, row.lastSeen, false);
    }
}

void FriendListModel::markAllUnknown()
{
    for (int i = 0; i < m_rows.size(); ++i) {
        Row &row = m_rows[i];
        row.exactLive = false;
        row.coarse.reset();
        show(i, PresenceState::Unknown, row.lastSeen, false);
    }
    m_coveredCount = 0;
}

std::optional<int> FriendListModel::rowOf(const QString &id) const
{
    const auto it = m_rowOfId.constFind(id);
    if (it == m_rowOfId.constEnd())
        return std::nullopt;
    return *it;
}

int FriendListModel::countIn(PresenceState state) const
{
    return int(std::count_if(
        m_rows.cbegin(), m_rows.cend(), [state](const Row &row) { return row.state == state; }));
}

int FriendListModel::countLiveIn(PresenceState state) const
{
    return int(std::count_if(m_rows.cbegin(), m_rows.cend(),
        [state](const Row &row) { return row.fresh && row.state == state; }));
}

int FriendListModel::liveCount() const
{
    return int(
        std::count_if(m_rows.cbegin(), m_rows.cend(), [](const Row &row) { return row.fresh; }));
}

void FriendListModel::setFlushInterval(std::chrono::milliseconds interval)
{
    m_flushTimer.setInterval(interval);
}

std::chrono::milliseconds FriendListModel::flushInterval() const
{
    return m_flushTimer.intervalAsDuration();
}

void FriendListModel::markDirty(int row)
{
    if (m_isDirty[size_t(row)])
        return;
    m_isDirty[size_t(row)] = true;
    m_dirtyRows.push_back(row);
    if (!m_flushTimer.isActive())
        m_flushTimer.start();
}

void FriendListModel::flush()
{
    m_flushTimer.stop();
    if (m_dirtyRows.empty())
        return;
    std::vector<int> rows;
    rows.swap(m_dirtyRows);
    std::sort(rows.begin(), rows.end());
    for (const int row : rows)
        m_isDirty[size_t(row)] = false;
    size_t start = 0;
    for (size_t i = 1; i <= rows.size(); ++i) {
        if (i == rows.size() || rows[i] != rows[i - 1] + 1) {
            for (size_t k = start; k < i; ++k)
                m_rows[rows[k]].announced = sortStateOf(m_rows[rows[k]]);
            Q_EMIT dataChanged(index(rows[start]), index(rows[i - 1]), kPresenceRoles);
            start = i;
        }
    }
    Q_EMIT presenceFlushed();
}

} // namespace Presence::Models
