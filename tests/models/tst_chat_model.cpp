// ChatModel: roles, the gateway's order for pushes and history pages (latest, older,
// overlapping, disjoint), our own messages in flight (acknowledge, fail, take back), settling
// Unconfirmed messages from the latest page, and the history state.
// C++
#include <optional>

// Qt
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

// Presence
#include "models/ChatMessageRecord.h"
#include "models/ChatModel.h"

using namespace Qt::StringLiterals;
using Presence::Models::ChatMessageRecord;
using Presence::Models::ChatModel;
using Presence::Models::Delivery;
using HistoryState = Presence::Models::ChatModel::HistoryState;

namespace {

const QString kSelf = u"me"_s;
const QString kFriend = u"ann"_s;

// A model with a Fatal tester attached for its whole life.
struct Checked {
    Checked()
        : model(kSelf, kFriend)
        , tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal)
    {
    }
    ChatModel model;
    QAbstractItemModelTester tester;
};

ChatMessageRecord message(const QString &id, const QString &from, const QString &text, qint64 ts)
{
    ChatMessageRecord record;
    record.id = id;
    record.from = from;
    record.text = text;
    record.ts = ts;
    return record;
}

// A message from the friend whose text is "text of <id>".
ChatMessageRecord incoming(const QString &id)
{
    return message(id, kFriend, u"text of "_s + id, 1000);
}

QList<ChatMessageRecord> page(const QStringList &ids)
{
    QList<ChatMessageRecord> records;
    for (const QString &id : ids)
        records.append(incoming(id));
    return records;
}

// Every row, in order: the id of a delivered row, "~key" for one in flight.
QStringList rowsOf(const ChatModel &model)
{
    QStringList rows;
    for (int row = 0; row < model.rowCount(); ++row) {
        const QString id = model.index(row).data(ChatModel::IdRole).toString();
        rows.append(id.isEmpty() ? u"~"_s + model.at(row).key : id);
    }
    return rows;
}

QStringList textsOf(const ChatModel &model)
{
    QStringList texts;
    for (int row = 0; row < model.rowCount(); ++row)
        texts.append(model.index(row).data(ChatModel::TextRole).toString());
    return texts;
}

Delivery deliveryAt(const ChatModel &model, int row)
{
    return Delivery(model.index(row).data(ChatModel::DeliveryRole).toInt());
}

QString deliveryName(Delivery delivery)
{
    switch (delivery) {
    case Delivery::Queued:
        return u"Queued"_s;
    case Delivery::Sending:
        return u"Sending"_s;
    case Delivery::Unconfirmed:
        return u"Unconfirmed"_s;
    case Delivery::Delivered:
        return u"Delivered"_s;
    case Delivery::Failed:
        return u"Failed"_s;
    }
    return u"?"_s;
}

QStringList numbered(const QString &prefix, int count)
{
    QStringList ids;
    for (int i = 0; i < count; ++i)
        ids.append(prefix + u"%1"_s.arg(i, 3, 10, QLatin1Char('0')));
    return ids;
}

} // namespace

class TestChatModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void roleNames();
    void rolesOfDeliveredMessage();
    void outgoing_data();
    void outgoing();
    void invalidQueries_data();
    void invalidQueries();

    void appendDeliveredGoesBeforeFlight();
    void appendDeliveredIgnores_data();
    void appendDeliveredIgnores();

    void mergeHistory_data();
    void mergeHistory();
    void mergeHistoryManyHeld_data();
    void mergeHistoryManyHeld();
    void firstPageHasOlder_data();
    void firstPageHasOlder();
    void olderPagesFollowMore();
    void disjointLatestPageReplaces();
    void latestPageAfterPushesSetsHasOlder();
    void oldestId();
    void rowOfIdFollowsInsertions();
    void newestFromSkipsOthersAndFlight();

    void appendOwnAndSending();
    void acknowledgeInPlace();
    void acknowledgeMovesAfterDelivered();
    void acknowledgeKnownIdRemovesFlightRow();
    void acknowledgeUnknownKey();
    void failSetsError();
    void takeUndelivered_data();
    void takeUndelivered();

    void markSendingUnconfirmed();
    void settleFromLatestPage_data();
    void settleFromLatestPage();
    void settleIgnoresOlderMessagesWithTheSameText();
    void settleWithNothingQueuesAll();
    void olderPageNeverSettles();

    void hasDeliveryAndQueuedKeys();
    void historyState();
};

void TestChatModel::roleNames()
{
    Checked c;
    const QHash<int, QByteArray> names = c.model.roleNames();
    QCOMPARE(names.value(ChatModel::IdRole), "messageId");
    QCOMPARE(names.value(ChatModel::FromRole), "from");
    QCOMPARE(names.value(ChatModel::TextRole), "text");
    QCOMPARE(names.value(ChatModel::TimestampRole), "timestamp");
    QCOMPARE(names.value(ChatModel::OutgoingRole), "outgoing");
    QCOMPARE(names.value(ChatModel::DeliveryRole), "delivery");
    QCOMPARE(names.value(ChatModel::ErrorRole), "error");
    QCOMPARE(names.value(Qt::DisplayRole), "display"); // the base roles are kept
    QCOMPARE(int(ChatModel::IdRole), Qt::UserRole + 1);
}

void TestChatModel::rolesOfDeliveredMessage()
{
    Checked c;
    QVERIFY(c.model.appendDelivered(message(u"m1"_s, kFriend, u"hello there"_s, 1234567)));
    QCOMPARE(c.model.rowCount(), 1);
    QCOMPARE(c.model.rowCount(c.model.index(0)), 0); // a list: rows have no children
    const QModelIndex at = c.model.index(0);
    QCOMPARE(at.data(Qt::DisplayRole).toString(), u"hello there"_s);
    QCOMPARE(at.data(ChatModel::TextRole).toString(), u"hello there"_s);
    QCOMPARE(at.data(ChatModel::IdRole).toString(), u"m1"_s);
    QCOMPARE(at.data(ChatModel::FromRole).toString(), kFriend);
    QCOMPARE(at.data(ChatModel::TimestampRole).toLongLong(), 1234567);
    QCOMPARE(at.data(ChatModel::OutgoingRole).toBool(), false);
    QCOMPARE(deliveryAt(c.model, 0), Delivery::Delivered);
    QCOMPARE(at.data(ChatModel::ErrorRole).toString(), QString());
    QCOMPARE(c.model.deliveredCount(), 1);
    QVERIFY(c.model.contains(u"m1"_s));
}

