// Tests for FileTokenSource: a token file read on every fetch (so a new token written there is
// the next one), answered after the call returns, and every way a file can hold no token,
// refused with a message naming the file.

// Qt
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

// Presence
#include "session/FileTokenSource.h"

using namespace Qt::StringLiterals;
using Presence::Session::FileTokenSource;
using Presence::Session::TokenSource;

namespace {

void write(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(bytes), bytes.size());
}

} // namespace

class TestFileTokenSource : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void fetchReadsTheFileEachTime();
    void refusals_data();
    void refusals();
    void aMissingFileIsNamed();

private:
    QTemporaryDir m_dir;
};

void TestFileTokenSource::fetchReadsTheFileEachTime()
{
    const QString path = m_dir.filePath(u"token"_s);
    write(path, "  first-token\n");
    FileTokenSource source(path);
    QSignalSpy ready(&source, &TokenSource::tokenReady);
    source.fetch();
    source.fetch(); // joins the first
    QCOMPARE(ready.count(), 0); // later, never inside fetch()
    QVERIFY(ready.wait());
    QCOMPARE(ready.takeFirst().at(0).toString(), u"first-token"_s);
    QVERIFY(!ready.wait(50));
    // Whatever renews the token writes the next one there.
    write(path, "second-token");
    source.fetch();
    QVERIFY(ready.wait());
    QCOMPARE(ready.takeFirst().at(0).toString(), u"second-token"_s);
    QCOMPARE(FileTokenSource::read(path, nullptr), u"second-token"_s);
}

void TestFileTokenSource::refusals_data()
{
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<QString>("problem");
    const QString oneToken = u"must hold one token of 1-4096 characters without spaces"_s;
    QTest::newRow("empty") << QByteArray() << oneToken;
    QTest::newRow("blank") << "  \n\t\n"_ba << oneToken;
    QTest::newRow("two words") << "alice secret\n"_ba << oneToken;
    QTest::newRow("two lines") << "token-one\ntoken-two\n"_ba << oneToken;
    QTest::newRow("4097 characters") << QByteArray(4097, 't') << oneToken;
    QTest::newRow("too large") << QByteArray(9000, 't') << u"larger than 8192 bytes, not a token"_s;
}

void TestFileTokenSource::refusals()
{
    QFETCH(QByteArray, contents);
    QFETCH(QString, problem);
    const QString path = m_dir.filePath(QString::fromLatin1(QTest::currentDataTag()));
    write(path, contents);
    FileTokenSource source(path);
    QSignalSpy failed(&source, &TokenSource::tokenFailed);
    QSignalSpy ready(&source, &TokenSource::tokenReady);
    source.fetch();
    QVERIFY(failed.wait());
    QCOMPARE(failed.takeFirst().at(0).toString(), u"token file '%1': %2"_s.arg(path, problem));
    QCOMPARE(ready.count(), 0);
}

void TestFileTokenSource::aMissingFileIsNamed()
{
    const QString path = m_dir.filePath(u"missing"_s);
    QString error;
    QVERIFY(!FileTokenSource::read(path, &error));
    QVERIFY2(error.startsWith(u"token file '%1': cannot open: "_s.arg(path)), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestFileTokenSource)
#include "tst_file_token_source.moc"
