// FriendListModel: roles, setFriends in place, coalesced presence updates, stale and unknown
// marking, the availability set, held moves, and a 100,000-row burst.

// C++
#include <algorithm>
#include <chrono>
#include <optional>
#include <utility>
#include <vector>

// Qt
#include <QAbstractItemModelTester>
#include <QHash>
#include <QRandomGenerator>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

// Presence
#include "models/FriendListModel.h"
#include "models/FriendSortFilterProxy.h"
#include "models/PresenceState.h"
#include "tests/models/FriendRows.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace FriendRows;
using Presence::Models::FriendListModel;
using Presence::Models::FriendRecord;
using Presence::Models::FriendSortFilterProxy;
using Presence::Models::PresenceState;

namespace {

const QList<int> kPresenceRoles = { FriendListModel::StatusRole, FriendListModel::LastSeenRole,
    FriendListModel::FreshRole, FriendListModel::SortStatusRole };

struct Range {
    int first = 0;
    int last = 0;
    QList<int> roles;
    friend bool operator==(const Range &a, const Range &b)
    {
        return a.first == b.first && a.last == b.last;
    }
};

[[maybe_unused]] char *toString(const Range &range)
{
    return qstrdup(QByteArray::number(range.first) + ".." + QByteArray::number(range.last));
}

QList<FriendRecord> makeFriends(int count)
{
    QList<FriendRecord> friends;
    friends.reserve(count);
    for (int i = 0; i < count; ++i)
        friends.append({ u"id%1"_s.arg(i), u"Name %1"_s.arg(i) });
    return friends;
}

QList<Range> rangesOf(const QSignalSpy &spy)
{
    QList<Range> ranges;
    for (const QList<QVariant> &args : spy) {
        const auto first = args.at(0).value<QModelIndex>();
        const auto last = args.at(1).value<QModelIndex>();
        ranges.append({ first.row(), last.row(), args.at(2).value<QList<int>>() });
    }
    return ranges;
}

} // namespace

Q_DECLARE_METATYPE(FriendRecord)
Q_DECLARE_METATYPE(Range)
Q_DECLARE_METATYPE(std::optional<qint64>)

class TestFriendListModel : public QObject {
    Q_OBJECT

private slots:
    void rolesStartAfterUserRole();
    void dataForEachRole();
    void dataIsEmptyForUnknownRolesAndInvalidIndexes();
    void roleNames();

    void setFriendsKeepsOrderAndStartsUnknown();
    void setFriendsWithIdenticalListDoesNotReset_data();
    void setFriendsWithIdenticalListDoesNotReset();
    void setFriendsWithChangedListKeepsKnownPresence();
    void setFriendsInsertsAndRemovesRowsAroundThoseThatStay();
    void setFriendsDropsPendingChangesOfTheOldList();
    void setFriendsKeepsOneRowPerId();
    void sharedNamesAreMarked();
    void reloadWithEveryNameChangedIsOneChange();
    void reloadWithOneFriendAddedInsertsOneRow();
    void scatteredReloadResetsOnceAndKeepsPresence();
    void resetTellsWhichRowsCarryOver();
    void namesakesAreFoundWhateverTheScript();

    void updatePresenceChangesOnlyItsRow_data();
    void updatePresenceChangesOnlyItsRow();
    void updatePresenceIgnoresUnknownIds();
    void updatePresenceWithNothingNewIsNotTold();

    void manyEventsForOneRowAreToldOnce();
    void dirtyRowsAreToldAsContiguousRuns_data();
    void dirtyRowsAreToldAsContiguousRuns();
    void burstIsToldByTheFlushTimer();

    void markAllUnknownIsOneRangedChange();
    void markAllUnknownSkipsRowsAlreadyUnknown();
    void markStaleKeepsStatusAndClearsFresh();
    void availabilityMakesRowsLive();
    void heldMovesWaitForTheRelease();
    void exactPresenceWinsOverAvailability();
    void staleRowFallsBackToAvailability();
    void staleRowSortsAsUnknown();
    void completeAvailabilityUncoversTheRest();

    void hundredThousandRows();
};

void TestFriendListModel::rolesStartAfterUserRole()
{
    QCOMPARE(int(FriendListModel::IdRole), Qt::UserRole + 1);
    QCOMPARE(int(FriendListModel::NameRole), Qt::UserRole + 2);
    QCOMPARE(int(FriendListModel::StatusRole), Qt::UserRole + 3);
    QCOMPARE(int(FriendListModel::LastSeenRole), Qt::UserRole + 4);
    QCOMPARE(int(FriendListModel::FreshRole), Qt::UserRole + 5);
}

void TestFriendListModel::dataForEachRole()
{
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    model.setFriends({ { u"alice"_s, u"Alice A."_s }, { u"bob"_s, u"Bob B."_s } });
    const QModelIndex bob = model.index(1);
    QCOMPARE(bob.data(Qt::DisplayRole), QVariant(u"Bob B."_s));
    QCOMPARE(bob.data(FriendListModel::NameRole), QVariant(u"Bob B."_s));
    QCOMPARE(bob.data(FriendListModel::IdRole), QVariant(u"bob"_s));
    QCOMPARE(bob.data(FriendListModel::StatusRole), QVariant(int(PresenceState::Unknown)));
    QVERIFY(!bob.data(FriendListModel::LastSeenRole).isValid());
    QCOMPARE(bob.data(FriendListModel::FreshRole), QVariant(false));

    model.updatePresence(u"bob"_s, PresenceState::Offline, 1'700'000'000'123);
    QCOMPARE(bob.data(FriendListModel::StatusRole), QVariant(int(PresenceState::Offline)));
    QCOMPARE(bob.data(FriendListModel::LastSeenRole), QVariant(qint64(1'700'000'000'123)));
    QCOMPARE(bob.data(FriendListModel::FreshRole), QVariant(true));
}

