// Tests for the churn of simulated users (ChurnModel): reproducible per seed, every event a
// real change in the shape of a session, the population's rate as asked for from the first
// second, realistic sessions and share of users online, and refusals the command line can
// print.

// C++
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

// Qt
#include <QHash>
#include <QSet>
#include <QStringList>
#include <QTest>

// Presence
#include "server-mock/qa/ChurnModel.h"

using namespace Qt::StringLiterals;
using namespace Presence::Server;
using Presence::Protocol::ChosenStatus;

namespace {

constexpr qint64 kMinuteMs = 60'000;

// No status: offline.
using State = std::optional<ChosenStatus>;

QStringList userIds(int count)
{
    QStringList ids;
    ids.reserve(count);
    for (int i = 0; i < count; ++i)
        ids.append(u"user%1"_s.arg(i));
    return ids;
}

// The model for these arguments; the tests only build valid ones.
ChurnModel model(int userCount, double rate, quint64 seed)
{
    QString error;
    auto created = ChurnModel::create(userIds(userCount), rate, seed, &error);
    if (!created)
        qFatal("ChurnModel::create refused a valid case: %s", qPrintable(error));
    return std::move(*created);
}

QList<ChurnEvent> take(ChurnModel &churn, int count)
{
    QList<ChurnEvent> events;
    events.reserve(count);
    for (int i = 0; i < count; ++i)
        events.append(churn.next());
    return events;
}

// Every user's state as initial() leaves it (absent: offline).
QHash<QString, State> startingStates(const ChurnModel &churn)
{
    QHash<QString, State> states;
    for (const ChurnEvent &event : churn.initial())
        states.insert(event.userId, event.status);
    return states;
}

bool isConnected(const State &state)
{
    return state.has_value();
}

// What a session allows after `from`: it starts online or invisible, goes away only from
// online, and an invisible session stays invisible until it ends.
bool allowedChange(const State &from, const State &to)
{
    if (from == to)
        return false;
    if (!from)
        return to == ChosenStatus::Online || to == ChosenStatus::Invisible;
    switch (*from) {
    case ChosenStatus::Online:
        return !to || to == ChosenStatus::Away;
    case ChosenStatus::Away:
        return !to || to == ChosenStatus::Online;
    case ChosenStatus::Invisible:
        return !to;
    }
    return false;
}

// The value below which `share` of the sorted values lie.
qint64 percentile(const std::vector<qint64> &sorted, double share)
{
    return sorted[size_t(share * double(sorted.size() - 1))];
}

} // namespace

class TestChurnModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void startsWithAQuarterConnected();
    void sameSeedGivesSameEvents();
    void otherSeedGivesOtherEvents();
    void everyEventIsARealChangeWithinASession();
    void nextAtMsTellsWhenTheNextEventIs();
    void rateMatchesTarget_data();
    void rateMatchesTarget();
    void rateHoldsFromTheFirstMinute();
    void sessionLengthsAreSpreadOut();
    void connectedShareStaysPlausible();
    void refusesInvalidInput_data();
    void refusesInvalidInput();
    void acceptsTheRateLimits();
};

void TestChurnModel::startsWithAQuarterConnected()
{
    const int userCount = 10'000;
    const ChurnModel churn = model(userCount, 100, 7);
    const QList<ChurnEvent> initial = churn.initial();

    QHash<ChosenStatus, int> counts;
    QString previousId;
    for (const ChurnEvent &event : initial) {
        QCOMPARE(event.atMs, 0);
        QVERIFY(event.status.has_value());
        ++counts[*event.status];
        // In user order, so each user at most once.
        QVERIFY(previousId.isEmpty() || event.userId.mid(4).toInt() > previousId.mid(4).toInt());
        previousId = event.userId;
    }
    // The model's shape says 24 % connected: 16 % online, 7 % away, 1 % invisible.
    const double connected = double(initial.size()) / userCount;
    QVERIFY2(connected > 0.18 && connected < 0.30, qPrintable(QString::number(connected)));
    QVERIFY(counts[ChosenStatus::Online] > counts[ChosenStatus::Away]);
    QVERIFY(counts[ChosenStatus::Away] > counts[ChosenStatus::Invisible]);
    QVERIFY(counts[ChosenStatus::Invisible] > 0);
}

