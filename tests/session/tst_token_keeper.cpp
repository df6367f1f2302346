// Tests for TokenKeeper, with a real token file as its source: without a source it connects at
// once with the token given; with one it fetches first, and falls back to the token held when
// the source fails; a renewal sends the fetched token and makes it the one held only when the
// gateway accepts it; a token the gateway holds already, or refused, is never sent, and the
// source is asked again until the end (so a token renewed late still goes, once); a cancelled
// connection or renewal never calls back.

// C++
#include <chrono>

// Qt
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

// Presence
#include "session/FileTokenSource.h"
#include "session/TokenKeeper.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Session::FileTokenSource;
using Presence::Session::TokenKeeper;
using Presence::Session::TokenSource;

namespace {

void write(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(bytes), bytes.size());
}

} // namespace

class TestTokenKeeper : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void withoutASourceConnectsAtOnce();
    void fetchesBeforeConnecting();
    void aFailingSourceFallsBackToTheTokenHeld();
    void renewalTakesEffectWhenAccepted();
    void theTokenHeldIsNotSentAgain();
    void aRefusedTokenIsNotSentAgain();
    void askingAgainStopsBeforeTheEnd();
    void cancelledWorkNeverCallsBack();

private:
    QTemporaryDir m_dir;
    QString m_path;
};

void TestTokenKeeper::init()
{
    m_path = m_dir.filePath(u"token"_s);
    write(m_path, "from-the-file\n");
}

void TestTokenKeeper::withoutASourceConnectsAtOnce()
{
    TokenKeeper keeper;
    keeper.setToken(u"given"_s);
    QVERIFY(!keeper.hasSource());
    int connects = 0;
    keeper.beforeConnecting([&] { ++connects; });
    QCOMPARE(connects, 1);
    QCOMPARE(keeper.token(), u"given"_s);
    keeper.renew(60s, [](const QString &) -> QString {
        qFatal("no renewal without a source");
        return {};
    });
    QVERIFY(!keeper.answered(u"r1"_s, true));
}

void TestTokenKeeper::fetchesBeforeConnecting()
{
    FileTokenSource source(m_path);
    TokenKeeper keeper;
    keeper.setToken(u"given"_s);
    keeper.setSource(&source);
    int connects = 0;
    keeper.beforeConnecting([&] { ++connects; });
    QCOMPARE(connects, 0); // the file is read first
    QTRY_COMPARE(connects, 1);
    QCOMPARE(keeper.token(), u"from-the-file"_s);
}

void TestTokenKeeper::aFailingSourceFallsBackToTheTokenHeld()
{
    FileTokenSource source(m_dir.filePath(u"missing"_s));
    TokenKeeper keeper;
    keeper.setToken(u"given"_s);
    keeper.setSource(&source);
    int connects = 0;
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"no new token: .*cannot open"_s));
    keeper.beforeConnecting([&] { ++connects; });
    QTRY_COMPARE(connects, 1);
    QCOMPARE(keeper.token(), u"given"_s);
}

void TestTokenKeeper::renewalTakesEffectWhenAccepted()
{
    FileTokenSource source(m_path);
    TokenKeeper keeper;
    keeper.setToken(u"given"_s);
    keeper.setSource(&source);
    QStringList sent;
    const auto send = [&](const QString &token) {
        sent.append(token);
        return u"r%1"_s.arg(sent.size());
    };
    keeper.renew(60s, send);
    keeper.renew(60s, send); // one renewal at a time
    QTRY_COMPARE(sent, QStringList { u"from-the-file"_s });
    QCOMPARE(keeper.token(), u"given"_s); // not before the gateway takes it
    QVERIFY(!keeper.answered(u"r9"_s, true)); // someone else's answer
    QVERIFY(keeper.answered(u"r1"_s, true));
    QCOMPARE(keeper.token(), u"from-the-file"_s);

    // A refused one changes nothing.
    write(m_path, "refused-one");
    keeper.renew(60s, send);
    QTRY_COMPARE(sent.size(), 2);
    QTest::ignoreMessage(QtWarningMsg, "the gateway refused the refreshed token");
    QVERIFY(keeper.answered(u"r2"_s, false));
    QCOMPARE(keeper.token(), u"from-the-file"_s);
}

