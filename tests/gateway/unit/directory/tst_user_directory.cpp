// UserDirectory: users by id and token, and mutual friendships that stay sorted as they change.

// C++
#include <optional>

// Qt
#include <QTest>

// Presence
#include "server-mock/directory/UserDirectory.h"

using namespace Qt::StringLiterals;
using Presence::Server::UserDirectory;

class TestUserDirectory : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void findsUsersByIdAndToken();
    void friendshipsAreMutualAndSorted();
    void setFriendshipChangesBothListsInPlace();
    void setFriendshipSaysWhenNothingChanged();
    void friendsByIdAreUsersHereOnly();
    void directoryFriendshipsAreMutualAndSorted();
    void directoryLooksUpIdsAndTokens();
};

namespace {

// ada, bob, cyd, dee, eve: indexes 0 to 4.
UserDirectory fiveUsers()
{
    UserDirectory directory;
    for (const QString &id : { u"ada"_s, u"bob"_s, u"cyd"_s, u"dee"_s, u"eve"_s })
        directory.addUser(id, id.toUpper(), u"t-"_s + id);
    return directory;
}

} // namespace

void TestUserDirectory::findsUsersByIdAndToken()
{
    const UserDirectory directory = fiveUsers();
    QCOMPARE(directory.size(), 5);
    QCOMPARE(directory.indexOfId(u"cyd"_s), 2);
    QCOMPARE(directory.indexOfToken(u"t-eve"_s), 4);
    QCOMPARE(directory.indexOfId(u"t-eve"_s), std::nullopt);
    QCOMPARE(directory.indexOfToken(u"eve"_s), std::nullopt);
    QVERIFY(directory.containsToken(u"t-ada"_s));
    QCOMPARE(directory.user(1).name, u"BOB"_s);
    // A user without a token is found by id only: an empty token signs nobody in.
    UserDirectory withOther = fiveUsers();
    QCOMPARE(withOther.addUser(u"zed"_s, u"Zed"_s, {}), 5);
    QCOMPARE(withOther.indexOfId(u"zed"_s), 5);
    QCOMPARE(withOther.indexOfToken(QString()), std::nullopt);
}

void TestUserDirectory::friendshipsAreMutualAndSorted()
{
    UserDirectory directory = fiveUsers();
    directory.addFriendship(0, 4);
    directory.addFriendship(0, 2);
    directory.addFriendship(2, 0); // repeated the other way round
    directory.addFriendship(3, 3); // oneself: ignored
    directory.finish();
    QCOMPARE(directory.user(0).friends, (QList<int> { 2, 4 }));
    QCOMPARE(directory.user(2).friends, (QList<int> { 0 }));
    QCOMPARE(directory.user(4).friends, (QList<int> { 0 }));
    QVERIFY(directory.user(3).friends.isEmpty());
    QVERIFY(directory.areFriends(4, 0));
    QVERIFY(!directory.areFriends(4, 2));
}

void TestUserDirectory::setFriendshipChangesBothListsInPlace()
{
    UserDirectory directory = fiveUsers();
    directory.addFriendship(0, 1);
    directory.addFriendship(0, 4);
    directory.finish();

    QVERIFY(directory.setFriendship(2, 0, true)); // lands between 1 and 4
    QCOMPARE(directory.user(0).friends, (QList<int> { 1, 2, 4 }));
    QCOMPARE(directory.user(2).friends, (QList<int> { 0 }));
    QVERIFY(directory.areFriends(0, 2));

    QVERIFY(directory.setFriendship(0, 1, false));
    QCOMPARE(directory.user(0).friends, (QList<int> { 2, 4 }));
    QVERIFY(directory.user(1).friends.isEmpty());
    QVERIFY(!directory.areFriends(1, 0));
}

