// PopulationOptions: who the gateway serves and how they move, read from a real command line:
// a users file or a generated population (never both, neither only with the friends in
// Redis), its size, friends and seed, and QA's churn and scenario.

// C++
#include <optional>

// Qt
#include <QTest>

// Presence
#include "server-mock/app/PopulationOptions.h"
#include "server-mock/app/ServerCommandLine.h"
#include "server-mock/app/ServerOptions.h"

using namespace Qt::StringLiterals;
using namespace Presence::Server;

namespace {

std::optional<ServerOptions> read(const QStringList &args, QString *error)
{
    ServerCommandLine line;
    if (!line.parse(QStringList { u"presence-mock-server"_s } + args, error))
        return std::nullopt;
    ServerOptions options;
    if (!PopulationOptions::read(line, options, error))
        return std::nullopt;
    return options;
}

} // namespace

class TestPopulationOptions : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aUsersFile();
    void aGeneratedPopulation();
    void theFriendsInRedisNeedNoPopulation();
    void refusals_data();
    void refusals();
};

void TestPopulationOptions::aUsersFile()
{
    QString error;
    const auto options = read({ u"--users=users.json"_s, u"--dump-users=out.json"_s,
                                  u"--churn=2.5"_s, u"--seed=4"_s, u"--scenario=qa.jsonl"_s },
        &error);
    QVERIFY2(options, qPrintable(error));
    QCOMPARE(options->usersFile, u"users.json"_s);
    QCOMPARE(options->dumpUsersFile, u"out.json"_s);
    QVERIFY(!options->generateCount);
    QCOMPARE(options->churnRate, std::optional<double>(2.5));
    QCOMPARE(options->seed, quint64(4)); // the churn's
    QCOMPARE(options->scenarioFile, u"qa.jsonl"_s);
}

void TestPopulationOptions::aGeneratedPopulation()
{
    QString error;
    auto options = read({ u"--generate=1000"_s, u"--friends=12"_s, u"--seed=99"_s }, &error);
    QVERIFY2(options, qPrintable(error));
    QCOMPARE(options->generateCount, std::optional<int>(1000));
    QCOMPARE(options->friendsPerUser, 12);
    QCOMPARE(options->seed, quint64(99));
    QVERIFY(options->usersFile.isEmpty() && !options->churnRate);

    options = read({ u"--generate=3"_s }, &error);
    QVERIFY2(options, qPrintable(error));
    QCOMPARE(options->friendsPerUser, 50);
    QCOMPARE(options->seed, quint64(1));
}

void TestPopulationOptions::theFriendsInRedisNeedNoPopulation()
{
    QString error;
    const auto options = read({ u"--friends-from-redis"_s }, &error);
    QVERIFY2(options, qPrintable(error));
    QVERIFY(options->usersFile.isEmpty() && !options->generateCount);
    // Their being in Redis is for RedisOptions to read and check.
    QVERIFY(!options->friendsFromRedis);
    // A population besides is fine; two are not.
    QVERIFY2(read({ u"--friends-from-redis"_s, u"--generate=3"_s }, &error), qPrintable(error));
    QVERIFY(!read({ u"--friends-from-redis"_s, u"--users=u.json"_s, u"--generate=3"_s }, &error));
    QCOMPARE(error, u"give either --users or --generate, not both"_s);
}

void TestPopulationOptions::refusals_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected");
    QTest::addRow("neither") << QStringList {} << u"give --users FILE or --generate N"_s;
    QTest::addRow("both") << QStringList { u"--users=u.json"_s, u"--generate=3"_s }
                          << u"give either --users or --generate, not both"_s;
    QTest::addRow("friends without generate") << QStringList { u"--users=u.json"_s,
        u"--friends=3"_s } << u"--friends goes with --generate"_s;
    QTest::addRow("seed without generate or churn") << QStringList { u"--users=u.json"_s,
        u"--seed=3"_s } << u"--seed goes with --generate or --churn"_s;
    QTest::addRow("churn not a number") << QStringList { u"--generate=3"_s, u"--churn=lots"_s }
                                        << u"--churn: not a number (got \"lots\")"_s;
    QTest::addRow("an empty scenario")
        << QStringList { u"--generate=3"_s, u"--scenario="_s } << u"--scenario needs a file"_s;
    QTest::addRow("too many users")
        << QStringList { u"--generate=1000001"_s } << u"--generate must be an integer"_s;
}

void TestPopulationOptions::refusals()
{
    QFETCH(QStringList, args);
    QFETCH(QString, expected);
    QString error;
    QVERIFY(!read(args, &error));
    QVERIFY2(error.contains(expected), qPrintable(error));
}

QTEST_MAIN(TestPopulationOptions)
#include "tst_population_options.moc"