void TestChatModel::outgoing_data()
{
    QTest::addColumn<QString>("from");
    QTest::addColumn<bool>("outgoing");
    QTest::addRow("self") << kSelf << true;
    QTest::addRow("friend") << kFriend << false;
    QTest::addRow("someone else") << u"bob"_s << false;
    QTest::addRow("self in other case") << u"ME"_s << false;
    QTest::addRow("empty") << QString() << false;
}

void TestChatModel::outgoing()
{
    QFETCH(QString, from);
    QFETCH(bool, outgoing);
    Checked c;
    QVERIFY(c.model.appendDelivered(message(u"m1"_s, from, u"x"_s, 1)));
    const QVariant value = c.model.index(0).data(ChatModel::OutgoingRole);
    QCOMPARE(value.typeId(), QMetaType::Bool);
    QCOMPARE(value.toBool(), outgoing);
}

void TestChatModel::invalidQueries_data()
{
    QTest::addColumn<int>("row"); // -1: an invalid index; -2: an index of another model
    QTest::addColumn<int>("role");
    QTest::addRow("decoration role") << 0 << int(Qt::DecorationRole);
    QTest::addRow("tooltip role") << 0 << int(Qt::ToolTipRole);
    QTest::addRow("UserRole itself") << 0 << int(Qt::UserRole);
    QTest::addRow("past the last role") << 0 << int(ChatModel::ErrorRole) + 1;
    QTest::addRow("invalid index, display") << -1 << int(Qt::DisplayRole);
    QTest::addRow("invalid index, id") << -1 << int(ChatModel::IdRole);
    QTest::addRow("other model's index") << -2 << int(Qt::DisplayRole);
}

void TestChatModel::invalidQueries()
{
    QFETCH(int, row);
    QFETCH(int, role);
    Checked c;
    Checked other;
    QVERIFY(c.model.appendDelivered(incoming(u"m1"_s)));
    QVERIFY(other.model.appendDelivered(incoming(u"o1"_s)));
    QModelIndex at;
    if (row >= 0)
        at = c.model.index(row);
    else if (row == -2)
        at = other.model.index(0);
    QVERIFY(row == -1 || at.isValid());
    const QVariant value = c.model.data(at, role);
    QVERIFY2(!value.isValid(), qPrintable(value.toString()));
    QVERIFY(!c.model.index(1).isValid()); // past the end
}

void TestChatModel::appendDeliveredGoesBeforeFlight()
{
    Checked c;
    QVERIFY(c.model.appendDelivered(incoming(u"a"_s)));
    c.model.appendOwn(u"k1"_s, u"queued"_s, 10, Delivery::Queued);
    c.model.appendOwn(u"k2"_s, u"sending"_s, 11, Delivery::Sending);
    c.model.appendOwn(u"k3"_s, u"failed"_s, 12, Delivery::Queued);
    c.model.fail(u"k3"_s, u"no"_s);
    QCOMPARE(rowsOf(c.model), (QStringList { u"a"_s, u"~k1"_s, u"~k2"_s, u"~k3"_s }));

    QSignalSpy inserted(&c.model, &QAbstractItemModel::rowsInserted);
    QVERIFY(inserted.isValid());
    QVERIFY(c.model.appendDelivered(incoming(u"b"_s)));
    QVERIFY(c.model.appendDelivered(message(u"c"_s, kSelf, u"from my phone"_s, 20)));
    QCOMPARE(
        rowsOf(c.model), (QStringList { u"a"_s, u"b"_s, u"c"_s, u"~k1"_s, u"~k2"_s, u"~k3"_s }));
    QCOMPARE(inserted.size(), 2);
    QCOMPARE(inserted.at(0).at(1).toInt(), 1);
    QCOMPARE(inserted.at(1).at(1).toInt(), 2);
    QCOMPARE(c.model.deliveredCount(), 3);
    QCOMPARE(deliveryAt(c.model, 3), Delivery::Queued);
    QCOMPARE(deliveryAt(c.model, 4), Delivery::Sending);
    QCOMPARE(deliveryAt(c.model, 5), Delivery::Failed);
    QCOMPARE(c.model.index(2).data(ChatModel::OutgoingRole).toBool(), true);
    QCOMPARE(c.model.queuedKeys(), QStringList { u"k1"_s });
}

void TestChatModel::appendDeliveredIgnores_data()
{
    QTest::addColumn<QString>("id");
    QTest::addRow("duplicate id") << u"a"_s;
    QTest::addRow("empty id") << QString();
}

void TestChatModel::appendDeliveredIgnores()
{
    QFETCH(QString, id);
    Checked c;
    QVERIFY(c.model.appendDelivered(incoming(u"a"_s)));
    c.model.appendOwn(u"k1"_s, u"mine"_s, 10, Delivery::Queued);
    QSignalSpy inserted(&c.model, &QAbstractItemModel::rowsInserted);
    QVERIFY(inserted.isValid());
    QVERIFY(!c.model.appendDelivered(message(id, kFriend, u"again"_s, 99)));
    QCOMPARE(inserted.size(), 0);
    QCOMPARE(rowsOf(c.model), (QStringList { u"a"_s, u"~k1"_s }));
    QCOMPARE(textsOf(c.model), (QStringList { u"text of a"_s, u"mine"_s }));
    QCOMPARE(c.model.deliveredCount(), 1);
}

