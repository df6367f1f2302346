// FriendSortFilterProxy: online first then name in several locales, following presence and the
// source's inserts and removes without a reset, search, and random storms under
// QAbstractItemModelTester against a brute-force shadow of what it should show.

// C++
#include <algorithm>
#include <chrono>
#include <optional>
#include <utility>
#include <vector>

// Qt
#include <QAbstractItemModelTester>
#include <QHash>
#include <QLocale>
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
using SortMode = Presence::Models::FriendSortFilterProxy::SortMode;

namespace {

// What the model should hold, kept by the test independently of the model.
struct ShadowRow {
    QString id;
    QString name;
    PresenceState state = PresenceState::Unknown;
    std::optional<qint64> lastSeen;
    bool fresh = false;
};

class Shadow {
public:
    void setFriends(const QList<FriendRecord> &friends)
    {
        QHash<QString, ShadowRow> previous;
        for (const ShadowRow &row : std::as_const(rows))
            previous.insert(row.id, row);
        QSet<QString> seen;
        rows.clear();
        for (const FriendRecord &f : friends) {
            if (seen.contains(f.id))
                continue;
            seen.insert(f.id);
            ShadowRow row = previous.value(f.id);
            row.id = f.id;
            row.name = f.name;
            rows.append(row);
        }
    }
    void updatePresence(const QString &id, PresenceState state, std::optional<qint64> lastSeen)
    {
        if (ShadowRow *row = find(id)) {
            row->state = state;
            row->lastSeen = lastSeen;
            row->fresh = true;
        }
    }
    void markStale(const QStringList &ids)
    {
        for (const QString &id : ids) {
            if (ShadowRow *row = find(id))
                row->fresh = false;
        }
    }
    void markAllUnknown()
    {
        for (ShadowRow &row : rows) {
            row.state = PresenceState::Unknown;
            row.fresh = false;
        }
    }
    // The proxy's content, computed by brute force.
    [[nodiscard]] QStringList expectedProxy(SortMode mode, const QString &search) const
    {
        const QString needle = search.trimmed();
        QList<ShadowRow> shown;
        for (const ShadowRow &row : rows) {
            if (needle.isEmpty() || row.name.contains(needle, Qt::CaseInsensitive)
                || row.id.contains(needle, Qt::CaseInsensitive))
                shown.append(row);
        }
        // Names in the storms are letters plus three digits, so plain case-insensitive
        // comparison agrees with numeric collation.
        std::sort(shown.begin(), shown.end(), [mode](const ShadowRow &a, const ShadowRow &b) {
            // A stale row may have changed since: it sorts as unknown, whatever it says.
            const auto sortRank = [](const ShadowRow &row) {
                return Presence::Models::availabilityRank(
                    row.fresh ? row.state : PresenceState::Unknown);
            };
            if (mode == SortMode::Availability && sortRank(a) != sortRank(b))
                return sortRank(a) < sortRank(b);
            const int byName = QString::compare(a.name, b.name, Qt::CaseInsensitive);
            if (byName != 0)
                return byName < 0;
            return a.id < b.id;
        });
        QStringList ids;
        for (const ShadowRow &row : std::as_const(shown))
            ids.append(row.id);
        return ids;
    }

    QList<ShadowRow> rows;

private:
    ShadowRow *find(const QString &id)
    {
        for (ShadowRow &row : rows) {
            if (row.id == id)
                return &row;
        }
        return nullptr;
    }
};

qsizetype firstDifference(const QStringList &a, const QStringList &b)
{
    const auto [ia, ib] = std::mismatch(a.cbegin(), a.cend(), b.cbegin(), b.cend());
    return ia - a.cbegin();
}

// Row-by-row comparison of the model with the shadow, with the first difference in the message.
QString differenceFrom(const FriendListModel &model, const Shadow &shadow)
{
    if (model.rowCount() != shadow.rows.size())
        return u"rowCount %1, expected %2"_s.arg(model.rowCount()).arg(shadow.rows.size());
    for (int i = 0; i < model.rowCount(); ++i) {
        const QModelIndex index = model.index(i);
        const ShadowRow &row = shadow.rows.at(i);
        const QVariant lastSeen = index.data(FriendListModel::LastSeenRole);
        const std::optional<qint64> got
            = lastSeen.isValid() ? std::optional<qint64>(lastSeen.toLongLong()) : std::nullopt;
        if (index.data(FriendListModel::IdRole).toString() != row.id
            || index.data(FriendListModel::NameRole).toString() != row.name
            || statusAt(model, i) != row.state || freshAt(model, i) != row.fresh
            || got != row.lastSeen)
            return u"row %1 (%2) differs"_s.arg(i).arg(row.id);
    }
    return {};
}

struct SortCase {
    QString id;
    QString name;
    PresenceState state;
};

// Source order deliberately unrelated to the expected orders.
const QList<SortCase> kSortCases = {
    { u"u8"_s, u"user3"_s, PresenceState::Unknown },
    { u"u1"_s, u"user10"_s, PresenceState::Online },
    { u"u3"_s, u"Alice"_s, PresenceState::Away },
    { u"x2"_s, u"dave"_s, PresenceState::Online },
    { u"u7"_s, u"User20"_s, PresenceState::Offline },
    { u"u5"_s, u"user3"_s, PresenceState::Offline },
    { u"u2"_s, u"user2"_s, PresenceState::Online },
    { u"u6"_s, u"user1"_s, PresenceState::Unknown },
    { u"u4"_s, u"bob"_s, PresenceState::Away },
    { u"x1"_s, u"Dave"_s, PresenceState::Online },
    { u"u9"_s, u"carol"_s, PresenceState::Online },
};

void fillSortCases(FriendListModel &model)
{
    QList<FriendRecord> friends;
    for (const SortCase &c : kSortCases)
        friends.append({ c.id, c.name });
    model.setFriends(friends);
    for (const SortCase &c : kSortCases)
        model.updatePresence(c.id, c.state, std::nullopt);
    model.flush();
}

} // namespace

