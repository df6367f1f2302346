// Tests for RequestContent: the admin API's readers of a request's body and query, pure over
// bytes: what each accepts, and the answer, status and message, that refuses the rest.

// C++
#include <variant>

// Qt
#include <QJsonDocument>
#include <QTest>

// Presence
#include "server-mock/http/RequestContent.h"

using namespace Qt::StringLiterals;
using Presence::Protocol::ChosenStatus;
using namespace Presence::Server;

namespace {

// The refusal's status and message, or {0, ""} when the reader gave a value.
template <typename T> std::pair<int, QString> refusalOf(const std::variant<T, HttpReply> &read)
{
    const auto *reply = std::get_if<HttpReply>(&read);
    if (!reply)
        return { 0, {} };
    const QByteArray bytes = reply->toBytes();
    const QJsonObject body
        = QJsonDocument::fromJson(bytes.sliced(bytes.indexOf("\r\n\r\n") + 4)).object();
    return { int(reply->status()),
        body.value("error"_L1).toObject().value("message"_L1).toString() };
}

} // namespace

class TestRequestContent : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void jsonObject_data();
    void jsonObject();
    void simulatedPresence_data();
    void simulatedPresence();
    void idList_data();
    void idList();
    void quotesAreCut();
};

void TestRequestContent::jsonObject_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("problem"); // empty: read

    QTest::newRow("object") << QByteArray(R"( {"a": 1} )") << QString();
    QTest::newRow("empty") << QByteArray(" \r\n")
                           << u"the body must be a JSON object, and it is empty"_s;
    QTest::newRow("array") << QByteArray("[1]") << u"the body must be a JSON object"_s;
    QTest::newRow("number") << QByteArray("42") << u"the body must be a JSON object"_s;
    QTest::newRow("cut") << QByteArray(R"({"a": )")
                         << u"the body is not valid JSON: unterminated object at byte 6"_s;
    QTest::newRow("trailing")
        << QByteArray(R"({} {})")
        << u"the body is not valid JSON: garbage at the end of the document at byte 3"_s;
}

void TestRequestContent::jsonObject()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, problem);
    const auto read = readJsonObject(body);
    if (problem.isEmpty()) {
        QCOMPARE(refusalOf(read).first, 0);
        QCOMPARE(std::get<QJsonObject>(read), QJsonDocument::fromJson(body).object());
    } else {
        QCOMPARE(refusalOf(read), std::make_pair(400, problem));
    }
}

void TestRequestContent::simulatedPresence_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("chosen"); // -1: offline, -2: refused
    QTest::addColumn<QString>("problem");

    QTest::newRow("online") << QByteArray(R"({"status":"online"})") << int(ChosenStatus::Online)
                            << QString();
    QTest::newRow("away") << QByteArray(R"({"status":"away"})") << int(ChosenStatus::Away)
                          << QString();
    QTest::newRow("invisible") << QByteArray(R"({"status":"invisible"})")
                               << int(ChosenStatus::Invisible) << QString();
    QTest::newRow("offline") << QByteArray(R"({"status":"offline"})") << -1 << QString();
    QTest::newRow("unknown status")
        << QByteArray(R"({"status":"busy"})") << -2
        << u"field 'status' must be one of online, away, invisible, offline"_s;
    QTest::newRow("no status") << QByteArray("{}") << -2 << u"field 'status' is missing"_s;
    QTest::newRow("number") << QByteArray(R"({"status":1})") << -2
                            << u"field 'status' must be a string"_s;
    QTest::newRow("more fields") << QByteArray(R"({"status":"away","user":"bob"})") << -2
                                 << u"unknown field 'user' (a presence change takes 'status')"_s;
    QTest::newRow("not json") << QByteArray("away") << -2 << u"the body must be a JSON object"_s;
}

void TestRequestContent::simulatedPresence()
{
    QFETCH(QByteArray, body);
    QFETCH(int, chosen);
    QFETCH(QString, problem);
    const auto read = readSimulatedPresence(body);
    if (chosen == -2) {
        QCOMPARE(refusalOf(read), std::make_pair(400, problem));
        return;
    }
    const auto &presence = std::get<SimulatedPresence>(read);
    QCOMPARE(presence.chosen.has_value(), chosen >= 0);
    if (presence.chosen)
        QCOMPARE(int(*presence.chosen), chosen);
}

void TestRequestContent::idList_data()
{
    QTest::addColumn<QStringList>("values");
    QTest::addColumn<QStringList>("ids");
    QTest::addColumn<int>("status"); // 0: read

    QTest::newRow("two") << QStringList { u"alice,bob"_s } << QStringList { u"alice"_s, u"bob"_s }
                         << 0;
    QTest::newRow("none") << QStringList { QString() } << QStringList() << 0;
    QTest::newRow("duplicates stay")
        << QStringList { u"bob,bob"_s } << QStringList { u"bob"_s, u"bob"_s } << 0;
    QTest::newRow("at the limit") << QStringList { u"a,b,c"_s }
                                  << QStringList { u"a"_s, u"b"_s, u"c"_s } << 0;
    QTest::newRow("missing") << QStringList() << QStringList() << 400;
    QTest::newRow("twice") << QStringList { u"a"_s, u"b"_s } << QStringList() << 400;
    QTest::newRow("over the limit") << QStringList { u"a,b,c,d"_s } << QStringList() << 413;
    QTest::newRow("only commas, over the limit")
        << QStringList { u",,,"_s } << QStringList() << 413;
    QTest::newRow("an empty id") << QStringList { u"a,,b"_s } << QStringList() << 400;
    QTest::newRow("an invalid id") << QStringList { u"a,b c"_s } << QStringList() << 400;
}

void TestRequestContent::idList()
{
    QFETCH(QStringList, values);
    QFETCH(QStringList, ids);
    QFETCH(int, status);
    const auto read = readIdList(values, 3);
    QCOMPARE(refusalOf(read).first, status);
    if (status == 0)
        QCOMPARE(std::get<QStringList>(read), ids);
}

void TestRequestContent::quotesAreCut()
{
    QCOMPARE(quotedFromRequest(QString(64, u'x')), QString(64, u'x'));
    QCOMPARE(quotedFromRequest(QString(65, u'x')), QString(64, u'x') + u"…"_s);
    const auto read = readIdList({ u"ok,"_s + QString(200, u'!') }, 3);
    QCOMPARE(refusalOf(read),
        std::make_pair(400,
            u"'%1…' is not a valid user id (1-64 of A-Z a-z 0-9 . _ -)"_s.arg(QString(64, u'!'))));
}

QTEST_GUILESS_MAIN(TestRequestContent)
#include "tst_request_content.moc"
