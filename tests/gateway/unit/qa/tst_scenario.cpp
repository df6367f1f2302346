// Scenario, the file of presence-mock-server --scenario: every step, the time syntax, the order
// of steps, and refusals that name the line and the field (docs/scenarios.md). The faults its
// steps start are FaultSpec's (tst_fault_spec).

// C++
#include <optional>

// Qt
#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

// Presence
#include "server-mock/qa/FaultSpec.h"
#include "server-mock/qa/Scenario.h"

using namespace Qt::StringLiterals;
using namespace Presence::Server;
using namespace std::chrono_literals;
using Presence::Protocol::ChosenStatus;
using Action = Scenario::Step::Action;

namespace {

std::optional<Scenario> parseText(const QByteArray &text, QString *error)
{
    return Scenario::parse(text, u"scenario.jsonl"_s, error);
}

// Writes `contents` to dir/name and returns the file's path (empty on failure).
QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &contents)
{
    QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(contents) != contents.size())
        return {};
    return path;
}

// One log step per line at the given time: the smallest valid line.
QByteArray logLine(const QByteArray &at, const QByteArray &text = "x"_ba)
{
    return R"({"at": )"_ba + at + R"(, "do": "log", "text": ")"_ba + text + "\"}\n"_ba;
}

// A scenario with the given lines after a first valid step, so that a bad line is line 2.
QByteArray afterOneStep(const QByteArray &lines)
{
    return logLine("0") + lines;
}

} // namespace

class TestScenario : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void parsesEveryStep();
    void timeSyntax_data();
    void timeSyntax();
    void sortsByTimeKeepingFileOrder();
    void commentsAndBlankLines();
    void faultIdsCanBeReusedOnceEnded();
    void userIdsInOrderOfFirstMention();
    void lengthCountsFaultEnds();
    void refusesBadLine_data();
    void refusesBadLine();
    void refusesMalformedJson_data();
    void refusesMalformedJson();
    void refusesEmptyScenario();
    void stepLimit();
    void lineLengthLimit();
    void sizeLimit();
    void loadsFile();
    void loadReportsFileProblems();
    void loadReportsUnreadableFile();
    void nullErrorPointerIsAllowed();
    void documentedExamplesParse();
};

