// UsersFile: reading and writing users files, what a file must be to be read (each refusal
// names the file, the entry and the problem, never a token), and a round trip through a file.

// C++
#include <optional>

// Qt
#include <QFile>
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
using DirectoryDump::idsOf;

namespace {

// Writes `contents` to dir/name and returns the file's path (empty on failure).
QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &contents)
{
    QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(contents) != contents.size())
        return {};
    return path;
}

// The tokens used in the refusal cases share this prefix, so a message quoting any of
// them is caught.
constexpr auto kSecret = "tok-secret-"_L1;

} // namespace

class TestUsersFile : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void loadsValidFile();
    void parseNamesGivenPath();
    void refusesBadFile_data();
    void refusesBadFile();
    void missingFileCannotOpen();
    void saveThenLoadRoundTrips();
    void saveReportsUnwritablePath();
};

void TestUsersFile::loadsValidFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // alice lists her friends out of file order; bob lists nobody, so his friendships come
    // only from the other side; carol repeats alice's listing; dave has no name.
    const QString path = writeFile(dir, u"users.json"_s, R"({"users": [
        {"id": "alice", "name": "Alice Liddell", "token": "tok-a", "friends": ["dave", "bob", "carol"]},
        {"id": "bob", "name": "Bob", "token": "tok-b"},
        {"id": "carol", "name": "Carol Ann", "token": "tok-c", "friends": ["alice"]},
        {"id": "dave", "token": "tok-d", "friends": []},
        {"id": "e.v-e_2", "name": "Ève", "token": "tok-e", "friends": ["bob"]}
    ]})"_ba);
    QVERIFY(!path.isEmpty());

    QString error;
    const std::optional<UserDirectory> directory = UsersFile::load(path, &error);
    QVERIFY2(directory, qPrintable(error));
    QCOMPARE(directory->size(), 5);

    const QStringList ids { u"alice"_s, u"bob"_s, u"carol"_s, u"dave"_s, u"e.v-e_2"_s };
    const QStringList names { u"Alice Liddell"_s, u"Bob"_s, u"Carol Ann"_s, u"dave"_s, u"Ève"_s };
    const QStringList tokens { u"tok-a"_s, u"tok-b"_s, u"tok-c"_s, u"tok-d"_s, u"tok-e"_s };
    for (int i = 0; i < directory->size(); ++i) {
        QCOMPARE(directory->user(i).id, ids.at(i));
        QCOMPARE(directory->user(i).name, names.at(i));
        QCOMPARE(directory->user(i).token, tokens.at(i));
        QCOMPARE(directory->indexOfId(ids.at(i)), std::optional<int>(i));
        QCOMPARE(directory->indexOfToken(tokens.at(i)), std::optional<int>(i));
    }

    // Friends come in file order, each once, and every friendship shows on both sides.
    const auto friendsOf
        = [&](int index) { return idsOf(*directory, directory->user(index).friends); };
    QCOMPARE(friendsOf(0), (QStringList { u"bob"_s, u"carol"_s, u"dave"_s }));
    QCOMPARE(friendsOf(1), (QStringList { u"alice"_s, u"e.v-e_2"_s }));
    QCOMPARE(friendsOf(2), (QStringList { u"alice"_s }));
    QCOMPARE(friendsOf(3), (QStringList { u"alice"_s }));
    QCOMPARE(friendsOf(4), (QStringList { u"bob"_s }));
    QVERIFY(directory->areFriends(1, 0));
    QVERIFY(directory->areFriends(0, 1));
    QVERIFY(!directory->areFriends(2, 3));
    QVERIFY(!directory->areFriends(0, 4));
}

