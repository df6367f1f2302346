#pragma once

// C++
#include <functional>
#include <vector>

// Qt
#include <QString>

// Presence
#include "models/NameCollator.h"

namespace Presence::Models {

// Each row's place in name order (ties by id), kept as rows come, go and are renamed, so that
// comparing two rows by name is comparing two integers. Collation is the expensive part: all
// names are collated in one ranking at first, then only new or renamed ones, placed among the
// others, until they are more than half of all.
class NameRanking {
public:
    using Text = std::function<QString(int row)>;
    // Rows' names and ids are read through these.
    NameRanking(Text name, Text id);

    [[nodiscard]] bool before(int left, int right) const
    {
        return m_rank[size_t(left)] < m_rank[size_t(right)];
    }
    [[nodiscard]] size_t size() const { return m_rank.size(); }

    // Ranks all `rows` names: the one full ranking.
    void rankAll(int rows);
    // After the rows were replaced: `carried`, per new row, its row before with the same
    // name, or -1. The carried keep their order; the others are placed among them.
    void carryOver(const std::vector<int> &carried);
    // `count` new rows at `first`, placed among the others.
    void insertRows(int first, int count);
    // Rows first..last gone; the others keep their order (ranks may have gaps).
    void removeRows(int first, int last);
    // These rows were renamed: placed again among the others.
    void placeAgain(const std::vector<int> &rows);

    // Work done so far, for tests that pin the cost of a change: full rankings, and names
    // collated (one sort key each) in them and in placing a few.
    [[nodiscard]] int fullRankings() const { return m_fullRankings; }
    [[nodiscard]] qint64 namesCollated() const { return m_collator.keysMade(); }

private:
    Text m_name;
    Text m_id;
    NameCollator m_collator;
    std::vector<int> m_rank; // row -> place in name order
    int m_fullRankings = 0;
};

} // namespace Presence::Models
