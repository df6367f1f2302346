// PopulationGenerator: the reproducible QA population, one per seed: users named in order,
// K mutual friends each where the handshake lemma allows, unique tokens, a valid users file.

// C++
#include <algorithm>
#include <optional>

// Qt
#include <QSet>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

// Presence
#include "DirectoryDump.h"
#include "server-mock/directory/PopulationGenerator.h"
#include "server-mock/directory/UserDirectory.h"
#include "server-mock/directory/UsersFile.h"

using namespace Qt::StringLiterals;
using namespace Presence::Server;
using DirectoryDump::dump;

class TestPopulationGenerator : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void generatorIsDeterministicPerSeed();
    void generatorNamesUsersInOrder();
    void generatorFriendCounts_data();
    void generatorFriendCounts();
    void generatorTokensAreUnique();
};

void TestPopulationGenerator::generatorIsDeterministicPerSeed()
{
    const QStringList first = dump(PopulationGenerator::generate(100, 6, 42));
    const QStringList second = dump(PopulationGenerator::generate(100, 6, 42));
    QCOMPARE(first.size(), 100);
    QCOMPARE(second, first);

    const UserDirectory other = PopulationGenerator::generate(100, 6, 43);
    QCOMPARE(other.size(), 100);
    QVERIFY(dump(other) != first);
    // Another seed gives other tokens, not just other names or friends.
    const UserDirectory same = PopulationGenerator::generate(100, 6, 42);
    for (int i = 0; i < other.size(); ++i)
        QVERIFY2(!same.containsToken(other.user(i).token), qPrintable(other.user(i).id));
    // And another friendship graph.
    bool graphDiffers = false;
    for (int i = 0; i < other.size() && !graphDiffers; ++i)
        graphDiffers = other.user(i).friends != same.user(i).friends;
    QVERIFY(graphDiffers);
}

void TestPopulationGenerator::generatorNamesUsersInOrder()
{
    const UserDirectory directory = PopulationGenerator::generate(25, 4, 7);
    QCOMPARE(directory.size(), 25);
    for (int i = 0; i < directory.size(); ++i) {
        QCOMPARE(directory.user(i).id, u"user%1"_s.arg(i));
        QCOMPARE(directory.indexOfId(u"user%1"_s.arg(i)), std::optional<int>(i));
        QVERIFY(!directory.user(i).name.trimmed().isEmpty());
    }
    QCOMPARE(directory.indexOfId(u"user25"_s), std::nullopt);
}

void TestPopulationGenerator::generatorFriendCounts_data()
{
    QTest::addColumn<int>("users");
    QTest::addColumn<int>("friendsPerUser");
    QTest::addColumn<int>("expectedFriends");

    QTest::addRow("N=1 K=0") << 1 << 0 << 0;
    QTest::addRow("N=1 K=5 (clamped)") << 1 << 5 << 0;
    QTest::addRow("N=5 K=0") << 5 << 0 << 0;
    QTest::addRow("N=2 K=1") << 2 << 1 << 1;
    QTest::addRow("N=3 K=2") << 3 << 2 << 2;
    QTest::addRow("N=10 K=4") << 10 << 4 << 4;
    QTest::addRow("N=1000 K=50") << 1000 << 50 << 50;
    // Odd K: exactly K when N is even, one fewer when N is odd too (the handshake lemma).
    QTest::addRow("N=10 K=3") << 10 << 3 << 3;
    QTest::addRow("N=4 K=3") << 4 << 3 << 3;
    QTest::addRow("N=9 K=3") << 9 << 3 << 2;
    QTest::addRow("N=101 K=7") << 101 << 7 << 6;
    QTest::addRow("N=3 K=1") << 3 << 1 << 0;
    // K >= N-1: everyone is friends with everyone.
    QTest::addRow("N=5 K=4") << 5 << 4 << 4;
    QTest::addRow("N=6 K=5") << 6 << 5 << 5;
    QTest::addRow("N=5 K=10") << 5 << 10 << 4;
    QTest::addRow("N=6 K=100") << 6 << 100 << 5;
    QTest::addRow("N=2 K=2") << 2 << 2 << 1;
}

void TestPopulationGenerator::generatorFriendCounts()
{
    QFETCH(int, users);
    QFETCH(int, friendsPerUser);
    QFETCH(int, expectedFriends);

    const UserDirectory directory = PopulationGenerator::generate(users, friendsPerUser, 1234);
    QCOMPARE(directory.size(), users);
    for (int i = 0; i < users; ++i) {
        const QList<int> &friends = directory.user(i).friends;
        QVERIFY2(friends.size() == expectedFriends,
            qPrintable(u"user%1 has %2 friends"_s.arg(i).arg(friends.size())));
        QVERIFY2(std::is_sorted(friends.cbegin(), friends.cend()), qPrintable(u"user%1"_s.arg(i)));
        QVERIFY2(!friends.contains(i), qPrintable(u"user%1 is its own friend"_s.arg(i)));
        for (const int f : friends) {
            QVERIFY(f >= 0 && f < users);
            QVERIFY2(directory.user(f).friends.contains(i),
                qPrintable(u"user%1 -> user%2 is not mutual"_s.arg(i).arg(f)));
            QVERIFY(directory.areFriends(f, i));
        }
    }
    if (friendsPerUser >= users - 1) {
        for (int a = 0; a < users; ++a) {
            for (int b = 0; b < users; ++b)
                QCOMPARE(directory.areFriends(a, b), a != b);
        }
    }
}

void TestPopulationGenerator::generatorTokensAreUnique()
{
    const UserDirectory directory = PopulationGenerator::generate(5000, 2, 5);
    QSet<QString> tokens;
    for (int i = 0; i < directory.size(); ++i) {
        const QString &token = directory.user(i).token;
        QVERIFY(!token.isEmpty());
        QCOMPARE(directory.indexOfToken(token), std::optional<int>(i));
        tokens.insert(token);
    }
    QCOMPARE(tokens.size(), 5000);

    // A generated population is a valid users file as it stands.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString error;
    const QString path = dir.filePath(u"generated.json"_s);
    QVERIFY2(UsersFile::save(directory, path, &error), qPrintable(error));
    QVERIFY2(UsersFile::load(path, &error), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestPopulationGenerator)
#include "tst_population_generator.moc"
