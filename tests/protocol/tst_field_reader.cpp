// FieldReader: typed fields out of a JSON object, the first problem named once.

// Qt
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

// Presence
#include "protocol/FieldReader.h"

using namespace Qt::StringLiterals;
using namespace Presence::Protocol;

namespace {

QJsonObject json(const char *text)
{
    return QJsonDocument::fromJson(QByteArray(text)).object();
}

enum class Size { Small, Large };
constexpr auto kSizes = nameTable<Size>({ { Size::Small, u"small" }, { Size::Large, u"large" } });

struct Item {
    QString id;
    int count = 0;
};

Item readItem(FieldReader &in)
{
    return { in.id("id"_L1, Need::Required),
        int(in.integer("count"_L1, 0, 9, Need::Required).value_or(-1)) };
}

} // namespace

class TestFieldReader : public QObject {
    Q_OBJECT

private slots:
    void firstProblemWinsAndLaterReadsAreEmpty();
    void errorNamesTheMessageType();
    void booleans();
    void namesFromATable();
    void nestedObject();
    void nestedOptionalAbsent();
    void objectsReadEachItem();
    void objectsStopAtTheFirstBadItem();
    void decodedIsTheValueOrTheProblem();
};

void TestFieldReader::firstProblemWinsAndLaterReadsAreEmpty()
{
    FieldReader in(json(R"({"a":1,"b":"x"})"));
    QVERIFY(in.string("a"_L1, Need::Required).isEmpty());
    QVERIFY(in.failed());
    QCOMPARE(in.problem(), u"field 'a' must be a string"_s);
    // b is a fine string, but nothing is read after a failure.
    QVERIFY(in.string("b"_L1, Need::Required).isEmpty());
    QVERIFY(!in.integer("missing"_L1, 0, 1, Need::Required));
    QCOMPARE(in.problem(), u"field 'a' must be a string"_s);
}

void TestFieldReader::errorNamesTheMessageType()
{
    FieldReader in(json(R"({})"), u"hello"_s);
    (void)in.string("token"_L1, Need::Required);
    QCOMPARE(int(in.error().code), int(ErrorCode::BadRequest));
    QCOMPARE(in.error().message, u"hello: field 'token' is missing"_s);
    QCOMPARE(in.problem(), u"field 'token' is missing"_s);
}

void TestFieldReader::booleans()
{
    FieldReader in(json(R"({"yes":true,"no":false,"text":"true"})"));
    QCOMPARE(in.boolean("yes"_L1, Need::Required), std::optional(true));
    QCOMPARE(in.boolean("no"_L1, Need::Required), std::optional(false));
    QCOMPARE(in.boolean("absent"_L1, Need::Optional), std::nullopt);
    QVERIFY(!in.failed());
    QCOMPARE(in.boolean("text"_L1, Need::Required), std::nullopt);
    QCOMPARE(in.problem(), u"field 'text' must be true or false"_s);

    FieldReader missing(json(R"({})"));
    QCOMPARE(missing.boolean("more"_L1, Need::Required), std::nullopt);
    QCOMPARE(missing.problem(), u"field 'more' is missing"_s);
}

void TestFieldReader::namesFromATable()
{
    FieldReader in(json(R"({"a":"large","b":"huge","c":3})"));
    QCOMPARE(in.name("a"_L1, kSizes, Need::Required), std::optional(Size::Large));
    QCOMPARE(in.name("absent"_L1, kSizes, Need::Optional), std::nullopt);
    QVERIFY(!in.failed());
    QCOMPARE(in.name("b"_L1, kSizes, Need::Required), std::nullopt);
    QCOMPARE(in.problem(), u"field 'b' must be small or large"_s);

    FieldReader number(json(R"({"c":3})"));
    QCOMPARE(number.name("c"_L1, kSizes, Need::Required), std::nullopt);
    QCOMPARE(number.problem(), u"field 'c' must be small or large"_s);
}