void TestFriendListModel::dataIsEmptyForUnknownRolesAndInvalidIndexes()
{
    FriendListModel model;
    model.setFriends(makeFriends(3));
    const QModelIndex first = model.index(0);
    QVERIFY(first.isValid());
    for (const int role : { int(Qt::DecorationRole), int(Qt::ToolTipRole), int(Qt::EditRole),
             int(Qt::UserRole), int(FriendListModel::UnreadRole) + 1, int(Qt::UserRole) + 100 }) {
        QVERIFY2(!model.data(first, role).isValid(), qPrintable(u"role %1"_s.arg(role)));
    }
    QVERIFY(!model.index(3).isValid());
    QVERIFY(!model.index(-1).isValid());
    QVERIFY(!model.index(0, 1).isValid());
    QVERIFY(!model.data(QModelIndex(), Qt::DisplayRole).isValid());
    QVERIFY(!model.data(QModelIndex(), FriendListModel::IdRole).isValid());
    QCOMPARE(model.rowCount(first), 0); // a list: rows have no children
}

void TestFriendListModel::roleNames()
{
    FriendListModel model;
    const QHash<int, QByteArray> names = model.roleNames();
    QCOMPARE(names.value(FriendListModel::IdRole), "friendId");
    QCOMPARE(names.value(FriendListModel::NameRole), "name");
    QCOMPARE(names.value(FriendListModel::StatusRole), "status");
    QCOMPARE(names.value(FriendListModel::LastSeenRole), "lastSeen");
    QCOMPARE(names.value(FriendListModel::FreshRole), "fresh");
    QCOMPARE(names.value(FriendListModel::NameSharedRole), "nameShared");
    QCOMPARE(names.value(Qt::DisplayRole), "display"); // the standard names stay
    const QList<QByteArray> values = names.values();
    QCOMPARE(QSet<QByteArray>(values.cbegin(), values.cend()).size(), values.size());
}

void TestFriendListModel::setFriendsKeepsOrderAndStartsUnknown()
{
    FriendListModel model;
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QVERIFY(reset.isValid());
    const QList<FriendRecord> friends = { { u"zed"_s, u"Zed"_s }, { u"amy"_s, u"Amy"_s },
        { u"kim"_s, u"Kim"_s }, { u"bo"_s, u"Bo"_s } };
    model.setFriends(friends);
    QCOMPARE(reset.count(), 1);
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(idsIn(model), (QStringList { u"zed"_s, u"amy"_s, u"kim"_s, u"bo"_s }));
    for (int row = 0; row < model.rowCount(); ++row) {
        QCOMPARE(model.index(row).data(Qt::DisplayRole).toString(), friends.at(row).name);
        QCOMPARE(statusAt(model, row), PresenceState::Unknown);
        QCOMPARE(model.stateAt(row), PresenceState::Unknown);
        QCOMPARE(freshAt(model, row), false);
        QCOMPARE(model.rowOf(friends.at(row).id), std::optional<int>(row));
    }
    QCOMPARE(model.rowOf(u"nobody"_s), std::nullopt);
    QCOMPARE(model.countIn(PresenceState::Unknown), 4);
}

void TestFriendListModel::setFriendsWithIdenticalListDoesNotReset_data()
{
    QTest::addColumn<QList<FriendRecord>>("friends");
    QTest::addRow("empty") << QList<FriendRecord> {};
    QTest::addRow("three") << makeFriends(3);
    QTest::addRow("with a duplicate id")
        << QList<FriendRecord> { { u"a"_s, u"A"_s }, { u"b"_s, u"B"_s }, { u"a"_s, u"A"_s } };
}

void TestFriendListModel::setFriendsWithIdenticalListDoesNotReset()
{
    QFETCH(QList<FriendRecord>, friends);
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    model.setFriends(friends);
    if (model.rowCount() > 0)
        model.updatePresence(friends.first().id, PresenceState::Online, std::nullopt);
    model.flush();

    QSignalSpy aboutToReset(&model, &QAbstractItemModel::modelAboutToBeReset);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QVERIFY(aboutToReset.isValid() && changed.isValid() && inserted.isValid() && removed.isValid());
    const QStringList before = idsIn(model);

    model.setFriends(friends); // a reconnect reloads the same list
    model.flush();
    QCOMPARE(aboutToReset.count(), 0);
    QCOMPARE(changed.count(), 0);
    QCOMPARE(inserted.count(), 0);
    QCOMPARE(removed.count(), 0);
    QCOMPARE(idsIn(model), before);
    if (model.rowCount() > 0) {
        QCOMPARE(statusAt(model, 0), PresenceState::Online);
        QCOMPARE(freshAt(model, 0), true);
    }
}

void TestFriendListModel::setFriendsWithChangedListKeepsKnownPresence()
{
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    model.setFriends({ { u"a"_s, u"A"_s }, { u"b"_s, u"B"_s }, { u"c"_s, u"C"_s } });
    model.updatePresence(u"b"_s, PresenceState::Offline, 4242);
    model.updatePresence(u"c"_s, PresenceState::Away, std::nullopt);
    model.updatePresence(u"a"_s, PresenceState::Online, std::nullopt);
    model.markStale({ u"a"_s });
    model.flush();

    QSignalSpy aboutToReset(&model, &QAbstractItemModel::modelAboutToBeReset);
    QVERIFY(aboutToReset.isValid());
    // c leaves, d arrives, b is renamed, the order changes.
    model.setFriends({ { u"d"_s, u"D"_s }, { u"b"_s, u"B renamed"_s }, { u"a"_s, u"A"_s } });
    QCOMPARE(aboutToReset.count(), 1);
    QCOMPARE(idsIn(model), (QStringList { u"d"_s, u"b"_s, u"a"_s }));
    QCOMPARE(model.rowOf(u"c"_s), std::nullopt);
    QCOMPARE(model.rowOf(u"b"_s), std::optional<int>(1));

    QCOMPARE(statusAt(model, 0), PresenceState::Unknown);
    QCOMPARE(freshAt(model, 0), false);
    QVERIFY(!model.index(0).data(FriendListModel::LastSeenRole).isValid());

    QCOMPARE(model.index(1).data(FriendListModel::NameRole).toString(), u"B renamed"_s);
    QCOMPARE(statusAt(model, 1), PresenceState::Offline);
    QCOMPARE(model.index(1).data(FriendListModel::LastSeenRole), QVariant(qint64(4242)));
    QCOMPARE(freshAt(model, 1), true);

    QCOMPARE(statusAt(model, 2), PresenceState::Online);
    QCOMPARE(freshAt(model, 2), false); // was marked stale before

    // c came back later: what was known of it is gone with its row.
    model.setFriends({ { u"c"_s, u"C"_s } });
    QCOMPARE(statusAt(model, 0), PresenceState::Unknown);
}