void TestScenario::parsesEveryStep()
{
    const QByteArray text = R"(# Every step once, every fault kind once.
{"at": 0, "do": "log", "text": "start: «QA» note"}
{"at": "100ms", "do": "connect", "user": "alice", "device": "laptop"}
{"at": "200ms", "do": "connect", "user": "alice", "device": "phone-2", "status": "away"}
{"at": "300ms", "do": "connect", "user": "bob", "device": "b.1", "status": "invisible"}
{"at": "400ms", "do": "online", "user": "carol"}
{"at": "500ms", "do": "away", "user": "carol"}
{"at": "600ms", "do": "invisible", "user": "dave"}
{"at": "700ms", "do": "offline", "user": "dave"}
{"at": "800ms", "do": "disconnect", "user": "alice", "device": "phone-2"}
{"at": "1s", "do": "fault", "id": "drop-all", "fault": {"kind": "drop"}}
{"at": "2s", "do": "fault", "id": "close-bob", "fault": {"kind": "close", "user": "bob", "code": 4001, "reason": "bye"}, "for": "500ms"}
{"at": "3s", "do": "fault", "id": "slow", "fault": {"kind": "delay", "ms": 250}, "for": 2000}
{"at": "4s", "do": "fault", "id": "stall_a", "fault": {"kind": "stall", "user": "alice"}}
{"at": "5s", "do": "fault", "id": "dup", "fault": {"kind": "duplicate", "user": "carol"}}
{"at": "6s", "do": "fault", "id": "mix", "fault": {"kind": "reorder", "user": "carol"}}
{"at": "7s", "do": "fault", "id": "no-entry", "fault": {"kind": "refuse", "seconds": 2.5}}
{"at": "8s", "do": "end_fault", "id": "drop-all"}
{"at": "1m", "do": "fault", "id": "boom", "fault": {"kind": "crash"}}
)"_ba;
    QString error;
    const auto scenario = parseText(text, &error);
    QVERIFY2(scenario, qPrintable(error));
    const QList<Scenario::Step> &steps = scenario->steps();
    QCOMPARE(steps.size(), 18);
    for (int i = 0; i < steps.size(); ++i)
        QCOMPARE(steps.at(i).line, i + 2);

    QCOMPARE(steps.at(0).action, Action::Log);
    QCOMPARE(steps.at(0).at, 0ms);
    QCOMPARE(steps.at(0).text, u"start: «QA» note"_s);

    QCOMPARE(steps.at(1).action, Action::Connect);
    QCOMPARE(steps.at(1).at, 100ms);
    QCOMPARE(steps.at(1).user, u"alice"_s);
    QCOMPARE(steps.at(1).device, u"laptop"_s);
    QCOMPARE(toString(steps.at(1).status), toString(ChosenStatus::Online)); // the default
    QCOMPARE(steps.at(2).device, u"phone-2"_s);
    QCOMPARE(toString(steps.at(2).status), toString(ChosenStatus::Away));
    QCOMPARE(steps.at(3).user, u"bob"_s);
    QCOMPARE(steps.at(3).device, u"b.1"_s);
    QCOMPARE(toString(steps.at(3).status), toString(ChosenStatus::Invisible));

    QCOMPARE(steps.at(4).action, Action::SetStatus);
    QCOMPARE(steps.at(4).user, u"carol"_s);
    QCOMPARE(toString(steps.at(4).status), toString(ChosenStatus::Online));
    QCOMPARE(steps.at(5).action, Action::SetStatus);
    QCOMPARE(toString(steps.at(5).status), toString(ChosenStatus::Away));
    QCOMPARE(steps.at(6).action, Action::SetStatus);
    QCOMPARE(steps.at(6).user, u"dave"_s);
    QCOMPARE(toString(steps.at(6).status), toString(ChosenStatus::Invisible));
    QCOMPARE(steps.at(7).action, Action::Offline);
    QCOMPARE(steps.at(7).user, u"dave"_s);

    QCOMPARE(steps.at(8).action, Action::Disconnect);
    QCOMPARE(steps.at(8).at, 800ms);
    QCOMPARE(steps.at(8).user, u"alice"_s);
    QCOMPARE(steps.at(8).device, u"phone-2"_s);

    const auto checkFault = [&](int index, const QString &id, FaultKind kind) {
        const Scenario::Step &step = steps.at(index);
        QCOMPARE(step.action, Action::StartFault);
        QCOMPARE(step.faultId, id);
        QCOMPARE(toString(step.fault.kind), toString(kind));
    };
    checkFault(9, u"drop-all"_s, FaultKind::Drop);
    QCOMPARE(steps.at(9).at, 1s);
    QCOMPARE(steps.at(9).fault.user, QString());
    QCOMPARE(steps.at(9).faultFor, std::nullopt);
    checkFault(10, u"close-bob"_s, FaultKind::Close);
    QCOMPARE(steps.at(10).fault.user, u"bob"_s);
    QCOMPARE(steps.at(10).fault.code, quint16(4001));
    QCOMPARE(steps.at(10).fault.reason, u"bye"_s);
    QCOMPARE(steps.at(10).faultFor, std::optional(500ms));
    checkFault(11, u"slow"_s, FaultKind::Delay);
    QCOMPARE(steps.at(11).fault.delay, 250ms);
    QCOMPARE(steps.at(11).fault.user, QString());
    QCOMPARE(steps.at(11).faultFor, std::optional(2000ms));
    checkFault(12, u"stall_a"_s, FaultKind::Stall);
    QCOMPARE(steps.at(12).fault.user, u"alice"_s);
    checkFault(13, u"dup"_s, FaultKind::Duplicate);
    QCOMPARE(steps.at(13).fault.user, u"carol"_s);
    checkFault(14, u"mix"_s, FaultKind::Reorder);
    QCOMPARE(steps.at(14).fault.user, u"carol"_s);
    checkFault(15, u"no-entry"_s, FaultKind::Refuse);
    QCOMPARE(steps.at(15).fault.refuseFor.count(), 2.5);

    QCOMPARE(steps.at(16).action, Action::EndFault);
    QCOMPARE(steps.at(16).faultId, u"drop-all"_s);
    QCOMPARE(steps.at(16).at, 8s);

    checkFault(17, u"boom"_s, FaultKind::Crash);
    QCOMPARE(steps.at(17).at, 1min);
    QCOMPARE(scenario->length(), 1min);
}

