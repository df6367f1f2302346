#include "models/FriendSortFilterProxy.h"

// C++
#include <algorithm>
#include <numeric>

// Presence
#include "models/FriendListModel.h"

namespace Presence::Models {

FriendSortFilterProxy::FriendSortFilterProxy(QObject *parent)
    : QAbstractProxyModel(parent)
{
    m_moveTimer.setSingleShot(true);
    m_moveTimer.setInterval(0);
    connect(
        &m_moveTimer, &QTimer::timeout, this, &FriendSortFilterProxy::applyPendingMovesUnlessHeld);
}

void FriendSortFilterProxy::setSourceModel(QAbstractItemModel *source)
{
    beginResetModel();
    for (const auto &connection : std::as_const(m_sourceConnections))
        disconnect(connection);
    m_sourceConnections.clear();
    QAbstractProxyModel::setSourceModel(source);
    m_friends = qobject_cast<const FriendListModel *>(source);
    if (source)
        connectSource(source);
    rebuild();
    endResetModel();
}

void FriendSortFilterProxy::connectSource(QAbstractItemModel *source)
{
    using M = QAbstractItemModel;
    const auto begin = [this] { beginSourceReset(); };
    const auto end = [this] { endSourceReset(); };
    m_sourceConnections = {
        connect(source, &M::dataChanged, this, &FriendSortFilterProxy::onSourceDataChanged),
        connect(source, &M::modelAboutToBeReset, this, begin),
        connect(source, &M::modelReset, this, end),
        // Rows come and go without a reset (friends added or removed while connected).
        connect(source, &M::rowsInserted, this, &FriendSortFilterProxy::onSourceRowsInserted),
        connect(source, &M::rowsAboutToBeRemoved, this,
            &FriendSortFilterProxy::onSourceRowsAboutToBeRemoved),
        connect(source, &M::rowsRemoved, this, &FriendSortFilterProxy::onSourceRowsRemoved),
        connect(source, &M::rowsAboutToBeMoved, this, begin),
        connect(source, &M::rowsMoved, this, end),
        connect(source, &M::layoutAboutToBeChanged, this, begin),
        connect(source, &M::layoutChanged, this, end),
    };
    // Our own model says when a flush is complete: move rows then, in the same event as the
    // dataChanged, so no frame is painted unsorted. Other sources get the next-turn timer.
    if (auto *friends = qobject_cast<FriendListModel *>(source)) {
        m_sourceConnections.append(connect(friends, &FriendListModel::presenceFlushed, this,
            &FriendSortFilterProxy::applyPendingMovesUnlessHeld));
    }
}

void FriendSortFilterProxy::beginSourceReset()
{
    if (m_inSourceReset)
        return;
    m_inSourceReset = true;
    beginResetModel();
}

void FriendSortFilterProxy::endSourceReset(NameRanks ranks)
{
    if (!m_inSourceReset)
        return;
    rebuild(ranks);
    m_inSourceReset = false;
    endResetModel();
}

QModelIndex FriendSortFilterProxy::mapToSource(const QModelIndex &proxyIndex) const
{
    if (!proxyIndex.isValid() || !sourceModel() || proxyIndex.model() != this
        || size_t(proxyIndex.row()) >= m_proxyToSource.size())
        return {};
    return sourceModel()->index(m_proxyToSource[size_t(proxyIndex.row())], proxyIndex.column());
}

QModelIndex FriendSortFilterProxy::mapFromSource(const QModelIndex &sourceIndex) const
{
    if (!sourceIndex.isValid() || sourceIndex.model() != sourceModel()
        || size_t(sourceIndex.row()) >= m_sourceToProxy.size())
        return {};
    const int row = m_sourceToProxy[size_t(sourceIndex.row())];
    return row < 0 ? QModelIndex() : createIndex(row, sourceIndex.column());
}

QModelIndex FriendSortFilterProxy::index(int row, int column, const QModelIndex &parent) const
{
    if (parent.isValid() || row < 0 || size_t(row) >= m_proxyToSource.size() || column < 0
        || column >= columnCount())
        return {};
    return createIndex(row, column);
}

QModelIndex FriendSortFilterProxy::parent(const QModelIndex &) const
{
    return {};
}

int FriendSortFilterProxy::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_proxyToSource.size());
}

int FriendSortFilterProxy::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() || !sourceModel() ? 0 : sourceModel()->columnCount();
}

