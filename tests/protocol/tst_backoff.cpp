// Backoff: the ceiling of attempt n is base * factor^n, capped, never under the floor; every
// delay lies between the floor and its attempt's ceiling (full jitter), the attempts count up
// and reset, and one seed gives one sequence. The default policy (what GatewaySession waits by)
// doubles from 500 ms up to 30 s, its draws spread over each window, per seed.
// C++
#include <algorithm>
#include <chrono>
#include <vector>

// Qt
#include <QList>
#include <QSet>
#include <QTest>

// Presence
#include "protocol/Backoff.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Protocol::Backoff;
using Presence::Protocol::BackoffPolicy;

namespace {

BackoffPolicy policy()
{
    BackoffPolicy policy;
    policy.base = 500ms;
    policy.factor = 2.0;
    policy.cap = 30s;
    policy.floor = 100ms;
    return policy;
}

} // namespace

class TestBackoff : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void ceilingsGrowByTheFactorUpToTheCap();
    void aFloorAboveTheBaseIsTheCeiling();
    void everyDelayLiesBetweenTheFloorAndItsCeiling();
    void jitterSpreadsTheDelays();
    void attemptsCountAndReset();
    void oneSeedGivesOneSequence();
    void skipToCapReachesTheWidestRange();
    void skipToCapStopsWhereCeilingsStopGrowing();

    // The default policy
    void backoffCeilingDoublesUpToTheCap();
    void backoffDrawsStayWithinBoundsAndAreJittered();
    void backoffSeedsGiveDifferentSequences();
    void backoffResetStartsOver();
};

void TestBackoff::ceilingsGrowByTheFactorUpToTheCap()
{
    const BackoffPolicy p = policy();
    QCOMPARE(Backoff::ceiling(p, 0), 500ms);
    QCOMPARE(Backoff::ceiling(p, 1), 1000ms);
    QCOMPARE(Backoff::ceiling(p, 5), 16000ms);
    QCOMPARE(Backoff::ceiling(p, 6), 30s); // 32 s, capped
    QCOMPARE(Backoff::ceiling(p, 1000), 30s); // no overflow however long it has failed
}

void TestBackoff::aFloorAboveTheBaseIsTheCeiling()
{
    BackoffPolicy p = policy();
    p.base = 10ms;
    p.floor = 50ms;
    QCOMPARE(Backoff::ceiling(p, 0), 50ms);
    QCOMPARE(Backoff::ceiling(p, 2), 50ms); // 40 ms grown, still under the floor
    QCOMPARE(Backoff::ceiling(p, 3), 80ms);
    Backoff backoff(p, 7);
    QCOMPARE(backoff.next(), 50ms); // nothing to draw between 50 and 50
}

void TestBackoff::everyDelayLiesBetweenTheFloorAndItsCeiling()
{
    Backoff backoff(policy(), 1);
    for (int attempt = 0; attempt < 40; ++attempt) {
        const auto delay = backoff.next();
        QVERIFY2(delay >= 100ms && delay <= Backoff::ceiling(policy(), attempt),
            qPrintable(QStringLiteral("attempt %1: %2 ms").arg(attempt).arg(delay.count())));
    }
}

void TestBackoff::jitterSpreadsTheDelays()
{
    // A crowd retrying its 8th attempt must not come back together: 1,000 clients' delays
    // spread over the whole range, from near the floor to near the cap.
    std::chrono::milliseconds lowest = 1h;
    std::chrono::milliseconds highest = 0ms;
    for (quint32 seed = 1; seed <= 1000; ++seed) {
        Backoff backoff(policy(), seed);
        for (int attempt = 0; attempt < 8; ++attempt)
            (void)backoff.next();
        const auto delay = backoff.next();
        lowest = std::min(lowest, delay);
        highest = std::max(highest, delay);
    }
    QVERIFY2(lowest < 1s, qPrintable(QString::number(lowest.count())));
    QVERIFY2(highest > 29s, qPrintable(QString::number(highest.count())));
}

void TestBackoff::attemptsCountAndReset()
{
    Backoff backoff(policy(), 3);
    QCOMPARE(backoff.attempts(), 0);
    for (int i = 0; i < 7; ++i)
        (void)backoff.next();
    QCOMPARE(backoff.attempts(), 7);
    backoff.reset();
    QCOMPARE(backoff.attempts(), 0);
    // After a reset the first attempt's ceiling holds again.
    QVERIFY(backoff.next() <= 500ms);
}

void TestBackoff::oneSeedGivesOneSequence()
{
    Backoff a(policy(), 42);
    Backoff b(policy(), 42);
    Backoff other(policy(), 43);
    std::vector<qint64> first;
    std::vector<qint64> second;
    std::vector<qint64> third;
    for (int i = 0; i < 10; ++i) {
        first.push_back(a.next().count());
        second.push_back(b.next().count());
        third.push_back(other.next().count());
    }
    QCOMPARE(first, second);
    QVERIFY(first != third);
}