void TestFriendListModel::setFriendsInsertsAndRemovesRowsAroundThoseThatStay()
{
    // Friends added and removed while connected: the rows on screen must not be reset (a
    // reset loses the scroll position and the selection).
    FriendListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setFlushInterval(kManualFlush);
    model.setFriends({ { u"a"_s, u"A"_s }, { u"b"_s, u"B"_s }, { u"c"_s, u"Cy"_s },
        { u"d"_s, u"D"_s }, { u"e"_s, u"E"_s } });
    model.updatePresence(u"a"_s, PresenceState::Online, std::nullopt);
    model.updatePresence(u"d"_s, PresenceState::Away, std::nullopt);
    model.updateAvailability({ { u"e"_s, PresenceState::Offline } }, true);
    model.flush();
    model.updatePresence(u"c"_s, PresenceState::Online, std::nullopt); // still pending

    QSignalSpy aboutToReset(&model, &QAbstractItemModel::modelAboutToBeReset);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    // b and e go; x arrives after a, y and z at the end; a new name shared with c.
    model.setFriends({ { u"a"_s, u"A"_s }, { u"x"_s, u"cy"_s }, { u"c"_s, u"Cy"_s },
        { u"d"_s, u"D"_s }, { u"y"_s, u"Y"_s }, { u"z"_s, u"Z"_s } });
    QCOMPARE(aboutToReset.count(), 0);
    QCOMPARE(idsIn(model), (QStringList { u"a"_s, u"x"_s, u"c"_s, u"d"_s, u"y"_s, u"z"_s }));
    const auto range = [](const QList<QVariant> &args) {
        return std::pair { args.at(1).toInt(), args.at(2).toInt() };
    };
    QCOMPARE(removed.count(), 2); // from the end: e, then b
    QCOMPARE(range(removed.at(0)), std::pair(4, 4));
    QCOMPARE(range(removed.at(1)), std::pair(1, 1));
    QCOMPARE(inserted.count(), 2);
    QCOMPARE(range(inserted.at(0)), std::pair(1, 1));
    QCOMPARE(range(inserted.at(1)), std::pair(4, 5));

    // What was known stays with its row, the pending change included; new rows start unknown.
    QCOMPARE(statusAt(model, 0), PresenceState::Online);
    QCOMPARE(statusAt(model, 2), PresenceState::Online);
    QCOMPARE(statusAt(model, 3), PresenceState::Away);
    QCOMPARE(statusAt(model, 1), PresenceState::Unknown);
    QCOMPARE(freshAt(model, 4), false);
    QCOMPARE(model.rowOf(u"d"_s), std::optional<int>(3));
    QCOMPARE(model.rowOf(u"e"_s), std::nullopt);
    QCOMPARE(model.coveredCount(), 0); // e, the one covered, left
    // c and x share a name now, which their rows say at once.
    QCOMPARE(model.index(1).data(FriendListModel::NameSharedRole).toBool(), true);
    QCOMPARE(model.index(2).data(FriendListModel::NameSharedRole).toBool(), true);
    // Told as one range over both, not a signal per row.
    QCOMPARE(rangesOf(changed), (QList<Range> { { 1, 2, {} } }));
    QCOMPARE(
        changed.at(0).at(2).value<QList<int>>(), QList<int> { FriendListModel::NameSharedRole });
    // c's change, not told yet, is told at the next flush, under c's new row.
    changed.clear();
    model.flush();
    QCOMPARE(rangesOf(changed), (QList<Range> { { 2, 2, {} } }));

    // A renamed friend is a change of data, not of rows.
    changed.clear();
    model.setFriends({ { u"a"_s, u"Ada"_s }, { u"x"_s, u"cy"_s }, { u"c"_s, u"Cy"_s },
        { u"d"_s, u"D"_s }, { u"y"_s, u"Y"_s }, { u"z"_s, u"Z"_s } });
    QCOMPARE(aboutToReset.count(), 0);
    QCOMPARE(inserted.count(), 2);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.at(0).at(0).toModelIndex().row(), 0);
    QCOMPARE(model.index(0).data(Qt::DisplayRole).toString(), u"Ada"_s);

    // Updates after the change land on the right rows.
    changed.clear();
    model.updatePresence(u"y"_s, PresenceState::Online, std::nullopt);
    model.flush();
    QCOMPARE(rangesOf(changed), (QList<Range> { { 4, 4, {} } }));
}

void TestFriendListModel::setFriendsDropsPendingChangesOfTheOldList()
{
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    model.setFriends(makeFriends(10));
    model.updatePresence(u"id8"_s, PresenceState::Online, std::nullopt);
    model.updatePresence(u"id1"_s, PresenceState::Online, std::nullopt);
    model.setFriends(makeFriends(2)); // row 8 no longer exists
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY(changed.isValid());
    model.flush();
    // id8's change went with its row (no range past the end); id1's stays to be told.
    QCOMPARE(rangesOf(changed), (QList<Range> { { 1, 1, {} } }));
    QCOMPARE(statusAt(model, 1), PresenceState::Online);

    // The model still coalesces after the change.
    changed.clear();
    model.updatePresence(u"id0"_s, PresenceState::Away, std::nullopt);
    model.flush();
    QCOMPARE(rangesOf(changed), (QList<Range> { { 0, 0, {} } }));
}

