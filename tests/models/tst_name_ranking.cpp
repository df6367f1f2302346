// NameRanking: rows in name order (ties by id) through rows inserted, removed, renamed and
// carried over a replacement, with only new or renamed names collated, until they are more
// than half of all.
// C++
#include <algorithm>
#include <numeric>
#include <vector>

// Qt
#include <QStringList>
#include <QTest>

// Presence
#include "models/NameRanking.h"

using namespace Qt::StringLiterals;
using Presence::Models::NameRanking;

class TestNameRanking : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void ranksAllOnce();
    void insertedAndRenamedRowsArePlacedAlone();
    void removedRowsLeaveTheOrder();
    void carriedRowsKeepTheirOrder();
    void pastHalfNewEverythingIsRankedAgain();

private:
    // The rows as the ranking orders them, by name.
    [[nodiscard]] QStringList ordered() const
    {
        std::vector<int> rows(size_t(m_names.size()));
        std::iota(rows.begin(), rows.end(), 0);
        std::sort(
            rows.begin(), rows.end(), [this](int a, int b) { return m_ranking.before(a, b); });
        QStringList names;
        for (const int row : rows)
            names.append(m_names.at(row));
        return names;
    }

    QStringList m_names;
    QStringList m_ids;
    NameRanking m_ranking { [this](int row) { return m_names.at(row); },
        [this](int row) { return m_ids.at(row); } };
};

void TestNameRanking::ranksAllOnce()
{
    m_names = { u"user10"_s, u"Émile"_s, u"ada"_s, u"user2"_s, u"Ada"_s };
    m_ids = { u"e"_s, u"d"_s, u"c"_s, u"b"_s, u"a"_s };
    const int rankings = m_ranking.fullRankings();
    const qint64 collated = m_ranking.namesCollated();
    m_ranking.rankAll(int(m_names.size()));
    // Ada and ada tie on the name: the id decides (a before c).
    QCOMPARE(ordered(), (QStringList { u"Ada"_s, u"ada"_s, u"Émile"_s, u"user2"_s, u"user10"_s }));
    QCOMPARE(m_ranking.fullRankings() - rankings, 1);
    QCOMPARE(m_ranking.namesCollated() - collated, 5);
}

void TestNameRanking::insertedAndRenamedRowsArePlacedAlone()
{
    m_names = { u"b"_s, u"d"_s, u"f"_s, u"h"_s, u"j"_s, u"l"_s };
    m_ids = { u"1"_s, u"2"_s, u"3"_s, u"4"_s, u"5"_s, u"6"_s };
    m_ranking.rankAll(int(m_names.size()));
    const int rankings = m_ranking.fullRankings();
    const qint64 collated = m_ranking.namesCollated();

    m_names.insert(2, u"e"_s);
    m_ids.insert(2, u"7"_s);
    m_ranking.insertRows(2, 1);
    QCOMPARE(ordered(), (QStringList { u"b"_s, u"d"_s, u"e"_s, u"f"_s, u"h"_s, u"j"_s, u"l"_s }));
    QCOMPARE(m_ranking.namesCollated() - collated, 1);

    m_names[0] = u"k"_s;
    m_ranking.placeAgain({ 0 });
    QCOMPARE(ordered(), (QStringList { u"d"_s, u"e"_s, u"f"_s, u"h"_s, u"j"_s, u"k"_s, u"l"_s }));
    QCOMPARE(m_ranking.namesCollated() - collated, 2);
    QCOMPARE(m_ranking.fullRankings(), rankings);
}

void TestNameRanking::removedRowsLeaveTheOrder()
{
    m_names = { u"c"_s, u"a"_s, u"e"_s, u"b"_s, u"d"_s };
    m_ids = { u"1"_s, u"2"_s, u"3"_s, u"4"_s, u"5"_s };
    m_ranking.rankAll(int(m_names.size()));
    const qint64 collated = m_ranking.namesCollated();
    m_names.remove(1, 2);
    m_ids.remove(1, 2);
    m_ranking.removeRows(1, 2);
    QCOMPARE(m_ranking.size(), size_t(3));
    QCOMPARE(ordered(), (QStringList { u"b"_s, u"c"_s, u"d"_s }));
    QCOMPARE(m_ranking.namesCollated(), collated);
}

void TestNameRanking::carriedRowsKeepTheirOrder()
{
    m_names = { u"d"_s, u"b"_s, u"f"_s, u"a"_s, u"h"_s, u"c"_s };
    m_ids = { u"1"_s, u"2"_s, u"3"_s, u"4"_s, u"5"_s, u"6"_s };
    m_ranking.rankAll(int(m_names.size()));
    const int rankings = m_ranking.fullRankings();
    const qint64 collated = m_ranking.namesCollated();
    // Replaced: rows 0, 2, 4 and 5 stay (in another order), one is new, b is gone.
    m_names = { u"h"_s, u"c"_s, u"e"_s, u"d"_s, u"f"_s, u"a"_s };
    m_ids = { u"5"_s, u"6"_s, u"7"_s, u"1"_s, u"3"_s, u"4"_s };
    m_ranking.carryOver({ 4, 5, -1, 0, 2, 3 });
    QCOMPARE(ordered(), (QStringList { u"a"_s, u"c"_s, u"d"_s, u"e"_s, u"f"_s, u"h"_s }));
    QCOMPARE(m_ranking.namesCollated() - collated, 1);
    QCOMPARE(m_ranking.fullRankings(), rankings);
}

void TestNameRanking::pastHalfNewEverythingIsRankedAgain()
{
    m_names = { u"b"_s, u"a"_s, u"c"_s };
    m_ids = { u"1"_s, u"2"_s, u"3"_s };
    m_ranking.rankAll(3);
    const int rankings = m_ranking.fullRankings();
    m_names = { u"z"_s, u"y"_s, u"c"_s };
    m_ranking.placeAgain({ 0, 1 });
    QCOMPARE(ordered(), (QStringList { u"c"_s, u"y"_s, u"z"_s }));
    QCOMPARE(m_ranking.fullRankings() - rankings, 1);
}

QTEST_APPLESS_MAIN(TestNameRanking)
#include "tst_name_ranking.moc"