class TestFriendSortFilterProxy : public QObject {
    Q_OBJECT

private slots:
    void cleanup();

    void proxySortsByAvailabilityThenName_data();
    void proxySortsByAvailabilityThenName();
    void proxyFollowsPresenceWithoutReset();
    void proxyStaysSortedWhenOneFlushHasSeveralRuns();
    void proxyNameModeIgnoresPresence();
    void proxyFilter_data();
    void proxyFilter();
    void proxyFilterHoldsUnderPresenceChanges();
    void scatteredSearchChangeResetsWithTheRightRows();
    void reloadWithEveryNameChangedRanksOnce();
    void friendAddedIsPlacedWithoutRankingAll_data();
    void friendAddedIsPlacedWithoutRankingAll();
    void scatteredReloadCollatesOnlyNewNames();
    void oneRenameCollatesOneName();
    void removalsAllOverKeepTheRanks();

    void randomStormsUnderModelTester_data();
    void randomStormsUnderModelTester();
};

void TestFriendSortFilterProxy::cleanup()
{
    QLocale::setDefault(QLocale::system());
}

void TestFriendSortFilterProxy::proxySortsByAvailabilityThenName_data()
{
    QTest::addColumn<QLocale>("locale");
    QTest::addRow("default locale") << QLocale::system();
    QTest::addRow("C locale") << QLocale::c();
    QTest::addRow("English") << QLocale(QLocale::English, QLocale::UnitedStates);
    QTest::addRow("German") << QLocale(QLocale::German, QLocale::Germany);
}

void TestFriendSortFilterProxy::proxySortsByAvailabilityThenName()
{
    QFETCH(QLocale, locale);
    QLocale::setDefault(locale); // the proxy's collator follows the default locale
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    fillSortCases(model);
    FriendSortFilterProxy proxy;
    proxy.setSourceModel(&model);
    QCOMPARE(proxy.sortMode(), SortMode::Availability);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);

    // Online, away, then offline and unknown together; names with numeric collation,
    // case-insensitive; the id breaks ties (x1/x2 "Dave"/"dave", u5/u8 "user3").
    QCOMPARE(idsIn(proxy),
        (QStringList { u"u9"_s, u"x1"_s, u"x2"_s, u"u2"_s, u"u1"_s, // online
            u"u3"_s, u"u4"_s, // away
            u"u6"_s, u"u5"_s, u"u8"_s, u"u7"_s })); // offline and unknown: user1, user3 x2, User20

    QSignalSpy aboutToReset(&proxy, &QAbstractItemModel::modelAboutToBeReset);
    QVERIFY(aboutToReset.isValid());
    proxy.setSortMode(SortMode::Name);
    QCOMPARE(proxy.sortMode(), SortMode::Name);
    QCOMPARE(idsIn(proxy),
        (QStringList { u"u3"_s, u"u4"_s, u"u9"_s, u"x1"_s, u"x2"_s, u"u6"_s, u"u2"_s, u"u5"_s,
            u"u8"_s, u"u1"_s, u"u7"_s }));
    proxy.setSortMode(SortMode::Availability);
    QCOMPARE(idsIn(proxy).first(), u"u9"_s);
    QCOMPARE(aboutToReset.count(), 0);
}

