// NameTable: an enum's wire names, read both ways and listed for error messages.

// Qt
#include <QTest>

// Presence
#include "protocol/NameTable.h"

using namespace Qt::StringLiterals;
using namespace Presence::Protocol;

namespace {

enum class Colour { Red, Green, Blue, Unnamed };

constexpr auto kColours = nameTable<Colour>({
    { Colour::Red, u"red" },
    { Colour::Green, u"green" },
    { Colour::Blue, u"blue" },
});

} // namespace

class TestNameTable : public QObject {
    Q_OBJECT

private slots:
    void namesAndValuesRoundTrip();
    void unknownNamesAndValues();
    void alternativesListTheNamesInOrder();
    void namesAreNotCopied();
};

void TestNameTable::namesAndValuesRoundTrip()
{
    for (const Colour colour : { Colour::Red, Colour::Green, Colour::Blue }) {
        const QString name = kColours.name(colour);
        QVERIFY(!name.isEmpty());
        QCOMPARE(kColours.value(name), colour);
    }
    QCOMPARE(kColours.name(Colour::Green), u"green"_s);
    QCOMPARE(kColours.value(u"blue"), Colour::Blue);
}

void TestNameTable::unknownNamesAndValues()
{
    QVERIFY(kColours.name(Colour::Unnamed).isEmpty());
    // Exact matches only: neither case, nor spaces, nor prefixes.
    for (const QStringView text : { u"", u"Red", u"red ", u"re", u"redd", u"purple" })
        QVERIFY2(!kColours.value(text).has_value(), qPrintable(text.toString()));
}

void TestNameTable::alternativesListTheNamesInOrder()
{
    QCOMPARE(kColours.alternatives(), u"red, green or blue"_s);
    constexpr auto two = nameTable<Colour>({ { Colour::Red, u"red" }, { Colour::Blue, u"blue" } });
    QCOMPARE(two.alternatives(), u"red or blue"_s);
    constexpr auto one = nameTable<Colour>({ { Colour::Red, u"red" } });
    QCOMPARE(one.alternatives(), u"red"_s);
}

void TestNameTable::namesAreNotCopied()
{
    // A status is named for every presence push serialized: the name refers to the table's
    // literal, so two namings share one buffer instead of each allocating its own.
    const QString first = kColours.name(Colour::Blue);
    const QString second = kColours.name(Colour::Blue);
    QCOMPARE(first.constData(), second.constData());
    QCOMPARE(first, u"blue"_s);
}

QTEST_APPLESS_MAIN(TestNameTable)
#include "tst_name_table.moc"
