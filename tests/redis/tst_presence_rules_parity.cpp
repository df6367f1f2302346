// The presence rules exist twice: PresenceRules (C++, what the in-memory store follows) and the
// Lua of the Redis store (server-mock/redis/scripts/common.lua, run by device.lua and sweep.lua).
// This test runs the whole rule table through the real scripts on a real Redis and compares
// every outcome with what PresenceRules say: for each status published before (or none), each
// set of up to two devices, and each change the store can meet (a device joins, chooses a
// status, closes, expires; the grace ends), whether the change is published now, after the
// grace or not at all, as which status, with which seq, and the payload on the user's channel
// as the protocol decodes it.
//
// The redis-server is the shared one named by PRESENCE_TEST_REDIS_URL when set, else a private
// one; the keys are under a prefix of this program's own, deleted afterwards.

// C++
#include <array>
#include <chrono>
#include <functional>
#include <optional>

// Qt
#include <QByteArrayList>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QObject>
#include <QSet>
#include <QStringList>
#include <QTest>
#include <QTimer>

// Presence
#include "RedisTestBed.h"
#include "protocol/PresencePayload.h"
#include "protocol/PresenceStatus.h"
#include "protocol/ServerMessages.h"
#include "server-mock/presence/PresenceRules.h"
#include "server-mock/redis/RedisScripts.h"
#include "server-mock/redis/client/RedisClient.h"
#include "server-mock/redis/client/RedisReply.h"
#include "server-mock/redis/client/RedisSubscriber.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace Presence::Server;
using Presence::Protocol::ChosenStatus;
using Presence::Protocol::PresenceStatus;
using Presence::Protocol::UserPresence;

// QCOMPARE prints these through ADL when they differ: show them as their JSON.
namespace Presence::Protocol {

char *toString(const UserPresence &presence)
{
    return QTest::toString(encodePresencePayload(presence));
}

} // namespace Presence::Protocol

