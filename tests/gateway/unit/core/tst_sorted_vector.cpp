// SortedVector.h: the gateway's compact sets of numbers keep their values ascending and unique.

// C++
#include <algorithm>
#include <random>
#include <set>
#include <vector>

// Qt
#include <QTest>

// Presence
#include "server-mock/core/SortedVector.h"

using Presence::Server::eraseSorted;
using Presence::Server::insertSorted;

class TestSortedVector : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void insertKeepsOrderAndRefusesRepeats();
    void eraseFindsOnlyWhatIsThere();
    void matchesAStdSetUnderRandomChanges();
};

void TestSortedVector::insertKeepsOrderAndRefusesRepeats()
{
    std::vector<unsigned> values;
    QVERIFY(insertSorted(values, 5u));
    QVERIFY(insertSorted(values, 9u)); // appended
    QVERIFY(insertSorted(values, 1u)); // at the front
    QVERIFY(insertSorted(values, 7u)); // in between
    QVERIFY(!insertSorted(values, 7u));
    QVERIFY(!insertSorted(values, 9u));
    QCOMPARE(values, (std::vector<unsigned> { 1, 5, 7, 9 }));
}

void TestSortedVector::eraseFindsOnlyWhatIsThere()
{
    std::vector<unsigned> values { 1, 5, 7, 9 };
    QVERIFY(!eraseSorted(values, 6u));
    QVERIFY(!eraseSorted(values, 10u));
    QVERIFY(eraseSorted(values, 5u));
    QVERIFY(!eraseSorted(values, 5u));
    QVERIFY(eraseSorted(values, 9u));
    QCOMPARE(values, (std::vector<unsigned> { 1, 7 }));
    QVERIFY(eraseSorted(values, 1u));
    QVERIFY(eraseSorted(values, 7u));
    QVERIFY(values.empty());
}

void TestSortedVector::matchesAStdSetUnderRandomChanges()
{
    std::mt19937 random(26);
    std::uniform_int_distribution<unsigned> value(0, 499);
    std::vector<unsigned> values;
    std::set<unsigned> expected;
    for (int step = 0; step < 20'000; ++step) {
        const unsigned v = value(random);
        if (random() % 3 == 0)
            QCOMPARE(eraseSorted(values, v), expected.erase(v) == 1);
        else
            QCOMPARE(insertSorted(values, v), expected.insert(v).second);
    }
    QVERIFY(std::equal(values.begin(), values.end(), expected.begin(), expected.end()));
}

QTEST_GUILESS_MAIN(TestSortedVector)
#include "tst_sorted_vector.moc"