void TestFriendListModel::setFriendsKeepsOneRowPerId()
{
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    model.setFriends({ { u"a"_s, u"First A"_s }, { u"b"_s, u"B"_s }, { u"a"_s, u"Second A"_s },
        { u"c"_s, u"C"_s }, { u"b"_s, u"B"_s } });
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(idsIn(model), (QStringList { u"a"_s, u"b"_s, u"c"_s }));
    QCOMPARE(model.index(0).data(Qt::DisplayRole).toString(), u"First A"_s);
    QCOMPARE(model.rowOf(u"c"_s), std::optional<int>(2));

    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY(changed.isValid());
    model.updatePresence(u"c"_s, PresenceState::Online, std::nullopt);
    model.flush();
    QCOMPARE(rangesOf(changed), (QList<Range> { { 2, 2, {} } }));
    QCOMPARE(statusAt(model, 2), PresenceState::Online);
}

void TestFriendListModel::sharedNamesAreMarked()
{
    // Two friends called Elena Haddad must be told apart by their handles: the model marks
    // every row whose name another row shows too, as it looks (case and spacing aside).
    FriendListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto shared = [&model] {
        QStringList ids;
        for (int row = 0; row < model.rowCount(); ++row) {
            if (model.index(row).data(FriendListModel::NameSharedRole).toBool())
                ids.append(model.index(row).data(FriendListModel::IdRole).toString());
        }
        return ids;
    };
    model.setFriends({ { u"user7"_s, u"Elena Haddad"_s }, { u"user8"_s, u"Elena Hadid"_s },
        { u"user9"_s, u"elena  haddad"_s }, { u"ada"_s, QString() }, { u"user3"_s, u"Ada"_s },
        { u"user4"_s, u"Bo"_s } });
    QCOMPARE(model.index(0).data(FriendListModel::NameSharedRole), QVariant(true));
    // A nameless friend is shown by the id: "ada" is the same name as "Ada".
    QCOMPARE(shared(), (QStringList { u"user7"_s, u"user9"_s, u"ada"_s, u"user3"_s }));

    // One more namesake, added live: both rows now show their handles.
    model.setFriends({ { u"user7"_s, u"Elena Haddad"_s }, { u"user8"_s, u"Elena Hadid"_s },
        { u"user9"_s, u"elena  haddad"_s }, { u"ada"_s, QString() }, { u"user3"_s, u"Ada"_s },
        { u"user4"_s, u"Bo"_s }, { u"user6"_s, u" ELENA HADID "_s } });
    QCOMPARE(shared(),
        (QStringList { u"user7"_s, u"user8"_s, u"user9"_s, u"ada"_s, u"user3"_s, u"user6"_s }));

    // A new list is looked at anew: a name left alone is no longer shared.
    model.setFriends({ { u"user7"_s, u"Elena Haddad"_s }, { u"user8"_s, u"Elena Hadid"_s },
        { u"user4"_s, u"Bo"_s }, { u"user5"_s, u"Bo"_s } });
    QCOMPARE(shared(), (QStringList { u"user4"_s, u"user5"_s }));
}