namespace {

constexpr std::array kChosen { ChosenStatus::Online, ChosenStatus::Away, ChosenStatus::Invisible };
constexpr qint64 kSeqBefore = 5; // of a user published before
constexpr qint64 kLastSeenBefore = 1000; // of a user published offline before
constexpr qint64 kFarExpiry = 32503680000000; // ms since the epoch: the year 3000
constexpr qint64 kTtlMs = 60000;
constexpr qint64 kGraceMs = 5000;
const QString kUser = u"parity"_s;
const QByteArray kEndOfCase = "end of case"; // published by the test after each case

enum class Change { Join, Choose, Close, Expire, GraceEnds };

// One row of the rule table.
struct Rule {
    std::optional<PresenceStatus> published; // before; none: never published (no pub: hash)
    QList<ChosenStatus> devices; // before
    Change change = Change::Join;
    int device = -1; // which of devices chooses, closes or expires
    ChosenStatus chosen = ChosenStatus::Online; // what joins or is chosen
};

// What PresenceRules say of a rule.
struct Verdict {
    PresenceStatus published = PresenceStatus::Offline; // as decide() takes it
    PresenceStatus current = PresenceStatus::Offline;
    ChangeCause cause = ChangeCause::DeviceJoined;
    Publication publication = Publication::Nothing;
};

Verdict verdictOf(const Rule &rule)
{
    DeviceTally tally;
    for (const ChosenStatus status : rule.devices)
        tally.add(status, 1);
    Verdict verdict;
    switch (rule.change) {
    case Change::Join:
        tally.add(rule.chosen, 1);
        verdict.cause = ChangeCause::DeviceJoined;
        break;
    case Change::Choose:
        tally.add(rule.devices.at(rule.device), -1);
        tally.add(rule.chosen, 1);
        verdict.cause = causeOfStatusChange(rule.chosen);
        break;
    case Change::Close:
    case Change::Expire: // a device whose gateway stopped refreshing it left, as by a close
        tally.add(rule.devices.at(rule.device), -1);
        verdict.cause = ChangeCause::DeviceLeft;
        break;
    case Change::GraceEnds:
        verdict.cause = ChangeCause::GraceExpired;
        break;
    }
    verdict.published = rule.published.value_or(PresenceStatus::Offline);
    verdict.current = aggregate(tally);
    verdict.publication = decide(verdict.published, verdict.current, verdict.cause);
    return verdict;
}

QString nameOf(ChosenStatus status)
{
    return Presence::Protocol::toString(status);
}

QString nameOf(PresenceStatus status)
{
    return Presence::Protocol::toString(status);
}

QString nameOf(const Rule &rule)
{
    QStringList devices;
    for (const ChosenStatus status : rule.devices)
        devices.append(nameOf(status));
    const QString device = rule.device >= 0 ? nameOf(rule.devices.at(rule.device)) : QString();
    QString change;
    switch (rule.change) {
    case Change::Join:
        change = u"one joins %1"_s.arg(nameOf(rule.chosen));
        break;
    case Change::Choose:
        change = u"the %1 one chooses %2"_s.arg(device, nameOf(rule.chosen));
        break;
    case Change::Close:
        change = u"the %1 one closes"_s.arg(device);
        break;
    case Change::Expire:
        change = u"the %1 one expires"_s.arg(device);
        break;
    case Change::GraceEnds:
        change = u"the grace ends"_s;
        break;
    }
    return u"%1 published; devices: %2; %3"_s.arg(
        rule.published ? nameOf(*rule.published) : u"never"_s,
        devices.isEmpty() ? u"none"_s : devices.join(u", "_s), change);
}

// Every rule: each status published before (or none), each multiset of up to two devices, each
// change those devices can meet.
QList<Rule> ruleTable()
{
    QList<QList<ChosenStatus>> deviceSets { {} };
    for (qsizetype i = 0; i < qsizetype(kChosen.size()); ++i) {
        deviceSets.append({ kChosen[i] });
        for (qsizetype j = i; j < qsizetype(kChosen.size()); ++j)
            deviceSets.append({ kChosen[i], kChosen[j] });
    }
    QList<std::optional<PresenceStatus>> published { std::nullopt };
    for (const PresenceStatus status : Presence::Protocol::kAvailabilityOrder)
        published.append(status);

    QList<Rule> rules;
    for (const auto &before : published) {
        for (const QList<ChosenStatus> &devices : deviceSets) {
            for (const ChosenStatus chosen : kChosen)
                rules.append({ before, devices, Change::Join, -1, chosen });
            for (int device = 0; device < devices.size(); ++device) {
                if (device > 0 && devices.at(device) == devices.at(device - 1))
                    continue; // the same as the one before it
                for (const ChosenStatus chosen : kChosen)
                    rules.append({ before, devices, Change::Choose, device, chosen });
                rules.append({ before, devices, Change::Close, device });
                rules.append({ before, devices, Change::Expire, device });
            }
            rules.append({ before, devices, Change::GraceEnds });
        }
    }
    return rules;
}

QString describe(Publication publication, PresenceStatus status)
{
    switch (publication) {
    case Publication::Nothing:
        return u"nothing published"_s;
    case Publication::Now:
        return u"published %1 now"_s.arg(nameOf(status));
    case Publication::AfterGrace:
        return u"%1 pending until the grace ends"_s.arg(nameOf(status));
    }
    return {};
}

// Runs the event loop until done() holds; false if it did not within the timeout. It wakes on
// each event, where QTRY_VERIFY and qWaitFor poll every 10 to 50 ms: a row of the table is a
// few round trips to Redis, not a few polls.
bool waitUntil(const std::function<bool()> &done, std::chrono::milliseconds timeout = 5s)
{
    const QDeadlineTimer deadline(timeout);
    QTimer wake; // so that the loop never sleeps past the deadline
    wake.start(50ms);
    while (!done()) {
        if (deadline.hasExpired())
            return false;
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    }
    return true;
}

std::optional<QByteArray> bytesOf(const RedisReply &reply, qsizetype index)
{
    if (!reply.isArray() || index >= reply.elements.size())
        return std::nullopt;
    return reply.elements.at(index).toBytes();
}

} // namespace

Q_DECLARE_METATYPE(Rule)

class TestPresenceRulesParity : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();

    void tableHoldsEveryRule();
    void luaFollowsPresenceRules_data();
    void luaFollowsPresenceRules();

private:
    [[nodiscard]] QByteArray key(const char *kind) const
    {
        return m_prefix + kind + kUser.toUtf8();
    }
    [[nodiscard]] static QByteArray member(int device)
    {
        return "gw/" + QByteArray::number(device);
    }
    // Writes the state before the rule's change, as the scripts would have left it.
    void arrange(const Rule &rule);
    // Runs the script the store runs for the rule's change.
    [[nodiscard]] RedisReply change(const Rule &rule);
    // The replies of commands sent as one pipeline; empty if they did not come in time.
    [[nodiscard]] QList<RedisReply> pipeline(const QList<RedisClient::Command> &commands);

    RedisTestBed m_redis;
    RedisSubscriber m_subscriber;
    QByteArray m_prefix;
    QByteArrayList m_received; // payloads on the user's channel, since the case began
};

