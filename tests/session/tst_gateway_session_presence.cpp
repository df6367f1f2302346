// What GatewaySession learns of the friends' presence from a real gateway over loopback: the
// availability set covering every friend (none from a gateway without it), its changes in the
// session's batches or one by one, a lost push corrected by the digest, and a changed friends
// list read again and watched anew.

// C++
#include <chrono>
#include <optional>

// Qt
#include <QHash>
#include <QSignalSpy>
#include <QTest>

// Presence
#include "GatewayFixture.h"
#include "GatewaySessionFixture.h"
#include "SessionFixture.h"
#include "TestClient.h"
#include "server-mock/qa/FaultSpec.h"
#include "session/GatewaySession.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Protocol::PresenceStatus;
using Presence::Protocol::UserInfo;
using Presence::Protocol::UserPresence;
using Presence::Server::GatewayConfig;
using Presence::Session::GatewaySession;
using State = GatewaySession::State;

class TestGatewaySessionPresence : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void availabilityCoversEveryFriend();
    void noAvailabilityFromAGatewayWithoutIt();
    void availabilityChangesComeInBatches();
    void availabilityChangesUnbatchedWhenAskedForNone();
    void aLostPushIsCorrectedByTheDigest();
    void friendsChangedReloadsTheListAndWatchesAgain();
};

void TestGatewaySessionPresence::availabilityCoversEveryFriend()
{
    GatewayConfig config = testConfig();
    config.availabilityInterval = 50ms;
    auto gateway = startGateway(smallPopulation(), config);
    QVERIFY(gateway);
    TestClient cat;
    QVERIFY(!cat.login(gateway->url(), tokenOf(u"cat"_s)).isEmpty());
    GatewaySession session(fastOptions());
    QSignalSpy availability(&session, &GatewaySession::availabilityReceived);
    QVERIFY(availability.isValid());
    session.open(gateway->url(), tokenOf(u"alice"_s));
    QVERIFY(availability.wait());
    using Statuses = QHash<QString, PresenceStatus>;
    QCOMPARE(availability.at(0).at(0).value<Statuses>(),
        (Statuses { { u"bob"_s, PresenceStatus::Offline }, { u"cat"_s, PresenceStatus::Online },
            { u"dan"_s, PresenceStatus::Offline } }));
    QCOMPARE(availability.at(0).at(1).toBool(), true);
    // Nothing subscribed: no rows on screen here, and still every friend is known.
    QVERIFY(session.subscribed().isEmpty());

    TestClient dan;
    QVERIFY(
        !dan.login(gateway->url(), tokenOf(u"dan"_s), { { "status"_L1, "away"_L1 } }).isEmpty());
    QVERIFY(availability.wait());
    QCOMPARE(availability.at(1).at(0).value<Statuses>(),
        (Statuses { { u"dan"_s, PresenceStatus::Away } }));
    QCOMPARE(availability.at(1).at(1).toBool(), false);
}

void TestGatewaySessionPresence::noAvailabilityFromAGatewayWithoutIt()
{
    GatewayConfig config = testConfig();
    config.maxAvailabilityFriends = 0; // says max_availability_friends 0, as if it predated it
    auto gateway = startGateway(smallPopulation(), config);
    QVERIFY(gateway);
    GatewaySession session(fastOptions());
    QSignalSpy availability(&session, &GatewaySession::availabilityReceived);
    QSignalSpy friendsLoaded(&session, &GatewaySession::friendsLoaded);
    session.open(gateway->url(), tokenOf(u"alice"_s));
    QVERIFY(friendsLoaded.wait());
    // Had it asked, the answer (covering nobody) would be here well within this.
    QVERIFY(!availability.wait(300));
    QCOMPARE(gateway->availability().watcherCount(), 0);
}

// The changes of the availability set within the session's batch window, not the gateway's
// interval (a minute here): the session asked for presence_batch in hello.
void TestGatewaySessionPresence::availabilityChangesComeInBatches()
{
    GatewayConfig config = testConfig();
    config.availabilityInterval = 60s;
    auto gateway = startGateway(smallPopulation(), config);
    QVERIFY(gateway);
    GatewaySession session(fastOptions());
    QSignalSpy availability(&session, &GatewaySession::availabilityReceived);
    session.open(gateway->url(), tokenOf(u"alice"_s));
    QVERIFY(availability.wait());
    QCOMPARE(availability.at(0).at(1).toBool(), true);

    TestClient dan;
    QVERIFY(
        !dan.login(gateway->url(), tokenOf(u"dan"_s), { { "status"_L1, "away"_L1 } }).isEmpty());
    QVERIFY(availability.wait());
    using Statuses = QHash<QString, PresenceStatus>;
    QCOMPARE(availability.at(1).at(0).value<Statuses>(),
        (Statuses { { u"dan"_s, PresenceStatus::Away } }));
    QCOMPARE(availability.at(1).at(1).toBool(), false);
    QVERIFY(gateway->metrics().render().contains(
        R"(presence_frames_out_total{type="presence_batch"} 1)"));
}

