// RateLimiter: a connection's frames against a token bucket, and abuse past the drop limit.

// C++
#include <chrono>

// Qt
#include <QTest>

// Presence
#include "server-mock/server/RateLimiter.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace Presence::Server;

class TestRateLimiter : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void rateBurstThenDrops();
    void rateRefillsAtConfiguredRate();
    void rateRefillIsCappedAtBurst();
    void rateAbuseAfterDropLimit();
    void rateAbuseWindowResets();
};

void TestRateLimiter::rateBurstThenDrops()
{
    const auto t0 = RateLimiter::Clock::time_point(1h);
    RateLimiter limiter(10, 5, 100, 10s, t0);
    for (int i = 0; i < 5; ++i)
        QVERIFY2(limiter.admit(t0) == RateLimiter::Verdict::Accept, qPrintable(QString::number(i)));
    QVERIFY(limiter.admit(t0) == RateLimiter::Verdict::Drop);
    QVERIFY(limiter.admit(t0) == RateLimiter::Verdict::Drop);
}

void TestRateLimiter::rateRefillsAtConfiguredRate()
{
    const auto t0 = RateLimiter::Clock::time_point(1h);
    RateLimiter limiter(10, 5, 1000, 10s, t0); // one token per 100 ms
    for (int i = 0; i < 5; ++i)
        QVERIFY(limiter.admit(t0) == RateLimiter::Verdict::Accept);
    QVERIFY(limiter.admit(t0) == RateLimiter::Verdict::Drop);

    QVERIFY(limiter.admit(t0 + 50ms) == RateLimiter::Verdict::Drop); // half a token
    QVERIFY(limiter.admit(t0 + 100ms) == RateLimiter::Verdict::Accept); // one whole token
    QVERIFY(limiter.admit(t0 + 100ms) == RateLimiter::Verdict::Drop);

    // 300 ms later: three tokens, not more.
    int accepted = 0;
    for (int i = 0; i < 10; ++i)
        accepted += limiter.admit(t0 + 400ms) == RateLimiter::Verdict::Accept ? 1 : 0;
    QCOMPARE(accepted, 3);

    // Sustained: a frame every 100 ms is always accepted.
    for (int i = 1; i <= 50; ++i)
        QVERIFY(limiter.admit(t0 + 400ms + i * 100ms) == RateLimiter::Verdict::Accept);
}

void TestRateLimiter::rateRefillIsCappedAtBurst()
{
    const auto t0 = RateLimiter::Clock::time_point(1h);
    RateLimiter limiter(10, 5, 1000, 10s, t0);
    QVERIFY(limiter.admit(t0) == RateLimiter::Verdict::Accept);
    // An hour of silence still buys only the burst.
    int accepted = 0;
    for (int i = 0; i < 100; ++i)
        accepted += limiter.admit(t0 + 1h) == RateLimiter::Verdict::Accept ? 1 : 0;
    QCOMPARE(accepted, 5);
}

void TestRateLimiter::rateAbuseAfterDropLimit()
{
    const auto t0 = RateLimiter::Clock::time_point(1h);
    RateLimiter limiter(1, 2, 5, 10s, t0);
    QVERIFY(limiter.admit(t0) == RateLimiter::Verdict::Accept);
    QVERIFY(limiter.admit(t0) == RateLimiter::Verdict::Accept);
    // Exactly abuseDropLimit drops are tolerated, spread over most of the window ...
    for (int i = 0; i < 5; ++i)
        QVERIFY2(limiter.admit(t0 + i * 1ms) == RateLimiter::Verdict::Drop,
            qPrintable(QString::number(i)));
    // ... one more inside the window is abuse.
    QVERIFY(limiter.admit(t0 + 10ms) == RateLimiter::Verdict::Abuse);
}

void TestRateLimiter::rateAbuseWindowResets()
{
    const auto t0 = RateLimiter::Clock::time_point(1h);
    // One token per second and a 100 ms window: no token comes back within a window.
    RateLimiter limiter(1, 1, 3, 100ms, t0);
    QVERIFY(limiter.admit(t0) == RateLimiter::Verdict::Accept);
    for (int i = 0; i < 3; ++i)
        QVERIFY(limiter.admit(t0 + 10ms) == RateLimiter::Verdict::Drop);

    // The window has passed: the drop count starts again.
    const auto t1 = t0 + 150ms;
    for (int i = 0; i < 3; ++i)
        QVERIFY2(limiter.admit(t1) == RateLimiter::Verdict::Drop, qPrintable(QString::number(i)));
    QVERIFY(limiter.admit(t1 + 10ms) == RateLimiter::Verdict::Abuse);
}

QTEST_GUILESS_MAIN(TestRateLimiter)
#include "tst_rate_limiter.moc"