void TestScenario::timeSyntax_data()
{
    QTest::addColumn<QByteArray>("at");
    QTest::addColumn<qint64>("ms");

    QTest::addRow("0") << "0"_ba << qint64(0);
    QTest::addRow("1500") << "1500"_ba << qint64(1500);
    QTest::addRow("1500.0") << "1500.0"_ba << qint64(1500);
    QTest::addRow("the last millisecond") << "86400000"_ba << qint64(86'400'000);
    QTest::addRow("\"0ms\"") << R"("0ms")"_ba << qint64(0);
    QTest::addRow("\"250ms\"") << R"("250ms")"_ba << qint64(250);
    QTest::addRow("\"1s\"") << R"("1s")"_ba << qint64(1000);
    QTest::addRow("\"1.5s\"") << R"("1.5s")"_ba << qint64(1500);
    QTest::addRow("\"0.001s\"") << R"("0.001s")"_ba << qint64(1);
    QTest::addRow("\"1.2500s\"") << R"("1.2500s")"_ba << qint64(1250);
    QTest::addRow("\"007s\"") << R"("007s")"_ba << qint64(7000);
    QTest::addRow("\"2m\"") << R"("2m")"_ba << qint64(120'000);
    QTest::addRow("\"0.5m\"") << R"("0.5m")"_ba << qint64(30'000);
    QTest::addRow("\"1h\"") << R"("1h")"_ba << qint64(3'600'000);
    // A long fraction can still be whole milliseconds: 0.0000025 h is 9 ms.
    QTest::addRow("\"0.0000025h\"") << R"("0.0000025h")"_ba << qint64(9);
    QTest::addRow("\"24h\"") << R"("24h")"_ba << qint64(86'400'000);
    QTest::addRow("\"1440m\"") << R"("1440m")"_ba << qint64(86'400'000);
    QTest::addRow("\"86400000ms\"") << R"("86400000ms")"_ba << qint64(86'400'000);
}

void TestScenario::timeSyntax()
{
    QFETCH(QByteArray, at);
    QFETCH(qint64, ms);
    QString error;
    const auto scenario = parseText(logLine(at), &error);
    QVERIFY2(scenario, qPrintable(error));
    QCOMPARE(scenario->steps().constFirst().at.count(), ms);

    // "for" takes the same syntax.
    const QByteArray fault
        = R"({"at": 0, "do": "fault", "id": "f", "fault": {"kind": "crash"}, "for": )"_ba + at
        + "}"_ba;
    const auto withFor = parseText(fault, &error);
    if (ms == 0) {
        QVERIFY(!withFor);
        QCOMPARE(error, u"scenario.jsonl:1: field 'for' must be longer than 0"_s);
    } else {
        QVERIFY2(withFor, qPrintable(error));
        QCOMPARE(
            withFor->steps().constFirst().faultFor, std::optional(std::chrono::milliseconds(ms)));
    }
}

void TestScenario::sortsByTimeKeepingFileOrder()
{
    const QByteArray text = logLine(R"("2s")", "c") + logLine("1000", "a") + logLine("0", "first")
        + logLine(R"("1s")", "b") + logLine(R"("0.5s")", "half") + logLine("1000.0", "b2")
        + logLine(R"("1000ms")", "b3");
    QString error;
    const auto scenario = parseText(text, &error);
    QVERIFY2(scenario, qPrintable(error));
    QStringList texts;
    QList<int> lines;
    for (const Scenario::Step &step : scenario->steps()) {
        texts.append(step.text);
        lines.append(step.line);
    }
    QCOMPARE(
        texts, (QStringList { u"first"_s, u"half"_s, u"a"_s, u"b"_s, u"b2"_s, u"b3"_s, u"c"_s }));
    QCOMPARE(lines, (QList<int> { 3, 5, 2, 4, 6, 7, 1 }));
    QCOMPARE(scenario->length(), 2s);

    // Enough steps that an unstable sort would mix up equal times: 300 steps over 7 times.
    QByteArray many;
    for (int i = 0; i < 300; ++i)
        many += logLine(QByteArray::number((i * 5) % 7 * 1000), QByteArray::number(i));
    const auto large = parseText(many, &error);
    QVERIFY2(large, qPrintable(error));
    QCOMPARE(large->steps().size(), 300);
    for (qsizetype i = 1; i < large->steps().size(); ++i) {
        const Scenario::Step &before = large->steps().at(i - 1);
        const Scenario::Step &after = large->steps().at(i);
        QVERIFY(before.at <= after.at);
        if (before.at == after.at)
            QVERIFY2(before.line < after.line,
                qPrintable(u"lines %1, %2"_s.arg(before.line).arg(after.line)));
        QCOMPARE(after.text, QString::number(after.line - 1));
    }
}

void TestScenario::commentsAndBlankLines()
{
    // Windows line ends, indented comments, blank and whitespace-only lines, no final line end.
    const QByteArray text = "# a comment\r\n"
                            "\r\n"
                            "   # an indented comment with {\"json\": 1}\n"
                            " \t \n"
                            "\n"
                            "  {\"at\": 5, \"do\": \"log\", \"text\": \"one\"}  \r\n"
                            "#{\"at\": 6, \"do\": \"log\", \"text\": \"commented out\"}\n"
                            "{\"at\": 7, \"do\": \"log\", \"text\": \"two\"}"_ba;
    QString error;
    const auto scenario = parseText(text, &error);
    QVERIFY2(scenario, qPrintable(error));
    QCOMPARE(scenario->steps().size(), 2);
    QCOMPARE(scenario->steps().at(0).line, 6);
    QCOMPARE(scenario->steps().at(0).text, u"one"_s);
    QCOMPARE(scenario->steps().at(1).line, 8);
    QCOMPARE(scenario->steps().at(1).text, u"two"_s);

    // A byte order mark before the first line, here a comment, is not part of it.
    const auto withMark = parseText("\xEF\xBB\xBF"_ba + text, &error);
    QVERIFY2(withMark, qPrintable(error));
    QCOMPARE(withMark->steps().size(), 2);

    // Comments and blank lines still count for the line number of an error.
    QVERIFY(!parseText(text + "\n\n# last\n{\"at\": 8}\n"_ba, &error));
    QCOMPARE(error, u"scenario.jsonl:11: field 'do' is missing"_s);
}

void TestScenario::faultIdsCanBeReusedOnceEnded()
{
    // Ended by end_fault, by its own "for", and by "for" at the very time of the next start.
    const QByteArray text = R"({"at": "1s", "do": "fault", "id": "f", "fault": {"kind": "drop"}}
{"at": "2s", "do": "end_fault", "id": "f"}
{"at": "3s", "do": "fault", "id": "f", "fault": {"kind": "crash"}, "for": "1s"}
{"at": "4s", "do": "fault", "id": "f", "fault": {"kind": "refuse", "seconds": 1}, "for": "2s"}
{"at": "7s", "do": "fault", "id": "f", "fault": {"kind": "stall", "user": "a"}}
{"at": "8s", "do": "end_fault", "id": "f"}
)"_ba;
    QString error;
    const auto scenario = parseText(text, &error);
    QVERIFY2(scenario, qPrintable(error));
    QCOMPARE(scenario->steps().size(), 6);

    // Equal times keep file order, so a start then an end at the same time is fine.
    const QByteArray sameTime = R"({"at": "1s", "do": "fault", "id": "g", "fault": {"kind": "drop"}}
{"at": "1s", "do": "end_fault", "id": "g"}
)"_ba;
    QVERIFY2(parseText(sameTime, &error), qPrintable(error));
}