void TestFriendListModel::reloadWithEveryNameChangedIsOneChange()
{
    // Every name of 10,000 changed: one dataChanged over the rows, so that views and sorting
    // proxies do their work once (one per row made a reload of 10,000 take 119 s).
    FriendListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QList<FriendRecord> friends = makeFriends(10'000);
    model.setFriends(friends);
    model.updatePresence(u"id42"_s, PresenceState::Away, std::nullopt);
    model.flush();
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy resets(&model, &QAbstractItemModel::modelAboutToBeReset);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);

    for (FriendRecord &f : friends)
        f.name = u"Renamed "_s + f.name;
    friends[7].name = friends.at(8).name; // now two share a name
    model.setFriends(friends);

    QCOMPARE(resets.count() + inserted.count() + removed.count(), 0);
    QCOMPARE(rangesOf(changed), (QList<Range> { { 0, 9'999, {} } }));
    QVERIFY(changed.at(0).at(2).value<QList<int>>().contains(FriendListModel::NameRole));
    QVERIFY(changed.at(0).at(2).value<QList<int>>().contains(FriendListModel::NameSharedRole));
    QCOMPARE(model.index(9'999).data(Qt::DisplayRole).toString(), u"Renamed Name 9999"_s);
    QCOMPARE(model.index(7).data(FriendListModel::NameSharedRole).toBool(), true);
    QCOMPARE(statusAt(model, 42), PresenceState::Away);
}

void TestFriendListModel::reloadWithOneFriendAddedInsertsOneRow()
{
    FriendListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QList<FriendRecord> friends = makeFriends(10'000);
    model.setFriends(friends);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy resets(&model, &QAbstractItemModel::modelAboutToBeReset);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);

    friends.insert(5'000, { u"newcomer"_s, u"Newcomer"_s });
    model.setFriends(friends);

    QCOMPARE(resets.count() + removed.count() + changed.count(), 0);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(inserted.at(0).at(1).toInt(), 5'000);
    QCOMPARE(inserted.at(0).at(2).toInt(), 5'000);
    QCOMPARE(model.rowOf(u"newcomer"_s), std::optional<int>(5'000));
    QCOMPARE(model.rowOf(u"id5000"_s), std::optional<int>(5'001));
}

void TestFriendListModel::scatteredReloadResetsOnceAndKeepsPresence()
{
    // Friends added and removed all over a long list: a thousand removals and insertions would
    // each cost every listener a pass over the rows, so the model resets once instead; what it
    // knew of the friends who stay, it still knows.
    FriendListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QList<FriendRecord> friends = makeFriends(10'000);
    model.setFriends(friends);
    model.updatePresence(u"id1"_s, PresenceState::Online, std::nullopt);
    model.flush();
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);

    QList<FriendRecord> next;
    for (int i = 0; i < friends.size(); ++i) {
        if (i % 10 != 5)
            next.append(friends.at(i));
        if (i % 10 == 0)
            next.append({ u"new%1"_s.arg(i), u"New %1"_s.arg(i) });
    }
    model.setFriends(next);

    QCOMPARE(resets.count(), 1);
    QCOMPARE(inserted.count() + removed.count(), 0);
    QCOMPARE(idsIn(model).size(), next.size());
    QCOMPARE(model.rowOf(u"new10"_s), std::optional<int>(11));
    QCOMPARE(statusAt(model, *model.rowOf(u"id1"_s)), PresenceState::Online);
}

void TestFriendListModel::resetTellsWhichRowsCarryOver()
{
    // While a reset is told, carriedOver() names for each row the row its friend had before
    // with the same name, so that a sorting proxy ranks only the other names again.
    FriendListModel model;
    QList<FriendRecord> friends = makeFriends(10'000); // enough changes for a reset
    model.setFriends(friends);
    QList<FriendRecord> next;
    for (int i = 0; i < friends.size(); ++i) {
        if (i % 10 == 3)
            continue; // gone
        next.append(friends.at(i));
        if (i % 10 == 0)
            next.append({ u"new%1"_s.arg(i), u"New %1"_s.arg(i) });
        if (i % 10 == 7)
            next.last().name = u"Renamed %1"_s.arg(i);
    }
    std::vector<int> seen;
    connect(&model, &QAbstractItemModel::modelReset, &model,
        [&model, &seen] { seen = model.carriedOver(); });
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    model.setFriends(next);

    QCOMPARE(resets.count(), 1);
    QCOMPARE(seen.size(), size_t(next.size()));
    for (qsizetype row = 0; row < next.size(); ++row) {
        const QString &id = next.at(row).id;
        const bool kept = id.startsWith(u"id"_s) && !next.at(row).name.startsWith(u"Renamed"_s);
        const int expected = kept ? QStringView(id).mid(2).toInt() : -1; // "id7" was row 7
        QCOMPARE(seen[size_t(row)], expected);
    }
    QVERIFY(model.carriedOver().empty()); // only while the reset is told
}

void TestFriendListModel::namesakesAreFoundWhateverTheScript()
{
    // Names look alike whatever their script and whitespace: accents folded as the case of
    // their letters, a non-breaking space as a space, and a Kelvin sign as the letter k.
    FriendListModel model;
    model.setFriends({ { u"a"_s, u"Élodie Durand"_s }, { u"b"_s, u"éLODIE\u00A0durand"_s },
        { u"c"_s, u"Elodie Durand"_s }, { u"d"_s, u"Kai"_s }, { u"e"_s, u"\u212Aai"_s },
        { u"f"_s, u"Zoë"_s }, { u"g"_s, u"Zoe"_s }, { u"h"_s, u"\tkai \n"_s } });
    QStringList shared;
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.index(row).data(FriendListModel::NameSharedRole).toBool())
            shared.append(model.index(row).data(FriendListModel::IdRole).toString());
    }
    QCOMPARE(shared, (QStringList { u"a"_s, u"b"_s, u"d"_s, u"e"_s, u"h"_s }));
}

void TestFriendListModel::updatePresenceChangesOnlyItsRow_data()
{
    QTest::addColumn<PresenceState>("state");
    QTest::addColumn<std::optional<qint64>>("lastSeen");
    QTest::addRow("online") << PresenceState::Online << std::optional<qint64>();
    QTest::addRow("away") << PresenceState::Away << std::optional<qint64>();
    QTest::addRow("offline with last_seen")
        << PresenceState::Offline << std::optional<qint64>(1'700'000'123'456);
    QTest::addRow("offline, never seen") << PresenceState::Offline << std::optional<qint64>();
    QTest::addRow("unknown") << PresenceState::Unknown << std::optional<qint64>();
}

void TestFriendListModel::updatePresenceChangesOnlyItsRow()
{
    QFETCH(PresenceState, state);
    QFETCH(std::optional<qint64>, lastSeen);
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    model.setFriends(makeFriends(10));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY(changed.isValid());

    model.updatePresence(u"id5"_s, state, lastSeen);
    // The data changes at once; views hear of it at the flush.
    QCOMPARE(statusAt(model, 5), state);
    QCOMPARE(model.stateAt(5), state);
    QCOMPARE(freshAt(model, 5), true);
    const QVariant seen = model.index(5).data(FriendListModel::LastSeenRole);
    QCOMPARE(seen.isValid(), lastSeen.has_value());
    if (lastSeen)
        QCOMPARE(seen.toLongLong(), *lastSeen);
    for (int row = 0; row < 10; ++row) {
        if (row == 5)
            continue;
        QCOMPARE(statusAt(model, row), PresenceState::Unknown);
        QCOMPARE(freshAt(model, row), false);
    }
    QCOMPARE(changed.count(), 0);

    model.flush();
    QCOMPARE(changed.count(), 1);
    const QList<Range> ranges = rangesOf(changed);
    QCOMPARE(ranges.first().first, 5);
    QCOMPARE(ranges.first().last, 5);
    QCOMPARE(sorted(ranges.first().roles), sorted(kPresenceRoles));

    model.flush(); // nothing left to tell
    QCOMPARE(changed.count(), 1);
}

void TestFriendListModel::updatePresenceIgnoresUnknownIds()
{
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    model.setFriends(makeFriends(5));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY(changed.isValid());
    model.updatePresence(u"stranger"_s, PresenceState::Online, std::nullopt);
    model.updatePresence(QString(), PresenceState::Online, std::nullopt);
    model.updatePresence(u"ID1"_s, PresenceState::Online, std::nullopt); // ids are exact
    model.markStale({ u"stranger"_s });
    model.flush();
    QCOMPARE(changed.count(), 0);
    QCOMPARE(model.countIn(PresenceState::Unknown), 5);
    for (int row = 0; row < 5; ++row)
        QCOMPARE(freshAt(model, row), false);
}

void TestFriendListModel::updatePresenceWithNothingNewIsNotTold()
{
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    model.setFriends(makeFriends(5));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY(changed.isValid());
    model.updatePresence(u"id2"_s, PresenceState::Offline, 77);
    model.flush();
    QCOMPARE(changed.count(), 1);
    model.updatePresence(u"id2"_s, PresenceState::Offline, 77);
    model.flush();
    QCOMPARE(changed.count(), 1);
    // A new last_seen alone is news.
    model.updatePresence(u"id2"_s, PresenceState::Offline, 78);
    model.flush();
    QCOMPARE(changed.count(), 2);
    // So is the same status again once it was stale.
    model.markStale({ u"id2"_s });
    model.flush();
    QCOMPARE(changed.count(), 3);
    model.updatePresence(u"id2"_s, PresenceState::Offline, 78);
    model.flush();
    QCOMPARE(changed.count(), 4);
    QCOMPARE(freshAt(model, 2), true);
}

void TestFriendListModel::manyEventsForOneRowAreToldOnce()
{
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    model.setFriends(makeFriends(10));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY(changed.isValid());
    const PresenceState cycle[]
        = { PresenceState::Online, PresenceState::Away, PresenceState::Offline };
    for (int i = 0; i < 300; ++i)
        model.updatePresence(
            u"id3"_s, cycle[i % 3], i % 3 == 2 ? std::optional<qint64>(i) : std::nullopt);
    model.markStale({ u"id3"_s });
    model.updatePresence(u"id3"_s, PresenceState::Away, std::nullopt);
    QCOMPARE(changed.count(), 0);
    model.flush();
    QCOMPARE(rangesOf(changed), (QList<Range> { { 3, 3, {} } }));
    QCOMPARE(statusAt(model, 3), PresenceState::Away);
    QCOMPARE(freshAt(model, 3), true);
}

void TestFriendListModel::dirtyRowsAreToldAsContiguousRuns_data()
{
    QTest::addColumn<QList<int>>("rows");
    QTest::addColumn<QList<Range>>("expected");
    QTest::addRow("one row") << QList<int> { 7 } << QList<Range> { { 7, 7, {} } };
    QTest::addRow("3,4,5 and 9") << QList<int> { 3, 4, 5, 9 }
                                 << QList<Range> { { 3, 5, {} }, { 9, 9, {} } };
    QTest::addRow("out of order, repeated")
        << QList<int> { 9, 5, 3, 4, 9, 3, 5 } << QList<Range> { { 3, 5, {} }, { 9, 9, {} } };
    QTest::addRow("first and last")
        << QList<int> { 11, 0 } << QList<Range> { { 0, 0, {} }, { 11, 11, {} } };
    QTest::addRow("every other") << QList<int> { 0, 2, 4 }
                                 << QList<Range> { { 0, 0, {} }, { 2, 2, {} }, { 4, 4, {} } };
    QTest::addRow("all rows") << QList<int> { 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0 }
                              << QList<Range> { { 0, 11, {} } };
}

void TestFriendListModel::dirtyRowsAreToldAsContiguousRuns()
{
    QFETCH(QList<int>, rows);
    QFETCH(QList<Range>, expected);
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    model.setFriends(makeFriends(12));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY(changed.isValid());
    int n = 0;
    for (const int row : std::as_const(rows))
        model.updatePresence(u"id%1"_s.arg(row),
            (n++ % 2) ? PresenceState::Away : PresenceState::Online, std::nullopt);
    QCOMPARE(changed.count(), 0);
    model.flush();
    QList<Range> got = rangesOf(changed);
    for (const Range &range : std::as_const(got))
        QCOMPARE(sorted(range.roles), sorted(kPresenceRoles));
    std::sort(
        got.begin(), got.end(), [](const Range &a, const Range &b) { return a.first < b.first; });
    QCOMPARE(got, expected);
}

void TestFriendListModel::burstIsToldByTheFlushTimer()
{
    FriendListModel model;
    QCOMPARE(model.flushInterval(), 16ms);
    model.setFriends(makeFriends(100));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY(changed.isValid());

    const PresenceState cycle[] = { PresenceState::Online, PresenceState::Away,
        PresenceState::Offline, PresenceState::Online };
    for (int i = 0; i < 1000; ++i)
        model.updatePresence(u"id%1"_s.arg(i % 100), cycle[(i / 100) % 4], std::nullopt);
    QCOMPARE(changed.count(), 0); // nothing is told synchronously
    QCOMPARE(model.countIn(PresenceState::Away), 100); // but the data is there at once

    QTRY_VERIFY(changed.count() >= 1);
    // A later change, told by a later flush, bounds what the burst produced.
    model.updatePresence(u"id42"_s, PresenceState::Online, std::nullopt);
    const int afterBurst = int(changed.count());
    QTRY_COMPARE(int(changed.count()), afterBurst + 1);
    QVERIFY2(afterBurst <= 2, qPrintable(u"the burst was told in %1 signals"_s.arg(afterBurst)));
    const QList<Range> ranges = rangesOf(changed);
    QCOMPARE(ranges.first().first, 0);
    QCOMPARE(ranges.first().last, 99);
    QCOMPARE(ranges.last().first, 42);
    QCOMPARE(ranges.last().last, 42);
}

void TestFriendListModel::markAllUnknownIsOneRangedChange()
{
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    model.setFriends(makeFriends(20));
    const PresenceState cycle[] = { PresenceState::Online, PresenceState::Away,
        PresenceState::Offline, PresenceState::Unknown };
    for (int i = 0; i < 20; ++i)
        model.updatePresence(
            u"id%1"_s.arg(i), cycle[i % 4], i % 4 == 2 ? std::optional<qint64>(i) : std::nullopt);
    model.markStale({ u"id0"_s, u"id1"_s }); // stale rows with a status still change
    model.flush();

    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY(changed.isValid());
    model.markAllUnknown();
    QCOMPARE(model.countIn(PresenceState::Unknown), 20);
    for (int row = 0; row < 20; ++row) {
        QCOMPARE(statusAt(model, row), PresenceState::Unknown);
        QCOMPARE(freshAt(model, row), false);
    }
    QCOMPARE(changed.count(), 0);
    model.flush();
    const QList<Range> ranges = rangesOf(changed);
    QCOMPARE(ranges, (QList<Range> { { 0, 19, {} } }));
    QCOMPARE(sorted(ranges.first().roles), sorted(kPresenceRoles));

    model.markAllUnknown(); // nothing left to change
    model.flush();
    QCOMPARE(changed.count(), 1);
}

void TestFriendListModel::markAllUnknownSkipsRowsAlreadyUnknown()
{
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    model.setFriends(makeFriends(10));
    model.updatePresence(u"id1"_s, PresenceState::Online, std::nullopt);
    model.updatePresence(u"id2"_s, PresenceState::Away, std::nullopt);
    model.updatePresence(u"id6"_s, PresenceState::Unknown, std::nullopt); // unknown but fresh
    model.flush();
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY(changed.isValid());
    model.markAllUnknown();
    model.flush();
    QCOMPARE(rangesOf(changed), (QList<Range> { { 1, 2, {} }, { 6, 6, {} } }));
    QCOMPARE(freshAt(model, 6), false);
}

void TestFriendListModel::heldMovesWaitForTheRelease()
{
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    model.setFriends(makeFriends(5)); // Name 0 .. Name 4
    FriendSortFilterProxy proxy;
    proxy.setSourceModel(&model);
    const QStringList byName { u"id0"_s, u"id1"_s, u"id2"_s, u"id3"_s, u"id4"_s };
    QCOMPARE(idsIn(proxy), byName);

    proxy.setMovesHeld(true);
    model.updatePresence(u"id4"_s, PresenceState::Online, std::nullopt);
    model.flush();
    QCoreApplication::processEvents(); // the next-turn timer would have moved it
    QCOMPARE(idsIn(proxy), byName); // in place while held, its dot already green
    QCOMPARE(
        proxy.index(4, 0).data(FriendListModel::StatusRole).toInt(), int(PresenceState::Online));
    QCOMPARE(proxy.pendingMoveCount(), 1);

    proxy.setMovesHeld(false);
    QCOMPARE(idsIn(proxy), (QStringList { u"id4"_s, u"id0"_s, u"id1"_s, u"id2"_s, u"id3"_s }));
    QCOMPARE(proxy.pendingMoveCount(), 0);
}

void TestFriendListModel::staleRowSortsAsUnknown()
{
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    model.setFriends(makeFriends(4)); // Name 0 .. Name 3
    FriendSortFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.updatePresence(u"id2"_s, PresenceState::Online, std::nullopt);
    model.updatePresence(u"id3"_s, PresenceState::Away, std::nullopt);
    model.flush();
    QTRY_COMPARE(idsIn(proxy), (QStringList { u"id2"_s, u"id3"_s, u"id0"_s, u"id1"_s }));

    // Scrolled away and not covered by the availability set: it still says what it knew
    // ("online 2 min ago"), but it may have left since, so it sorts with the unknown ones.
    model.markStale({ u"id2"_s });
    model.flush();
    QCOMPARE(statusAt(model, 2), PresenceState::Online);
    QCOMPARE(freshAt(model, 2), false);
    QTRY_COMPARE(idsIn(proxy), (QStringList { u"id3"_s, u"id0"_s, u"id1"_s, u"id2"_s }));
    QCOMPARE(
        model.index(2).data(FriendListModel::SortStatusRole).toInt(), int(PresenceState::Unknown));

    // Watched again: live, and back at the top.
    model.updatePresence(u"id2"_s, PresenceState::Online, std::nullopt);
    model.flush();
    QTRY_COMPARE(idsIn(proxy), (QStringList { u"id2"_s, u"id3"_s, u"id0"_s, u"id1"_s }));
}

void TestFriendListModel::availabilityMakesRowsLive()
{
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    model.setFriends(makeFriends(5));
    model.updateAvailability(
        { { u"id0"_s, PresenceState::Online }, { u"id1"_s, PresenceState::Away },
            { u"id2"_s, PresenceState::Offline }, { u"stranger"_s, PresenceState::Online } },
        true);
    QCOMPARE(model.coveredCount(), 3);
    QCOMPARE(statusAt(model, 0), PresenceState::Online);
    QCOMPARE(statusAt(model, 1), PresenceState::Away);
    QCOMPARE(statusAt(model, 2), PresenceState::Offline);
    QCOMPARE(statusAt(model, 3), PresenceState::Unknown);
    for (int row = 0; row < 3; ++row)
        QCOMPARE(freshAt(model, row), true);
    QCOMPARE(freshAt(model, 3), false);
    QCOMPARE(model.countLiveIn(PresenceState::Online), 1);
    QCOMPARE(model.liveCount(), 3);
    QCOMPARE(model.rowCount(), 5);

    // A change applies to covered rows only.
    model.updateAvailability({ { u"id2"_s, PresenceState::Online } }, false);
    QCOMPARE(statusAt(model, 2), PresenceState::Online);
    QCOMPARE(model.countLiveIn(PresenceState::Online), 2);
    model.markAllUnknown();
    QCOMPARE(model.coveredCount(), 0);
    QCOMPARE(model.liveCount(), 0);
    QCOMPARE(statusAt(model, 0), PresenceState::Unknown);
}

void TestFriendListModel::exactPresenceWinsOverAvailability()
{
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    model.setFriends(makeFriends(3));
    model.updatePresence(u"id0"_s, PresenceState::Offline, 1234);
    // The availability set lags by up to one interval: it says nothing over a live
    // subscription.
    model.updateAvailability({ { u"id0"_s, PresenceState::Online } }, true);
    QCOMPARE(statusAt(model, 0), PresenceState::Offline);
    QCOMPARE(model.index(0).data(FriendListModel::LastSeenRole), QVariant(qint64(1234)));
    QCOMPARE(model.coveredCount(), 1);
}

void TestFriendListModel::staleRowFallsBackToAvailability()
{
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    model.setFriends(makeFriends(3));
    model.updateAvailability(
        { { u"id0"_s, PresenceState::Online }, { u"id1"_s, PresenceState::Offline } }, true);
    model.updatePresence(u"id0"_s, PresenceState::Away, std::nullopt); // newer than the set
    model.updatePresence(u"id1"_s, PresenceState::Offline, 999);
    model.markStale({ u"id0"_s, u"id1"_s });
    // Still live: what the subscription said last, then whatever the set says next.
    QCOMPARE(statusAt(model, 0), PresenceState::Away);
    QCOMPARE(freshAt(model, 0), true);
    QCOMPARE(model.index(1).data(FriendListModel::LastSeenRole), QVariant(qint64(999)));
    QCOMPARE(freshAt(model, 1), true);
    model.updateAvailability({ { u"id0"_s, PresenceState::Offline } }, false);
    QCOMPARE(statusAt(model, 0), PresenceState::Offline);
    QVERIFY(!model.index(0).data(FriendListModel::LastSeenRole).isValid());
    // Offline again and still offline: the last-seen time holds.
    model.updateAvailability({ { u"id1"_s, PresenceState::Offline } }, false);
    QCOMPARE(model.index(1).data(FriendListModel::LastSeenRole), QVariant(qint64(999)));
}

void TestFriendListModel::completeAvailabilityUncoversTheRest()
{
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    model.setFriends(makeFriends(3));
    model.updateAvailability(
        { { u"id0"_s, PresenceState::Online }, { u"id1"_s, PresenceState::Online } }, true);
    model.flush();
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY(changed.isValid());
    model.updateAvailability({ { u"id0"_s, PresenceState::Online } }, true);
    QCOMPARE(model.coveredCount(), 1);
    QCOMPARE(freshAt(model, 1), false); // kept, but no longer live
    QCOMPARE(statusAt(model, 1), PresenceState::Online);
    model.flush();
    QCOMPARE(rangesOf(changed), (QList<Range> { { 1, 1, {} } }));
}

void TestFriendListModel::markStaleKeepsStatusAndClearsFresh()
{
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    model.setFriends(makeFriends(6));
    model.updatePresence(u"id1"_s, PresenceState::Online, std::nullopt);
    model.updatePresence(u"id3"_s, PresenceState::Offline, 999);
    model.updatePresence(u"id4"_s, PresenceState::Away, std::nullopt);
    model.flush();
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY(changed.isValid());

    model.markStale({ u"id3"_s, u"id1"_s, u"stranger"_s, u"id0"_s /* never fresh */ });
    QCOMPARE(statusAt(model, 1), PresenceState::Online);
    QCOMPARE(freshAt(model, 1), false);
    QCOMPARE(statusAt(model, 3), PresenceState::Offline);
    QCOMPARE(model.index(3).data(FriendListModel::LastSeenRole), QVariant(qint64(999)));
    QCOMPARE(freshAt(model, 3), false);
    QCOMPARE(freshAt(model, 4), true); // not named
    QCOMPARE(statusAt(model, 0), PresenceState::Unknown);
    model.flush();
    QCOMPARE(rangesOf(changed), (QList<Range> { { 1, 1, {} }, { 3, 3, {} } }));
    for (const Range &range : rangesOf(changed))
        QCOMPARE(sorted(range.roles), sorted(kPresenceRoles));

    model.markStale({ u"id1"_s }); // already stale
    model.flush();
    QCOMPARE(changed.count(), 2);
}

void TestFriendListModel::hundredThousandRows()
{
    constexpr int kRows = 100'000;
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    model.setFriends(makeFriends(kRows));
    QCOMPARE(model.rowCount(), kRows);

    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY(changed.isValid());
    QRandomGenerator rng(4711);
    const PresenceState states[]
        = { PresenceState::Offline, PresenceState::Away, PresenceState::Online };
    std::vector<bool> touched(kRows, false);
    for (int i = 0; i < kRows; ++i) {
        const int row = int(rng.bounded(kRows));
        touched[size_t(row)] = true;
        model.updatePresence(u"id%1"_s.arg(row), states[rng.bounded(3)], std::nullopt);
    }
    QCOMPARE(changed.count(), 0);
    model.flush();

    QList<Range> runs;
    for (int row = 0; row < kRows; ++row) {
        if (!touched[size_t(row)])
            continue;
        if (!runs.isEmpty() && runs.last().last == row - 1)
            runs.last().last = row;
        else
            runs.append({ row, row, {} });
    }
    QVERIFY(changed.count() <= runs.size());
    QList<Range> got = rangesOf(changed);
    std::sort(
        got.begin(), got.end(), [](const Range &a, const Range &b) { return a.first < b.first; });
    QCOMPARE(got, runs);
    QCOMPARE(model.countIn(PresenceState::Unknown),
        int(std::count(touched.cbegin(), touched.cend(), false)));
}

QTEST_MAIN(TestFriendListModel)
#include "tst_friend_list_model.moc"
