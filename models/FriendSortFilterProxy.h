#pragma once

// C++
#include <functional>
#include <utility>
#include <vector>

// Qt
#include <QAbstractProxyModel>
#include <QTimer>

// Presence
#include "models/NameRanking.h"

namespace Presence::Models {

class FriendListModel;

// Sorts and filters the friend list for a view, and follows presence storms cheaply.
//
// QSortFilterProxyModel re-sorts (layoutChanged plus a rebuilt mapping) for every
// dataChanged; a flush of scattered rows sends one per row, so 5,000 events a second over
// 100,000 rows froze the view for seconds. This proxy instead collects the rows whose
// availability changed and moves them all in one merge on the next event-loop turn: one
// layoutChanged per flush, O(rows) each. Names are ranked (collation is the expensive part),
// so comparing two rows is comparing two integers; only new or renamed names are collated
// again, placed among the ranked ones, until they are more than half the list.
//
// The source is flat. Its inserts and removes are followed as inserts and removes here (rows
// that land in too many places at once reset); renames as a layout change; its resets, moves
// and layout changes as resets, keeping the ranks of the names FriendListModel carried over.
// Presence changes never reset.
class FriendSortFilterProxy : public QAbstractProxyModel {
    Q_OBJECT
public:
    enum class SortMode {
        Availability, // online, away, then offline and unknown; by name within each
        Name,
    };
    Q_ENUM(SortMode)

    explicit FriendSortFilterProxy(QObject *parent = nullptr);

    void setSourceModel(QAbstractItemModel *source) override;
    [[nodiscard]] QModelIndex mapToSource(const QModelIndex &proxyIndex) const override;
    [[nodiscard]] QModelIndex mapFromSource(const QModelIndex &sourceIndex) const override;
    [[nodiscard]] QModelIndex index(
        int row, int column, const QModelIndex &parent = {}) const override;
    [[nodiscard]] QModelIndex parent(const QModelIndex &child) const override;
    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] bool hasChildren(const QModelIndex &parent = {}) const override;

    void setSortMode(SortMode mode);
    [[nodiscard]] SortMode sortMode() const { return m_mode; }
    // Case-insensitive match on the name or the id, trimmed; empty shows everyone; "@id" shows
    // only the friend with exactly that id.
    void setSearchText(const QString &text);
    [[nodiscard]] QString searchText() const { return m_search; }

    // Moves rows whose availability changed now rather than on the next event-loop turn.
    void applyPendingMoves();
    // While held (the user is scrolling, hovering or moving through the list), rows keep their
    // places: availability changes are shown at once but re-sorting waits for the release.
    // Sort and search changes, which the user asks for, still apply.
    void setMovesHeld(bool held);
    [[nodiscard]] bool movesHeld() const { return m_held; }
    [[nodiscard]] int pendingMoveCount() const { return int(m_pendingMoves.size()); }
    // Work done so far, for tests that pin the cost of a change: rankings of every name (the
    // collation, the expensive part), and rebuilds of everything from the source.
    [[nodiscard]] int nameRankings() const { return m_names.fullRankings(); }
    [[nodiscard]] int rebuilds() const { return m_rebuilds; }
    // Names collated (one sort key each) so far, in full rankings and in placing a few.
    [[nodiscard]] qint64 namesCollated() const { return m_names.namesCollated(); }

private:
    // What a rebuild knows of the names' ranks: nothing, those FriendListModel carried over a
    // reset (see its carriedOver()), or all of them (only rows were removed).
    enum class NameRanks { None, Carried, Kept };

    void connectSource(QAbstractItemModel *source);
    void applyPendingMovesUnlessHeld();
    // Everything from the source: ranks, name order, filter, order.
    void rebuild(NameRanks ranks = NameRanks::None);
    void rankCarriedOver(); // the names' ranks after a reset, from those carried over
    [[nodiscard]] QString nameOf(int sourceRow) const;
    [[nodiscard]] QString idOf(int sourceRow) const;
    void rebuildOrder(); // order and mapping from the current ranks and filter
    void rebuildSourceToProxy();
    void relayout(const std::function<void()> &reorder);
    [[nodiscard]] bool accepts(int sourceRow) const;
    [[nodiscard]] int availabilityOf(int sourceRow) const;
    [[nodiscard]] bool lessThan(int leftSourceRow, int rightSourceRow) const;
    void onSourceDataChanged(
        const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles);
    void onSourceNamesChanged(int first, int last, const QList<int> &roles);
    void emitProxyDataChanged(int firstSourceRow, int lastSourceRow, const QList<int> &roles);
    // How many groups `entering` (sorted) lands in, between the rows of the order that stay.
    [[nodiscard]] size_t landingGroups(
        const std::vector<int> &entering, const std::function<bool(int)> &stays) const;
    // Puts `entering` (sorted, source rows not in the order) in, a group of rows at a time.
    void insertEntering(const std::vector<int> &entering);
    // Takes out runs of proxy rows (first, last), ascending, one removal each from the end.
    void removeRuns(const std::vector<std::pair<int, int>> &runs);
    [[nodiscard]] bool tooScatteredForRuns(size_t runs) const;
    void onSourceRowsInserted(const QModelIndex &parent, int first, int last);
    void onSourceRowsAboutToBeRemoved(const QModelIndex &parent, int first, int last);
    void onSourceRowsRemoved(const QModelIndex &parent, int first, int last);
    void beginSourceReset();
    void endSourceReset(NameRanks ranks = NameRanks::Carried);

    SortMode m_mode = SortMode::Availability;
    QString m_search;
    // Source row -> place in name order. The names are read through nameOf and idOf.
    NameRanking m_names { [this](int row) { return nameOf(row); },
        [this](int row) { return idOf(row); } };
    std::vector<int> m_availability; // source row -> rank the order was built with
    std::vector<bool> m_accepted; // source row -> passes the filter
    std::vector<int> m_proxyToSource;
    std::vector<int> m_sourceToProxy; // -1 when filtered out
    std::vector<int> m_pendingMoves; // source rows whose availability changed
    QTimer m_moveTimer;
    QList<QMetaObject::Connection> m_sourceConnections;
    const FriendListModel *m_friends = nullptr; // the source, when it is one: rows read directly
    bool m_inSourceReset = false;
    bool m_resetForRemoval = false; // the reset begun covers rows being removed
    bool m_held = false;
    int m_rebuilds = 0;
};

} // namespace Presence::Models