void TestTokenKeeper::theTokenHeldIsNotSentAgain()
{
    // Issue 46: a token file not renewed yet gives the token the gateway holds; sending it as
    // a refresh changes nothing (and an old gateway warned again at once, 2,479 times).
    FileTokenSource source(m_path);
    TokenKeeper keeper;
    keeper.setToken(u"from-the-file"_s);
    keeper.setSource(&source);
    QSignalSpy read(&source, &TokenSource::tokenReady);
    QStringList sent;
    keeper.renew(2s, [&](const QString &token) {
        sent.append(token);
        return u"r%1"_s.arg(sent.size());
    });
    QVERIFY(read.wait());
    QCOMPARE(sent, QStringList {});
    // The helper renews the file late: the next look (after half of what is left) sends it,
    // once.
    write(m_path, "renewed-late\n");
    QTRY_COMPARE(sent, QStringList { u"renewed-late"_s });
    QVERIFY(keeper.answered(u"r1"_s, true));
    QCOMPARE(keeper.token(), u"renewed-late"_s);
    QVERIFY(!QTest::qWaitFor([&] { return sent.size() > 1; }, 1500));
}

void TestTokenKeeper::aRefusedTokenIsNotSentAgain()
{
    write(m_path, "refused-one");
    FileTokenSource source(m_path);
    TokenKeeper keeper;
    keeper.setToken(u"given"_s);
    keeper.setSource(&source);
    QSignalSpy read(&source, &TokenSource::tokenReady);
    QStringList sent;
    keeper.renew(3s, [&](const QString &token) {
        sent.append(token);
        return u"r%1"_s.arg(sent.size());
    });
    QTRY_COMPARE(sent, QStringList { u"refused-one"_s });
    QTest::ignoreMessage(QtWarningMsg, "the gateway refused the refreshed token");
    QVERIFY(keeper.answered(u"r1"_s, false));
    // Read again later, the same refused token goes nowhere ...
    QTRY_COMPARE(read.size(), 2);
    QCOMPARE(sent.size(), 1);
    // ... and a good one written meanwhile goes at the next look.
    write(m_path, "good-one");
    QTRY_COMPARE_WITH_TIMEOUT(sent, (QStringList { u"refused-one"_s, u"good-one"_s }), 3000);
}

void TestTokenKeeper::askingAgainStopsBeforeTheEnd()
{
    FileTokenSource source(m_path);
    TokenKeeper keeper;
    keeper.setToken(u"from-the-file"_s);
    keeper.setSource(&source);
    QSignalSpy read(&source, &TokenSource::tokenReady);
    int sends = 0;
    // 800 ms left: read now, again after 400 ms; the next would be 200 ms after that, under
    // kMinRefetchDelay: none.
    keeper.renew(800ms, [&](const QString &) {
        ++sends;
        return u"r1"_s;
    });
    QTRY_COMPARE(read.size(), 2);
    QVERIFY(!QTest::qWaitFor([&] { return read.size() > 2; }, 1200));
    QCOMPARE(sends, 0);
}

void TestTokenKeeper::cancelledWorkNeverCallsBack()
{
    FileTokenSource source(m_path);
    TokenKeeper keeper;
    keeper.setSource(&source);
    int connects = 0;
    int sends = 0;
    keeper.beforeConnecting([&] { ++connects; });
    keeper.cancel();
    QSignalSpy ready(&source, &TokenSource::tokenReady);
    QVERIFY(ready.wait());
    keeper.renew(60s, [&](const QString &) {
        ++sends;
        return u"r1"_s;
    });
    keeper.cancel();
    QVERIFY(ready.wait());
    QCOMPARE(connects, 0);
    QCOMPARE(sends, 0);
    QVERIFY(!keeper.answered(u"r1"_s, true));
    QCOMPARE(keeper.token(), QString());
}

QTEST_GUILESS_MAIN(TestTokenKeeper)
#include "tst_token_keeper.moc"