void TestBackoff::skipToCapReachesTheWidestRange()
{
    Backoff backoff(policy(), 5);
    (void)backoff.next();
    backoff.skipToCap();
    // 500 ms doubled six times passes 30 s: attempt 6 is the first whose ceiling is the cap.
    QCOMPARE(backoff.attempts(), 6);
    QCOMPARE(Backoff::ceiling(backoff.policy(), backoff.attempts()), 30000ms);
    QCOMPARE(Backoff::ceiling(backoff.policy(), backoff.attempts() - 1), 16000ms);
    // Already there: nothing more to skip.
    backoff.skipToCap();
    QCOMPARE(backoff.attempts(), 6);
    // Some draws now land past what the early attempts could ever wait.
    bool late = false;
    for (int i = 0; i < 50 && !late; ++i) {
        Backoff again(policy(), quint32(i));
        again.skipToCap();
        late = again.next() > 16000ms;
    }
    QVERIFY(late);
}

void TestBackoff::skipToCapStopsWhereCeilingsStopGrowing()
{
    // A factor of 1 never reaches the cap: skipping must end, not spin.
    BackoffPolicy flat = policy();
    flat.factor = 1.0;
    Backoff backoff(flat, 7);
    backoff.skipToCap();
    QCOMPARE(backoff.attempts(), 1);
    QVERIFY(backoff.next() <= 500ms);
}

void TestBackoff::backoffCeilingDoublesUpToTheCap()
{
    const Backoff::Policy policy; // 500 ms doubling, capped at 30 s
    const QList<qint64> expected { 500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000 };
    for (int attempt = 0; attempt < expected.size(); ++attempt)
        QCOMPARE(Backoff::ceiling(policy, attempt).count(), expected.at(attempt));
    QCOMPARE(Backoff::ceiling(policy, 40).count(), 30000); // no overflow far out
}

void TestBackoff::backoffDrawsStayWithinBoundsAndAreJittered()
{
    const Backoff::Policy policy;
    constexpr int kDraws = 300;
    for (int attempt = 0; attempt <= 10; ++attempt) {
        const qint64 low = policy.floor.count();
        const qint64 high = Backoff::ceiling(policy, attempt).count();
        QSet<qint64> distinct;
        qint64 smallest = high;
        qint64 largest = low;
        for (int draw = 0; draw < kDraws; ++draw) {
            // A fresh backoff per draw, advanced to `attempt`, with its own seed.
            Backoff backoff(policy, quint32(attempt * 100003 + draw));
            for (int i = 0; i < attempt; ++i)
                (void)backoff.next();
            QCOMPARE(backoff.attempts(), attempt);
            const qint64 delay = backoff.next().count();
            QCOMPARE(backoff.attempts(), attempt + 1);
            QVERIFY2(delay >= low && delay <= high,
                qPrintable(
                    u"attempt %1: %2 ms outside [%3, %4]"_s.arg(attempt).arg(delay).arg(low).arg(
                        high)));
            distinct.insert(delay);
            smallest = std::min(smallest, delay);
            largest = std::max(largest, delay);
        }
        // Full jitter: draws spread over the whole window, not clustered near the ceiling.
        QVERIFY2(distinct.size() > kDraws / 2,
            qPrintable(u"attempt %1: only %2 distinct"_s.arg(attempt).arg(distinct.size())));
        const qint64 quarter = (high - low) / 4;
        QVERIFY2(smallest < low + quarter && largest > high - quarter,
            qPrintable(
                u"attempt %1: draws in [%2, %3] only"_s.arg(attempt).arg(smallest).arg(largest)));
    }
}

void TestBackoff::backoffSeedsGiveDifferentSequences()
{
    const Backoff::Policy policy;
    auto drawTen = [&](quint32 seed) {
        Backoff backoff(policy, seed);
        QList<qint64> delays;
        for (int i = 0; i < 10; ++i)
            delays.append(backoff.next().count());
        return delays;
    };
    QVERIFY(drawTen(1) != drawTen(2));
    QCOMPARE(drawTen(7), drawTen(7)); // the seed is the only source of randomness
}

void TestBackoff::backoffResetStartsOver()
{
    Backoff::Policy policy;
    policy.floor = 100ms;
    policy.base = 100ms; // attempt 0 can only wait exactly 100 ms
    Backoff backoff(policy, 42);
    for (int i = 0; i < 6; ++i)
        (void)backoff.next();
    QCOMPARE(backoff.attempts(), 6);
    backoff.reset();
    QCOMPARE(backoff.attempts(), 0);
    QCOMPARE(backoff.next(), 100ms);
    QCOMPARE(backoff.attempts(), 1);
    const auto second = backoff.next();
    QVERIFY(second >= 100ms && second <= 200ms);
}

QTEST_GUILESS_MAIN(TestBackoff)
#include "tst_backoff.moc"