bool FriendSortFilterProxy::hasChildren(const QModelIndex &parent) const
{
    return !parent.isValid() && !m_proxyToSource.empty();
}

void FriendSortFilterProxy::setSortMode(SortMode mode)
{
    if (m_mode == mode)
        return;
    applyPendingMoves();
    relayout([this, mode] {
        m_mode = mode;
        rebuildOrder();
    });
}

void FriendSortFilterProxy::relayout(const std::function<void()> &reorder)
{
    // Same rows, new order: persistent indexes (selection, current row) follow their rows.
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    QList<int> sourceRows;
    sourceRows.reserve(before.size());
    for (const QModelIndex &index : before)
        sourceRows.append(m_proxyToSource[size_t(index.row())]);
    reorder();
    QModelIndexList after;
    after.reserve(before.size());
    for (qsizetype i = 0; i < before.size(); ++i)
        after.append(createIndex(m_sourceToProxy[size_t(sourceRows[i])], before[i].column()));
    changePersistentIndexList(before, after);
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void FriendSortFilterProxy::setSearchText(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed == m_search)
        return;
    applyPendingMoves();
    m_search = trimmed;
    const size_t rows = m_accepted.size();
    std::vector<bool> accepted(rows);
    for (size_t row = 0; row < rows; ++row)
        accepted[row] = accepts(int(row));

    // Rows leaving, as runs of proxy rows; rows entering, grouped by where they land.
    std::vector<std::pair<int, int>> leaving;
    for (size_t i = 0; i < m_proxyToSource.size(); ++i) {
        if (accepted[size_t(m_proxyToSource[i])])
            continue;
        if (!leaving.empty() && leaving.back().second == int(i) - 1)
            leaving.back().second = int(i);
        else
            leaving.push_back({ int(i), int(i) });
    }
    std::vector<int> entering;
    for (size_t row = 0; row < rows; ++row) {
        if (accepted[row] && !m_accepted[row])
            entering.push_back(int(row));
    }
    const auto less = [this](int a, int b) { return lessThan(a, b); };
    std::sort(entering.begin(), entering.end(), less);

    // Typing in the search box should keep the view's selection and scroll position, so
    // rows are removed and inserted; a change that scatters into very many runs resets.
    constexpr size_t kMaxRuns = 64;
    // Entering rows land in groups between rows that stay: count the groups (in one merge
    // pass) so that a scattered change resets instead of doing a vector insert per group.
    const size_t enterGroups
        = landingGroups(entering, [&accepted](int row) { return bool(accepted[size_t(row)]); });
    if (leaving.size() > kMaxRuns || enterGroups > kMaxRuns) {
        beginResetModel();
        m_accepted = std::move(accepted);
        rebuildOrder();
        endResetModel();
        return;
    }
    removeRuns(leaving);
    insertEntering(entering);
}

void FriendSortFilterProxy::removeRuns(const std::vector<std::pair<int, int>> &runs)
{
    for (auto run = runs.crbegin(); run != runs.crend(); ++run) {
        beginRemoveRows({}, run->first, run->second);
        for (int i = run->first; i <= run->second; ++i)
            m_accepted[size_t(m_proxyToSource[size_t(i)])] = false;
        m_proxyToSource.erase(
            m_proxyToSource.begin() + run->first, m_proxyToSource.begin() + run->second + 1);
        rebuildSourceToProxy();
        endRemoveRows();
    }
}

size_t FriendSortFilterProxy::landingGroups(
    const std::vector<int> &entering, const std::function<bool(int)> &stays) const
{
    // One merge pass over the order: a group ends at each row that stays.
    size_t groups = 0;
    size_t staying = 0;
    bool inGroup = false;
    for (const int row : entering) {
        while (staying < m_proxyToSource.size()
            && (!stays(m_proxyToSource[staying]) || lessThan(m_proxyToSource[staying], row))) {
            inGroup = inGroup && !stays(m_proxyToSource[staying]);
            ++staying;
        }
        if (!inGroup)
            ++groups;
        inGroup = true;
    }
    return groups;
}