void TestFriendSortFilterProxy::proxyFollowsPresenceWithoutReset()
{
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    model.setFriends({ { u"a"_s, u"Ann"_s }, { u"b"_s, u"Ben"_s }, { u"c"_s, u"Cid"_s },
        { u"d"_s, u"Dot"_s }, { u"e"_s, u"Eve"_s } });
    FriendSortFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(idsIn(proxy), (QStringList { u"a"_s, u"b"_s, u"c"_s, u"d"_s, u"e"_s }));

    QSignalSpy aboutToReset(&proxy, &QAbstractItemModel::modelAboutToBeReset);
    QSignalSpy layout(&proxy, &QAbstractItemModel::layoutChanged);
    QSignalSpy moved(&proxy, &QAbstractItemModel::rowsMoved);
    QVERIFY(aboutToReset.isValid() && layout.isValid() && moved.isValid());

    model.updatePresence(u"e"_s, PresenceState::Online, std::nullopt);
    model.updatePresence(u"c"_s, PresenceState::Away, std::nullopt);
    model.flush();
    QCOMPARE(idsIn(proxy), (QStringList { u"e"_s, u"c"_s, u"a"_s, u"b"_s, u"d"_s }));
    QVERIFY(layout.count() + moved.count() > 0);

    model.updatePresence(u"e"_s, PresenceState::Offline, 5);
    model.updatePresence(u"b"_s, PresenceState::Online, std::nullopt);
    model.flush();
    QCOMPARE(idsIn(proxy), (QStringList { u"b"_s, u"c"_s, u"a"_s, u"d"_s, u"e"_s }));

    model.markAllUnknown();
    model.flush();
    QCOMPARE(idsIn(proxy), (QStringList { u"a"_s, u"b"_s, u"c"_s, u"d"_s, u"e"_s }));
    QCOMPARE(aboutToReset.count(), 0);
}

// Two dirty runs in one flush are two dataChanged signals: while the proxy re-sorts the
// first, the rows of the second already hold their new data. The end result must still be
// sorted. Source rows z a b c f e g h x, all unknown, so the proxy shows a b c e f g h x z;
// then z (row 0) and e (row 5) go online. Re-placing z by binary search meets e already
// online, so z lands among the unknown rows, and nothing moves it back when e is told.
void TestFriendSortFilterProxy::proxyStaysSortedWhenOneFlushHasSeveralRuns()
{
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    const QStringList names
        = { u"z"_s, u"a"_s, u"b"_s, u"c"_s, u"f"_s, u"e"_s, u"g"_s, u"h"_s, u"x"_s };
    QList<FriendRecord> friends;
    for (const QString &name : names)
        friends.append({ name, name });
    model.setFriends(friends);
    FriendSortFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(idsIn(proxy).join(u""), u"abcefghxz"_s);

    Shadow shadow;
    shadow.setFriends(friends);
    for (const QString &id : { u"z"_s, u"e"_s }) {
        model.updatePresence(id, PresenceState::Online, std::nullopt);
        shadow.updatePresence(id, PresenceState::Online, std::nullopt);
    }
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY(changed.isValid());
    model.flush();
    QCOMPARE(changed.count(), 2); // rows 0 and 5: two runs
    QCOMPARE(idsIn(proxy).join(u""), u"ezabcfghx"_s);
    QCOMPARE(idsIn(proxy), shadow.expectedProxy(SortMode::Availability, {}));
}

void TestFriendSortFilterProxy::proxyNameModeIgnoresPresence()
{
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    fillSortCases(model);
    FriendSortFilterProxy proxy;
    proxy.setSortMode(SortMode::Name);
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QStringList before = idsIn(proxy);

    QSignalSpy aboutToReset(&proxy, &QAbstractItemModel::modelAboutToBeReset);
    QSignalSpy layout(&proxy, &QAbstractItemModel::layoutChanged);
    QSignalSpy changed(&proxy, &QAbstractItemModel::dataChanged);
    QVERIFY(aboutToReset.isValid() && layout.isValid() && changed.isValid());
    model.updatePresence(u"u7"_s, PresenceState::Online, std::nullopt);
    model.updatePresence(u"u3"_s, PresenceState::Offline, 1);
    model.markAllUnknown();
    model.updatePresence(u"u8"_s, PresenceState::Online, std::nullopt);
    model.flush();
    QVERIFY(changed.count() > 0); // the proxy passes the changes on
    QCOMPARE(idsIn(proxy), before);
    QCOMPARE(layout.count(), 0); // no re-sort for a change that cannot move a row
    QCOMPARE(aboutToReset.count(), 0);
}