void TestChatModel::mergeHistory_data()
{
    QTest::addColumn<QStringList>("held"); // loaded as the first latest page, more = true
    QTest::addColumn<QStringList>("flight"); // own Queued messages, keys
    QTest::addColumn<QStringList>("page");
    QTest::addColumn<bool>("older");
    QTest::addColumn<QStringList>("expected");
    QTest::addColumn<int>("added");

    const QStringList none;
    QTest::addRow("latest into empty") << none << none << QStringList { u"a"_s, u"b"_s, u"c"_s }
                                       << false << QStringList { u"a"_s, u"b"_s, u"c"_s } << 3;
    QTest::addRow("latest into empty, flight stays last")
        << none << QStringList { u"k1"_s } << QStringList { u"a"_s, u"b"_s } << false
        << QStringList { u"a"_s, u"b"_s, u"~k1"_s } << 2;
    QTest::addRow("older prepends in order")
        << QStringList { u"d"_s, u"e"_s } << QStringList { u"k1"_s }
        << QStringList { u"a"_s, u"b"_s, u"c"_s } << true
        << QStringList { u"a"_s, u"b"_s, u"c"_s, u"d"_s, u"e"_s, u"~k1"_s } << 3;
    QTest::addRow("older overlapping the oldest")
        << QStringList { u"c"_s, u"d"_s } << none << QStringList { u"a"_s, u"b"_s, u"c"_s } << true
        << QStringList { u"a"_s, u"b"_s, u"c"_s, u"d"_s } << 2;
    QTest::addRow("latest overlapping fills between neighbours")
        << QStringList { u"a"_s, u"b"_s, u"d"_s } << QStringList { u"k1"_s }
        << QStringList { u"b"_s, u"c"_s, u"d"_s, u"e"_s } << false
        << QStringList { u"a"_s, u"b"_s, u"c"_s, u"d"_s, u"e"_s, u"~k1"_s } << 2;
    QTest::addRow("latest overlapping, new before the first known")
        << QStringList { u"a"_s, u"c"_s } << none << QStringList { u"b"_s, u"c"_s, u"d"_s } << false
        << QStringList { u"a"_s, u"b"_s, u"c"_s, u"d"_s } << 2;
    QTest::addRow("latest overlapping, several runs")
        << QStringList { u"a"_s, u"c"_s, u"f"_s } << QStringList { u"k1"_s, u"k2"_s }
        << QStringList { u"c"_s, u"d"_s, u"e"_s, u"f"_s, u"g"_s, u"h"_s } << false
        << QStringList { u"a"_s, u"c"_s, u"d"_s, u"e"_s, u"f"_s, u"g"_s, u"h"_s, u"~k1"_s,
               u"~k2"_s }
        << 4;
    QTest::addRow("latest all known")
        << QStringList { u"a"_s, u"b"_s, u"c"_s } << QStringList { u"k1"_s }
        << QStringList { u"b"_s, u"c"_s } << false
        << QStringList { u"a"_s, u"b"_s, u"c"_s, u"~k1"_s } << 0;
    QTest::addRow("duplicate ids in the page")
        << QStringList { u"a"_s } << none << QStringList { u"a"_s, u"b"_s, u"b"_s, u"c"_s } << false
        << QStringList { u"a"_s, u"b"_s, u"c"_s } << 2;
    QTest::addRow("empty ids in the page")
        << QStringList { u"a"_s } << none << QStringList { u"a"_s, QString(), u"b"_s } << false
        << QStringList { u"a"_s, u"b"_s } << 1;
    QTest::addRow("latest disjoint replaces")
        << QStringList { u"a"_s, u"b"_s } << QStringList { u"k1"_s }
        << QStringList { u"x"_s, u"y"_s } << false << QStringList { u"x"_s, u"y"_s, u"~k1"_s } << 2;
    QTest::addRow("empty latest page keeps all")
        << QStringList { u"a"_s, u"b"_s } << QStringList { u"k1"_s } << QStringList() << false
        << QStringList { u"a"_s, u"b"_s, u"~k1"_s } << 0;
}

void TestChatModel::mergeHistory()
{
    QFETCH(QStringList, held);
    QFETCH(QStringList, flight);
    QFETCH(QStringList, page);
    QFETCH(bool, older);
    QFETCH(QStringList, expected);
    QFETCH(int, added);

    Checked c;
    QCOMPARE(c.model.mergeHistory(::page(held), false, true), int(held.size()));
    for (const QString &key : flight)
        c.model.appendOwn(key, u"own "_s + key, 5, Delivery::Queued);
    QSignalSpy inserted(&c.model, &QAbstractItemModel::rowsInserted);
    QVERIFY(inserted.isValid());

    QCOMPARE(c.model.mergeHistory(::page(page), older, true), added);
    QCOMPARE(rowsOf(c.model), expected);
    QCOMPARE(c.model.deliveredCount(), int(expected.size() - flight.size()));
    if (added == 0)
        QCOMPARE(inserted.size(), 0);
    for (int row = 0; row < c.model.deliveredCount(); ++row) {
        const QString &id = expected.at(row);
        QVERIFY(c.model.contains(id));
        QCOMPARE(c.model.at(row).text, u"text of "_s + id);
        QCOMPARE(deliveryAt(c.model, row), Delivery::Delivered);
    }
    for (int i = 0; i < flight.size(); ++i)
        QCOMPARE(c.model.rowOfKey(flight.at(i)), std::optional<int>(c.model.deliveredCount() + i));
    // Merging the same page again adds nothing.
    QCOMPARE(c.model.mergeHistory(::page(page), older, true), 0);
    QCOMPARE(rowsOf(c.model), expected);
}

// The same overlap as "latest overlapping fills between neighbours", with enough rows held that
// indexing the new row grows the model's id table in the middle of the merge (at 64, 128, 256
// ids for Qt 6.4's QHash).
void TestChatModel::mergeHistoryManyHeld_data()
{
    QTest::addColumn<int>("heldCount");
    // Around the sizes where the id index grows (and rehashes) while a page is merged.
    for (const int count : { 63, 64, 65, 100, 128, 129, 256 })
        QTest::addRow("%d held", count) << count;
}

void TestChatModel::mergeHistoryManyHeld()
{
    QFETCH(int, heldCount);
    const QStringList older = numbered(u"h"_s, heldCount - 2);
    Checked c;
    c.model.mergeHistory(page(older + QStringList { u"b"_s, u"d"_s }), false, true);
    c.model.appendOwn(u"k1"_s, u"own"_s, 5, Delivery::Queued);
    QCOMPARE(c.model.deliveredCount(), heldCount);

    QCOMPARE(c.model.mergeHistory(page({ u"b"_s, u"c"_s, u"d"_s, u"e"_s }), false, true), 2);
    QCOMPARE(rowsOf(c.model), older + QStringList({ u"b"_s, u"c"_s, u"d"_s, u"e"_s, u"~k1"_s }));
    QVERIFY(!c.model.appendDelivered(incoming(u"e"_s)));
    QVERIFY(!c.model.appendDelivered(incoming(older.first())));
}

