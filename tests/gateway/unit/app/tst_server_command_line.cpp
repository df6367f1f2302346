// ServerCommandLine: the one list of presence-mock-server's options (each a --config key but
// --config and --check-config), a config file's options added where the command line does not
// give them, and integers read within their range with a message naming the option.

// C++
#include <optional>

// Qt
#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

// Presence
#include "server-mock/app/ServerCommandLine.h"

using namespace Qt::StringLiterals;
using Presence::Server::ServerCommandLine;

namespace {

QStringList withProgram(const QStringList &args)
{
    return QStringList { u"presence-mock-server"_s } + args;
}

} // namespace

class TestServerCommandLine : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyOptionButTwoIsAConfigKey();
    void integers_data();
    void integers();
    void unknownOptionsAndStrayArgumentsAreRefused_data();
    void unknownOptionsAndStrayArgumentsAreRefused();
    void aConfigFileGivesWhatTheCommandLineDoesNot();
    void leniencyTakesWhatParses();
    void helpAndVersion();
};

void TestServerCommandLine::everyOptionButTwoIsAConfigKey()
{
    QSet<QString> options;
    for (const QCommandLineOption &option : ServerCommandLine::options())
        options.insert(option.names().constFirst());
    QSet<QString> keys;
    for (const auto &key : ServerCommandLine::configOptions()) {
        keys.insert(key.name);
        if (key.name == u"users" || key.name == u"tls-key")
            QVERIFY2(key.isPath, qPrintable(key.name));
        if (key.name == u"allow-origin")
            QVERIFY(key.repeatable && key.takesValue);
        if (key.name == u"no-chat")
            QVERIFY(!key.takesValue);
    }
    QCOMPARE(options - keys, (QSet<QString> { u"config"_s, u"check-config"_s }));
    QVERIFY((keys - options).isEmpty());
}

void TestServerCommandLine::integers_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<std::optional<qint64>>("expected");
    QTest::addRow("absent: the fallback") << QStringList {} << std::optional<qint64>(7);
    QTest::addRow("lowest") << QStringList { u"--friends=1"_s } << std::optional<qint64>(1);
    QTest::addRow("highest") << QStringList { u"--friends=10"_s } << std::optional<qint64>(10);
    QTest::addRow("below") << QStringList { u"--friends=0"_s } << std::optional<qint64>();
    QTest::addRow("above") << QStringList { u"--friends=11"_s } << std::optional<qint64>();
    QTest::addRow("not a number") << QStringList { u"--friends=some"_s } << std::optional<qint64>();
}

void TestServerCommandLine::integers()
{
    QFETCH(QStringList, args);
    QFETCH(std::optional<qint64>, expected);
    ServerCommandLine line;
    QString error;
    QVERIFY2(line.parse(withProgram(args), &error), qPrintable(error));
    QCOMPARE(line.integer(u"friends"_s, 1, 10, 7, &error), expected);
    if (!expected) {
        QVERIFY2(error.startsWith(u"--friends must be an integer from 1 to 10 (got \""_s),
            qPrintable(error));
        QVERIFY2(error.contains(line.value(u"friends"_s)), qPrintable(error));
    }
}

void TestServerCommandLine::unknownOptionsAndStrayArgumentsAreRefused_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected");
    QTest::addRow("unknown option") << QStringList { u"--frobnicate"_s } << u"frobnicate"_s;
    QTest::addRow("no value") << QStringList { u"--listen"_s } << u"listen"_s;
    QTest::addRow("stray argument") << QStringList { u"--generate=3"_s, u"users.json"_s }
                                    << u"unexpected argument \"users.json\""_s;
}

void TestServerCommandLine::unknownOptionsAndStrayArgumentsAreRefused()
{
    QFETCH(QStringList, args);
    QFETCH(QString, expected);
    ServerCommandLine line;
    QString error;
    QVERIFY(!line.parse(withProgram(args), &error));
    QVERIFY2(error.contains(expected), qPrintable(error));
}

void TestServerCommandLine::aConfigFileGivesWhatTheCommandLineDoesNot()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile file(dir.filePath(u"gateway.ini"_s));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("listen = 0.0.0.0:9000\nusers = users.json\nno-chat = true\n");
    file.close();

    ServerCommandLine line;
    QString error;
    QVERIFY2(
        line.parse(withProgram({ u"--config"_s, file.fileName(), u"--listen"_s, u"127.0.0.1:1"_s }),
            &error),
        qPrintable(error));
    QCOMPARE(line.value(u"listen"_s), u"127.0.0.1:1"_s); // the command line wins
    QCOMPARE(line.value(u"users"_s), dir.filePath(u"users.json"_s)); // beside the file
    QVERIFY(line.isSet(u"no-chat"_s));

    ServerCommandLine missing;
    QVERIFY(!missing.parse(withProgram({ u"--config"_s, dir.filePath(u"none.ini"_s) }), &error));
    QVERIFY2(error.contains(u"none.ini"_s), qPrintable(error));
}

void TestServerCommandLine::leniencyTakesWhatParses()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    ServerCommandLine line;
    line.parseLeniently(withProgram(
        { u"--event-loop=qt"_s, u"--config"_s, dir.filePath(u"none.ini"_s), u"stray"_s }));
    QCOMPARE(line.value(u"event-loop"_s), u"qt"_s);
}

void TestServerCommandLine::helpAndVersion()
{
    ServerCommandLine line;
    QString error;
    QVERIFY(line.parse(withProgram({ u"-h"_s }), &error));
    QVERIFY(line.helpWanted() && !line.versionWanted());
    for (const QCommandLineOption &option : ServerCommandLine::options())
        QVERIFY2(line.helpText().contains(u"--"_s + option.names().constFirst()),
            qPrintable(option.names().constFirst()));
    ServerCommandLine version;
    QVERIFY(version.parse(withProgram({ u"--version"_s }), &error));
    QVERIFY(version.versionWanted() && !version.helpWanted());
}

QTEST_MAIN(TestServerCommandLine)
#include "tst_server_command_line.moc"