void TestScenario::userIdsInOrderOfFirstMention()
{
    // In file order (not time order), each once, fault users included, faults without one not.
    const QByteArray text = R"({"at": "9s", "do": "online", "user": "zed"}
{"at": "1s", "do": "connect", "user": "amy", "device": "d"}
{"at": "2s", "do": "fault", "id": "f", "fault": {"kind": "drop"}}
{"at": "3s", "do": "fault", "id": "g", "fault": {"kind": "stall", "user": "kim"}}
{"at": "4s", "do": "disconnect", "user": "amy", "device": "d"}
{"at": "5s", "do": "offline", "user": "zed"}
{"at": "6s", "do": "fault", "id": "h", "fault": {"kind": "close", "code": 1000, "user": "bo"}}
{"at": "7s", "do": "log", "text": "amy"}
)"_ba;
    QString error;
    const auto scenario = parseText(text, &error);
    QVERIFY2(scenario, qPrintable(error));
    QCOMPARE(scenario->userIds(), (QStringList { u"zed"_s, u"amy"_s, u"kim"_s, u"bo"_s }));
}

void TestScenario::lengthCountsFaultEnds()
{
    QString error;
    auto scenario = parseText(
        R"({"at": "10s", "do": "fault", "id": "f", "fault": {"kind": "drop"}, "for": "1m"}
{"at": "20s", "do": "log", "text": "x"}
)"_ba,
        &error);
    QVERIFY2(scenario, qPrintable(error));
    QCOMPARE(scenario->length(), 70s);

    scenario = parseText(logLine(R"("1.5s")"), &error);
    QVERIFY2(scenario, qPrintable(error));
    QCOMPARE(scenario->length(), 1500ms);
}