void TestFriendSortFilterProxy::proxyFilter_data()
{
    QTest::addColumn<QString>("search");
    QTest::addColumn<QStringList>("expected"); // in proxy order (availability)
    const QStringList all = { u"u9"_s, u"x1"_s, u"x2"_s, u"u2"_s, u"u1"_s, u"u3"_s, u"u4"_s,
        u"u6"_s, u"u5"_s, u"u8"_s, u"u7"_s };
    QTest::addRow("empty") << QString() << all;
    QTest::addRow("blank") << u"  \t "_s << all;
    QTest::addRow("name, other case, padded") << u"  ALI "_s << QStringList { u"u3"_s };
    QTest::addRow("name substring") << u"user1"_s << QStringList { u"u1"_s, u"u6"_s };
    QTest::addRow("id") << u"X"_s << QStringList { u"x1"_s, u"x2"_s };
    QTest::addRow("id or name") << u"u2"_s
                                << QStringList { u"u2"_s }; // "user2" does not contain "u2"
    QTest::addRow("name with digits") << u"R2"_s << QStringList { u"u2"_s, u"u7"_s };
    QTest::addRow("no match") << u"zzz"_s << QStringList {};
}

void TestFriendSortFilterProxy::proxyFilter()
{
    QFETCH(QString, search);
    QFETCH(QStringList, expected);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    fillSortCases(model);
    FriendSortFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSearchText(search);
    QCOMPARE(proxy.searchText(), search.trimmed());
    QCOMPARE(idsIn(proxy), expected);
    proxy.setSearchText(QString());
    QCOMPARE(proxy.rowCount(), model.rowCount());
}

void TestFriendSortFilterProxy::proxyFilterHoldsUnderPresenceChanges()
{
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    QList<FriendRecord> friends;
    for (int i = 0; i < 30; ++i)
        friends.append({ u"f%1"_s.arg(i, 3, 10, QChar(u'0')),
            (i % 3 ? u"Kim%1"_s : u"Lee%1"_s).arg(i % 7, 3, 10, QChar(u'0')) });
    model.setFriends(friends);
    Shadow shadow;
    shadow.setFriends(friends);
    FriendSortFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSearchText(u" lee "_s);
    QCOMPARE(idsIn(proxy), shadow.expectedProxy(SortMode::Availability, u"lee"_s));
    QCOMPARE(proxy.rowCount(), 10);
    QSignalSpy aboutToReset(&proxy, &QAbstractItemModel::modelAboutToBeReset);
    QVERIFY(aboutToReset.isValid());

    const PresenceState states[] = { PresenceState::Online, PresenceState::Away,
        PresenceState::Offline, PresenceState::Unknown };
    for (int round = 0; round < 20; ++round) {
        for (int i = round % 4; i < 30; i += 3) {
            const QString id = friends.at(i).id;
            model.updatePresence(id, states[(i + round) % 4], std::nullopt);
            shadow.updatePresence(id, states[(i + round) % 4], std::nullopt);
        }
        model.flush();
        QCOMPARE(idsIn(proxy), shadow.expectedProxy(SortMode::Availability, u"lee"_s));
    }
    proxy.setSearchText(u"F01"_s);
    QCOMPARE(idsIn(proxy), shadow.expectedProxy(SortMode::Availability, u"f01"_s));
    QCOMPARE(proxy.rowCount(), 10);
    QCOMPARE(aboutToReset.count(), 0);

    // "@id" is one friend exactly, case aside; "@" alone is an ordinary search.
    proxy.setSearchText(u"@F012"_s);
    QCOMPARE(idsIn(proxy), (QStringList { u"f012"_s }));
    proxy.setSearchText(u"@f01"_s);
    QCOMPARE(proxy.rowCount(), 0);
    proxy.setSearchText(u"@"_s);
    QCOMPARE(proxy.rowCount(), 0); // nobody's name or id holds an "@"
}

void TestFriendSortFilterProxy::randomStormsUnderModelTester_data()
{
    QTest::addColumn<SortMode>("mode");
    QTest::addColumn<QString>("search");
    QTest::addColumn<bool>("switching"); // the proxy's mode and filter also change at random
    QTest::addColumn<quint32>("seed");
    QTest::addRow("availability") << SortMode::Availability << QString() << false << 11u;
    QTest::addRow("availability, filtered") << SortMode::Availability << u" ANN"_s << false << 12u;
    QTest::addRow("name") << SortMode::Name << QString() << false << 13u;
    QTest::addRow("name, filtered") << SortMode::Name << u"1"_s << false << 14u;
    QTest::addRow("switching") << SortMode::Availability << QString() << true << 15u;
}

