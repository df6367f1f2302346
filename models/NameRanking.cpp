#include "models/NameRanking.h"

// C++
#include <algorithm>
#include <iterator>
#include <numeric>
#include <utility>

namespace Presence::Models {

NameRanking::NameRanking(Text name, Text id)
    : m_name(std::move(name))
    , m_id(std::move(id))
{
}

void NameRanking::rankAll(int rows)
{
    std::vector<QString> names;
    std::vector<QString> ids;
    names.reserve(size_t(rows));
    ids.reserve(size_t(rows));
    for (int row = 0; row < rows; ++row) {
        names.push_back(m_name(row));
        ids.push_back(m_id(row));
    }
    std::vector<int> byName(static_cast<size_t>(rows));
    std::iota(byName.begin(), byName.end(), 0);
    m_collator.sort(
        byName, [&names](int row) { return QStringView(names[size_t(row)]); },
        [&ids](int row) { return QStringView(ids[size_t(row)]); });
    m_rank.assign(size_t(rows), 0);
    for (int position = 0; position < rows; ++position)
        m_rank[size_t(byName[size_t(position)])] = position;
    ++m_fullRankings;
}

void NameRanking::carryOver(const std::vector<int> &carried)
{
    std::vector<int> ranks(carried.size(), 0);
    std::vector<int> unranked;
    for (size_t row = 0; row < carried.size(); ++row) {
        const int was = carried[row];
        if (was >= 0 && size_t(was) < m_rank.size())
            ranks[row] = m_rank[size_t(was)];
        else
            unranked.push_back(int(row));
    }
    m_rank = std::move(ranks);
    placeAgain(unranked);
}

void NameRanking::insertRows(int first, int count)
{
    m_rank.insert(m_rank.begin() + first, size_t(count), 0);
    std::vector<int> added(static_cast<size_t>(count));
    std::iota(added.begin(), added.end(), first);
    placeAgain(added);
}

void NameRanking::removeRows(int first, int last)
{
    m_rank.erase(m_rank.begin() + first, m_rank.begin() + last + 1); // gaps keep the order
}

void NameRanking::placeAgain(const std::vector<int> &unranked)
{
    const size_t rows = m_rank.size();
    // Placing each costs a few comparisons of names; past half the rows, ranking every name
    // costs less.
    if (unranked.size() * 2 > rows) {
        rankAll(int(rows));
        return;
    }
    if (unranked.empty())
        return;
    std::vector<bool> isUnranked(rows, false);
    for (const int row : unranked)
        isUnranked[size_t(row)] = true;
    // The others keep their order: their ranks, distinct, maybe with gaps, each put in its
    // place (no sort).
    int highest = -1;
    for (size_t row = 0; row < rows; ++row) {
        if (!isUnranked[row])
            highest = std::max(highest, m_rank[row]);
    }
    std::vector<int> byRank(size_t(highest + 1), -1);
    for (size_t row = 0; row < rows; ++row) {
        if (!isUnranked[row])
            byRank[size_t(m_rank[row])] = int(row);
    }
    std::vector<int> known;
    known.reserve(rows - unranked.size());
    std::copy_if(byRank.cbegin(), byRank.cend(), std::back_inserter(known),
        [](int row) { return row >= 0; });

    // The unranked in name order, by sort keys made for them only.
    std::vector<QString> names;
    std::vector<QString> ids;
    names.reserve(unranked.size());
    ids.reserve(unranked.size());
    for (const int row : unranked) {
        names.push_back(m_name(row));
        ids.push_back(m_id(row));
    }
    std::vector<int> entering(unranked.size()); // indexes into unranked
    std::iota(entering.begin(), entering.end(), 0);
    m_collator.sort(
        entering, [&names](int i) { return QStringView(names[size_t(i)]); },
        [&ids](int i) { return QStringView(ids[size_t(i)]); });
    // Then merged into the known, each found by galloping from where the one before landed:
    // about log(known / unranked) comparisons each.
    const auto before = [&](int knownRow, int i) {
        const int c = m_collator.compare(m_name(knownRow), names[size_t(i)]);
        return c != 0 ? c < 0 : m_id(knownRow) < ids[size_t(i)];
    };
    int rank = 0;
    size_t next = 0; // in known
    for (const int i : entering) {
        size_t low = next;
        size_t high = next;
        for (size_t step = 1; high < known.size() && before(known[high], i); step *= 2) {
            low = high + 1;
            high += step;
        }
        high = std::min(high, known.size());
        const auto at = std::lower_bound(
            known.begin() + qsizetype(low), known.begin() + qsizetype(high), i, before);
        for (const auto end = size_t(at - known.begin()); next < end; ++next)
            m_rank[size_t(known[next])] = rank++;
        m_rank[size_t(unranked[size_t(i)])] = rank++;
    }
    for (; next < known.size(); ++next)
        m_rank[size_t(known[next])] = rank++;
}

} // namespace Presence::Models
