// Tests for JsonLog, the lines of --log-format json: one compact JSON object per line, with the
// time in UTC to the millisecond, the level, the category and the message, and the connection
// and user when the message names them; messages that break JSON (quotes, newlines, control
// characters) still make one valid line.

// Qt
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

// Presence
#include "server-mock/app/JsonLog.h"

using namespace Qt::StringLiterals;
using Presence::Server::JsonLog;

namespace {

const QDateTime kTime = QDateTime::fromString(u"2026-12-06T20:30:01.234Z"_s, Qt::ISODateWithMs);

QJsonObject parsed(const QByteArray &line)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(line, &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("not JSON: %s", line.constData());
    return document.object();
}

} // namespace

class TestJsonLog : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aLineHasEveryField();
    void connectionAndUserWhenNamed_data();
    void connectionAndUserWhenNamed();
    void anyMessageIsOneLine();
};

void TestJsonLog::aLineHasEveryField()
{
    const QByteArray line = JsonLog::line(QtWarningMsg, "presence.gateway",
        u"connection 7 of \"alice\" refresh refused: an unknown token"_s, kTime);
    QVERIFY(line.endsWith('\n'));
    QCOMPARE(line.count('\n'), 1);
    const QJsonObject object = parsed(line);
    QCOMPARE(object.value("time"_L1).toString(), u"2026-12-06T20:30:01.234Z"_s);
    QCOMPARE(object.value("level"_L1).toString(), u"warning"_s);
    QCOMPARE(object.value("category"_L1).toString(), u"presence.gateway"_s);
    QCOMPARE(object.value("message"_L1).toString(),
        u"connection 7 of \"alice\" refresh refused: an unknown token"_s);
    QCOMPARE(object.value("connection"_L1).toInteger(), 7);
    QCOMPARE(object.value("user"_L1).toString(), u"alice"_s);
}

void TestJsonLog::connectionAndUserWhenNamed_data()
{
    QTest::addColumn<QString>("message");
    QTest::addColumn<qint64>("connection"); // -1: none
    QTest::addColumn<QString>("user");
    QTest::newRow("signed in") << u"connection 12 signed in as \"bob\" with \"app/1\""_s
                               << qint64(12) << u"bob"_s;
    QTest::newRow("from") << u"connection 3 from \"127.0.0.1:5000\" refused: an unknown token"_s
                          << qint64(3) << QString();
    QTest::newRow("neither") << u"shutting down: closing 4 signed-in connections over 10000 ms"_s
                             << qint64(-1) << QString();
}

void TestJsonLog::connectionAndUserWhenNamed()
{
    QFETCH(QString, message);
    QFETCH(qint64, connection);
    QFETCH(QString, user);
    const QJsonObject object = parsed(JsonLog::line(QtInfoMsg, "presence.gateway", message, kTime));
    QCOMPARE(object.value("level"_L1).toString(), u"info"_s);
    QCOMPARE(object.contains("connection"_L1), connection >= 0);
    if (connection >= 0)
        QCOMPARE(object.value("connection"_L1).toInteger(), connection);
    QCOMPARE(object.value("user"_L1).toString(), user);
}

void TestJsonLog::anyMessageIsOneLine()
{
    const QString message = u"quote \" backslash \\ newline\nreturn\r tab\t bell\a end"_s;
    const QByteArray line = JsonLog::line(QtCriticalMsg, nullptr, message, kTime);
    QCOMPARE(line.count('\n'), 1);
    const QJsonObject object = parsed(line);
    QCOMPARE(object.value("message"_L1).toString(), message);
    QCOMPARE(object.value("category"_L1).toString(), u"default"_s);
    QCOMPARE(object.value("level"_L1).toString(), u"critical"_s);
}

QTEST_GUILESS_MAIN(TestJsonLog)
#include "tst_json_log.moc"