void TestUsersFile::parseNamesGivenPath()
{
    const QByteArray good
        = R"({"users": [{"id": "a", "token": "t1"}, {"id": "b", "token": "t2", "friends": ["a"]}]})"_ba;
    QString error;
    const auto directory = UsersFile::parse(good, u"/nowhere/users.json"_s, &error);
    QVERIFY2(directory, qPrintable(error));
    QCOMPARE(directory->size(), 2);
    QVERIFY(directory->areFriends(0, 1));

    // Without a file behind it, parse() still names the path it was given.
    const auto bad
        = UsersFile::parse(R"({"users": [{"id": "a"}]})"_ba, u"/nowhere/users.json"_s, &error);
    QVERIFY(!bad);
    QVERIFY2(error.contains(u"/nowhere/users.json"_s), qPrintable(error));
    QVERIFY2(error.contains(u"\"token\""_s), qPrintable(error));

    // The longest id allowed.
    const QByteArray longest
        = R"({"users": [{"id": ")"_ba + QByteArray(64, 'x') + R"(", "token": "t"}]})"_ba;
    const auto longDirectory = UsersFile::parse(longest, u"-"_s, &error);
    QVERIFY2(longDirectory, qPrintable(error));
    QCOMPARE(longDirectory->user(0).id, QString(64, u'x'));

    // A null error pointer is allowed.
    QVERIFY(!UsersFile::parse("[]"_ba, u"x.json"_s, nullptr));
}

void TestUsersFile::refusesBadFile_data()
{
    QTest::addColumn<QByteArray>("json");
    // Pieces the message must contain besides the path: the entry and the problem.
    QTest::addColumn<QStringList>("expected");

    QTest::addRow("malformed JSON") << "{\"users\": [\n  {\"id\": \"a\",\n   \"token\": }\n]}"_ba
                                    << QStringList { u"not valid JSON"_s, u"line 3"_s };
    QTest::addRow("top-level array")
        << R"([{"id": "a", "token": "tok-secret-1"}])"_ba << QStringList { u"\"users\" array"_s };
    QTest::addRow("missing users")
        << R"({"people": []})"_ba << QStringList { u"\"users\" array"_s };
    QTest::addRow("users not an array")
        << R"({"users": {"id": "a"}})"_ba << QStringList { u"\"users\" array"_s };
    QTest::addRow("entry not an object")
        << R"({"users": [{"id": "a", "token": "tok-secret-1"}, "b"]})"_ba
        << QStringList { u"entry 1"_s, u"must be an object"_s };
    QTest::addRow("missing id") << R"({"users": [{"token": "tok-secret-1"}]})"_ba
                                << QStringList { u"entry 0"_s, u"\"id\" must be"_s };
    QTest::addRow("id with a space")
        << R"({"users": [{"id": "a", "token": "tok-secret-1"}, {"id": "b c", "token": "tok-secret-2"}]})"_ba
        << QStringList { u"entry 1"_s, u"\"id\" must be"_s };
    const QByteArray longEntry = R"({"id": ")"_ba + QByteArray(65, 'x') + R"(", "token": "t"})"_ba;
    QTest::addRow("id of 65 chars") << R"({"users": [)"_ba + longEntry + "]}"_ba
                                    << QStringList { u"entry 0"_s, u"\"id\" must be"_s, u"1-64"_s };
    QTest::addRow("id not a string") << R"({"users": [{"id": 7, "token": "tok-secret-1"}]})"_ba
                                     << QStringList { u"entry 0"_s, u"\"id\" must be"_s };
    QTest::addRow("duplicate id")
        << R"({"users": [{"id": "a", "token": "tok-secret-1"}, {"id": "b", "token": "tok-secret-2"},
                             {"id": "a", "token": "tok-secret-3"}]})"_ba
        << QStringList { u"entry 2 (\"a\")"_s, u"duplicate id"_s, u"entry 0"_s };
    QTest::addRow("missing token") << R"({"users": [{"id": "a", "name": "A"}]})"_ba
                                   << QStringList { u"entry 0 (\"a\")"_s, u"\"token\" must be"_s };
    QTest::addRow("empty token") << R"({"users": [{"id": "a", "token": ""}]})"_ba
                                 << QStringList { u"entry 0 (\"a\")"_s, u"\"token\" must be"_s };
    QTest::addRow("duplicate token")
        << R"({"users": [{"id": "a", "token": "tok-secret-1"}, {"id": "b", "token": "tok-secret-1"}]})"_ba
        << QStringList { u"entry 1 (\"b\")"_s, u"duplicate token"_s, u"entry 0"_s };
    QTest::addRow("unknown friend")
        << R"({"users": [{"id": "a", "token": "tok-secret-1", "friends": ["ghost"]}]})"_ba
        << QStringList { u"entry 0 (\"a\")"_s, u"unknown friend id \"ghost\""_s };
    QTest::addRow("friend is itself")
        << R"({"users": [{"id": "a", "token": "tok-secret-1"}, {"id": "b", "token": "tok-secret-2", "friends": ["a", "b"]}]})"_ba
        << QStringList { u"entry 1 (\"b\")"_s, u"itself"_s };
    QTest::addRow("friends not an array")
        << R"({"users": [{"id": "a", "token": "tok-secret-1"}, {"id": "b", "token": "tok-secret-2", "friends": "a"}]})"_ba
        << QStringList { u"entry 1 (\"b\")"_s, u"\"friends\" must be an array"_s };
    QTest::addRow("friend is a number")
        << R"({"users": [{"id": "a", "token": "tok-secret-1", "friends": [1]}]})"_ba
        << QStringList { u"entry 0 (\"a\")"_s, u"\"friends\""_s, u"not an id"_s };
    QTest::addRow("name blank")
        << R"({"users": [{"id": "a", "name": "  ", "token": "tok-secret-1"}]})"_ba
        << QStringList { u"entry 0 (\"a\")"_s, u"\"name\" must be"_s, u"non-blank"_s };
    QTest::addRow("name not a string")
        << R"({"users": [{"id": "a", "name": 5, "token": "tok-secret-1"}]})"_ba
        << QStringList { u"entry 0 (\"a\")"_s, u"\"name\" must be"_s, u"string"_s };
}