void TestGatewaySessionPresence::availabilityChangesUnbatchedWhenAskedForNone()
{
    GatewayConfig config = testConfig();
    config.availabilityInterval = 50ms;
    auto gateway = startGateway(smallPopulation(), config);
    QVERIFY(gateway);
    GatewaySession::Options options = fastOptions();
    options.availabilityBatch = 0ms;
    GatewaySession session(options);
    QSignalSpy availability(&session, &GatewaySession::availabilityReceived);
    session.open(gateway->url(), tokenOf(u"alice"_s));
    QVERIFY(availability.wait());
    TestClient cat;
    QVERIFY(!cat.login(gateway->url(), tokenOf(u"cat"_s)).isEmpty());
    QVERIFY(availability.wait());
    using Statuses = QHash<QString, PresenceStatus>;
    QCOMPARE(availability.at(1).at(0).value<Statuses>(),
        (Statuses { { u"cat"_s, PresenceStatus::Online } }));
    const QByteArray metrics = gateway->metrics().render();
    QVERIFY(metrics.contains(R"(presence_frames_out_total{type="availability_changed"} 1)"));
    QVERIFY(!metrics.contains(R"(presence_frames_out_total{type="presence_batch"} 1)"));
}

void TestGatewaySessionPresence::aLostPushIsCorrectedByTheDigest()
{
    GatewayConfig config = testConfig();
    config.digestInterval = 300ms;
    auto gateway = startQaGateway(smallPopulation(), config);
    QVERIFY(gateway);
    GatewaySession session(fastOptions());
    QSignalSpy received(&session, &GatewaySession::presenceReceived);
    QVERIFY(received.isValid());
    // What the session last reported of bob.
    const auto bobIs = [&received]() -> std::optional<PresenceStatus> {
        std::optional<PresenceStatus> last;
        for (const UserPresence &presence : presenceOf(received)) {
            if (presence.id == u"bob")
                last = presence.status;
        }
        return last;
    };
    session.open(gateway->url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), State::Online);
    session.setWanted({ u"bob"_s });
    QTRY_COMPARE(bobIs(), std::optional(PresenceStatus::Offline));
    // Digests that agree change nothing.
    QTest::qWait(700);
    QCOMPARE(session.digestMismatches(), 0);

    // The fault injector loses bob's pushes (as a pub/sub message dropped between gateways
    // would be): his change is published and never pushed.
    Presence::Server::FaultSpec lose;
    lose.kind = Presence::Server::FaultKind::Lose;
    lose.user = u"bob"_s;
    gateway->faults().start(lose);
    TestClient bob;
    QVERIFY(!bob.login(gateway->url(), tokenOf(u"bob"_s)).isEmpty());
    // Within about one digest interval the session notices and reads bob again.
    QTRY_COMPARE_WITH_TIMEOUT(bobIs(), std::optional(PresenceStatus::Online), 3000);
    QVERIFY(session.digestMismatches() >= 1);
}

void TestGatewaySessionPresence::friendsChangedReloadsTheListAndWatchesAgain()
{
    auto gateway = startGateway(smallPopulation());
    QVERIFY(gateway);
    GatewaySession session(fastOptions());
    QSignalSpy friendsLoaded(&session, &GatewaySession::friendsLoaded);
    QSignalSpy availability(&session, &GatewaySession::availabilityReceived);
    QSignalSpy stale(&session, &GatewaySession::presenceStale);
    QVERIFY(friendsLoaded.isValid() && availability.isValid() && stale.isValid());
    session.open(gateway->url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(availability.size(), 1);
    session.setWanted({ u"bob"_s, u"eve"_s });
    QTRY_COMPARE(gateway->subscriptionsOfUser(u"alice"_s), QStringList { u"bob"_s });

    // bob (index 0) is no friend any more; eve (index 3) is a new one.
    const auto &directory = gateway->directory();
    const int alice = *directory.indexOfId(u"alice"_s);
    QCOMPARE(
        gateway->friendships().changeFriendships({ { alice, *directory.indexOfId(u"bob"_s), false },
            { alice, *directory.indexOfId(u"eve"_s), true } }),
        2);

    // The list is read again, in the directory's order, and the set watched over it anew.
    QTRY_COMPARE(friendsLoaded.size(), 2);
    QCOMPARE(friendsLoaded.at(1).at(0).value<QList<UserInfo>>(),
        (QList<UserInfo> {
            { u"cat"_s, u"Cat"_s }, { u"eve"_s, u"Eve"_s }, { u"dan"_s, u"Dan"_s } }));
    QTRY_COMPARE(availability.size(), 2);
    using Statuses = QHash<QString, PresenceStatus>;
    QCOMPARE(availability.at(1).at(0).value<Statuses>(),
        (Statuses { { u"cat"_s, PresenceStatus::Offline }, { u"eve"_s, PresenceStatus::Offline },
            { u"dan"_s, PresenceStatus::Offline } }));
    QCOMPARE(availability.at(1).at(1).toBool(), true);
    QCOMPARE(gateway->availability().watcherCount(), 1);

    // bob was dropped and is not asked for again; eve, wanted, is watched now.
    QCOMPARE(stale.size(), 1);
    QCOMPARE(stale.at(0).at(0).toStringList(), QStringList { u"bob"_s });
    QTRY_COMPARE(gateway->subscriptionsOfUser(u"alice"_s), QStringList { u"eve"_s });
    QCOMPARE(session.subscribed(), (QSet<QString> { u"eve"_s }));
    QCOMPARE(session.state(), State::Online);
}

QTEST_MAIN(TestGatewaySessionPresence)
#include "tst_gateway_session_presence.moc"
