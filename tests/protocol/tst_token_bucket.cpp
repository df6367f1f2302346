// TokenBucket on a clock the test moves: a full bucket gives its burst at once, then one token
// per 1/rate; it never holds more than its capacity, says how long until the next token, and
// a clock that goes back gives nothing.
// C++
#include <chrono>

// Qt
#include <QTest>

// Presence
#include "protocol/TokenBucket.h"

using namespace std::chrono_literals;
using Presence::Protocol::TokenBucket;
using Clock = TokenBucket::Clock;

class TestTokenBucket : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aFullBucketGivesItsBurstThenRefusesAtOnce();
    void tokensComeBackAtTheRate();
    void anIdleBucketHoldsNoMoreThanItsCapacity();
    void timeUntilTokenSaysWhenTheNextOneIsThere();
    void aClockGoingBackGivesNothing();
    void nonsenseRatesAreClampedToUsableOnes();
};

void TestTokenBucket::aFullBucketGivesItsBurstThenRefusesAtOnce()
{
    const Clock::time_point start;
    TokenBucket bucket(20, 40, start);
    for (int i = 0; i < 40; ++i)
        QVERIFY2(bucket.tryTake(start), qPrintable(QString::number(i)));
    QVERIFY(!bucket.tryTake(start));
}

void TestTokenBucket::tokensComeBackAtTheRate()
{
    const Clock::time_point start;
    TokenBucket bucket(20, 1, start); // one token every 50 ms
    QVERIFY(bucket.tryTake(start));
    QVERIFY(!bucket.tryTake(start + 49ms));
    QVERIFY(bucket.tryTake(start + 51ms)); // a millisecond past the 50, for the rounding
    // Sustained, asked every millisecond: one every 50 ms, none more, 100 over the next 5 s.
    int taken = 0;
    for (int ms = 52; ms <= 5075; ++ms)
        taken += bucket.tryTake(start + std::chrono::milliseconds(ms)) ? 1 : 0;
    QCOMPARE(taken, 100);
}

void TestTokenBucket::anIdleBucketHoldsNoMoreThanItsCapacity()
{
    const Clock::time_point start;
    TokenBucket bucket(10, 3, start);
    for (int i = 0; i < 3; ++i)
        QVERIFY(bucket.tryTake(start));
    const auto later = start + 1h;
    for (int i = 0; i < 3; ++i)
        QVERIFY(bucket.tryTake(later));
    QVERIFY(!bucket.tryTake(later)); // an hour idle is still only a burst of 3
}

void TestTokenBucket::timeUntilTokenSaysWhenTheNextOneIsThere()
{
    const Clock::time_point start;
    TokenBucket bucket(4, 1, start); // one token every 250 ms
    QCOMPARE(bucket.timeUntilToken(start), 0ms);
    QVERIFY(bucket.tryTake(start));
    QCOMPARE(bucket.timeUntilToken(start), 250ms);
    const auto left = bucket.timeUntilToken(start + 100ms);
    QVERIFY2(left >= 150ms && left <= 151ms, qPrintable(QString::number(left.count())));
    // Rounded up: asking again at the time it says finds a token.
    TokenBucket odd(3, 1, start); // one every 333.3 ms
    QVERIFY(odd.tryTake(start));
    const auto wait = odd.timeUntilToken(start);
    QCOMPARE(wait, 334ms);
    QVERIFY(!odd.tryTake(start + wait - 1ms));
    QVERIFY(odd.tryTake(start + wait));
}

void TestTokenBucket::aClockGoingBackGivesNothing()
{
    const Clock::time_point start = Clock::time_point() + 10s;
    TokenBucket bucket(10, 1, start);
    QVERIFY(bucket.tryTake(start));
    QVERIFY(!bucket.tryTake(start - 5s));
    QVERIFY(!bucket.tryTake(start + 99ms));
    QVERIFY(bucket.tryTake(start + 101ms));
}

void TestTokenBucket::nonsenseRatesAreClampedToUsableOnes()
{
    // A zero rate would divide by zero in timeUntilToken, a zero capacity never admit anything.
    const Clock::time_point start;
    TokenBucket bucket(0, 0, start);
    QVERIFY(bucket.tryTake(start)); // capacity is at least one
    QVERIFY(!bucket.tryTake(start));
    const auto wait = bucket.timeUntilToken(start);
    QVERIFY2(wait > 0ms && wait <= 1001s, qPrintable(QString::number(wait.count())));
}

QTEST_GUILESS_MAIN(TestTokenBucket)
#include "tst_token_bucket.moc"