void TestPresenceRulesParity::initTestCase()
{
    QString error;
    QVERIFY2(m_redis.start("tst_presence_rules_parity", &error), qPrintable(error));
    m_prefix = m_redis.prefixForCurrentTest();
    connect(&m_subscriber, &RedisSubscriber::messageReceived, this,
        [this](const QByteArray &, const QByteArray &payload) { m_received.append(payload); });
    m_subscriber.connectTo(m_redis.url());
    m_subscriber.subscribe(key("ch:"));
    QTRY_VERIFY_WITH_TIMEOUT(m_subscriber.isConfirmed(key("ch:")), 10000);
}

void TestPresenceRulesParity::cleanupTestCase()
{
    QString error;
    QVERIFY2(m_redis.deleteKeys(m_prefix, &error) >= 0, qPrintable(error));
}

void TestPresenceRulesParity::tableHoldsEveryRule()
{
    // Every (published, current, cause) that decide() can be asked by a store is in the table,
    // and so is every outcome. The one combination no store can ask: a status chosen that
    // leaves the user offline (choosing online or away makes that device visible; choosing
    // invisible counts as leaving, causeOfStatusChange).
    const auto question = [](PresenceStatus published, PresenceStatus current, ChangeCause cause) {
        return (int(published) * 8 + int(current)) * 8 + int(cause);
    };
    QSet<int> asked;
    QSet<int> outcomes;
    QSet<QString> names;
    const QList<Rule> rules = ruleTable();
    for (const Rule &rule : rules) {
        const Verdict verdict = verdictOf(rule);
        asked.insert(question(verdict.published, verdict.current, verdict.cause));
        outcomes.insert(int(verdict.publication));
        names.insert(nameOf(rule));
    }
    QCOMPARE(names.size(), rules.size());
    QCOMPARE(outcomes.size(), 3);
    const std::array causes { ChangeCause::StatusChosen, ChangeCause::DeviceJoined,
        ChangeCause::DeviceLeft, ChangeCause::GraceExpired };
    for (const PresenceStatus published : Presence::Protocol::kAvailabilityOrder) {
        for (const PresenceStatus current : Presence::Protocol::kAvailabilityOrder) {
            for (const ChangeCause cause : causes) {
                const bool possible
                    = !(cause == ChangeCause::StatusChosen && current == PresenceStatus::Offline);
                QCOMPARE(asked.contains(question(published, current, cause)), possible);
            }
        }
    }
}

void TestPresenceRulesParity::luaFollowsPresenceRules_data()
{
    QTest::addColumn<Rule>("rule");
    const QList<Rule> rules = ruleTable();
    for (const Rule &rule : rules)
        QTest::addRow("%s", qPrintable(nameOf(rule))) << rule;
}

void TestPresenceRulesParity::arrange(const Rule &rule)
{
    QList<RedisClient::Command> commands {
        { "DEL", key("dev:"), key("st:"), key("pub:"), m_prefix + "due" },
    };
    if (rule.published) {
        commands.append({ "HSET", key("pub:"), "status", nameOf(*rule.published).toLatin1(), "seq",
            QByteArray::number(kSeqBefore) });
        if (*rule.published == PresenceStatus::Offline)
            commands.append(
                { "HSET", key("pub:"), "last_seen", QByteArray::number(kLastSeenBefore) });
    }
    for (int device = 0; device < rule.devices.size(); ++device) {
        commands.append({ "ZADD", key("dev:"), QByteArray::number(kFarExpiry), member(device) });
        commands.append(
            { "HSET", key("st:"), member(device), nameOf(rule.devices.at(device)).toLatin1() });
    }
    if (rule.change == Change::Expire) {
        commands.append({ "ZADD", key("dev:"), "1", member(rule.device) });
        commands.append({ "ZADD", m_prefix + "due", "1", kUser.toUtf8() });
    }
    if (rule.change == Change::GraceEnds) {
        commands.append({ "HSET", key("pub:"), "pending", "offline", "grace_at", "1" });
        commands.append({ "ZADD", m_prefix + "due", "1", kUser.toUtf8() });
    }
    const QList<RedisReply> replies = pipeline(commands);
    QCOMPARE(replies.size(), commands.size());
    for (const RedisReply &reply : replies)
        QVERIFY2(!reply.isError(), qPrintable(reply.errorMessage()));
}

QList<RedisReply> TestPresenceRulesParity::pipeline(const QList<RedisClient::Command> &commands)
{
    QObject context;
    std::optional<QList<RedisReply>> replies;
    m_redis.client().pipeline(
        commands, &context, [&replies](const QList<RedisReply> &r) { replies = r; });
    if (!waitUntil([&] { return replies.has_value(); }))
        return {};
    return *replies;
}