void TestScenario::refusesBadLine_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("expected");

    const QString timeSyntax = u"must be a time: milliseconds as an integer, or a number with a "
                               "unit ms, s, m or h such as \"250ms\", \"1.5s\" or \"2m\""_s;
    const QString verbs
        = u"online, away, invisible, offline, connect, disconnect, fault, end_fault, log"_s;
    const auto row = [](const char *name, const QByteArray &text, const QString &expected) {
        QTest::newRow(name) << text << u"scenario.jsonl:"_s + expected;
    };

    // Malformed lines (malformed JSON: refusesMalformedJson).
    row("array", afterOneStep(R"([{"at": 1, "do": "log", "text": "x"}])"_ba),
        u"2: a step must be a JSON object {...} on one line"_s);
    row("string", afterOneStep(R"("log")"_ba),
        u"2: a step must be a JSON object {...} on one line"_s);
    row("number", afterOneStep("42"_ba), u"2: a step must be a JSON object {...} on one line"_s);

    // The action.
    row("missing do", afterOneStep(R"({"at": 1, "user": "a"})"_ba), u"2: field 'do' is missing"_s);
    row("unknown do", afterOneStep(R"({"at": 1, "do": "jump", "user": "a"})"_ba),
        u"2: field 'do' must be one of "_s + verbs);
    row("do in capitals", afterOneStep(R"({"at": 1, "do": "Online", "user": "a"})"_ba),
        u"2: field 'do' must be one of "_s + verbs);
    row("do not a string", afterOneStep(R"({"at": 1, "do": 1})"_ba),
        u"2: field 'do' must be a string"_s);

    // Unknown fields, reported before anything else about the step.
    row("misspelt user", afterOneStep(R"({"at": 1, "do": "online", "usr": "a"})"_ba),
        u"2: unknown field 'usr' (an \"online\" step takes 'at', 'do', 'user')"_s);
    row("device on a status step",
        afterOneStep(R"({"at": 1, "do": "away", "user": "a", "device": "d"})"_ba),
        u"2: unknown field 'device' (an \"away\" step takes 'at', 'do', 'user')"_s);
    row("status on disconnect",
        afterOneStep(
            R"({"at": 1, "do": "disconnect", "user": "a", "device": "d", "status": "away"})"_ba),
        u"2: unknown field 'status' (a \"disconnect\" step takes 'at', 'do', 'user', 'device')"_s);
    row("duration instead of for",
        afterOneStep(
            R"({"at": 1, "do": "fault", "id": "f", "fault": {"kind": "crash"}, "duration": "1s"})"_ba),
        u"2: unknown field 'duration' (a \"fault\" step takes 'at', 'do', 'id', 'fault', 'for')"_s);
    row("for on end_fault", afterOneStep(R"({"at": 1, "do": "end_fault", "id": "f", "for": 1})"_ba),
        u"2: unknown field 'for' (an \"end_fault\" step takes 'at', 'do', 'id')"_s);
    row("user on log", afterOneStep(R"({"at": 1, "do": "log", "text": "x", "user": "a"})"_ba),
        u"2: unknown field 'user' (a \"log\" step takes 'at', 'do', 'text')"_s);

    // Missing fields.
    row("missing at", afterOneStep(R"({"do": "log", "text": "x"})"_ba),
        u"2: field 'at' is missing"_s);
    row("missing user", afterOneStep(R"({"at": 1, "do": "invisible"})"_ba),
        u"2: field 'user' is missing"_s);
    row("missing device", afterOneStep(R"({"at": 1, "do": "connect", "user": "a"})"_ba),
        u"2: field 'device' is missing"_s);
    row("missing id", afterOneStep(R"({"at": 1, "do": "fault", "fault": {"kind": "crash"}})"_ba),
        u"2: field 'id' is missing"_s);
    row("missing fault", afterOneStep(R"({"at": 1, "do": "fault", "id": "f"})"_ba),
        u"2: field 'fault' is missing"_s);
    row("missing text", afterOneStep(R"({"at": 1, "do": "log"})"_ba),
        u"2: field 'text' is missing"_s);

    // Wrong types and bad ids.
    const QString idRule = u"(1-64 characters of A-Z a-z 0-9 . _ -)"_s;
    row("user a number", afterOneStep(R"({"at": 1, "do": "offline", "user": 12})"_ba),
        u"2: field 'user' must be a user id "_s + idRule);
    row("user with a space", afterOneStep(R"({"at": 1, "do": "online", "user": "a b"})"_ba),
        u"2: field 'user' must be a user id "_s + idRule);
    row("user empty", afterOneStep(R"({"at": 1, "do": "online", "user": ""})"_ba),
        u"2: field 'user' must be a user id "_s + idRule);
    row("user of 65 characters",
        afterOneStep(R"({"at": 1, "do": "online", "user": ")"_ba + QByteArray(65, 'u') + "\"}"_ba),
        u"2: field 'user' must be a user id "_s + idRule);
    row("device with a slash",
        afterOneStep(R"({"at": 1, "do": "connect", "user": "a", "device": "a/b"})"_ba),
        u"2: field 'device' must be a device id "_s + idRule);
    row("fault id with a colon",
        afterOneStep(R"({"at": 1, "do": "fault", "id": "f:1", "fault": {"kind": "crash"}})"_ba),
        u"2: field 'id' must be a fault id "_s + idRule);
    row("end_fault id not a string",
        afterOneStep(R"({"at": 1, "do": "end_fault", "id": ["f"]})"_ba),
        u"2: field 'id' must be a fault id "_s + idRule);
    row("bad status",
        afterOneStep(
            R"({"at": 1, "do": "connect", "user": "a", "device": "d", "status": "offline"})"_ba),
        u"2: field 'status' must be online, away or invisible"_s);
    row("status not a string",
        afterOneStep(R"({"at": 1, "do": "connect", "user": "a", "device": "d", "status": 1})"_ba),
        u"2: field 'status' must be online, away or invisible"_s);
    row("fault not an object",
        afterOneStep(R"({"at": 1, "do": "fault", "id": "f", "fault": "drop"})"_ba),
        u"2: field 'fault' must be an object"_s);
    row("text not a string", afterOneStep(R"({"at": 1, "do": "log", "text": 5})"_ba),
        u"2: field 'text' must be a string"_s);

    // The fault inside a step.
    row("bad close code",
        afterOneStep(
            R"({"at": 1, "do": "fault", "id": "c1", "fault": {"kind": "close", "code": 1006}})"_ba),
        u"2: fault \"c1\": field 'code' must be a close code a server may send: 1000-1003, "
        "1007-1011 or 3000-4999"_s);
    row("reason too long",
        afterOneStep(
            R"({"at": 1, "do": "fault", "id": "c2", "fault": {"kind": "close", "code": 4000, "reason": ")"_ba
            + QByteArray(124, 'r') + "\"}}"_ba),
        u"2: fault \"c2\": field 'reason' must be at most 123 bytes in UTF-8 (it has 124)"_s);
    row("unknown field in fault",
        afterOneStep(
            R"({"at": 1, "do": "fault", "id": "s", "fault": {"kind": "stall", "user": "a", "for": "1s"}})"_ba),
        u"2: fault \"s\": unknown field 'for' (a stall fault takes 'kind', 'user')"_s);
    row("fault user bad",
        afterOneStep(
            R"({"at": 1, "do": "fault", "id": "s", "fault": {"kind": "reorder", "user": "é"}})"_ba),
        u"2: fault \"s\": field 'user' must be a user id "_s + idRule);

    // Times.
    row("at abc", afterOneStep(logLine(R"("abc")")), u"2: field 'at' "_s + timeSyntax);
    row("at without unit", afterOneStep(logLine(R"("5")")), u"2: field 'at' "_s + timeSyntax);
    row("at with a space", afterOneStep(logLine(R"("1 s")")), u"2: field 'at' "_s + timeSyntax);
    row("at in capitals", afterOneStep(logLine(R"("1S")")), u"2: field 'at' "_s + timeSyntax);
    row("at unit only", afterOneStep(logLine(R"("s")")), u"2: field 'at' "_s + timeSyntax);
    row("at .5s", afterOneStep(logLine(R"(".5s")")), u"2: field 'at' "_s + timeSyntax);
    row("at 1.s", afterOneStep(logLine(R"("1.s")")), u"2: field 'at' "_s + timeSyntax);
    row("at in days", afterOneStep(logLine(R"("1d")")), u"2: field 'at' "_s + timeSyntax);
    row("at +1s", afterOneStep(logLine(R"("+1s")")), u"2: field 'at' "_s + timeSyntax);
    row("at 1e3ms", afterOneStep(logLine(R"("1e3ms")")), u"2: field 'at' "_s + timeSyntax);
    row("at true", afterOneStep(logLine("true")), u"2: field 'at' "_s + timeSyntax);
    row("at null", afterOneStep(logLine("null")), u"2: field 'at' "_s + timeSyntax);
    row("at -1", afterOneStep(logLine("-1")), u"2: field 'at' must not be negative"_s);
    row("at \"-1s\"", afterOneStep(logLine(R"("-1s")")), u"2: field 'at' must not be negative"_s);
    row("at 1.5", afterOneStep(logLine("1.5")),
        u"2: field 'at' must be a whole number of milliseconds"_s);
    row("at \"1.5ms\"", afterOneStep(logLine(R"("1.5ms")")),
        u"2: field 'at' must be a whole number of milliseconds"_s);
    row("at \"0.0001s\"", afterOneStep(logLine(R"("0.0001s")")),
        u"2: field 'at' must be a whole number of milliseconds"_s);
    row("at \"1.0000000000001s\"", afterOneStep(logLine(R"("1.0000000000001s")")),
        u"2: field 'at' must be a whole number of milliseconds"_s);
    const QString tooLate = u"2: field 'at' must be at most 24h (86400000 ms)"_s;
    row("at 86400001", afterOneStep(logLine("86400001")), tooLate);
    row("at 1e300", afterOneStep(logLine("1e300")), tooLate);
    row("at \"24.001h\"", afterOneStep(logLine(R"("24.001h")")), tooLate);
    row("at \"25h\"", afterOneStep(logLine(R"("25h")")), tooLate);
    row("at \"86400001ms\"", afterOneStep(logLine(R"("86400001ms")")), tooLate);
    row("at of 30 digits", afterOneStep(logLine(R"("123456789012345678901234567890s")")), tooLate);
    row("for abc",
        afterOneStep(
            R"({"at": 1, "do": "fault", "id": "f", "fault": {"kind": "crash"}, "for": "abc"})"_ba),
        u"2: field 'for' "_s + timeSyntax);
    row("for 0",
        afterOneStep(
            R"({"at": 1, "do": "fault", "id": "f", "fault": {"kind": "crash"}, "for": "0s"})"_ba),
        u"2: field 'for' must be longer than 0"_s);
    row("for 25h",
        afterOneStep(
            R"({"at": 1, "do": "fault", "id": "f", "fault": {"kind": "crash"}, "for": "25h"})"_ba),
        u"2: field 'for' must be at most 24h (86400000 ms)"_s);

    // Fault ids over time: the line named is the step at fault.
    row("end_fault of an unknown id",
        logLine("0") + logLine("1") + R"({"at": "3s", "do": "end_fault", "id": "ghost"})"_ba,
        u"3: fault \"ghost\" is not started by any step before 3s"_s);
    row("end_fault before its start",
        R"({"at": "5s", "do": "fault", "id": "f", "fault": {"kind": "drop"}}
{"at": "2.5s", "do": "end_fault", "id": "f"}
)"_ba,
        u"2: fault \"f\" is not started by any step before 2.5s"_s);
    row("end_fault after its for",
        R"({"at": "1s", "do": "fault", "id": "f", "fault": {"kind": "drop"}, "for": "1.5s"}
{"at": "3s", "do": "end_fault", "id": "f"}
)"_ba,
        u"2: fault \"f\" already ended at 2.5s"_s);
    row("end_fault at the end of its for",
        R"({"at": "1s", "do": "fault", "id": "f", "fault": {"kind": "drop"}, "for": "1s"}
{"at": "2s", "do": "end_fault", "id": "f"}
)"_ba,
        u"2: fault \"f\" already ended at 2s"_s);
    row("end_fault twice",
        R"({"at": "1s", "do": "fault", "id": "f", "fault": {"kind": "drop"}}
{"at": "2s", "do": "end_fault", "id": "f"}
{"at": "3s", "do": "end_fault", "id": "f"}
)"_ba,
        u"3: fault \"f\" already ended at 2s"_s);
    row("fault id still running",
        R"({"at": "1s", "do": "fault", "id": "f", "fault": {"kind": "drop"}}
{"at": 0, "do": "log", "text": "x"}
{"at": "2s", "do": "fault", "id": "f", "fault": {"kind": "crash"}}
)"_ba,
        u"3: fault \"f\" is still running (started on line 1)"_s);
    row("fault id running until its for",
        R"({"at": "1s", "do": "fault", "id": "f", "fault": {"kind": "drop"}, "for": "2s"}
{"at": "2999ms", "do": "fault", "id": "f", "fault": {"kind": "crash"}}
)"_ba,
        u"2: fault \"f\" is still running (started on line 1)"_s);
    // In time order the later line starts first, so the earlier line is the one at fault.
    row("fault id running, out of file order",
        R"({"at": "9s", "do": "fault", "id": "f", "fault": {"kind": "drop"}}
{"at": "4s", "do": "fault", "id": "f", "fault": {"kind": "drop"}}
)"_ba,
        u"1: fault \"f\" is still running (started on line 2)"_s);
}