void TestChatModel::firstPageHasOlder_data()
{
    QTest::addColumn<bool>("more");
    QTest::addColumn<bool>("withFlight");
    QTest::addRow("more") << true << false;
    QTest::addRow("no more") << false << false;
    QTest::addRow("more, with flight rows") << true << true;
    QTest::addRow("no more, with flight rows") << false << true;
}

void TestChatModel::firstPageHasOlder()
{
    QFETCH(bool, more);
    QFETCH(bool, withFlight);
    Checked c;
    QCOMPARE(c.model.hasOlder(), false);
    if (withFlight)
        c.model.appendOwn(u"k1"_s, u"hi"_s, 5, Delivery::Queued);
    c.model.mergeHistory(page({ u"a"_s, u"b"_s }), false, more);
    QCOMPARE(c.model.hasOlder(), more);
    // A later overlapping latest page leaves it: the rows before it are still held.
    c.model.mergeHistory(page({ u"b"_s, u"c"_s }), false, !more);
    QCOMPARE(c.model.hasOlder(), more);
}

void TestChatModel::olderPagesFollowMore()
{
    Checked c;
    c.model.mergeHistory(page({ u"e"_s, u"f"_s }), false, true);
    QVERIFY(c.model.hasOlder());
    c.model.mergeHistory(page({ u"c"_s, u"d"_s }), true, true);
    QVERIFY(c.model.hasOlder());
    c.model.mergeHistory(page({ u"a"_s, u"b"_s }), true, false);
    QVERIFY(!c.model.hasOlder());
    QCOMPARE(rowsOf(c.model), (QStringList { u"a"_s, u"b"_s, u"c"_s, u"d"_s, u"e"_s, u"f"_s }));
    // An empty older page with more = false: nothing further back.
    Checked d;
    d.model.mergeHistory(page({ u"a"_s }), false, true);
    QCOMPARE(d.model.mergeHistory({}, true, false), 0);
    QVERIFY(!d.model.hasOlder());
}

void TestChatModel::disjointLatestPageReplaces()
{
    Checked c;
    c.model.mergeHistory(page({ u"a"_s, u"b"_s, u"c"_s }), false, false);
    c.model.appendOwn(u"k1"_s, u"one"_s, 5, Delivery::Queued);
    c.model.appendOwn(u"k2"_s, u"two"_s, 6, Delivery::Queued);
    c.model.fail(u"k2"_s, u"refused"_s);
    QVERIFY(!c.model.hasOlder());
    QSignalSpy removed(&c.model, &QAbstractItemModel::rowsRemoved);
    QVERIFY(removed.isValid());

    QCOMPARE(c.model.mergeHistory(page({ u"x"_s, u"y"_s }), false, true), 2);
    QCOMPARE(rowsOf(c.model), (QStringList { u"x"_s, u"y"_s, u"~k1"_s, u"~k2"_s }));
    QCOMPARE(
        textsOf(c.model), (QStringList { u"text of x"_s, u"text of y"_s, u"one"_s, u"two"_s }));
    QCOMPARE(deliveryAt(c.model, 3), Delivery::Failed);
    QCOMPARE(c.model.deliveredCount(), 2);
    for (const QString &id : { u"a"_s, u"b"_s, u"c"_s })
        QVERIFY(!c.model.contains(id));
    QCOMPARE(removed.size(), 1);
    QCOMPARE(removed.at(0).at(1).toInt(), 0);
    QCOMPARE(removed.at(0).at(2).toInt(), 2);
    // What is held now starts at the page: hasOlder is the page's.
    QVERIFY(c.model.hasOlder());
    QCOMPARE(c.model.oldestId(), u"x"_s);
    // The old ids can come back as new.
    QVERIFY(c.model.appendDelivered(incoming(u"a"_s)));
    QCOMPARE(rowsOf(c.model), (QStringList { u"x"_s, u"y"_s, u"a"_s, u"~k1"_s, u"~k2"_s }));
}

// Messages that arrived before the first page (a push, or one of ours acknowledged) are among
// the latest: once the page is merged, its first message is the oldest row, so whether older
// ones exist is the page's `more`.
void TestChatModel::latestPageAfterPushesSetsHasOlder()
{
    Checked c;
    QVERIFY(c.model.appendDelivered(incoming(u"c"_s)));
    c.model.mergeHistory(page({ u"a"_s, u"b"_s, u"c"_s }), false, true);
    QCOMPARE(rowsOf(c.model), (QStringList { u"a"_s, u"b"_s, u"c"_s }));
    QCOMPARE(c.model.oldestId(), u"a"_s);
    QVERIFY(c.model.hasOlder());
}

void TestChatModel::oldestId()
{
    Checked c;
    QCOMPARE(c.model.oldestId(), QString());
    c.model.appendOwn(u"k1"_s, u"hi"_s, 5, Delivery::Queued);
    QCOMPARE(c.model.oldestId(), QString()); // flight rows have no id
    c.model.mergeHistory(page({ u"c"_s, u"d"_s }), false, true);
    QCOMPARE(c.model.oldestId(), u"c"_s);
    c.model.mergeHistory(page({ u"a"_s, u"b"_s }), true, true);
    QCOMPARE(c.model.oldestId(), u"a"_s);
    QVERIFY(c.model.appendDelivered(incoming(u"e"_s)));
    QCOMPARE(c.model.oldestId(), u"a"_s);
}

void TestChatModel::appendOwnAndSending()
{
    Checked c;
    QVERIFY(c.model.appendDelivered(incoming(u"a"_s)));
    QSignalSpy inserted(&c.model, &QAbstractItemModel::rowsInserted);
    QSignalSpy changed(&c.model, &QAbstractItemModel::dataChanged);
    QVERIFY(inserted.isValid());
    QVERIFY(changed.isValid());
    c.model.appendOwn(u"k1"_s, u"hello"_s, 777, Delivery::Queued);
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(inserted.at(0).at(1).toInt(), 1);
    const QModelIndex at = c.model.index(1);
    QCOMPARE(at.data(ChatModel::IdRole).toString(), QString());
    QCOMPARE(at.data(ChatModel::FromRole).toString(), kSelf);
    QCOMPARE(at.data(Qt::DisplayRole).toString(), u"hello"_s);
    QCOMPARE(at.data(ChatModel::TimestampRole).toLongLong(), 777);
    QCOMPARE(at.data(ChatModel::OutgoingRole).toBool(), true);
    QCOMPARE(deliveryAt(c.model, 1), Delivery::Queued);
    QCOMPARE(c.model.deliveredCount(), 1);
    QCOMPARE(c.model.rowOfKey(u"k1"_s), std::optional<int>(1));
    QCOMPARE(c.model.rowOfKey(u"nope"_s), std::nullopt);
    QCOMPARE(c.model.rowOfKey(QString()), std::nullopt);

    c.model.setSending(u"k1"_s);
    QCOMPARE(deliveryAt(c.model, 1), Delivery::Sending);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.at(0).at(0).value<QModelIndex>().row(), 1);
    QVERIFY(changed.at(0).at(2).value<QList<int>>().contains(ChatModel::DeliveryRole));
    c.model.setSending(u"k1"_s); // no change, no signal
    c.model.setSending(u"nope"_s);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(rowsOf(c.model), (QStringList { u"a"_s, u"~k1"_s }));
}