void FriendSortFilterProxy::insertEntering(const std::vector<int> &entering)
{
    const auto less = [this](int a, int b) { return lessThan(a, b); };
    size_t next = 0;
    while (next < entering.size()) {
        const auto at = std::lower_bound(
            m_proxyToSource.begin(), m_proxyToSource.end(), entering[next], less);
        const int position = int(at - m_proxyToSource.begin());
        size_t end = next + 1; // the following rows that land in the same gap
        while (
            end < entering.size() && (at == m_proxyToSource.end() || lessThan(entering[end], *at)))
            ++end;
        beginInsertRows({}, position, position + int(end - next) - 1);
        m_proxyToSource.insert(
            at, entering.begin() + qsizetype(next), entering.begin() + qsizetype(end));
        for (size_t i = next; i < end; ++i)
            m_accepted[size_t(entering[i])] = true;
        rebuildSourceToProxy();
        endInsertRows();
        next = end;
    }
}

bool FriendSortFilterProxy::tooScatteredForRuns(size_t runs) const
{
    // Each run costs a pass over the order (and the view's own work): past this much, one
    // reset is cheaper than the runs, and a change that scattered is no edit to follow anyway.
    constexpr size_t kMaxRunWork = 64 * 100'000;
    return runs * std::max<size_t>(m_accepted.size(), 1) > kMaxRunWork;
}

void FriendSortFilterProxy::onSourceRowsInserted(const QModelIndex &parent, int first, int last)
{
    if (parent.isValid() || m_inSourceReset)
        return;
    const auto count = size_t(last - first) + 1;
    for (auto *rows : { &m_proxyToSource, &m_pendingMoves }) {
        for (int &row : *rows) {
            if (row >= first)
                row += int(count);
        }
    }
    const auto at = [first](auto &values) { return values.begin() + first; };
    m_availability.insert(at(m_availability), count, 0);
    m_accepted.insert(at(m_accepted), count, false);
    m_names.insertRows(first, int(count)); // their names among the others'

    rebuildSourceToProxy();
    std::vector<int> entering;
    for (int row = first; row <= last; ++row) {
        m_availability[size_t(row)] = availabilityOf(row);
        if (accepts(row))
            entering.push_back(row);
    }
    const auto less = [this](int a, int b) { return lessThan(a, b); };
    std::sort(entering.begin(), entering.end(), less);
    if (tooScatteredForRuns(landingGroups(entering, [](int) { return true; }))) {
        beginResetModel();
        for (const int row : entering)
            m_accepted[size_t(row)] = true;
        rebuildOrder();
        endResetModel();
        return;
    }
    insertEntering(entering);
}

void FriendSortFilterProxy::onSourceRowsAboutToBeRemoved(
    const QModelIndex &parent, int first, int last)
{
    if (parent.isValid() || m_inSourceReset)
        return;
    // Those going need not move any more.
    std::erase_if(m_pendingMoves, [first, last](int row) { return row >= first && row <= last; });
    // The rows' places here, as runs of proxy rows, removed from the end while the source
    // still has them.
    std::vector<int> proxyRows;
    for (int row = first; row <= last; ++row) {
        if (const int proxyRow = m_sourceToProxy[size_t(row)]; proxyRow >= 0)
            proxyRows.push_back(proxyRow);
    }
    std::sort(proxyRows.begin(), proxyRows.end());
    std::vector<std::pair<int, int>> runs;
    for (const int row : proxyRows) {
        if (!runs.empty() && runs.back().second == row - 1)
            runs.back().second = row;
        else
            runs.push_back({ row, row });
    }
    if (tooScatteredForRuns(runs.size())) {
        beginSourceReset(); // ended once the source has removed them
        m_resetForRemoval = true;
        return;
    }
    removeRuns(runs);
}

void FriendSortFilterProxy::onSourceRowsRemoved(const QModelIndex &parent, int first, int last)
{
    if (parent.isValid())
        return;
    const auto erase = [first, last](auto &values) {
        values.erase(values.begin() + first, values.begin() + last + 1);
    };
    if (m_inSourceReset) {
        // Those that stay keep their ranks: the reset re-sorts, but ranks no name again.
        const bool ranked = std::exchange(m_resetForRemoval, false);
        if (ranked)
            m_names.removeRows(first, last);
        endSourceReset(ranked ? NameRanks::Kept : NameRanks::Carried);
        return;
    }
    // Nothing here shows them any more: renumber the source rows after them.
    const auto count = last - first + 1;
    for (auto *rows : { &m_proxyToSource, &m_pendingMoves }) {
        for (int &row : *rows) {
            if (row > last)
                row -= count;
        }
    }
    m_names.removeRows(first, last);
    erase(m_availability);
    erase(m_accepted);
    rebuildSourceToProxy();
}