void TestUserDirectory::setFriendshipSaysWhenNothingChanged()
{
    UserDirectory directory = fiveUsers();
    directory.addFriendship(0, 1);
    directory.finish();
    QVERIFY(!directory.setFriendship(0, 1, true)); // already friends
    QVERIFY(!directory.setFriendship(1, 2, false)); // never were
    QVERIFY(!directory.setFriendship(3, 3, true)); // oneself
    QCOMPARE(directory.user(0).friends, (QList<int> { 1 }));
    QCOMPARE(directory.user(1).friends, (QList<int> { 0 }));
    QVERIFY(directory.user(3).friends.isEmpty());
}

void TestUserDirectory::friendsByIdAreUsersHereOnly()
{
    UserDirectory directory = fiveUsers();
    directory.addFriendship(0, 4);
    directory.finish();
    QVERIFY(directory.areFriends(u"ada"_s, u"eve"_s));
    QVERIFY(directory.areFriends(u"eve"_s, u"ada"_s));
    QVERIFY(!directory.areFriends(u"ada"_s, u"cyd"_s));
    QVERIFY(!directory.areFriends(u"ada"_s, u"ada"_s));
    QVERIFY(!directory.areFriends(u"ada"_s, u"zed"_s)); // nobody here
    QVERIFY(!directory.areFriends(u"zed"_s, u"ada"_s));
    QVERIFY(!directory.areFriends(u"t-eve"_s, u"ada"_s)); // a token is no id
    directory.removeUser(4);
    QVERIFY(!directory.areFriends(u"ada"_s, u"eve"_s));
    QVERIFY(!directory.areFriends(u"eve"_s, u"ada"_s));
}

void TestUserDirectory::directoryFriendshipsAreMutualAndSorted()
{
    UserDirectory directory;
    QCOMPARE(directory.addUser(u"a"_s, u"A"_s, u"ta"_s), 0);
    QCOMPARE(directory.addUser(u"b"_s, u"B"_s, u"tb"_s), 1);
    QCOMPARE(directory.addUser(u"c"_s, u"C"_s, u"tc"_s), 2);
    QCOMPARE(directory.addUser(u"d"_s, u"D"_s, u"td"_s), 3);
    directory.addFriendship(0, 3);
    directory.addFriendship(0, 1);
    directory.addFriendship(1, 0); // repeated from the other side
    directory.addFriendship(0, 1); // and again
    directory.addFriendship(2, 2); // self: ignored
    directory.finish();

    QCOMPARE(directory.user(0).friends, (QList<int> { 1, 3 }));
    QCOMPARE(directory.user(1).friends, (QList<int> { 0 }));
    QCOMPARE(directory.user(2).friends, QList<int> {});
    QCOMPARE(directory.user(3).friends, (QList<int> { 0 }));
    QVERIFY(directory.areFriends(0, 3));
    QVERIFY(directory.areFriends(3, 0));
    QVERIFY(!directory.areFriends(1, 3));
    QVERIFY(!directory.areFriends(2, 2));
}

void TestUserDirectory::directoryLooksUpIdsAndTokens()
{
    UserDirectory directory;
    directory.addUser(u"a"_s, u"A"_s, u"ta"_s);
    directory.addUser(u"b"_s, u"B"_s, u"tb"_s);
    directory.finish();
    QCOMPARE(directory.indexOfId(u"b"_s), std::optional<int>(1));
    QCOMPARE(directory.indexOfId(u"B"_s), std::nullopt); // ids are case-sensitive
    QCOMPARE(directory.indexOfId(u"tb"_s), std::nullopt); // a token is not an id
    QCOMPARE(directory.indexOfToken(u"ta"_s), std::optional<int>(0));
    QCOMPARE(directory.indexOfToken(u"a"_s), std::nullopt);
    QVERIFY(directory.containsToken(u"tb"_s));
    QVERIFY(!directory.containsToken(u"b"_s));
}

QTEST_GUILESS_MAIN(TestUserDirectory)
#include "tst_user_directory.moc"