void TestChatModel::acknowledgeInPlace()
{
    Checked c;
    c.model.mergeHistory(page({ u"a"_s }), false, false);
    c.model.appendOwn(u"k1"_s, u"first"_s, 5, Delivery::Sending);
    c.model.appendOwn(u"k2"_s, u"second"_s, 6, Delivery::Queued);
    // Pushed after k1 was typed: they go before it.
    QVERIFY(c.model.appendDelivered(incoming(u"b"_s)));
    QCOMPARE(rowsOf(c.model), (QStringList { u"a"_s, u"b"_s, u"~k1"_s, u"~k2"_s }));

    QSignalSpy moved(&c.model, &QAbstractItemModel::rowsMoved);
    QSignalSpy changed(&c.model, &QAbstractItemModel::dataChanged);
    QVERIFY(moved.isValid());
    QVERIFY(changed.isValid());
    c.model.acknowledge(u"k1"_s, u"m1"_s, 9000);
    QCOMPARE(moved.size(), 0); // already just after the delivered rows
    QCOMPARE(rowsOf(c.model), (QStringList { u"a"_s, u"b"_s, u"m1"_s, u"~k2"_s }));
    QCOMPARE(c.model.deliveredCount(), 3);
    QVERIFY(c.model.contains(u"m1"_s));
    QCOMPARE(c.model.at(2).key, QString());
    QCOMPARE(c.model.rowOfKey(u"k1"_s), std::nullopt);
    QCOMPARE(c.model.index(2).data(ChatModel::TimestampRole).toLongLong(), 9000);
    QCOMPARE(deliveryAt(c.model, 2), Delivery::Delivered);
    QCOMPARE(c.model.index(2).data(Qt::DisplayRole).toString(), u"first"_s);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.at(0).at(0).value<QModelIndex>().row(), 2);
    const auto roles = changed.at(0).at(2).value<QList<int>>();
    QVERIFY(roles.contains(ChatModel::IdRole));
    QVERIFY(roles.contains(ChatModel::TimestampRole));
    QVERIFY(roles.contains(ChatModel::DeliveryRole));
    // A push after the acknowledgement comes after it.
    QVERIFY(c.model.appendDelivered(incoming(u"c"_s)));
    QCOMPARE(rowsOf(c.model), (QStringList { u"a"_s, u"b"_s, u"m1"_s, u"c"_s, u"~k2"_s }));
    QCOMPARE(c.model.queuedKeys(), QStringList { u"k2"_s });
}

void TestChatModel::acknowledgeMovesAfterDelivered()
{
    Checked c;
    QVERIFY(c.model.appendDelivered(incoming(u"a"_s)));
    c.model.appendOwn(u"k1"_s, u"one"_s, 5, Delivery::Sending);
    c.model.appendOwn(u"k2"_s, u"two"_s, 6, Delivery::Sending);
    c.model.appendOwn(u"k3"_s, u"three"_s, 7, Delivery::Sending);
    c.model.fail(u"k1"_s, u"too long"_s);
    QVERIFY(c.model.appendDelivered(incoming(u"b"_s)));
    QCOMPARE(rowsOf(c.model), (QStringList { u"a"_s, u"b"_s, u"~k1"_s, u"~k2"_s, u"~k3"_s }));

    QSignalSpy moved(&c.model, &QAbstractItemModel::rowsMoved);
    QSignalSpy inserted(&c.model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&c.model, &QAbstractItemModel::rowsRemoved);
    QVERIFY(moved.isValid());
    QVERIFY(inserted.isValid());
    QVERIFY(removed.isValid());
    c.model.acknowledge(u"k3"_s, u"m3"_s, 100);
    QCOMPARE(rowsOf(c.model), (QStringList { u"a"_s, u"b"_s, u"m3"_s, u"~k1"_s, u"~k2"_s }));
    QCOMPARE(moved.size(), 1);
    // rowsMoved(parent, start, end, destination, row)
    QCOMPARE(moved.at(0).at(1).toInt(), 4);
    QCOMPARE(moved.at(0).at(2).toInt(), 4);
    QCOMPARE(moved.at(0).at(4).toInt(), 2);
    QCOMPARE(inserted.size(), 0); // a move, not a remove and insert
    QCOMPARE(removed.size(), 0);
    QCOMPARE(c.model.deliveredCount(), 3);
    QCOMPARE(deliveryAt(c.model, 3), Delivery::Failed);
    QCOMPARE(c.model.index(3).data(ChatModel::ErrorRole).toString(), u"too long"_s);
    QCOMPARE(deliveryAt(c.model, 4), Delivery::Sending);
    QCOMPARE(c.model.rowOfKey(u"k2"_s), std::optional<int>(4));
    QCOMPARE(textsOf(c.model),
        (QStringList { u"text of a"_s, u"text of b"_s, u"three"_s, u"one"_s, u"two"_s }));

    // The next one lands after it, the index of ids stays right.
    c.model.acknowledge(u"k2"_s, u"m2"_s, 101);
    QCOMPARE(rowsOf(c.model), (QStringList { u"a"_s, u"b"_s, u"m3"_s, u"m2"_s, u"~k1"_s }));
    QCOMPARE(moved.size(), 2);
    QVERIFY(!c.model.appendDelivered(incoming(u"m3"_s)));
    c.model.mergeHistory(page({ u"b"_s, u"m3"_s, u"m2"_s, u"c"_s }), false, false);
    QCOMPARE(rowsOf(c.model), (QStringList { u"a"_s, u"b"_s, u"m3"_s, u"m2"_s, u"c"_s, u"~k1"_s }));
}