void TestUsersFile::refusesBadFile()
{
    QFETCH(QByteArray, json);
    QFETCH(QStringList, expected);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = writeFile(dir, u"population.json"_s, json);
    QVERIFY(!path.isEmpty());

    QString error;
    QVERIFY(!UsersFile::load(path, &error));
    QVERIFY2(error.contains(path), qPrintable(error));
    for (const QString &piece : std::as_const(expected))
        QVERIFY2(error.contains(piece), qPrintable(u"missing \"%1\" in: %2"_s.arg(piece, error)));
    // Tokens are secrets: a message may end up in a bug report.
    QVERIFY2(!error.contains(kSecret), qPrintable(error));
}

void TestUsersFile::missingFileCannotOpen()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"absent.json"_s);
    QString error;
    QVERIFY(!UsersFile::load(path, &error));
    QVERIFY2(error.contains(path), qPrintable(error));
    QVERIFY2(error.contains(u"cannot open"_s), qPrintable(error));
}

void TestUsersFile::saveThenLoadRoundTrips()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());

    // A hand-written population with non-ASCII names and a user without friends...
    QString error;
    const auto small = UsersFile::parse(R"({"users": [
        {"id": "a", "name": "Zoë \"Z\" Ñandú", "token": "t/a+b=", "friends": ["c"]},
        {"id": "b", "name": "Loner", "token": "t-b"},
        {"id": "c", "name": "名前", "token": "t-c"}
    ]})"_ba,
        u"-"_s, &error);
    QVERIFY2(small, qPrintable(error));
    // ...and a generated one with many friendships.
    const UserDirectory generated = PopulationGenerator::generate(200, 7, 99);

    for (const UserDirectory *original : { &*small, &generated }) {
        const QString path = dir.filePath(u"round-trip-%1.json"_s.arg(original->size()));
        QVERIFY2(UsersFile::save(*original, path, &error), qPrintable(error));
        const auto loaded = UsersFile::load(path, &error);
        QVERIFY2(loaded, qPrintable(error));
        QCOMPARE(dump(*loaded), dump(*original));
    }
}

void TestUsersFile::saveReportsUnwritablePath()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"no-such-dir/users.json"_s);
    QString error;
    QVERIFY(!UsersFile::save(PopulationGenerator::generate(3, 2, 1), path, &error));
    QVERIFY2(error.contains(path), qPrintable(error));
    QVERIFY(!QFile::exists(path));
}

QTEST_GUILESS_MAIN(TestUsersFile)
#include "tst_users_file.moc"