void FriendSortFilterProxy::rebuildSourceToProxy()
{
    m_sourceToProxy.assign(m_accepted.size(), -1);
    for (size_t i = 0; i < m_proxyToSource.size(); ++i)
        m_sourceToProxy[size_t(m_proxyToSource[i])] = int(i);
}

bool FriendSortFilterProxy::accepts(int sourceRow) const
{
    if (m_search.isEmpty())
        return true;
    const QModelIndex index = sourceModel()->index(sourceRow, 0);
    // "@user2" names one friend by id: "user2" alone also matches user20 to user29.
    if (m_search.size() > 1 && m_search.startsWith(u'@'))
        return index.data(FriendListModel::IdRole)
                   .toString()
                   .compare(QStringView(m_search).mid(1), Qt::CaseInsensitive)
            == 0;
    return index.data(FriendListModel::NameRole).toString().contains(m_search, Qt::CaseInsensitive)
        || index.data(FriendListModel::IdRole).toString().contains(m_search, Qt::CaseInsensitive);
}

int FriendSortFilterProxy::availabilityOf(int sourceRow) const
{
    // The announced sort status, never the live one: see FriendListModel::SortStatusRole.
    const QVariant value = sourceModel()->index(sourceRow, 0).data(FriendListModel::SortStatusRole);
    return availabilityRank(PresenceState(value.toInt()));
}

bool FriendSortFilterProxy::lessThan(int left, int right) const
{
    if (m_mode == SortMode::Availability) {
        const int l = m_availability[size_t(left)];
        const int r = m_availability[size_t(right)];
        if (l != r)
            return l < r;
    }
    return m_names.before(left, right);
}

void FriendSortFilterProxy::rebuild(NameRanks ranks)
{
    ++m_rebuilds;
    m_pendingMoves.clear();
    m_moveTimer.stop();
    const int rows = sourceModel() ? sourceModel()->rowCount() : 0;
    if (ranks == NameRanks::Carried)
        rankCarriedOver();
    else if (ranks == NameRanks::None || m_names.size() != size_t(rows))
        m_names.rankAll(rows);
    m_availability.resize(size_t(rows));
    m_accepted.resize(size_t(rows));
    for (int row = 0; row < rows; ++row) {
        m_availability[size_t(row)] = availabilityOf(row);
        m_accepted[size_t(row)] = accepts(row);
    }
    rebuildOrder();
}

void FriendSortFilterProxy::rankCarriedOver()
{
    // Across a reset of FriendListModel, friends there before with the same name keep the
    // order they had: only the others are ranked, among them.
    const int rows = sourceModel() ? sourceModel()->rowCount() : 0;
    if (m_friends && m_friends->carriedOver().size() == size_t(rows))
        m_names.carryOver(m_friends->carriedOver());
    else
        m_names.rankAll(rows);
}

QString FriendSortFilterProxy::nameOf(int sourceRow) const
{
    return m_friends
        ? m_friends->nameAt(sourceRow)
        : sourceModel()->index(sourceRow, 0).data(FriendListModel::NameRole).toString();
}

QString FriendSortFilterProxy::idOf(int sourceRow) const
{
    return m_friends ? m_friends->idAt(sourceRow)
                     : sourceModel()->index(sourceRow, 0).data(FriendListModel::IdRole).toString();
}

void FriendSortFilterProxy::rebuildOrder()
{
    const size_t rows = m_accepted.size();
    m_proxyToSource.clear();
    for (size_t row = 0; row < rows; ++row) {
        if (m_accepted[row])
            m_proxyToSource.push_back(int(row));
    }
    std::sort(m_proxyToSource.begin(), m_proxyToSource.end(),
        [this](int a, int b) { return lessThan(a, b); });
    rebuildSourceToProxy();
}