void TestChatModel::acknowledgeKnownIdRemovesFlightRow()
{
    Checked c;
    c.model.appendOwn(u"k1"_s, u"hello"_s, 5, Delivery::Sending);
    c.model.appendOwn(u"k2"_s, u"later"_s, 6, Delivery::Queued);
    // The latest page already brought it (the acknowledgement was slower).
    c.model.mergeHistory(
        { incoming(u"a"_s), message(u"m1"_s, kSelf, u"hello"_s, 50) }, false, false);
    QCOMPARE(rowsOf(c.model), (QStringList { u"a"_s, u"m1"_s, u"~k1"_s, u"~k2"_s }));

    QSignalSpy removed(&c.model, &QAbstractItemModel::rowsRemoved);
    QVERIFY(removed.isValid());
    c.model.acknowledge(u"k1"_s, u"m1"_s, 50);
    QCOMPARE(rowsOf(c.model), (QStringList { u"a"_s, u"m1"_s, u"~k2"_s }));
    QCOMPARE(textsOf(c.model), (QStringList { u"text of a"_s, u"hello"_s, u"later"_s }));
    QCOMPARE(removed.size(), 1);
    QCOMPARE(removed.at(0).at(1).toInt(), 2);
    QCOMPARE(c.model.deliveredCount(), 2);
    QCOMPARE(c.model.rowOfKey(u"k1"_s), std::nullopt);
}

void TestChatModel::acknowledgeUnknownKey()
{
    Checked c;
    QVERIFY(c.model.appendDelivered(incoming(u"a"_s)));
    c.model.appendOwn(u"k1"_s, u"hello"_s, 5, Delivery::Sending);
    QSignalSpy changed(&c.model, &QAbstractItemModel::dataChanged);
    QSignalSpy removed(&c.model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy moved(&c.model, &QAbstractItemModel::rowsMoved);
    QVERIFY(changed.isValid());
    QVERIFY(removed.isValid());
    QVERIFY(moved.isValid());
    c.model.acknowledge(u"nope"_s, u"m1"_s, 9);
    c.model.acknowledge(QString(), u"m2"_s, 9);
    QCOMPARE(rowsOf(c.model), (QStringList { u"a"_s, u"~k1"_s }));
    QCOMPARE(deliveryAt(c.model, 1), Delivery::Sending);
    QVERIFY(!c.model.contains(u"m1"_s));
    QCOMPARE(c.model.deliveredCount(), 1);
    QCOMPARE(changed.size() + removed.size() + moved.size(), 0);
}

void TestChatModel::failSetsError()
{
    Checked c;
    c.model.appendOwn(u"k1"_s, u"hello"_s, 5, Delivery::Sending);
    c.model.appendOwn(u"k2"_s, u"other"_s, 6, Delivery::Sending);
    QSignalSpy changed(&c.model, &QAbstractItemModel::dataChanged);
    QVERIFY(changed.isValid());
    c.model.fail(u"k2"_s, u"Not delivered: only friends"_s);
    QCOMPARE(deliveryAt(c.model, 1), Delivery::Failed);
    QCOMPARE(
        c.model.index(1).data(ChatModel::ErrorRole).toString(), u"Not delivered: only friends"_s);
    QCOMPARE(deliveryAt(c.model, 0), Delivery::Sending);
    QCOMPARE(c.model.index(0).data(ChatModel::ErrorRole).toString(), QString());
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.at(0).at(0).value<QModelIndex>().row(), 1);
    QVERIFY(changed.at(0).at(2).value<QList<int>>().contains(ChatModel::ErrorRole));
    c.model.fail(u"nope"_s, u"x"_s);
    QCOMPARE(changed.size(), 1);
    QVERIFY(c.model.hasDelivery(Delivery::Failed));
    QCOMPARE(c.model.queuedKeys(), QStringList());
}

void TestChatModel::takeUndelivered_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<bool>("taken");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("left");
    // Rows: a, b (delivered), ~k1 (Failed), ~k2 (Queued)
    QTest::addRow("failed") << 2 << true << u"failed one"_s
                            << QStringList { u"a"_s, u"b"_s, u"~k2"_s };
    QTest::addRow("queued") << 3 << true << u"queued one"_s
                            << QStringList { u"a"_s, u"b"_s, u"~k1"_s };
    QTest::addRow("delivered, first")
        << 0 << false << QString() << QStringList { u"a"_s, u"b"_s, u"~k1"_s, u"~k2"_s };
    QTest::addRow("delivered, last")
        << 1 << false << QString() << QStringList { u"a"_s, u"b"_s, u"~k1"_s, u"~k2"_s };
    QTest::addRow("past the end") << 4 << false << QString()
                                  << QStringList { u"a"_s, u"b"_s, u"~k1"_s, u"~k2"_s };
    QTest::addRow("negative") << -1 << false << QString()
                              << QStringList { u"a"_s, u"b"_s, u"~k1"_s, u"~k2"_s };
}

void TestChatModel::takeUndelivered()
{
    QFETCH(int, row);
    QFETCH(bool, taken);
    QFETCH(QString, text);
    QFETCH(QStringList, left);
    Checked c;
    c.model.mergeHistory(page({ u"a"_s, u"b"_s }), false, false);
    c.model.appendOwn(u"k1"_s, u"failed one"_s, 5, Delivery::Sending);
    c.model.fail(u"k1"_s, u"refused"_s);
    c.model.appendOwn(u"k2"_s, u"queued one"_s, 6, Delivery::Queued);

    const std::optional<QString> result = c.model.takeUndelivered(row);
    QCOMPARE(result.has_value(), taken);
    if (taken)
        QCOMPARE(*result, text);
    QCOMPARE(rowsOf(c.model), left);
    QCOMPARE(c.model.deliveredCount(), 2);
}

