// SubscriptionRegistry: who watches whom, the first and last watcher announced, counts, and a
// random storm against a simple model.

// C++
#include <algorithm>

// Qt
#include <QRandomGenerator>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

// Presence
#include "server-mock/presence/SubscriptionRegistry.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace Presence::Server;

class TestSubscriptionRegistry : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void registryWatchedOnFirstUnwatchedOnLast();
    void registryRemoveConnection();
    void registryCountsAndSorts();
    void registryAgreesWithASimpleModel();
};

void TestSubscriptionRegistry::registryWatchedOnFirstUnwatchedOnLast()
{
    SubscriptionRegistry registry;
    QSignalSpy watched(&registry, &SubscriptionRegistry::userWatched);
    QSignalSpy unwatched(&registry, &SubscriptionRegistry::userUnwatched);
    QVERIFY(watched.isValid());
    QVERIFY(unwatched.isValid());

    QVERIFY(registry.add(1, u"bob"_s));
    QCOMPARE(watched.count(), 1);
    QCOMPARE(watched.at(0).at(0).toString(), u"bob"_s);
    QVERIFY(!registry.add(1, u"bob"_s)); // already watching
    QVERIFY(registry.add(2, u"bob"_s)); // second watcher: not announced
    QCOMPARE(watched.count(), 1);
    QCOMPARE(registry.watchedUserCount(), 1);
    QCOMPARE(registry.watchersOf(u"bob"_s).size(), 2);

    registry.remove(1, u"bob"_s);
    QCOMPARE(unwatched.count(), 0);
    registry.remove(1, u"bob"_s); // twice: harmless
    registry.remove(3, u"bob"_s); // never watched
    registry.remove(2, u"nobody"_s);
    QCOMPARE(unwatched.count(), 0);
    QCOMPARE(registry.watchersOf(u"bob"_s), QList<ConnectionId> { 2 });
    registry.remove(2, u"bob"_s); // the last one
    QCOMPARE(unwatched.count(), 1);
    QCOMPARE(unwatched.at(0).at(0).toString(), u"bob"_s);
    QCOMPARE(registry.watchedUserCount(), 0);
    QVERIFY(registry.watchersOf(u"bob"_s).isEmpty());

    QVERIFY(registry.add(3, u"bob"_s)); // watched again: announced again
    QCOMPARE(watched.count(), 2);
}

void TestSubscriptionRegistry::registryRemoveConnection()
{
    SubscriptionRegistry registry;
    QSignalSpy unwatched(&registry, &SubscriptionRegistry::userUnwatched);

    registry.add(1, u"bob"_s);
    registry.add(1, u"carol"_s);
    registry.add(1, u"dave"_s);
    registry.add(2, u"carol"_s);

    registry.removeConnection(1);
    QCOMPARE(registry.countOf(1), 0);
    QVERIFY(registry.subscriptionsOf(1).isEmpty());
    QVERIFY(!registry.contains(1, u"bob"_s));
    QStringList gone;
    for (const auto &arguments : std::as_const(unwatched))
        gone.append(arguments.at(0).toString());
    gone.sort();
    QCOMPARE(gone, (QStringList { u"bob"_s, u"dave"_s })); // carol still has a watcher
    QCOMPARE(registry.watchersOf(u"carol"_s), QList<ConnectionId> { 2 });
    QCOMPARE(registry.watchedUserCount(), 1);

    registry.removeConnection(1); // again: harmless
    registry.removeConnection(77); // unknown: harmless
    QCOMPARE(unwatched.count(), 2);
}

void TestSubscriptionRegistry::registryCountsAndSorts()
{
    SubscriptionRegistry registry;
    QCOMPARE(registry.countOf(1), 0);
    QVERIFY(registry.subscriptionsOf(1).isEmpty());

    for (const QString &id : { u"zoe"_s, u"bob"_s, u"mia"_s, u"al"_s, u"bob"_s })
        registry.add(1, id);
    registry.add(2, u"kim"_s);
    QCOMPARE(registry.countOf(1), 4);
    QCOMPARE(registry.countOf(2), 1);
    QCOMPARE(registry.subscriptionsOf(1), (QStringList { u"al"_s, u"bob"_s, u"mia"_s, u"zoe"_s }));
    QVERIFY(registry.contains(1, u"mia"_s));
    QVERIFY(!registry.contains(2, u"mia"_s));

    registry.remove(1, u"mia"_s);
    QCOMPARE(registry.countOf(1), 3);
    QCOMPARE(registry.subscriptionsOf(1), (QStringList { u"al"_s, u"bob"_s, u"zoe"_s }));
    QCOMPARE(registry.watchedUserCount(), 4);
}

void TestSubscriptionRegistry::registryAgreesWithASimpleModel()
{
    // Random adds and removes, whole connections gone now and then, against sets of strings:
    // the registry's sorted vectors of indexes must say the same in both directions.
    SubscriptionRegistry registry;
    QHash<ConnectionId, QSet<QString>> model;
    int watched = 0;
    int unwatched = 0;
    connect(&registry, &SubscriptionRegistry::userWatched, this, [&] { ++watched; });
    connect(&registry, &SubscriptionRegistry::userUnwatched, this, [&] { ++unwatched; });
    QRandomGenerator random(7);
    for (int step = 0; step < 5000; ++step) {
        const ConnectionId connection = 1 + random.bounded(12);
        const QString user = u"user%1"_s.arg(random.bounded(30));
        const int what = int(random.bounded(10));
        if (what < 6) {
            QCOMPARE(registry.add(connection, user), !model[connection].contains(user));
            model[connection].insert(user);
        } else if (what < 9) {
            registry.remove(connection, user);
            model[connection].remove(user);
        } else {
            registry.removeConnection(connection);
            model.remove(connection);
        }
    }
    QHash<QString, QList<ConnectionId>> watchers;
    for (auto it = model.cbegin(); it != model.cend(); ++it) {
        QStringList ids(it->cbegin(), it->cend());
        ids.sort();
        QCOMPARE(registry.subscriptionsOf(it.key()), ids);
        QCOMPARE(registry.countOf(it.key()), int(ids.size()));
        for (const QString &id : std::as_const(ids)) {
            QVERIFY(registry.contains(it.key(), id));
            watchers[id].append(it.key());
        }
    }
    for (int u = 0; u < 30; ++u) {
        const QString user = u"user%1"_s.arg(u);
        QList<ConnectionId> expected = watchers.value(user);
        std::sort(expected.begin(), expected.end());
        QCOMPARE(registry.watchersOf(user), expected);
    }
    QCOMPARE(registry.watchedUserCount(), int(watchers.size()));
    QCOMPARE(watched - unwatched, int(watchers.size()));
}

QTEST_GUILESS_MAIN(TestSubscriptionRegistry)
#include "tst_subscription_registry.moc"
