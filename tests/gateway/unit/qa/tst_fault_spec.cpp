// FaultSpec, a fault a scenario step or the admin API starts: the kinds' names, the JSON of each
// kind both ways, the limits, and refusals that name the field (docs/scenarios.md).

// Qt
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

// Presence
#include "server-mock/qa/FaultSpec.h"

using namespace Qt::StringLiterals;
using namespace Presence::Server;

// QCOMPARE shows faults as compact JSON when they differ.
char *toString(const QJsonObject &object)
{
    return qstrdup(QJsonDocument(object).toJson(QJsonDocument::Compact).constData());
}

namespace {

QJsonObject objectOf(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object();
}

} // namespace

class TestFaultSpec : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void faultKindNames();
    void faultRoundTrips_data();
    void faultRoundTrips();
    void faultLimitsAccepted_data();
    void faultLimitsAccepted();
    void refusesBadFault_data();
    void refusesBadFault();
};

void TestFaultSpec::faultKindNames()
{
    const QList<std::pair<FaultKind, QString>> names {
        { FaultKind::Drop, u"drop"_s },
        { FaultKind::Close, u"close"_s },
        { FaultKind::Delay, u"delay"_s },
        { FaultKind::Stall, u"stall"_s },
        { FaultKind::Duplicate, u"duplicate"_s },
        { FaultKind::Reorder, u"reorder"_s },
        { FaultKind::Lose, u"lose"_s },
        { FaultKind::Refuse, u"refuse"_s },
        { FaultKind::Crash, u"crash"_s },
    };
    for (const auto &[kind, name] : names) {
        QCOMPARE(toString(kind), name);
        QVERIFY(faultKindFromString(name) == kind);
    }
    QVERIFY(!faultKindFromString(u"Drop")); // case matters, as in JSON
    QVERIFY(!faultKindFromString(u""));
    QVERIFY(!faultKindFromString(u"explode"));
}

void TestFaultSpec::faultRoundTrips_data()
{
    QTest::addColumn<QByteArray>("json");

    QTest::addRow("drop everyone") << R"({"kind": "drop"})"_ba;
    QTest::addRow("drop one user") << R"({"kind": "drop", "user": "alice"})"_ba;
    QTest::addRow("close, code only") << R"({"kind": "close", "code": 1000})"_ba;
    QTest::addRow("close, every field")
        << R"({"kind": "close", "user": "bob", "code": 4003, "reason": "heartbeat lost"})"_ba;
    QTest::addRow("delay everyone") << R"({"kind": "delay", "ms": 60000})"_ba;
    QTest::addRow("delay one user") << R"({"kind": "delay", "user": "u.1", "ms": 1})"_ba;
    QTest::addRow("stall") << R"({"kind": "stall", "user": "carol"})"_ba;
    QTest::addRow("duplicate") << R"({"kind": "duplicate", "user": "dave"})"_ba;
    QTest::addRow("reorder") << R"({"kind": "reorder", "user": "eve"})"_ba;
    QTest::addRow("refuse, whole seconds") << R"({"kind": "refuse", "seconds": 3600})"_ba;
    QTest::addRow("refuse, fraction") << R"({"kind": "refuse", "seconds": 0.125})"_ba;
    QTest::addRow("crash") << R"({"kind": "crash"})"_ba;
}

void TestFaultSpec::faultRoundTrips()
{
    QFETCH(QByteArray, json);
    const QJsonObject original = objectOf(json);
    QVERIFY(!original.isEmpty());

    QString error;
    const auto spec = FaultSpec::fromJson(original, &error);
    QVERIFY2(spec, qPrintable(error));
    QCOMPARE(spec->toJson(), original);
    const auto again = FaultSpec::fromJson(spec->toJson(), &error);
    QVERIFY2(again, qPrintable(error));
    QVERIFY(*again == *spec);
}

void TestFaultSpec::faultLimitsAccepted_data()
{
    QTest::addColumn<QByteArray>("json");

    for (const int code : { 1000, 1003, 1007, 1011, 3000, 4999 })
        QTest::addRow("close code %d", code)
            << R"({"kind": "close", "code": )"_ba + QByteArray::number(code) + "}"_ba;
    // 123 bytes: 61 two-byte letters and one ASCII one.
    QTest::addRow("reason of 123 bytes") << R"({"kind": "close", "code": 1001, "reason": ")"_ba
            + QString(61, u'é').toUtf8() + "x\"}"_ba;
    QTest::addRow("empty reason") << R"({"kind": "close", "code": 1001, "reason": ""})"_ba;
    QTest::addRow("code written as 1000.0") << R"({"kind": "close", "code": 1000.0})"_ba;
    QTest::addRow("refuse a millisecond") << R"({"kind": "refuse", "seconds": 0.001})"_ba;
    QTest::addRow("longest id") << R"({"kind": "stall", "user": ")"_ba + QByteArray(64, 'u')
            + "\"}"_ba;
}

void TestFaultSpec::faultLimitsAccepted()
{
    QFETCH(QByteArray, json);
    QString error;
    const auto spec = FaultSpec::fromJson(objectOf(json), &error);
    QVERIFY2(spec, qPrintable(error));
}