RedisReply TestPresenceRulesParity::change(const Rule &rule)
{
    const QByteArray ttl = QByteArray::number(kTtlMs);
    const QByteArray grace = QByteArray::number(kGraceMs);
    const QByteArray user = kUser.toUtf8();
    const RedisScript *script = &RedisScripts::device();
    QList<QByteArray> args;
    switch (rule.change) {
    case Change::Join:
        args = { m_prefix, user, member(int(rule.devices.size())), nameOf(rule.chosen).toLatin1(),
            RedisScripts::deviceCause(ChangeCause::DeviceJoined), ttl, grace };
        break;
    case Change::Choose:
        // As RedisPresenceStore::connectionStatusChanged writes it.
        args = { m_prefix, user, member(rule.device), nameOf(rule.chosen).toLatin1(),
            RedisScripts::deviceCause(causeOfStatusChange(rule.chosen)), ttl, grace };
        break;
    case Change::Close:
        args = { m_prefix, user, member(rule.device), QByteArray(),
            RedisScripts::deviceCause(ChangeCause::DeviceLeft), ttl, grace };
        break;
    case Change::Expire:
    case Change::GraceEnds:
        script = &RedisScripts::sweep();
        args = { m_prefix, grace, "10" };
        break;
    }
    QObject context;
    std::optional<RedisReply> reply;
    m_redis.client().evalScript(
        *script, args, &context, [&reply](const RedisReply &r) { reply = r; });
    if (!waitUntil([&] { return reply.has_value(); }))
        return RedisReply::error("test: no reply in time");
    return *reply;
}

void TestPresenceRulesParity::luaFollowsPresenceRules()
{
    QFETCH(Rule, rule);
    const Verdict expected = verdictOf(rule);

    arrange(rule);
    if (QTest::currentTestFailed())
        return;
    m_received.clear();
    const RedisReply reply = change(rule);
    QVERIFY2(!reply.isError(), qPrintable(reply.errorMessage()));
    // Whatever the script published reaches the subscriber before what is published after it.
    const QList<RedisReply> after = pipeline({ { "PUBLISH", key("ch:"), kEndOfCase },
        { "HMGET", key("pub:"), "status", "seq", "pending", "grace_at", "last_seen" } });
    QCOMPARE(after.size(), 2);
    QVERIFY(after.at(0).toInteger().value_or(0) >= 1);
    QVERIFY(waitUntil(
        [this] { return !m_received.isEmpty() && m_received.constLast() == kEndOfCase; }));
    m_received.removeLast();

    const RedisReply &held = after.at(1);
    QVERIFY(held.isArray() && held.elements.size() == 5);
    const auto status = Presence::Protocol::presenceStatusFromString(
        QString::fromLatin1(bytesOf(held, 0).value_or("offline")));
    QVERIFY(status);
    const qint64 seqBefore = rule.published ? kSeqBefore : 0;
    const qint64 seq = held.elements.at(1).toInteger().value_or(0);
    const auto pending = bytesOf(held, 2);
    const bool graceArmed = bytesOf(held, 3).has_value();

    // What the scripts did, in the words of PresenceRules.
    Publication publication = Publication::Nothing;
    PresenceStatus outcome = *status;
    if (seq != seqBefore || !m_received.isEmpty()) {
        publication = Publication::Now;
    } else if (pending || graceArmed) {
        publication = Publication::AfterGrace;
        const auto parsed = Presence::Protocol::presenceStatusFromString(
            QString::fromLatin1(pending.value_or("")));
        QVERIFY2(parsed && graceArmed, pending.value_or("(no pending status)").constData());
        outcome = *parsed;
    }
    const PresenceStatus expectedOutcome
        = expected.publication == Publication::Nothing ? expected.published : expected.current;
    QCOMPARE(describe(publication, outcome), describe(expected.publication, expectedOutcome));

    // The published status and seq, and nothing else, as PresenceRules say.
    QCOMPARE(nameOf(*status),
        nameOf(expected.publication == Publication::Now ? expected.current : expected.published));
    QCOMPARE(seq, seqBefore + (expected.publication == Publication::Now ? 1 : 0));
    if (expected.publication != Publication::Now) {
        QVERIFY(m_received.isEmpty());
        return;
    }
    // One push, on the user's channel, that the protocol's decoder reads as the new presence.
    QCOMPARE(m_received.size(), 1);
    const auto payload = Presence::Protocol::decodePresencePayload(m_received.constFirst());
    QVERIFY2(payload.ok(), qPrintable(payload.ok() ? QString() : payload.error().message));
    UserPresence published { kUser, expected.current, seq, std::nullopt };
    if (expected.current == PresenceStatus::Offline)
        published.lastSeen = held.elements.at(4).toInteger();
    QCOMPARE(payload.value(), published);
}

QTEST_GUILESS_MAIN(TestPresenceRulesParity)

#include "tst_presence_rules_parity.moc"
