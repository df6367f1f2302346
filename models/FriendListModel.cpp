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

// In setFriends: a friend listed before with the same id, left out.
constexpr int kDuplicate = -2;

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

// "Elena Haddad" and "elena  haddad" look alike at a glance: they count as the same name.
QString namesakeKey(const QString &shown)
{
    return shown.simplified().toCaseFolded();
}

// FNV-1a over UTF-16 units: equal keys hash equal, and a collision costs only a comparison.
constexpr quint64 kHashStart = 14695981039346656037ULL;
constexpr quint64 hashStep(quint64 hash, char16_t unit)
{
    return (hash ^ unit) * 1099511628211ULL;
}

// namesakeKey(shown)'s hash. For the usual all-ASCII name it is computed without building the
// key, since there simplified() and toCaseFolded() are trimming, one space for each run of
// spaces, and lower case; any other name goes the long way.
quint64 namesakeKeyHash(const QString &shown)
{
    quint64 hash = kHashStart;
    bool spaceDue = false;
    bool started = false;
    for (const QChar c : shown) {
        const char16_t unit = c.unicode();
        if (unit >= 0x80) {
            hash = kHashStart;
            for (const QChar k : namesakeKey(shown))
                hash = hashStep(hash, k.unicode());
            return hash;
        }
        if (unit == u' ' || (unit >= u'\t' && unit <= u'\r')) {
            spaceDue = started;
            continue;
        }
        if (spaceDue)
            hash = hashStep(hash, u' ');
        spaceDue = false;
        started = true;
        hash = hashStep(hash, unit >= u'A' && unit <= u'Z' ? char16_t(unit + 32) : unit);
    }
    return hash;
}

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
    // Where each friend was: mostly the row after the last one found, else one lookup in the
    // index the model keeps anyway. A duplicate id would make two rows for one friend: the
    // first one wins.
    std::vector<int> from; // per friend: its row now, or -1 when new; kDuplicate to drop
    from.reserve(size_t(input.size()));
    std::vector<bool> taken(size_t(m_rows.size()), false);
    QSet<QString> newIds;
    qsizetype duplicates = 0;
    qsizetype next = 0; // the row after the last one found
    for (const FriendRecord &f : input) {
        int row = -1;
        if (next < m_rows.size() && m_rows.at(next).id == f.id)
            row = int(next);
        else if (const auto it = m_rowOfId.constFind(f.id); it != m_rowOfId.constEnd())
            row = *it;
        if (row >= 0 ? taken[size_t(row)] : newIds.contains(f.id)) {
            from.push_back(kDuplicate);
            ++duplicates;
            continue;
        }
        if (row >= 0) {
            taken[size_t(row)] = true;
            next = row + 1;
        } else {
            newIds.insert(f.id);
        }
        from.push_back(row);
    }
    if (duplicates == 0) {
        apply(input, from);
        return;
    }
    QList<FriendRecord> friends;
    friends.reserve(input.size() - duplicates);
    for (qsizetype i = 0; i < input.size(); ++i) {
        if (from[size_t(i)] != kDuplicate)
            friends.append(input.at(i));
    }
    std::erase(from, kDuplicate);
    if (!sameAsRows(friends))
        apply(friends, from);
}

void FriendListModel::apply(const QList<FriendRecord> &friends, const std::vector<int> &from)
{
    // A first list, or one with nobody left, is new: a reset says so in one step.
    if (!applyInPlace(friends, from))
        reset(friends, from);
}