void TestFieldReader::nestedObject()
{
    FieldReader in(json(R"({"item":{"id":"alice","count":3}})"), u"box"_s);
    const Item item = in.nested("item"_L1, Need::Required, readItem);
    QVERIFY(!in.failed());
    QCOMPARE(item.id, u"alice"_s);
    QCOMPARE(item.count, 3);

    // The nested reader's problem fails the outer one, named by where it was.
    FieldReader bad(json(R"({"item":{"id":"alice","count":30}})"), u"box"_s);
    (void)bad.nested("item"_L1, Need::Required, readItem);
    QCOMPARE(bad.error().message, u"box: box.item: field 'count' must be an integer from 0 to 9"_s);

    FieldReader notObject(json(R"({"item":[]})"), u"box"_s);
    (void)notObject.nested("item"_L1, Need::Required, readItem);
    QCOMPARE(notObject.error().message, u"box: field 'item' must be an object"_s);
}

void TestFieldReader::nestedOptionalAbsent()
{
    int calls = 0;
    auto counting = [&calls](FieldReader &in) {
        ++calls;
        return readItem(in);
    };
    FieldReader in(json(R"({})"));
    const Item item = in.nested("item"_L1, Need::Optional, counting);
    QVERIFY(!in.failed());
    QCOMPARE(calls, 0);
    QVERIFY(item.id.isEmpty());

    FieldReader required(json(R"({})"));
    (void)required.nested("item"_L1, Need::Required, counting);
    QCOMPARE(calls, 0);
    QCOMPARE(required.problem(), u"field 'item' is missing"_s);
}

void TestFieldReader::objectsReadEachItem()
{
    FieldReader in(json(R"({"items":[{"id":"a","count":1},{"id":"b","count":2}],"none":[]})"));
    const QList<Item> items = in.objects("items"_L1, Need::Required, readItem);
    QVERIFY(!in.failed());
    QCOMPARE(items.size(), 2);
    QCOMPARE(items[1].id, u"b"_s);
    QCOMPARE(items[1].count, 2);
    QVERIFY(in.objects("none"_L1, Need::Required, readItem).isEmpty());
    QVERIFY(in.objects("absent"_L1, Need::Optional, readItem).isEmpty());
    QVERIFY(!in.failed());
}

void TestFieldReader::objectsStopAtTheFirstBadItem()
{
    int calls = 0;
    auto counting = [&calls](FieldReader &in) {
        ++calls;
        return readItem(in);
    };
    FieldReader in(
        json(R"({"items":[{"id":"a","count":1},{"count":2},{"id":"c","count":3}]})"), u"list"_s);
    QVERIFY(in.objects("items"_L1, Need::Required, counting).isEmpty());
    QCOMPARE(calls, 2);
    QCOMPARE(in.error().message, u"list: list.items: field 'id' is missing"_s);

    calls = 0;
    FieldReader scalar(json(R"({"items":[{"id":"a","count":1},"b",{"id":"c","count":3}]})"));
    QVERIFY(scalar.objects("items"_L1, Need::Required, counting).isEmpty());
    QCOMPARE(calls, 1);
    QCOMPARE(scalar.problem(), u"field 'items' must hold objects"_s);

    FieldReader notArray(json(R"({"items":{}})"));
    QVERIFY(notArray.objects("items"_L1, Need::Required, counting).isEmpty());
    QCOMPARE(notArray.problem(), u"field 'items' must be an array"_s);
}

void TestFieldReader::decodedIsTheValueOrTheProblem()
{
    FieldReader in(json(R"({"n":4})"), u"t"_s);
    const int n = int(in.integer("n"_L1, 0, 9, Need::Required).value_or(0));
    const Decoded<int> good = in.decoded(n);
    QVERIFY(good.ok());
    QCOMPARE(good.value(), 4);

    (void)in.string("s"_L1, Need::Required);
    const Decoded<int> bad = in.decoded(n);
    QVERIFY(!bad.ok());
    QCOMPARE(bad.error().message, u"t: field 's' is missing"_s);
}

QTEST_APPLESS_MAIN(TestFieldReader)
#include "tst_field_reader.moc"