void TestChatModel::markSendingUnconfirmed()
{
    Checked c;
    QVERIFY(c.model.appendDelivered(message(u"a"_s, kSelf, u"delivered"_s, 1)));
    c.model.appendOwn(u"k1"_s, u"one"_s, 5, Delivery::Sending);
    c.model.appendOwn(u"k2"_s, u"two"_s, 6, Delivery::Queued);
    c.model.appendOwn(u"k3"_s, u"three"_s, 7, Delivery::Sending);
    c.model.appendOwn(u"k4"_s, u"four"_s, 8, Delivery::Sending);
    c.model.fail(u"k4"_s, u"refused"_s);
    QVERIFY(!c.model.hasDelivery(Delivery::Unconfirmed));

    c.model.markSendingUnconfirmed();
    QCOMPARE(deliveryAt(c.model, 0), Delivery::Delivered);
    QCOMPARE(deliveryAt(c.model, 1), Delivery::Unconfirmed);
    QCOMPARE(deliveryAt(c.model, 2), Delivery::Queued);
    QCOMPARE(deliveryAt(c.model, 3), Delivery::Unconfirmed);
    QCOMPARE(deliveryAt(c.model, 4), Delivery::Failed);
    QVERIFY(c.model.hasDelivery(Delivery::Unconfirmed));
    QVERIFY(!c.model.hasDelivery(Delivery::Sending));
    QCOMPARE(rowsOf(c.model), (QStringList { u"a"_s, u"~k1"_s, u"~k2"_s, u"~k3"_s, u"~k4"_s }));
}

void TestChatModel::settleFromLatestPage_data()
{
    // Own messages typed (all Sending when the connection went), the latest page's messages
    // as "from:text", and what is left in flight after it, as "text/Queued" etc.
    QTest::addColumn<QStringList>("typed");
    QTest::addColumn<QStringList>("pageMessages");
    QTest::addColumn<QStringList>("flightAfter");

    QTest::addRow("found, trimmed by the gateway")
        << QStringList { u"  hello  "_s } << QStringList { u"me:hello"_s } << QStringList();
    QTest::addRow("not found becomes queued")
        << QStringList { u"hello"_s } << QStringList { u"me:other"_s }
        << QStringList { u"hello/Queued"_s };
    QTest::addRow("same text from the friend is not ours")
        << QStringList { u"hello"_s } << QStringList { u"ann:hello"_s }
        << QStringList { u"hello/Queued"_s };
    QTest::addRow("one found, one not")
        << QStringList { u"one"_s, u" two"_s } << QStringList { u"ann:hi"_s, u"me:two"_s }
        << QStringList { u"one/Queued"_s };
    QTest::addRow("two same texts, one in the page")
        << QStringList { u"again"_s, u"again "_s } << QStringList { u"me:again"_s }
        << QStringList { u"again /Queued"_s };
    QTest::addRow("two same texts, both in the page")
        << QStringList { u"again"_s, u"again"_s } << QStringList { u"me:again"_s, u"me:again"_s }
        << QStringList();
    QTest::addRow("empty page queues all") << QStringList { u"a"_s, u"b"_s } << QStringList()
                                           << QStringList { u"a/Queued"_s, u"b/Queued"_s };
}

void TestChatModel::settleFromLatestPage()
{
    QFETCH(QStringList, typed);
    QFETCH(QStringList, pageMessages);
    QFETCH(QStringList, flightAfter);

    Checked c;
    QVERIFY(c.model.appendDelivered(incoming(u"old"_s)));
    for (int i = 0; i < typed.size(); ++i)
        c.model.appendOwn(u"k%1"_s.arg(i), typed.at(i), 10 + i, Delivery::Sending);
    c.model.appendOwn(u"q"_s, u"typed offline"_s, 99, Delivery::Queued);
    c.model.markSendingUnconfirmed();

    QList<ChatMessageRecord> latest { incoming(u"old"_s) };
    for (int i = 0; i < pageMessages.size(); ++i) {
        const QString from = pageMessages.at(i).section(u':', 0, 0);
        const QString text = pageMessages.at(i).section(u':', 1);
        latest.append(message(u"p%1"_s.arg(i), from, text, 100 + i));
    }
    c.model.mergeHistory(latest, false, false);

    QCOMPARE(c.model.deliveredCount(), int(latest.size()));
    QStringList flight;
    for (int row = c.model.deliveredCount(); row < c.model.rowCount(); ++row) {
        flight.append(c.model.at(row).text + u'/' + deliveryName(deliveryAt(c.model, row)));
    }
    // The message typed while offline stays, last and Queued.
    QCOMPARE(flight, flightAfter + QStringList { u"typed offline/Queued"_s });
    QVERIFY(!c.model.hasDelivery(Delivery::Unconfirmed));
}

void TestChatModel::settleIgnoresOlderMessagesWithTheSameText()
{
    // "ok" sent long ago is in the page; the "ok" typed now (local clock) was not delivered.
    const qint64 now = 10'000'000;
    const qint64 allowance = ChatModel::kClockSkewAllowance.count();
    Checked c;
    c.model.appendOwn(u"k1"_s, u"ok"_s, now, Delivery::Sending);
    c.model.appendOwn(u"k2"_s, u"ok"_s, now, Delivery::Sending);
    c.model.markSendingUnconfirmed();
    c.model.mergeHistory({ message(u"old"_s, u"me"_s, u"ok"_s, now - allowance - 1),
                             message(u"new"_s, u"me"_s, u"ok"_s, now - allowance + 1) },
        false, false);
    // The recent one (within the clocks' allowance) settles one row; the old one does not.
    QCOMPARE(c.model.rowCount(), 3);
    QCOMPARE(deliveryAt(c.model, 2), Delivery::Queued);
}

void TestChatModel::settleWithNothingQueuesAll()
{
    Checked c;
    c.model.appendOwn(u"k1"_s, u"one"_s, 5, Delivery::Sending);
    c.model.appendOwn(u"k2"_s, u"two"_s, 6, Delivery::Queued);
    c.model.appendOwn(u"k3"_s, u"three"_s, 7, Delivery::Sending);
    c.model.markSendingUnconfirmed();
    QCOMPARE(c.model.queuedKeys(), QStringList { u"k2"_s });
    c.model.settleUnconfirmed({});
    QCOMPARE(c.model.queuedKeys(), (QStringList { u"k1"_s, u"k2"_s, u"k3"_s }));
    QVERIFY(!c.model.hasDelivery(Delivery::Unconfirmed));
    QCOMPARE(c.model.rowCount(), 3);
}

