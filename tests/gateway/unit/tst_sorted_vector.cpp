// SortedVector.h: the gateway's compact sets of numbers keep their values ascending and unique,
// and their spare room small: grown by an eighth, given back once less than half full.

// C++
#include <algorithm>
#include <random>
#include <set>
#include <vector>

// Qt
#include <QTest>

// Presence
#include "server-mock/core/SortedVector.h"

using namespace Qt::StringLiterals;
using Presence::Server::eraseSorted;
using Presence::Server::insertSorted;

namespace {

// The most a vector of `size` values may hold in reserve.
std::size_t roomAllowed(std::size_t size)
{
    return size / 8 + 4;
}

} // namespace

class TestSortedVector : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void insertKeepsOrderAndRefusesRepeats();
    void eraseFindsOnlyWhatIsThere();
    void matchesAStdSetUnderRandomChanges();
    void spareRoomStaysWithinAnEighth_data();
    void spareRoomStaysWithinAnEighth();
    void roomIsGivenBackOnceLessThanHalfFull();
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
    QCOMPARE(values.capacity(), std::size_t(0)); // an empty set holds nothing
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

void TestSortedVector::spareRoomStaysWithinAnEighth_data()
{
    QTest::addColumn<bool>("ascending");
    QTest::addRow("appended") << true; // connections are numbered upwards
    QTest::addRow("anywhere") << false;
}

void TestSortedVector::spareRoomStaysWithinAnEighth()
{
    QFETCH(bool, ascending);
    std::mt19937 random(29);
    std::vector<quint64> values;
    for (quint64 i = 0; i < 2000; ++i) {
        QVERIFY(insertSorted(values, ascending ? i : (quint64(random()) << 20) + i));
        QVERIFY2(values.capacity() <= values.size() + roomAllowed(values.size()),
            qPrintable(u"%1 values in room for %2"_s.arg(values.size()).arg(values.capacity())));
    }
}

void TestSortedVector::roomIsGivenBackOnceLessThanHalfFull()
{
    std::vector<unsigned> values;
    for (unsigned i = 0; i < 1000; ++i)
        insertSorted(values, i);
    for (unsigned i = 0; i < 990; ++i) {
        eraseSorted(values, i);
        QVERIFY2(values.size() >= values.capacity() / 2 || values.capacity() <= 8,
            qPrintable(u"%1 values in room for %2"_s.arg(values.size()).arg(values.capacity())));
    }
    QCOMPARE(values.size(), std::size_t(10));
}

QTEST_GUILESS_MAIN(TestSortedVector)
#include "tst_sorted_vector.moc"
