// DirectoryDiff: from one population to the next (a users file read again), who joins, who
// leaves, whose token or name changed, and which friendships are made or ended.

// Qt
#include <QTest>

// Presence
#include "server-mock/directory/DirectoryDiff.h"

using namespace Qt::StringLiterals;
using Presence::Server::DirectoryDiff;
using Presence::Server::UserDirectory;

namespace {

struct Spec {
    QString id;
    QString token;
    QStringList friends;
    QString name = {};
};

UserDirectory directoryOf(const QList<Spec> &specs)
{
    UserDirectory directory;
    for (const Spec &spec : specs)
        directory.addUser(spec.id, spec.name.isEmpty() ? spec.id.toUpper() : spec.name, spec.token);
    for (const Spec &spec : specs) {
        for (const QString &other : spec.friends)
            directory.addFriendship(*directory.indexOfId(spec.id), *directory.indexOfId(other));
    }
    directory.finish();
    return directory;
}

using Pair = DirectoryDiff::Pair;

} // namespace

class TestDirectoryDiff : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void theSameFileChangesNothing();
    void joinersLeaversAndTheirFriendships();
    void tokensAndNamesThatChange();
    void removedUsersAreGoneFromTheCurrentSide();
    void othersNeitherLeaveNorLoseFriends();
};

void TestDirectoryDiff::theSameFileChangesNothing()
{
    const QList<Spec> specs { { u"ada"_s, u"t1"_s, { u"bob"_s } }, { u"bob"_s, u"t2"_s, {} } };
    const DirectoryDiff diff = DirectoryDiff::between(directoryOf(specs), directoryOf(specs));
    QVERIFY(diff.isEmpty());
    QCOMPARE(diff.summary(),
        u"0 joined, 0 left, 0 new tokens, 0 renamed, 0 friendships made, 0 ended"_s);
}

void TestDirectoryDiff::joinersLeaversAndTheirFriendships()
{
    const UserDirectory current = directoryOf({ { u"ada"_s, u"t1"_s, { u"bob"_s, u"cyd"_s } },
        { u"bob"_s, u"t2"_s, { u"cyd"_s } }, { u"cyd"_s, u"t3"_s, {} } });
    // cyd leaves; dee joins, friends with ada (listed on dee's side only); ada and bob part.
    const UserDirectory next = directoryOf({ { u"ada"_s, u"t1"_s, {} }, { u"bob"_s, u"t2"_s, {} },
        { u"dee"_s, u"t4"_s, { u"ada"_s }, u"Dee D."_s } });
    const DirectoryDiff diff = DirectoryDiff::between(current, next);
    QCOMPARE(diff.joined, (QList<DirectoryDiff::Entry> { { u"dee"_s, u"Dee D."_s, u"t4"_s } }));
    QCOMPARE(diff.left, QStringList { u"cyd"_s });
    QCOMPARE(diff.befriended, (QList<Pair> { { u"ada"_s, u"dee"_s } }));
    // The leaver's friendships are ended too, each pair once, smaller id first.
    QCOMPARE(diff.unfriended,
        (QList<Pair> { { u"ada"_s, u"bob"_s }, { u"ada"_s, u"cyd"_s }, { u"bob"_s, u"cyd"_s } }));
    QVERIFY(diff.retokened.isEmpty());
    QVERIFY(diff.renamed.isEmpty());
    QCOMPARE(diff.summary(),
        u"1 joined, 1 left, 0 new tokens, 0 renamed, 1 friendships made, 3 ended"_s);
}

void TestDirectoryDiff::tokensAndNamesThatChange()
{
    const UserDirectory current = directoryOf(
        { { u"ada"_s, u"t1"_s, {} }, { u"bob"_s, u"t2"_s, {} }, { u"cyd"_s, u"t3"_s, {} } });
    // ada and bob swap tokens; cyd is renamed.
    const UserDirectory next = directoryOf({ { u"ada"_s, u"t2"_s, {} }, { u"bob"_s, u"t1"_s, {} },
        { u"cyd"_s, u"t3"_s, {}, u"Cyd C."_s } });
    const DirectoryDiff diff = DirectoryDiff::between(current, next);
    QCOMPARE(diff.retokened,
        (QList<DirectoryDiff::Entry> {
            { u"ada"_s, u"ADA"_s, u"t2"_s }, { u"bob"_s, u"BOB"_s, u"t1"_s } }));
    QCOMPARE(diff.renamed, (QList<DirectoryDiff::Entry> { { u"cyd"_s, u"Cyd C."_s, u"t3"_s } }));
    QVERIFY(diff.joined.isEmpty() && diff.left.isEmpty());
    QVERIFY(diff.befriended.isEmpty() && diff.unfriended.isEmpty());
}

void TestDirectoryDiff::removedUsersAreGoneFromTheCurrentSide()
{
    // A user removed by an earlier reload is no longer there to leave, and may join again.
    UserDirectory current
        = directoryOf({ { u"ada"_s, u"t1"_s, { u"bob"_s } }, { u"bob"_s, u"t2"_s, {} } });
    current.removeUser(*current.indexOfId(u"bob"_s));
    QVERIFY(current.isRemoved(1));
    QVERIFY(current.user(0).friends.isEmpty());
    QCOMPARE(current.indexOfToken(u"t2"_s), std::nullopt);

    const DirectoryDiff same
        = DirectoryDiff::between(current, directoryOf({ { u"ada"_s, u"t1"_s, {} } }));
    QVERIFY(same.isEmpty());
    const DirectoryDiff back = DirectoryDiff::between(
        current, directoryOf({ { u"ada"_s, u"t1"_s, { u"bob"_s } }, { u"bob"_s, u"t9"_s, {} } }));
    QCOMPARE(back.joined, (QList<DirectoryDiff::Entry> { { u"bob"_s, u"BOB"_s, u"t9"_s } }));
    QCOMPARE(back.befriended, (QList<Pair> { { u"ada"_s, u"bob"_s } }));
    QVERIFY(back.left.isEmpty() && back.unfriended.isEmpty());
}

void TestDirectoryDiff::othersNeitherLeaveNorLoseFriends()
{
    // cyd came from elsewhere (a friend source), friends with ada; the file knows ada and bob.
    const UserDirectory current = directoryOf({ { u"ada"_s, u"t1"_s, { u"bob"_s, u"cyd"_s } },
        { u"bob"_s, u"t2"_s, {} }, { u"cyd"_s, u"t3"_s, {} } });
    const UserDirectory next
        = directoryOf({ { u"ada"_s, u"t1"_s, {} }, { u"bob"_s, u"t2"_s, {} } });
    const DirectoryDiff diff = DirectoryDiff::between(current, next, { 2 });
    QVERIFY(diff.left.isEmpty());
    QCOMPARE(diff.unfriended, (QList<Pair> { { u"ada"_s, u"bob"_s } }));
    // Without saying so, cyd is a leaver.
    QCOMPARE(DirectoryDiff::between(current, next).left, QStringList { u"cyd"_s });
}

QTEST_GUILESS_MAIN(TestDirectoryDiff)
#include "tst_directory_diff.moc"