void TestChatModel::olderPageNeverSettles()
{
    Checked c;
    c.model.mergeHistory(page({ u"c"_s }), false, true);
    c.model.appendOwn(u"k1"_s, u"hello"_s, 5, Delivery::Sending);
    c.model.markSendingUnconfirmed();
    c.model.mergeHistory({ message(u"a"_s, kSelf, u"hello"_s, 1), incoming(u"b"_s) }, true, false);
    QCOMPARE(rowsOf(c.model), (QStringList { u"a"_s, u"b"_s, u"c"_s, u"~k1"_s }));
    QCOMPARE(deliveryAt(c.model, 3), Delivery::Unconfirmed);
    QVERIFY(c.model.hasDelivery(Delivery::Unconfirmed));
    QCOMPARE(c.model.queuedKeys(), QStringList());
}

void TestChatModel::hasDeliveryAndQueuedKeys()
{
    Checked c;
    for (const Delivery d : { Delivery::Queued, Delivery::Sending, Delivery::Unconfirmed,
             Delivery::Delivered, Delivery::Failed })
        QVERIFY(!c.model.hasDelivery(d));
    QVERIFY(c.model.appendDelivered(incoming(u"a"_s)));
    // Delivered rows are not in flight: hasDelivery looks at flight rows only.
    QVERIFY(!c.model.hasDelivery(Delivery::Delivered));

    c.model.appendOwn(u"k1"_s, u"1"_s, 1, Delivery::Queued);
    c.model.appendOwn(u"k2"_s, u"2"_s, 2, Delivery::Sending);
    c.model.appendOwn(u"k3"_s, u"3"_s, 3, Delivery::Queued);
    c.model.appendOwn(u"k4"_s, u"4"_s, 4, Delivery::Queued);
    c.model.fail(u"k4"_s, u"no"_s);
    c.model.appendOwn(u"k5"_s, u"5"_s, 5, Delivery::Queued);
    QVERIFY(c.model.hasDelivery(Delivery::Queued));
    QVERIFY(c.model.hasDelivery(Delivery::Sending));
    QVERIFY(c.model.hasDelivery(Delivery::Failed));
    QVERIFY(!c.model.hasDelivery(Delivery::Unconfirmed));
    QCOMPARE(c.model.queuedKeys(), (QStringList { u"k1"_s, u"k3"_s, u"k5"_s }));

    c.model.setSending(u"k3"_s);
    QCOMPARE(c.model.queuedKeys(), (QStringList { u"k1"_s, u"k5"_s }));
    c.model.acknowledge(u"k2"_s, u"m2"_s, 10);
    QVERIFY(c.model.hasDelivery(Delivery::Sending)); // k3 still is
    c.model.acknowledge(u"k3"_s, u"m3"_s, 11);
    QVERIFY(!c.model.hasDelivery(Delivery::Sending));
    QCOMPARE(c.model.queuedKeys(), (QStringList { u"k1"_s, u"k5"_s }));
}

void TestChatModel::historyState()
{
    Checked c;
    QCOMPARE(c.model.historyState(), HistoryState::NotLoaded);
    QSignalSpy spy(&c.model, &ChatModel::historyStateChanged);
    QVERIFY(spy.isValid());
    c.model.setHistoryState(HistoryState::NotLoaded);
    QCOMPARE(spy.size(), 0);
    c.model.setHistoryState(HistoryState::Loading);
    c.model.setHistoryState(HistoryState::Loading);
    QCOMPARE(spy.size(), 1);
    QCOMPARE(spy.at(0).at(0).value<HistoryState>(), HistoryState::Loading);
    QCOMPARE(c.model.historyState(), HistoryState::Loading);
    c.model.setHistoryState(HistoryState::Loaded);
    c.model.setHistoryState(HistoryState::Loaded);
    c.model.setHistoryState(HistoryState::NotLoaded);
    QCOMPARE(spy.size(), 3);
    QCOMPARE(spy.at(1).at(0).value<HistoryState>(), HistoryState::Loaded);
    QCOMPARE(spy.at(2).at(0).value<HistoryState>(), HistoryState::NotLoaded);
    QCOMPARE(c.model.historyState(), HistoryState::NotLoaded);
}

void TestChatModel::rowOfIdFollowsInsertions()
{
    Checked c;
    QCOMPARE(c.model.rowOfId(u"a"_s), std::nullopt);
    QCOMPARE(c.model.rowOfId(QString()), std::nullopt);
    c.model.mergeHistory(page({ u"b"_s, u"d"_s }), false, false);
    QCOMPARE(c.model.rowOfId(u"d"_s), std::optional(1));
    // Older messages and one pushed between move the rows after them.
    c.model.mergeHistory(page({ u"a"_s }), true, false);
    c.model.mergeHistory(page({ u"a"_s, u"b"_s, u"c"_s, u"d"_s }), false, false);
    for (int row = 0; row < 4; ++row)
        QCOMPARE(c.model.rowOfId(c.model.at(row).id), std::optional(row));
    // A message in flight has no id yet; acknowledged, it has a row by it.
    c.model.appendOwn(u"k1"_s, u"mine"_s, 10, Delivery::Sending);
    QCOMPARE(c.model.rowOfId(QString()), std::nullopt);
    c.model.acknowledge(u"k1"_s, u"e"_s, 11);
    QCOMPARE(c.model.rowOfId(u"e"_s), std::optional(4));
    QCOMPARE(c.model.rowOfId(u"x"_s), std::nullopt);
}

void TestChatModel::newestFromSkipsOthersAndFlight()
{
    Checked c;
    QCOMPARE(c.model.newestFrom(kFriend, 10), std::nullopt);
    c.model.mergeHistory(page({ u"a"_s, u"b"_s }), false, false);
    c.model.appendDelivered(message(u"c"_s, kSelf, u"mine"_s, 2000));
    c.model.appendOwn(u"k1"_s, u"in flight"_s, 10, Delivery::Sending);
    // Past the end, and on our own message: the friend's newest before it.
    QCOMPARE(c.model.newestFrom(kFriend, 99), std::optional(1));
    QCOMPARE(c.model.newestFrom(kFriend, 2), std::optional(1));
    QCOMPARE(c.model.newestFrom(kFriend, 0), std::optional(0));
    QCOMPARE(c.model.newestFrom(kFriend, -1), std::nullopt);
    QCOMPARE(c.model.newestFrom(kSelf, 99), std::optional(2)); // never the row in flight
    QCOMPARE(c.model.newestFrom(u"bob"_s, 99), std::nullopt);
}

QTEST_MAIN(TestChatModel)
#include "tst_chat_model.moc"
