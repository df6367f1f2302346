// NameCollator: the order people expect (numbers by value, case ignored, accents after their
// letter), ties broken by id, sort and compare agreeing on many names, the C locale, and
// names whose keys outgrow the room first given to them.
// C++
#include <algorithm>
#include <numeric>
#include <vector>

// Qt
#include <QLocale>
#include <QRandomGenerator>
#include <QStringList>
#include <QTest>

// Presence
#include "models/NameCollator.h"

using namespace Qt::StringLiterals;
using Presence::Models::NameCollator;

namespace {

// `names` sorted by the collator, ids being the names' positions in `names`.
QStringList sortedBy(const NameCollator &collator, const QStringList &names)
{
    QStringList ids;
    for (qsizetype i = 0; i < names.size(); ++i)
        ids.append(QString::number(i));
    std::vector<int> rows(size_t(names.size()));
    std::iota(rows.begin(), rows.end(), 0);
    collator.sort(
        rows, [&names](int row) { return QStringView(names.at(row)); },
        [&ids](int row) { return QStringView(ids.at(row)); });
    QStringList sorted;
    for (const int row : rows)
        sorted.append(names.at(row));
    return sorted;
}

} // namespace

class TestNameCollator : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void ordersAsPeopleExpect();
    void tiesAreBrokenById();
    void sortAgreesWithCompare();
    void cLocaleSortsInEnglish();
    void longNamesAndEmptyOnes();
};

void TestNameCollator::ordersAsPeopleExpect()
{
    const NameCollator collator(QLocale(QLocale::English));
    const QStringList names = { u"user10"_s, u"Émile"_s, u"user2"_s, u"emma"_s, u"Emile"_s,
        u"zoë"_s, u"Zoe"_s, u"ben"_s, u"Ada"_s };
    QCOMPARE(sortedBy(collator, names),
        (QStringList { u"Ada"_s, u"ben"_s, u"Emile"_s, u"Émile"_s, u"emma"_s, u"user2"_s,
            u"user10"_s, u"Zoe"_s, u"zoë"_s }));
    QVERIFY(collator.compare(u"user2", u"user10") < 0);
    QCOMPARE(collator.compare(u"ADA", u"ada"), 0); // case ignored
    QVERIFY(collator.compare(u"Emile", u"Émile") < 0); // the accent counts, after the letters
    // Composed and decomposed accents are the same name.
    QCOMPARE(collator.compare(u"\u00C9mile", u"E\u0301mile"), 0);
    QCOMPARE(collator.keysMade(), names.size());
}

void TestNameCollator::tiesAreBrokenById()
{
    const NameCollator collator(QLocale(QLocale::English));
    const QStringList names = { u"ada"_s, u"Ada"_s, u"ADA"_s };
    const QStringList ids = { u"c"_s, u"a"_s, u"b"_s };
    std::vector<int> rows = { 0, 1, 2 };
    collator.sort(
        rows, [&names](int row) { return QStringView(names.at(row)); },
        [&ids](int row) { return QStringView(ids.at(row)); });
    QCOMPARE(rows, (std::vector<int> { 1, 2, 0 }));
}

void TestNameCollator::sortAgreesWithCompare()
{
    // The sort compares keys eight bytes at a time, the merge of a few new names compares
    // names: both must give one order. Names share long prefixes, so keys tie on their heads.
    const NameCollator collator(QLocale(QLocale::German));
    QRandomGenerator random(7);
    const QStringList parts
        = { u"Müller"_s, u"Mueller"_s, u"müller"_s, u"Ölaf"_s, u"Olaf"_s, u"Straße"_s, u"9"_s };
    QStringList names;
    for (int i = 0; i < 2'000; ++i) {
        names.append(parts.at(int(random.bounded(parts.size()))) + u" %1 "_s.arg(random.bounded(50))
            + parts.at(int(random.bounded(parts.size()))));
    }
    const QStringList sorted = sortedBy(collator, names);
    for (qsizetype i = 1; i < sorted.size(); ++i)
        QVERIFY2(collator.compare(sorted.at(i - 1), sorted.at(i)) <= 0,
            qPrintable(sorted.at(i - 1) + u" before "_s + sorted.at(i)));
}

void TestNameCollator::cLocaleSortsInEnglish()
{
    // The C locale has no collation: it would put "Zoe" before "ada" and user10 before user2.
    const NameCollator collator(QLocale::c());
    QCOMPARE(sortedBy(collator, { u"Zoe"_s, u"user10"_s, u"ada"_s, u"user2"_s }),
        (QStringList { u"ada"_s, u"user2"_s, u"user10"_s, u"Zoe"_s }));
}

void TestNameCollator::longNamesAndEmptyOnes()
{
    const NameCollator collator(QLocale(QLocale::English));
    // Keys of these run past four bytes a character: each is made again with enough room.
    const QString han = QString(300, QChar(0x4E2D));
    const QString hanLonger = han + QChar(0x6587);
    const QStringList names = { hanLonger, QString(), u"b"_s, han, u"a"_s.repeated(1'000) };
    QCOMPARE(sortedBy(collator, names),
        (QStringList { QString(), u"a"_s.repeated(1'000), u"b"_s, han, hanLonger }));
}

QTEST_MAIN(TestNameCollator)
#include "tst_name_collator.moc"