void FriendSortFilterProxy::onSourceDataChanged(
    const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles)
{
    if (m_inSourceReset || !topLeft.isValid() || !bottomRight.isValid())
        return;
    const int first = topLeft.row();
    const int last = bottomRight.row();
    const bool all = roles.isEmpty();
    if (all || roles.contains(FriendListModel::IdRole)) {
        // Ids changed (FriendListModel never does this; other sources might).
        beginSourceReset();
        endSourceReset();
        return;
    }
    if (roles.contains(FriendListModel::NameRole) || roles.contains(Qt::DisplayRole)) {
        onSourceNamesChanged(first, last, roles);
        return;
    }
    if (roles.contains(FriendListModel::SortStatusRole)) {
        for (int row = first; row <= last; ++row) {
            const int rank = availabilityOf(row);
            if (rank == m_availability[size_t(row)])
                continue;
            if (m_mode == SortMode::Availability && m_accepted[size_t(row)])
                m_pendingMoves.push_back(row); // moved with the others on the next turn
            else
                m_availability[size_t(row)] = rank;
        }
        if (!m_pendingMoves.empty() && !m_moveTimer.isActive())
            m_moveTimer.start();
    }
    emitProxyDataChanged(first, last, roles);
}

void FriendSortFilterProxy::onSourceNamesChanged(int first, int last, const QList<int> &roles)
{
    // Renamed friends: one ranking of all names however many changed (FriendListModel tells a
    // reload's renames as one range), and the rows keep their selection and the view its
    // anchor. A rename that changes who matches the search is rare enough to reset.
    for (int row = first; row <= last; ++row) {
        if (accepts(row) != m_accepted[size_t(row)]) {
            beginSourceReset();
            endSourceReset();
            return;
        }
    }
    relayout([this, first, last] {
        std::vector<int> renamed(size_t(last - first) + 1);
        std::iota(renamed.begin(), renamed.end(), first);
        m_names.placeAgain(renamed);
        rebuildOrder();
    });
    emitProxyDataChanged(first, last, roles);
}

void FriendSortFilterProxy::emitProxyDataChanged(
    int firstSourceRow, int lastSourceRow, const QList<int> &roles)
{
    // One signal per run of consecutive proxy rows among the changed source rows.
    std::vector<int> proxyRows;
    proxyRows.reserve(size_t(lastSourceRow - firstSourceRow) + 1);
    for (int row = firstSourceRow; row <= lastSourceRow; ++row) {
        const int proxyRow = m_sourceToProxy[size_t(row)];
        if (proxyRow >= 0)
            proxyRows.push_back(proxyRow);
    }
    std::sort(proxyRows.begin(), proxyRows.end());
    const int lastColumn = columnCount() - 1;
    size_t start = 0;
    for (size_t i = 1; i <= proxyRows.size(); ++i) {
        if (i == proxyRows.size() || proxyRows[i] != proxyRows[i - 1] + 1) {
            Q_EMIT dataChanged(
                createIndex(proxyRows[start], 0), createIndex(proxyRows[i - 1], lastColumn), roles);
            start = i;
        }
    }
}

void FriendSortFilterProxy::setMovesHeld(bool held)
{
    if (m_held == held)
        return;
    m_held = held;
    if (!held)
        applyPendingMoves();
}

void FriendSortFilterProxy::applyPendingMovesUnlessHeld()
{
    if (m_held)
        m_moveTimer.stop(); // the release applies them
    else
        applyPendingMoves();
}

void FriendSortFilterProxy::applyPendingMoves()
{
    m_moveTimer.stop();
    if (m_pendingMoves.empty())
        return;
    std::vector<int> moving;
    moving.swap(m_pendingMoves);
    std::sort(moving.begin(), moving.end());
    moving.erase(std::unique(moving.begin(), moving.end()), moving.end());

    relayout([&] {
        // Take the moving rows out, give them their new rank, and merge them back in:
        // O(rows + moved log moved) for the whole batch.
        std::vector<bool> isMoving(m_accepted.size(), false);
        for (const int row : moving) {
            isMoving[size_t(row)] = true;
            m_availability[size_t(row)] = availabilityOf(row);
        }
        std::vector<int> staying;
        staying.reserve(m_proxyToSource.size());
        for (const int row : m_proxyToSource) {
            if (!isMoving[size_t(row)])
                staying.push_back(row);
        }
        const auto less = [this](int a, int b) { return lessThan(a, b); };
        std::sort(moving.begin(), moving.end(), less);
        m_proxyToSource.clear();
        std::merge(staying.cbegin(), staying.cend(), moving.cbegin(), moving.cend(),
            std::back_inserter(m_proxyToSource), less);
        for (size_t i = 0; i < m_proxyToSource.size(); ++i)
            m_sourceToProxy[size_t(m_proxyToSource[i])] = int(i);
    });
}

} // namespace Presence::Models