void TestFriendSortFilterProxy::randomStormsUnderModelTester()
{
    QFETCH(SortMode, mode);
    QFETCH(QString, search);
    QFETCH(bool, switching);
    QFETCH(quint32, seed);
    QRandomGenerator rng(seed);

    // A pool of 300 ids; names are letters + three digits, repeated so ties happen.
    const QStringList prefixes
        = { u"ann"_s, u"Ann"_s, u"bob"_s, u"BOB"_s, u"zed"_s, u"Zed"_s, u"carl"_s, u"anna"_s };
    QList<FriendRecord> pool;
    for (int i = 0; i < 300; ++i) {
        pool.append({ u"p%1"_s.arg(rng.bounded(100000)) + u"_%1"_s.arg(i),
            prefixes.at(int(rng.bounded(prefixes.size())))
                + u"%1"_s.arg(rng.bounded(20), 3, 10, QChar(u'0')) });
    }
    const PresenceState states[] = { PresenceState::Unknown, PresenceState::Offline,
        PresenceState::Away, PresenceState::Online };

    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    FriendSortFilterProxy proxy;
    proxy.setSortMode(mode);
    proxy.setSearchText(search);
    proxy.setSourceModel(&model);
    QAbstractItemModelTester modelTester(
        &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(
        &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    Shadow shadow;

    // What views have been told: refreshed by resets and by each dataChanged range.
    QList<ShadowRow> told;
    auto snapshot = [&model](int row) {
        const QModelIndex index = model.index(row);
        const QVariant seen = index.data(FriendListModel::LastSeenRole);
        return ShadowRow { index.data(FriendListModel::IdRole).toString(),
            index.data(FriendListModel::NameRole).toString(),
            PresenceState(index.data(FriendListModel::StatusRole).toInt()),
            seen.isValid() ? std::optional<qint64>(seen.toLongLong()) : std::nullopt,
            index.data(FriendListModel::FreshRole).toBool() };
    };
    bool inFlush = false;
    int toldOutsideFlush = 0;
    int sourceResets = 0;
    int sourceRenames = 0; // a friend renamed in a list that changed in place
    int sourceRowChanges = 0; // rows inserted or removed in place
    int proxyResets = 0;
    connect(&model, &QAbstractItemModel::modelReset, this, [&] {
        ++sourceResets;
        told.clear();
        for (int row = 0; row < model.rowCount(); ++row)
            told.append(snapshot(row));
    });
    // Friends added or removed in place: rows come and go, and views are told them as they are.
    connect(&model, &QAbstractItemModel::rowsInserted, this,
        [&](const QModelIndex &, int first, int last) {
            ++sourceRowChanges;
            for (int row = first; row <= last; ++row)
                told.insert(row, snapshot(row));
        });
    connect(&model, &QAbstractItemModel::rowsRemoved, this,
        [&](const QModelIndex &, int first, int last) {
            ++sourceRowChanges;
            told.remove(first, last - first + 1);
        });
    connect(&model, &QAbstractItemModel::dataChanged, this,
        [&](const QModelIndex &first, const QModelIndex &last, const QList<int> &roles) {
            if (roles.contains(FriendListModel::NameRole))
                ++sourceRenames;
            if (!inFlush && !roles.contains(FriendListModel::NameSharedRole))
                ++toldOutsideFlush; // presence is told only by flushes; names at once
            for (int row = first.row(); row <= last.row() && row < told.size(); ++row)
                told[row] = snapshot(row);
        });
    connect(&proxy, &QAbstractItemModel::modelAboutToBeReset, this, [&] { ++proxyResets; });

    auto randomFriends = [&] {
        QList<FriendRecord> friends;
        const int count = int(rng.bounded(280));
        for (int i = 0; i < count; ++i) {
            FriendRecord f = pool.at(int(rng.bounded(pool.size())));
            if (rng.bounded(20) == 0) // renamed
                f.name = prefixes.at(int(rng.bounded(prefixes.size())))
                    + u"%1"_s.arg(rng.bounded(20), 3, 10, QChar(u'0'));
            friends.append(f);
        }
        return friends;
    };
    QList<FriendRecord> lastFriends = randomFriends();
    model.setFriends(lastFriends);
    shadow.setFriends(lastFriends);

    int flushes = 0;
    for (int step = 0; step < 4000; ++step) {
        const int op = rng.bounded(100);
        if (op < 60) {
            const QString id = pool.at(int(rng.bounded(pool.size()))).id;
            const PresenceState state = states[rng.bounded(4)];
            const std::optional<qint64> lastSeen = rng.bounded(2)
                ? std::optional<qint64>(1'700'000'000'000 + rng.bounded(1000))
                : std::nullopt;
            model.updatePresence(id, state, lastSeen);
            shadow.updatePresence(id, state, lastSeen);
        } else if (op < 70) {
            QStringList ids;
            for (int n = rng.bounded(1, 6); n > 0; --n)
                ids.append(pool.at(int(rng.bounded(pool.size()))).id);
            model.markStale(ids);
            shadow.markStale(ids);
        } else if (op < 72) {
            model.markAllUnknown();
            shadow.markAllUnknown();
        } else if (op < 75) {
            const int change = int(rng.bounded(4));
            if (change == 1) {
                lastFriends = randomFriends();
            } else if (change >= 2) {
                // Friends added and removed while connected: the others keep their order.
                for (int n = int(rng.bounded(6)); n > 0 && !lastFriends.isEmpty(); --n)
                    lastFriends.removeAt(int(rng.bounded(lastFriends.size())));
                for (int n = int(rng.bounded(8)); n > 0; --n)
                    lastFriends.insert(int(rng.bounded(lastFriends.size() + 1)),
                        pool.at(int(rng.bounded(pool.size()))));
            } // otherwise the same list again
            model.setFriends(lastFriends);
            shadow.setFriends(lastFriends);
        } else if (op < 78 && switching) {
            if (rng.bounded(2)) {
                mode = rng.bounded(2) ? SortMode::Availability : SortMode::Name;
                proxy.setSortMode(mode);
            } else {
                const QStringList searches = { QString(), u"ann"_s, u" BOB "_s, u"1"_s, u"p"_s };
                search = searches.at(int(rng.bounded(searches.size())));
                proxy.setSearchText(search);
            }
        } else {
            inFlush = true;
            model.flush();
            inFlush = false;
            ++flushes;
            const QString difference = differenceFrom(model, shadow);
            QVERIFY2(difference.isEmpty(), qPrintable(u"step %1: %2"_s.arg(step).arg(difference)));
            for (int row = 0; row < model.rowCount(); ++row) {
                const ShadowRow now = snapshot(row);
                const ShadowRow &was = told.at(row);
                QVERIFY2(now.state == was.state && now.fresh == was.fresh
                        && now.lastSeen == was.lastSeen,
                    qPrintable(u"step %1: row %2 changed but was not told"_s.arg(step).arg(row)));
            }
            const QStringList shown = idsIn(proxy);
            const QStringList expected = shadow.expectedProxy(mode, search);
            QVERIFY2(shown == expected,
                qPrintable(u"step %1 (flush %2): proxy shows %3 rows, expected %4; first "
                           "difference at proxy row %5"_s.arg(step)
                               .arg(flushes)
                               .arg(shown.size())
                               .arg(expected.size())
                               .arg(firstDifference(shown, expected))));
        }
        if (QTest::currentTestFailed())
            QFAIL(qPrintable(u"model tester failed at step %1"_s.arg(step)));
    }
    inFlush = true;
    model.flush();
    inFlush = false;
    QVERIFY(flushes > 500);
    QCOMPARE(toldOutsideFlush, 0);
    // Presence, sort and filter changes never reset, nor do friends added or removed; the
    // proxy resets only with its source, or for a rename that changes who matches the search.
    if (search.isEmpty() && !switching)
        QCOMPARE(proxyResets, sourceResets);
    else
        QVERIFY(proxyResets <= sourceResets + sourceRenames);
    QVERIFY(sourceRowChanges > 50);
    const QString difference = differenceFrom(model, shadow);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    QCOMPARE(idsIn(proxy), shadow.expectedProxy(mode, search));
    QVERIFY(proxy.rowCount() > 0);
}

void TestFriendSortFilterProxy::scatteredSearchChangeResetsWithTheRightRows()
{
    // 300 friends "Friend 000".."Friend 299", the odd ones marked "(x)": clearing a filter on
    // "(x)" brings 150 rows back into 150 separate gaps of the name order. Group-by-group inserts
    // would cost a vector insert and a remap each (873 ms for 100,000 friends), so the proxy resets
    // instead, and the rows it shows afterwards must still be exactly all of them in name order.
    FriendListModel model;
    QList<FriendRecord> friends;
    for (int i = 0; i < 300; ++i)
        friends.append({ u"id%1"_s.arg(i, 3, 10, QChar(u'0')),
            (i % 2 ? u"Friend %1 (x)"_s : u"Friend %1"_s).arg(i, 3, 10, QChar(u'0')) });
    model.setFriends(friends);
    FriendSortFilterProxy proxy;
    proxy.setSortMode(FriendSortFilterProxy::SortMode::Name);
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);

    proxy.setSearchText(u"(x)"_s);
    QCOMPARE(proxy.rowCount(), 150);

    QSignalSpy resets(&proxy, &QAbstractItemModel::modelReset);
    QSignalSpy inserts(&proxy, &QAbstractItemModel::rowsInserted);
    proxy.setSearchText({});
    QCOMPARE(proxy.rowCount(), 300);
    QCOMPARE(resets.count(), 1);
    QCOMPARE(inserts.count(), 0);
    QStringList shown;
    for (int row = 0; row < proxy.rowCount(); ++row)
        shown.append(proxy.index(row, 0).data(FriendListModel::NameRole).toString());
    QStringList expected;
    for (const FriendRecord &f : friends)
        expected.append(f.name);
    std::sort(expected.begin(), expected.end());
    QCOMPARE(shown, expected);
}

namespace {

// count friends, ids f00000.., names from a seed so that two seeds give two orders.
QList<FriendRecord> seededFriends(int count, quint32 seed)
{
    QRandomGenerator rng(seed);
    const QStringList first = { u"Ada"_s, u"ben"_s, u"Chloé"_s, u"Dev"_s, u"Émile"_s, u"zoë"_s };
    QList<FriendRecord> friends;
    friends.reserve(count);
    for (int i = 0; i < count; ++i)
        friends.append({ u"f%1"_s.arg(i, 5, 10, QChar(u'0')),
            first.at(int(rng.bounded(first.size()))) + u" %1"_s.arg(rng.bounded(100000)) });
    return friends;
}

// The order a proxy attached afresh gives: what an incremental one must agree with.
QStringList freshOrder(FriendListModel &model, SortMode mode)
{
    FriendSortFilterProxy fresh;
    fresh.setSortMode(mode);
    fresh.setSourceModel(&model);
    return idsIn(fresh);
}

} // namespace

void TestFriendSortFilterProxy::reloadWithEveryNameChangedRanksOnce()
{
    // A reload of 10,000 friends where every name changed used to reset the proxy once per row:
    // 119 s. It must cost one ranking of the names and one layout change, and keep the
    // selection on its friend.
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    model.setFriends(seededFriends(10'000, 1));
    for (int i = 0; i < 10'000; i += 3)
        model.updatePresence(u"f%1"_s.arg(i, 5, 10, QChar(u'0')), PresenceState::Online, {});
    model.flush();
    FriendSortFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QPersistentModelIndex selected = proxy.index(500, 0);
    const QString selectedId = selected.data(FriendListModel::IdRole).toString();
    const int rankings = proxy.nameRankings();
    const qint64 collated = proxy.namesCollated();
    const int rebuilds = proxy.rebuilds();
    QSignalSpy layouts(&proxy, &QAbstractItemModel::layoutChanged);
    QSignalSpy resets(&proxy, &QAbstractItemModel::modelReset);

    model.setFriends(seededFriends(10'000, 2));

    QCOMPARE(proxy.nameRankings() - rankings, 1);
    QCOMPARE(proxy.namesCollated() - collated, 10'000);
    QCOMPARE(proxy.rebuilds() - rebuilds, 0);
    QCOMPARE(layouts.count(), 1);
    QCOMPARE(resets.count(), 0);
    QVERIFY(selected.isValid());
    QCOMPARE(selected.data(FriendListModel::IdRole).toString(), selectedId);
    QCOMPARE(idsIn(proxy), freshOrder(model, SortMode::Availability));
    QCOMPARE(
        proxy.index(0, 0).data(FriendListModel::StatusRole).toInt(), int(PresenceState::Online));
}

void TestFriendSortFilterProxy::friendAddedIsPlacedWithoutRankingAll_data()
{
    QTest::addColumn<SortMode>("mode");
    QTest::addRow("availability") << SortMode::Availability;
    QTest::addRow("name") << SortMode::Name;
}

void TestFriendSortFilterProxy::friendAddedIsPlacedWithoutRankingAll()
{
    // A friendship added live: one row comes in where it sorts, and no name is collated again
    // but the new ones.
    QFETCH(SortMode, mode);
    FriendListModel model;
    QList<FriendRecord> friends = seededFriends(10'000, 3);
    model.setFriends(friends);
    FriendSortFilterProxy proxy;
    proxy.setSortMode(mode);
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const int rankings = proxy.nameRankings();
    const qint64 collated = proxy.namesCollated();
    QSignalSpy inserted(&proxy, &QAbstractItemModel::rowsInserted);
    QSignalSpy resets(&proxy, &QAbstractItemModel::modelReset);
    QSignalSpy layouts(&proxy, &QAbstractItemModel::layoutChanged);

    friends.insert(4321, { u"new1"_s, u"Chloé 5"_s });
    model.setFriends(friends);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(inserted.at(0).at(1).toInt(), inserted.at(0).at(2).toInt()); // one row
    QCOMPARE(proxy.namesCollated() - collated, 1);
    // Twenty more in one place, and one at each end of the source.
    for (int i = 0; i < 20; ++i)
        friends.insert(100, { u"new%1"_s.arg(i + 2), u"Dev %1"_s.arg(i * 4999) });
    friends.prepend({ u"first"_s, u"zoë 1"_s });
    friends.append({ u"last"_s, u"Ada 1"_s });
    model.setFriends(friends);

    QCOMPARE(proxy.nameRankings(), rankings);
    QCOMPARE(proxy.namesCollated() - collated, 23);
    QCOMPARE(resets.count(), 0);
    QCOMPARE(layouts.count(), 0);
    QCOMPARE(proxy.rowCount(), 10'023);
    QCOMPARE(idsIn(proxy), freshOrder(model, mode));
}

void TestFriendSortFilterProxy::scatteredReloadCollatesOnlyNewNames()
{
    // A reload that adds, removes and renames friends all over a list of 10,000 (every 7th
    // goes, a new one comes after every 5th, every 11th is renamed): one reset, and only the
    // new names are collated, placed among the ranked ones.
    FriendListModel model;
    QList<FriendRecord> friends = seededFriends(10'000, 4);
    model.setFriends(friends);
    model.updatePresence(friends.at(10).id, PresenceState::Online, {});
    model.flush();
    FriendSortFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const int rankings = proxy.nameRankings();
    const qint64 collated = proxy.namesCollated();
    QSignalSpy resets(&proxy, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&proxy, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&proxy, &QAbstractItemModel::rowsRemoved);

    QList<FriendRecord> next;
    int newNames = 0;
    for (int i = 0; i < friends.size(); ++i) {
        if (i % 7 != 0) {
            next.append(friends.at(i));
            if (i % 11 == 0) {
                next.last().name = u"Zoé renamed %1"_s.arg(i);
                ++newNames;
            }
        }
        if (i % 5 == 0) {
            next.append({ u"n%1"_s.arg(i), u"Émile %1"_s.arg(i) });
            ++newNames;
        }
    }
    model.setFriends(next);

    QCOMPARE(resets.count(), 1);
    QCOMPARE(inserted.count() + removed.count(), 0);
    QCOMPARE(proxy.nameRankings() - rankings, 0);
    QCOMPARE(proxy.namesCollated() - collated, newNames);
    QCOMPARE(proxy.rowCount(), next.size());
    QCOMPARE(idsIn(proxy), freshOrder(model, SortMode::Availability));
    QCOMPARE(idsIn(proxy).first(), friends.at(10).id); // presence kept through the reset
    proxy.setSortMode(SortMode::Name);
    QCOMPARE(idsIn(proxy), freshOrder(model, SortMode::Name));
}

void TestFriendSortFilterProxy::oneRenameCollatesOneName()
{
    // A friend renamed live moves to its new place; no other name is collated.
    FriendListModel model;
    QList<FriendRecord> friends = seededFriends(10'000, 5);
    model.setFriends(friends);
    FriendSortFilterProxy proxy;
    proxy.setSortMode(SortMode::Name);
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const qint64 collated = proxy.namesCollated();
    const int rankings = proxy.nameRankings();
    QSignalSpy layouts(&proxy, &QAbstractItemModel::layoutChanged);

    friends[1234].name = u"Aaron 0"_s;
    model.setFriends(friends);

    QCOMPARE(proxy.namesCollated() - collated, 1);
    QCOMPARE(proxy.nameRankings(), rankings);
    QCOMPARE(layouts.count(), 1);
    QCOMPARE(idsIn(proxy).first(), friends.at(1234).id);
    QCOMPARE(idsIn(proxy), freshOrder(model, SortMode::Name));
}

void TestFriendSortFilterProxy::removalsAllOverKeepTheRanks()
{
    // The first 3,000 friends of the source go at once: one removal there, but rows all over
    // the sorted list here, so the proxy resets. The names left keep their ranks: none is
    // collated again.
    FriendListModel model;
    QList<FriendRecord> friends = seededFriends(10'000, 6);
    model.setFriends(friends);
    FriendSortFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const qint64 collated = proxy.namesCollated();
    QSignalSpy resets(&proxy, &QAbstractItemModel::modelReset);

    friends.remove(0, 3'000);
    model.setFriends(friends);

    QCOMPARE(resets.count(), 1);
    QCOMPARE(proxy.namesCollated(), collated);
    QCOMPARE(proxy.rowCount(), 7'000);
    QCOMPARE(idsIn(proxy), freshOrder(model, SortMode::Availability));
}

QTEST_MAIN(TestFriendSortFilterProxy)
#include "tst_friend_sort_filter_proxy.moc"