void TestScenario::refusesBadLine()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, expected);
    QString error;
    QVERIFY(!parseText(text, &error));
    QCOMPARE(error, expected);
}

void TestScenario::refusesMalformedJson_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("column");

    // The column (in bytes from 1) is near the problem: where the JSON parser gave up, at or
    // just after the offending character.
    QTest::addRow("cut short") << afterOneStep(R"({"at": 1, "do": "log", "text": "x")"_ba) << 35;
    QTest::addRow("trailing garbage")
        << afterOneStep(R"({"at": 1, "do": "log", "text": "x"} x)"_ba) << 37;
    QTest::addRow("object over two lines")
        << afterOneStep("{\"at\": 1,\n\"do\": \"log\", \"text\": \"x\"}"_ba) << 10;
    QTest::addRow("single quotes") << afterOneStep(R"({'at': 1, 'do': 'log'})"_ba) << 3;
    QTest::addRow("missing comma")
        << afterOneStep(R"({"at": 1 "do": "log", "text": "x"})"_ba) << 11;
}

void TestScenario::refusesMalformedJson()
{
    QFETCH(QByteArray, text);
    QFETCH(int, column);
    QString error;
    QVERIFY(!parseText(text, &error));
    // Between the two: the JSON parser's own words for the problem.
    QVERIFY2(error.startsWith(u"scenario.jsonl:2: not valid JSON: "_s), qPrintable(error));
    QVERIFY2(
        error.endsWith(u" near column %1 (each step is one JSON object on one line)"_s.arg(column)),
        qPrintable(error));
}