void TestFaultSpec::refusesBadFault_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("expected");

    const QString kinds = u"drop, close, delay, stall, duplicate, reorder, lose, refuse, crash"_s;
    const QString badCode = u"field 'code' must be a close code a server may send: 1000-1003, "
                            "1007-1011 or 3000-4999"_s;
    const QString badUser
        = u"field 'user' must be a user id (1-64 characters of A-Z a-z 0-9 . _ -)"_s;

    QTest::addRow("empty object") << "{}"_ba << u"field 'kind' is missing"_s;
    QTest::addRow("unknown kind") << R"({"kind": "explode"})"_ba
                                  << u"field 'kind' must be one of "_s + kinds;
    QTest::addRow("kind in capitals")
        << R"({"kind": "DROP"})"_ba << u"field 'kind' must be one of "_s + kinds;
    QTest::addRow("kind not a string")
        << R"({"kind": 1})"_ba << u"field 'kind' must be one of "_s + kinds;
    QTest::addRow("misspelt field") << R"({"kind": "drop", "usr": "alice"})"_ba
                                    << u"unknown field 'usr' (a drop fault takes 'kind', 'user')"_s;
    QTest::addRow("field of another kind")
        << R"({"kind": "delay", "ms": 5, "code": 1000})"_ba
        << u"unknown field 'code' (a delay fault takes 'kind', 'user', 'ms')"_s;
    QTest::addRow("crash takes nothing") << R"({"kind": "crash", "user": "alice"})"_ba
                                         << u"unknown field 'user' (a crash fault takes 'kind')"_s;
    QTest::addRow("refuse has no user")
        << R"({"kind": "refuse", "seconds": 1, "user": "a"})"_ba
        << u"unknown field 'user' (a refuse fault takes 'kind', 'seconds')"_s;
    QTest::addRow("bad user id") << R"({"kind": "drop", "user": "al ice"})"_ba << badUser;
    QTest::addRow("user too long")
        << R"({"kind": "drop", "user": ")"_ba + QByteArray(65, 'u') + "\"}"_ba << badUser;
    QTest::addRow("user not a string") << R"({"kind": "drop", "user": 7})"_ba << badUser;
    QTest::addRow("close without code")
        << R"({"kind": "close"})"_ba << u"field 'code' is missing"_s;
    for (const int code : { 0, 999, 1004, 1005, 1006, 1012, 1014, 1015, 1016, 2999, 5000, 65535 })
        QTest::addRow("close code %d", code)
            << R"({"kind": "close", "code": )"_ba + QByteArray::number(code) + "}"_ba << badCode;
    QTest::addRow("close code fraction") << R"({"kind": "close", "code": 1000.5})"_ba << badCode;
    QTest::addRow("close code string") << R"({"kind": "close", "code": "1000"})"_ba << badCode;
    QTest::addRow("close code huge") << R"({"kind": "close", "code": 1e300})"_ba << badCode;
    // 124 bytes in 62 characters: the limit is on bytes, not characters.
    QTest::addRow("reason of 124 bytes") << R"({"kind": "close", "code": 1000, "reason": ")"_ba
            + QString(62, u'é').toUtf8()
            + "\"}"_ba << u"field 'reason' must be at most 123 bytes in UTF-8 (it has 124)"_s;
    QTest::addRow("reason not a string") << R"({"kind": "close", "code": 1000, "reason": 5})"_ba
                                         << u"field 'reason' must be a string"_s;
    QTest::addRow("delay without ms") << R"({"kind": "delay"})"_ba << u"field 'ms' is missing"_s;
    const QString badMs = u"field 'ms' must be an integer from 1 to 60000"_s;
    QTest::addRow("delay 0 ms") << R"({"kind": "delay", "ms": 0})"_ba << badMs;
    QTest::addRow("delay 60001 ms") << R"({"kind": "delay", "ms": 60001})"_ba << badMs;
    QTest::addRow("delay 1.5 ms") << R"({"kind": "delay", "ms": 1.5})"_ba << badMs;
    QTest::addRow("delay ms as string") << R"({"kind": "delay", "ms": "5"})"_ba << badMs;
    for (const char *kind : { "stall", "duplicate", "reorder", "lose" })
        QTest::addRow("%s without user", kind)
            << R"({"kind": ")"_ba + kind + "\"}"_ba << u"field 'user' is missing"_s;
    const QString badSeconds = u"field 'seconds' must be a number of seconds above 0 and at most "
                               "3600"_s;
    QTest::addRow("refuse without seconds")
        << R"({"kind": "refuse"})"_ba << u"field 'seconds' is missing"_s;
    QTest::addRow("refuse 0 s") << R"({"kind": "refuse", "seconds": 0})"_ba << badSeconds;
    QTest::addRow("refuse -1 s") << R"({"kind": "refuse", "seconds": -1})"_ba << badSeconds;
    QTest::addRow("refuse 3600.5 s") << R"({"kind": "refuse", "seconds": 3600.5})"_ba << badSeconds;
    QTest::addRow("refuse \"5\" s") << R"({"kind": "refuse", "seconds": "5"})"_ba << badSeconds;
}

void TestFaultSpec::refusesBadFault()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, expected);
    const QJsonObject object = objectOf(json);
    QVERIFY(QJsonDocument::fromJson(json).isObject());

    QString error;
    QVERIFY(!FaultSpec::fromJson(object, &error));
    QCOMPARE(error, expected);
    QVERIFY(!FaultSpec::fromJson(object, nullptr));
}

QTEST_GUILESS_MAIN(TestFaultSpec)
#include "tst_fault_spec.moc"
