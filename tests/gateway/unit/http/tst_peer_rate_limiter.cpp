// PeerRateLimiter on a clock the test moves: each peer address has a bucket of its own, an
// IPv4 peer seen through a dual-stack socket (::ffff:a.b.c.d) is the same peer, a refused
// request says how long until the next one is admitted, and a peer that comes back after the
// refill time, even among hundreds of others, starts with a full burst.
// C++
#include <chrono>

// Qt
#include <QHostAddress>
#include <QTest>

// Presence
#include "server-mock/http/PeerRateLimiter.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Server::PeerRateLimiter;
using Clock = PeerRateLimiter::Clock;

class TestPeerRateLimiter : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void eachPeerHasItsOwnBurst();
    void aMappedIpv4PeerIsTheSamePeer();
    void aRefusalSaysWhenToComeBack();
    void manyPeersComingAndGoingEachGetTheirBurst();
};

void TestPeerRateLimiter::eachPeerHasItsOwnBurst()
{
    const Clock::time_point now;
    PeerRateLimiter limiter(50, 5);
    const QHostAddress a(u"127.0.0.1"_s);
    const QHostAddress b(u"127.0.0.2"_s);
    for (int i = 0; i < 5; ++i)
        QVERIFY(limiter.admit(a, now));
    QVERIFY(!limiter.admit(a, now));
    for (int i = 0; i < 5; ++i) // one busy peer costs another nothing
        QVERIFY(limiter.admit(b, now));
    QVERIFY(!limiter.admit(b, now));
    QVERIFY(limiter.admit(QHostAddress(u"::1"_s), now));
}

void TestPeerRateLimiter::aMappedIpv4PeerIsTheSamePeer()
{
    const Clock::time_point now;
    PeerRateLimiter limiter(50, 2);
    QVERIFY(limiter.admit(QHostAddress(u"127.0.0.1"_s), now));
    QVERIFY(limiter.admit(QHostAddress(u"::ffff:127.0.0.1"_s), now));
    QVERIFY(!limiter.admit(QHostAddress(u"127.0.0.1"_s), now));
    QVERIFY(!limiter.admit(QHostAddress(u"::ffff:127.0.0.1"_s), now));
}

void TestPeerRateLimiter::aRefusalSaysWhenToComeBack()
{
    const Clock::time_point start;
    PeerRateLimiter limiter(10, 1); // one request every 100 ms
    const QHostAddress peer(u"127.0.0.1"_s);
    std::chrono::milliseconds retryAfter = -1ms;
    QVERIFY(limiter.admit(peer, start, &retryAfter));
    QCOMPARE(retryAfter, -1ms); // untouched when admitted
    QVERIFY(!limiter.admit(peer, start + 40ms, &retryAfter));
    QVERIFY2(
        retryAfter >= 60ms && retryAfter <= 61ms, qPrintable(QString::number(retryAfter.count())));
    QVERIFY(!limiter.admit(peer, start + 40ms)); // without the out-parameter too
    QVERIFY(limiter.admit(peer, start + 40ms + retryAfter));
}

void TestPeerRateLimiter::manyPeersComingAndGoingEachGetTheirBurst()
{
    // Past 256 peers the table forgets those idle for a whole refill (here 1 s); a forgotten
    // peer is given a full bucket again, as if it had been kept, and a peer still refilling is
    // not forgotten.
    const Clock::time_point start;
    PeerRateLimiter limiter(2, 2);
    const QHostAddress busy(u"10.0.0.1"_s);
    QVERIFY(limiter.admit(busy, start));
    QVERIFY(limiter.admit(busy, start));
    QVERIFY(!limiter.admit(busy, start));
    const auto crowdAt = [&limiter](Clock::time_point at) {
        for (int i = 0; i < 600; ++i) {
            const QHostAddress peer(quint32((127u << 24) | (1u << 16) | quint32(i + 1)));
            QVERIFY(limiter.admit(peer, at));
            QVERIFY(limiter.admit(peer, at));
            QVERIFY(!limiter.admit(peer, at));
        }
    };
    crowdAt(start + 100ms);
    // The sweeps at 100 ms kept it: still refused at 400 ms (it has one token again at 500).
    QVERIFY(!limiter.admit(busy, start + 400ms));
    QVERIFY(limiter.admit(busy, start + 500ms));
    // Seconds later the crowd comes back, and again: each peer a full burst, no more.
    crowdAt(start + 2100ms);
    crowdAt(start + 4100ms);
}

QTEST_GUILESS_MAIN(TestPeerRateLimiter)
#include "tst_peer_rate_limiter.moc"