void TestScenario::refusesEmptyScenario()
{
    QString error;
    for (const QByteArray &text : { ""_ba, "\n\n"_ba, "# only a comment\n  \n"_ba }) {
        QVERIFY(!parseText(text, &error));
        QCOMPARE(error, u"scenario.jsonl: no steps (only blank lines and comments)"_s);
    }
}

void TestScenario::stepLimit()
{
    // A comment first, so the line number of the step over the limit differs from its count.
    QByteArray text = "# the largest scenario allowed\n"_ba;
    const QByteArray line = logLine("1");
    text.reserve(text.size() + (Scenario::kMaxSteps + 1) * line.size());
    for (int i = 0; i < Scenario::kMaxSteps; ++i)
        text += line;
    QString error;
    const auto largest = parseText(text, &error);
    QVERIFY2(largest, qPrintable(error));
    QCOMPARE(largest->steps().size(), Scenario::kMaxSteps);

    text += line;
    QVERIFY(!parseText(text, &error));
    QCOMPARE(error, u"scenario.jsonl:100002: more than 100000 steps"_s);
}

void TestScenario::lineLengthLimit()
{
    // A log line of exactly 64 KiB (not counting its line end) is allowed; one byte more is not.
    const QByteArray empty = logLine("0", "");
    const QByteArray longest
        = logLine("0", QByteArray(Scenario::kMaxLineBytes - (empty.size() - 1), 't'));
    QCOMPARE(longest.size() - 1, Scenario::kMaxLineBytes);
    QString error;
    const auto scenario = parseText(logLine("0") + longest, &error);
    QVERIFY2(scenario, qPrintable(error));
    QCOMPARE(scenario->steps().at(1).text.size(), Scenario::kMaxLineBytes - (empty.size() - 1));

    // "\r\n" line ends do not count either.
    QByteArray crlf = longest;
    crlf.insert(crlf.size() - 1, '\r');
    QVERIFY2(parseText(crlf, &error), qPrintable(error));

    const QByteArray tooLong
        = logLine("0", QByteArray(Scenario::kMaxLineBytes - (empty.size() - 1) + 1, 't'));
    QVERIFY(!parseText(logLine("0") + "# note\n"_ba + tooLong, &error));
    QCOMPARE(error, u"scenario.jsonl:3: line longer than the limit of 65536 bytes"_s);
    // Even a comment.
    QVERIFY(!parseText(
        "#"_ba + QByteArray(Scenario::kMaxLineBytes, '#') + "\n"_ba + logLine("0"), &error));
    QCOMPARE(error, u"scenario.jsonl:1: line longer than the limit of 65536 bytes"_s);
}