bool FriendListModel::applyInPlace(const QList<FriendRecord> &friends, const std::vector<int> &from)
{
    // Friends who stay must keep their order; then rows come and go around them and the
    // views keep their scroll position, selection and the rows they show.
    std::vector<int> to(size_t(m_rows.size()), -1); // per row now: its row after, or -1
    int last = -1;
    size_t edits = 0; // runs of rows that go, then groups of rows that come
    for (size_t i = 0; i < from.size(); ++i) {
        if (from[i] < 0) {
            edits += i == 0 || from[i - 1] >= 0 ? 1 : 0;
            continue;
        }
        if (from[i] < last)
            return false;
        last = from[i];
        to[size_t(from[i])] = int(i);
    }
    if (last < 0)
        return false; // nobody stays
    for (size_t row = 0; row < to.size(); ++row)
        edits += to[row] < 0 && (row == 0 || to[row - 1] >= 0) ? 1 : 0;
    // Each edit costs its listeners a pass over the rows (a proxy renumbers, the list moves
    // its tail): past this much work one reset, one sort, is cheaper than the edits.
    constexpr size_t kMaxEditWork = 2'000'000;
    if (edits * std::max(to.size(), from.size()) > kMaxEditWork)
        return false;

    // Rows that go, a run at a time from the end, so earlier numbers hold.
    for (qsizetype end = m_rows.size(); end > 0;) {
        if (to[size_t(end - 1)] >= 0) {
            --end;
            continue;
        }
        qsizetype first = end - 1;
        while (first > 0 && to[size_t(first - 1)] < 0)
            --first;
        beginRemoveRows({}, int(first), int(end - 1));
        m_rows.remove(first, end - first);
        endRemoveRows();
        end = first;
    }
    // Rows that come, a group at a time; a row that stays may get a new name.
    std::vector<bool> renamed(size_t(friends.size()), false);
    for (qsizetype i = 0; i < friends.size();) {
        if (from[size_t(i)] >= 0) {
            if (m_rows.at(i).name != friends.at(i).name) {
                m_rows[i].name = friends.at(i).name;
                m_rows[i].nameKey = nameKeyOf(m_rows.at(i));
                renamed[size_t(i)] = true;
            }
            ++i;
            continue;
        }
        qsizetype end = i + 1; // new friends up to the next row that stays
        while (end < friends.size() && from[size_t(end)] < 0)
            ++end;
        m_rows.reserve(friends.size()); // no reallocation per group
        beginInsertRows({}, int(i), int(end - 1));
        m_rows.insert(i, end - i, Row {}); // one move of the tail for the whole group
        for (qsizetype k = i; k < end; ++k) {
            m_rows[k].id = friends.at(k).id;
            m_rows[k].name = friends.at(k).name;
            m_rows[k].nameKey = nameKeyOf(m_rows.at(k));
        }
        endInsertRows();
        i = end;
    }
    renumber(friends, from, to);
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

void FriendListModel::reset(const QList<FriendRecord> &friends, const std::vector<int> &from)
{
    beginResetModel();
    QList<Row> previous = std::exchange(m_rows, {});
    m_rows.reserve(friends.size());
    std::vector<int> to(size_t(previous.size()), -1);
    m_carriedOver.assign(size_t(friends.size()), -1);
    for (qsizetype i = 0; i < friends.size(); ++i) {
        const FriendRecord &f = friends.at(i);
        const int was = from[size_t(i)];
        Row row = was >= 0 ? std::move(previous[was]) : Row {};
        if (was >= 0) {
            to[size_t(was)] = int(i);
            if (row.name == f.name)
                m_carriedOver[size_t(i)] = was;
        }
        if (was < 0 || row.name != f.name) {
            row.id = f.id;
            row.name = f.name;
            row.nameKey = nameKeyOf(row);
        }
        row.announced = sortStateOf(row); // a reset tells views everything
        m_rows.append(std::move(row));
    }
    m_dirtyRows.clear(); // a reset tells views everything
    renumber(friends, from, to);
    findSharedNames();
    m_coveredCount = int(std::count_if(
        m_rows.cbegin(), m_rows.cend(), [](const Row &row) { return row.coarse.has_value(); }));
    m_flushTimer.stop();
    endResetModel();
    m_carriedOver.clear(); // only listeners of this reset may use it
}

void FriendListModel::renumber(
    const QList<FriendRecord> &friends, const std::vector<int> &from, const std::vector<int> &to)
{
    // The index follows the rows without hashing the ids of those that stay.
    // Renumbered first, then those gone erased: QHash::erase may move an entry the loop has
    // passed to where it comes again, so the erasing pass must change nothing.
    for (auto it = m_rowOfId.begin(); it != m_rowOfId.end(); ++it)
        it.value() = to[size_t(it.value())];
    m_rowOfId.removeIf(
        [](const std::pair<const QString &, int &> &entry) { return entry.second < 0; });
    for (size_t i = 0; i < from.size(); ++i) {
        if (from[i] < 0)
            m_rowOfId.insert(friends.at(qsizetype(i)).id, int(i));
    }
    // Changes not yet told name rows by number, and the numbers moved.
    std::vector<int> dirty;
    dirty.reserve(m_dirtyRows.size());
    for (const int row : m_dirtyRows) {
        if (const int now = to[size_t(row)]; now >= 0)
            dirty.push_back(now);
    }
    m_dirtyRows = std::move(dirty);
    m_isDirty.assign(size_t(m_rows.size()), false);
    for (const int row : m_dirtyRows)
        m_isDirty[size_t(row)] = true;
}

const QString &FriendListModel::shownName(const Row &row)
{
    return row.name.isEmpty() ? row.id : row.name; // a nameless friend is called by the id
}

quint32 FriendListModel::nameKeyOf(const Row &row)
{
    const quint64 hash = namesakeKeyHash(shownName(row));
    return quint32(hash ^ (hash >> 32));
}

void FriendListModel::findSharedNames()
{
    // Rows whose keys' hashes are equal are namesakes unless the hashes collided: sorting the
    // hashes finds them, and only they are compared as text.
    std::vector<std::pair<quint32, int>> keys;
    keys.reserve(size_t(m_rows.size()));
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        keys.emplace_back(m_rows.at(i).nameKey, int(i));
        m_rows[i].nameShared = false;
    }
    std::sort(keys.begin(), keys.end());
    for (size_t first = 0; first < keys.size();) {
        size_t end = first + 1;
        while (end < keys.size() && keys[end].first == keys[first].first)
            ++end;
        if (end - first > 1) {
            QHash<QString, int> count;
            for (size_t k = first; k < end; ++k)
                ++count[namesakeKey(shownName(m_rows.at(keys[k].second)))];
            for (size_t k = first; k < end; ++k) {
                Row &row = m_rows[keys[k].second];
                row.nameShared = count.value(namesakeKey(shownName(row))) > 1;
            }
        }
        first = end;
    }
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
