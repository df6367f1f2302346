// Tests for CommandTokenSource: a command run through /bin/sh for each token, its output the
// token; and a command that fails, prints no token, or hangs past the timeout, each refused
// with a message saying so, the hung one killed.

// C++
#include <chrono>

// Qt
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

// Presence
#include "session/CommandTokenSource.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Session::CommandTokenSource;
using Presence::Session::TokenSource;

class TestCommandTokenSource : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void printsAToken();
    void runsAgainForEachFetch();
    void refusals_data();
    void refusals();
    void aHungCommandIsKilledAtTheTimeout();
};

void TestCommandTokenSource::printsAToken()
{
    CommandTokenSource source(u"printf '  eyJ.eyJ.sig \\n'"_s);
    QSignalSpy ready(&source, &TokenSource::tokenReady);
    source.fetch();
    source.fetch(); // joins the running one
    QVERIFY(ready.wait());
    QCOMPARE(ready.takeFirst().at(0).toString(), u"eyJ.eyJ.sig"_s);
    QVERIFY(!ready.wait(100));
}

void TestCommandTokenSource::runsAgainForEachFetch()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // A counter in a file: each run prints the next token.
    const QString counter = dir.filePath(u"n"_s);
    CommandTokenSource source(
        u"n=$(cat '%1' 2>/dev/null || echo 0); n=$((n+1)); echo $n > '%1'; echo token-$n"_s.arg(
            counter));
    QSignalSpy ready(&source, &TokenSource::tokenReady);
    for (int n = 1; n <= 2; ++n) {
        source.fetch();
        QVERIFY(ready.wait());
        QCOMPARE(ready.takeFirst().at(0).toString(), u"token-%1"_s.arg(n));
    }
}

void TestCommandTokenSource::refusals_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("error");
    QTest::newRow("exit 3") << u"echo 'auth service down' >&2; exit 3"_s
                            << u"token command: exited with 3: auth service down"_s;
    QTest::newRow("not found") << u"no-such-command-here"_s
                               << u"token command: exited with 127: "_s;
    QTest::newRow("prints nothing") << u"true"_s
                                    << u"token command: printed no token (one of 1-4096 "
                                       "characters without spaces)"_s;
    QTest::newRow("prints two words") << u"echo alice secret"_s
                                      << u"token command: printed no token (one of 1-4096 "
                                         "characters without spaces)"_s;
    // Refused as the output comes, long before the 10 s timeout: never held whole.
    QTest::newRow("prints without end") << u"yes t"_s
                                        << u"token command: printed no token (one of 1-4096 "
                                           "characters without spaces)"_s;
    QTest::newRow("prints too much") << u"yes t | head -c 40000 | tr -d '\\n'"_s
                                     << u"token command: printed no token (one of 1-4096 "
                                        "characters without spaces)"_s;
}

void TestCommandTokenSource::refusals()
{
    QFETCH(QString, command);
    QFETCH(QString, error);
    CommandTokenSource source(command);
    QSignalSpy failed(&source, &TokenSource::tokenFailed);
    QSignalSpy ready(&source, &TokenSource::tokenReady);
    source.fetch();
    QVERIFY(failed.wait());
    QVERIFY2(
        failed.at(0).at(0).toString().startsWith(error), qPrintable(failed.at(0).at(0).toString()));
    QCOMPARE(ready.count(), 0);
}

void TestCommandTokenSource::aHungCommandIsKilledAtTheTimeout()
{
    CommandTokenSource source(u"sleep 30; echo late"_s, nullptr, 300ms);
    QSignalSpy failed(&source, &TokenSource::tokenFailed);
    QElapsedTimer clock;
    clock.start();
    source.fetch();
    QVERIFY(failed.wait(5000));
    QCOMPARE(failed.at(0).at(0).toString(), u"token command: gave no token within 300 ms"_s);
    QVERIFY(clock.elapsed() < 5000);
    // A fetch after it runs the command anew.
    source.fetch();
    QVERIFY(failed.wait(5000));
    QCOMPARE(failed.count(), 2);
}

QTEST_GUILESS_MAIN(TestCommandTokenSource)
#include "tst_command_token_source.moc"