void TestScenario::sizeLimit()
{
    // 16 MiB of blank lines after one step is within the limit; one more byte is not.
    QByteArray text = logLine("0");
    text += QByteArray(Scenario::kMaxFileBytes - text.size(), '\n');
    QString error;
    QVERIFY2(parseText(text, &error), qPrintable(error));
    text += '\n';
    QVERIFY(!parseText(text, &error));
    QCOMPARE(error, u"scenario.jsonl: larger than the limit of 16 MiB"_s);
}

void TestScenario::loadsFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = writeFile(dir, u"qa.jsonl"_s,
        R"({"at": "2s", "do": "offline", "user": "alice"}
{"at": "1s", "do": "online", "user": "alice"}
)"_ba);
    QVERIFY(!path.isEmpty());
    QString error;
    const auto scenario = Scenario::load(path, &error);
    QVERIFY2(scenario, qPrintable(error));
    QCOMPARE(scenario->steps().size(), 2);
    QCOMPARE(scenario->steps().at(0).action, Action::SetStatus);
    QCOMPARE(scenario->steps().at(1).action, Action::Offline);
    QCOMPARE(scenario->userIds(), QStringList { u"alice"_s });

    // Errors in the file name the path given.
    const QString bad
        = writeFile(dir, u"bad.jsonl"_s, "# one\n{\"at\": 1, \"do\": \"online\"}\n"_ba);
    QVERIFY(!Scenario::load(bad, &error));
    QCOMPARE(error, bad + u":2: field 'user' is missing"_s);
}

void TestScenario::loadReportsFileProblems()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString error;

    const QString missing = dir.filePath(u"absent.jsonl"_s);
    QVERIFY(!Scenario::load(missing, &error));
    QCOMPARE(error, missing + u": not found"_s);

    QVERIFY(!Scenario::load(dir.path(), &error));
    QVERIFY2(error.startsWith(dir.path() + u": cannot read: "_s), qPrintable(error));

    QByteArray big = logLine("0");
    big += QByteArray(Scenario::kMaxFileBytes + 1 - big.size(), '\n');
    const QString bigPath = writeFile(dir, u"big.jsonl"_s, big);
    QVERIFY(!bigPath.isEmpty());
    QVERIFY(!Scenario::load(bigPath, &error));
    QCOMPARE(error, bigPath + u": larger than the limit of 16 MiB"_s);
}

void TestScenario::loadReportsUnreadableFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString error;
    const QString locked = writeFile(dir, u"locked.jsonl"_s, logLine("0"));
    QVERIFY(QFile::setPermissions(locked, QFileDevice::WriteOwner));
    if (QFile(locked).open(QIODevice::ReadOnly))
        QSKIP("running with privileges that read any file");
    QVERIFY(!Scenario::load(locked, &error));
    QVERIFY2(error.startsWith(locked + u": cannot read: "_s), qPrintable(error));
}

void TestScenario::nullErrorPointerIsAllowed()
{
    QVERIFY(!parseText("{"_ba, nullptr));
    QVERIFY(!Scenario::load(u"/nonexistent/scenario.jsonl"_s, nullptr));
    QVERIFY(!FaultSpec::fromJson({}, nullptr));
}

void TestScenario::documentedExamplesParse()
{
    // What QA copies from docs/scenarios.md must load as it stands.
    QFile doc(QStringLiteral(QT_TESTCASE_SOURCEDIR "/../docs/scenarios.md"));
    QVERIFY2(doc.open(QIODevice::ReadOnly), qPrintable(doc.errorString()));
    const QString markdown = QString::fromUtf8(doc.readAll());
    QList<QByteArray> blocks;
    for (qsizetype start = markdown.indexOf(u"```jsonl\n"_s); start >= 0;
         start = markdown.indexOf(u"```jsonl\n"_s, start)) {
        start += 9;
        const qsizetype end = markdown.indexOf(u"```"_s, start);
        QVERIFY(end > start);
        blocks.append(markdown.sliced(start, end - start).toUtf8());
    }
    QCOMPARE(blocks.size(), 2);

    QString error;
    const auto complete = parseText(blocks.at(0), &error);
    QVERIFY2(complete, qPrintable(error));
    QCOMPARE(complete->steps().size(), 21);
    QCOMPARE(complete->userIds(), (QStringList { u"alice"_s, u"bob"_s, u"carol"_s }));
    QCOMPARE(complete->length(), 2min);
    QSet<FaultKind> kinds;
    for (const Scenario::Step &step : complete->steps()) {
        if (step.action == Action::StartFault)
            kinds.insert(step.fault.kind);
    }
    QCOMPARE(kinds.size(), 8); // every kind once

    const auto snippet = parseText(blocks.at(1), &error);
    QVERIFY2(snippet, qPrintable(error));
    QCOMPARE(snippet->steps().size(), 4);
}

QTEST_GUILESS_MAIN(TestScenario)
#include "tst_scenario.moc"