void TestChurnModel::sameSeedGivesSameEvents()
{
    ChurnModel first = model(1'000, 50, 42);
    ChurnModel second = model(1'000, 50, 42);
    QCOMPARE(first.initial(), second.initial());
    QCOMPARE(take(first, 20'000), take(second, 20'000));
}

void TestChurnModel::otherSeedGivesOtherEvents()
{
    for (const quint64 seed : { 0ULL, 2ULL, 43ULL, ~0ULL }) {
        ChurnModel first = model(1'000, 50, 42);
        ChurnModel other = model(1'000, 50, seed);
        QVERIFY(first.initial() != other.initial());
        QVERIFY(take(first, 100) != take(other, 100));
    }
}

void TestChurnModel::everyEventIsARealChangeWithinASession()
{
    ChurnModel churn = model(1'000, 50, 3);
    QHash<QString, State> states = startingStates(churn);
    const QStringList ids = userIds(1'000);
    const QSet<QString> known(ids.cbegin(), ids.cend());
    qint64 previousMs = 0;
    QHash<ChosenStatus, int> seen;
    int offline = 0;
    for (int i = 0; i < 200'000; ++i) {
        const ChurnEvent event = churn.next();
        QVERIFY2(event.atMs >= previousMs, qPrintable(u"event %1 goes back in time"_s.arg(i)));
        previousMs = event.atMs;
        QVERIFY(known.contains(event.userId));
        const State from = states.value(event.userId);
        QVERIFY2(allowedChange(from, event.status),
            qPrintable(
                u"event %1 for %2 is not a change a session makes"_s.arg(i).arg(event.userId)));
        states.insert(event.userId, event.status);
        if (event.status)
            ++seen[*event.status];
        else
            ++offline;
    }
    // All kinds happen, invisible sessions rarely.
    QVERIFY(seen[ChosenStatus::Away] > 10'000);
    QVERIFY(offline > 10'000);
    QVERIFY(seen[ChosenStatus::Invisible] > 0);
    QVERIFY(seen[ChosenStatus::Invisible] < offline / 10);
}

void TestChurnModel::nextAtMsTellsWhenTheNextEventIs()
{
    ChurnModel churn = model(100, 10, 5);
    for (int i = 0; i < 1'000; ++i) {
        const qint64 due = churn.nextAtMs();
        QCOMPARE(churn.nextAtMs(), due);
        QCOMPARE(churn.next().atMs, due);
    }
}

void TestChurnModel::rateMatchesTarget_data()
{
    QTest::addColumn<int>("userCount");
    QTest::addColumn<double>("rate");
    QTest::addColumn<qint64>("spanMs");

    // Spans long enough for 20,000 events or more, so chance stays well inside 10 %.
    QTest::addRow("1,000 users at 50/s for 20 min") << 1'000 << 50.0 << 20 * kMinuteMs;
    QTest::addRow("3 users at 1,000/s") << 3 << 1'000.0 << qint64(60'000);
    QTest::addRow("1 user at 0.1/s") << 1 << 0.1 << qint64(300'000'000);
    QTest::addRow("100,000 users at 0.1/s") << 100'000 << 0.1 << qint64(200'000'000);
    QTest::addRow("100,000 users at 10,000/s") << 100'000 << 10'000.0 << qint64(10'000);
}

void TestChurnModel::rateMatchesTarget()
{
    QFETCH(int, userCount);
    QFETCH(double, rate);
    QFETCH(qint64, spanMs);

    ChurnModel churn = model(userCount, rate, 11);
    qint64 events = 0;
    while (churn.next().atMs < spanMs)
        ++events;
    const double measured = double(events) * 1000 / double(spanMs);
    QVERIFY2(std::abs(measured - rate) <= 0.1 * rate,
        qPrintable(u"%1 changes/s, asked for %2"_s.arg(measured).arg(rate)));
}

void TestChurnModel::rateHoldsFromTheFirstMinute()
{
    // Were everybody to start offline or at the start of a phase, the first minute would
    // be far from the long-run rate.
    for (const quint64 seed : { 1ULL, 2ULL, 3ULL }) {
        ChurnModel churn = model(10'000, 100, seed);
        qint64 events = 0;
        while (churn.next().atMs < 60'000)
            ++events;
        QVERIFY2(events > 5'400 && events < 6'600, qPrintable(QString::number(events)));
    }
}

void TestChurnModel::sessionLengthsAreSpreadOut()
{
    ChurnModel churn = model(1'000, 50, 8);
    QHash<QString, State> states = startingStates(churn);
    QHash<QString, qint64> startedAt; // sessions seen from their start, not those at t = 0
    std::vector<qint64> lengths;
    for (ChurnEvent event = churn.next(); event.atMs < 20 * kMinuteMs; event = churn.next()) {
        if (!states.value(event.userId)) {
            startedAt.insert(event.userId, event.atMs);
        } else if (!event.status) {
            const auto started = startedAt.constFind(event.userId);
            if (started != startedAt.cend())
                lengths.push_back(event.atMs - *started);
            startedAt.remove(event.userId);
        }
        states.insert(event.userId, event.status);
    }
    QVERIFY(lengths.size() > 5'000);
    std::sort(lengths.begin(), lengths.end());
    const qint64 median = percentile(lengths, 0.5);
    const qint64 p90 = percentile(lengths, 0.9);
    // One user changes every n / rate = 20 s, which stands for 28 realistic minutes, and a
    // session averages 30 of those minutes.
    QVERIFY2(median > 5'000 && median < 30'000, qPrintable(QString::number(median)));
    QVERIFY2(p90 > 3 * median, qPrintable(u"median %1 ms, p90 %2 ms"_s.arg(median).arg(p90)));
}

void TestChurnModel::connectedShareStaysPlausible()
{
    const int userCount = 1'000;
    ChurnModel churn = model(userCount, 50, 9);
    QHash<QString, State> states = startingStates(churn);
    for (qint64 checkpoint = kMinuteMs; checkpoint <= 20 * kMinuteMs; checkpoint += kMinuteMs) {
        while (churn.nextAtMs() < checkpoint) {
            const ChurnEvent event = churn.next();
            states.insert(event.userId, event.status);
        }
        const auto connected = std::count_if(states.cbegin(), states.cend(), isConnected);
        const double share = double(connected) / userCount;
        QVERIFY2(share > 0.15 && share < 0.35,
            qPrintable(u"%1 connected at %2 ms"_s.arg(share).arg(checkpoint)));
    }
}

void TestChurnModel::refusesInvalidInput_data()
{
    QTest::addColumn<QStringList>("users");
    QTest::addColumn<double>("rate");
    QTest::addColumn<QString>("mentions");

    const QStringList some = userIds(3);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double infinity = std::numeric_limits<double>::infinity();
    QTest::addRow("no users") << QStringList() << 10.0 << u"at least one simulated user"_s;
    QTest::addRow("zero rate") << some << 0.0 << u"got 0)"_s;
    QTest::addRow("negative rate") << some << -5.0 << u"got -5)"_s;
    QTest::addRow("NaN rate") << some << nan << u"got nan)"_s;
    QTest::addRow("infinite rate") << some << infinity << u"got inf)"_s;
    QTest::addRow("rate under the minimum") << some << ChurnModel::kMinRate / 2 << u"rate"_s;
    QTest::addRow("rate over the maximum") << some << ChurnModel::kMaxRate * 2 << u"rate"_s;
    QTest::addRow("empty id") << QStringList { u"a"_s, QString() } << 10.0 << u"empty id"_s;
    QTest::addRow("repeated id") << QStringList { u"a"_s, u"b"_s, u"a"_s } << 10.0
                                 << u"\"a\" appears twice"_s;
}

void TestChurnModel::refusesInvalidInput()
{
    QFETCH(QStringList, users);
    QFETCH(double, rate);
    QFETCH(QString, mentions);

    QString error;
    QVERIFY(!ChurnModel::create(users, rate, 1, &error));
    QVERIFY2(error.contains(mentions), qPrintable(error));
    // The rate alone can be checked before there are users (while parsing the command line).
    QCOMPARE(ChurnModel::checkRate(rate).isEmpty(), !error.contains(u"rate"));
    // A caller that does not want the message still gets the refusal.
    QVERIFY(!ChurnModel::create(users, rate, 1, nullptr));
}

void TestChurnModel::acceptsTheRateLimits()
{
    for (const double rate : { ChurnModel::kMinRate, ChurnModel::kMaxRate }) {
        QVERIFY(ChurnModel::checkRate(rate).isEmpty());
        for (const int userCount : { 1, 100'000 }) {
            ChurnModel churn = model(userCount, rate, 1);
            qint64 previousMs = 0;
            for (int i = 0; i < 1'000; ++i) {
                const ChurnEvent event = churn.next();
                QVERIFY(event.atMs >= previousMs);
                previousMs = event.atMs;
            }
        }
    }
}

QTEST_APPLESS_MAIN(TestChurnModel)
#include "tst_churn_model.moc"
