// Presence through a real gateway: QWebSocket clients on loopback against an in-process
// gateway with a short grace. Who gets pushed what and when, seq numbering, the grace,
// several devices, invisibility, unsubscribe and the subscriptions the gateway keeps.

// C++
#include <chrono>
#include <memory>
#include <optional>

// Qt
#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QTest>

// Presence
#include "ClientSteps.h"
#include "GatewayFixture.h"
#include "PresenceFrames.h"
#include "TestClient.h"
#include "tests/harness/EventLoopWait.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Server::Gateway;

// QCOMPARE shows frames as compact JSON when they differ.
char *toString(const QJsonObject &object)
{
    return qstrdup(QJsonDocument(object).toJson(QJsonDocument::Compact).constData());
}

char *toString(const QJsonArray &array)
{
    return qstrdup(QJsonDocument(array).toJson(QJsonDocument::Compact).constData());
}

namespace {

// How long past the grace a test waits when nothing arriving is what it checks.
constexpr auto kMargin = 200ms;

QList<TestUser> population()
{
    return PresenceFrames::fivePeople();
}

using ClientSteps::setStatus;
using ClientSteps::subscribe;
using ClientSteps::unsubscribe;
using Harness::pause;
using PresenceFrames::compact;
using PresenceFrames::dump;
using PresenceFrames::entry;
using PresenceFrames::nowMs;
using PresenceFrames::push;

// Waits until `timer` has run for `until` (for the "not before" half of a grace check).
void pauseUntil(const QElapsedTimer &timer, std::chrono::milliseconds until)
{
    const qint64 left = until.count() - timer.elapsed();
    if (left > 0)
        pause(std::chrono::milliseconds(left));
}

} // namespace

class TestGatewayPresence : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void snapshotForFriendsDeniedForOthers();
    void loginIsPushedToWatchersOnly();
    void secondDeviceKeepsUserOnline();
    void reconnectWithinGracePublishesNothing();
    void statusChangesArePushedAtOnce();
    void onlineDeviceLeavingMeansAwayAfterGrace();
    void invisibleLoginIsNeverPublished();
    void goingInvisibleLooksLikeLeaving();
    void invisibleActionsDoNotPostponeOffline();
    void unsubscribeStopsPushes();
    void quickChangesArriveInOrder();
    void subscriptionsOfUserFollowRequests();
    void storeResetSendsEveryWatcherASnapshot();

private:
    [[nodiscard]] std::unique_ptr<TestClient> login(const QString &id, const QString &status = {});
    // Presence frames that arrived before the answer to a ping sent now (and not taken yet).
    [[nodiscard]] static QList<QJsonObject> presenceAfterRoundTrip(TestClient &client);
    // Closes the client's socket and waits until the gateway has let go of the connection.
    [[nodiscard]] bool closeAndWait(TestClient &client);
    [[nodiscard]] std::chrono::milliseconds grace() const { return m_gateway->config().grace; }

    std::unique_ptr<Gateway> m_gateway;
};

void TestGatewayPresence::initTestCase()
{
    // Sign-ins are logged at info level; the tests make dozens of them.
    QLoggingCategory::setFilterRules(u"presence.*.info=false"_s);
}

void TestGatewayPresence::init()
{
    m_gateway = startGateway(population());
    QVERIFY(m_gateway);
}

void TestGatewayPresence::cleanup()
{
    m_gateway.reset();
}

std::unique_ptr<TestClient> TestGatewayPresence::login(const QString &id, const QString &status)
{
    return ClientSteps::signIn(m_gateway->url(), id, status);
}

QList<QJsonObject> TestGatewayPresence::presenceAfterRoundTrip(TestClient &client)
{
    ClientSteps::roundTrip(client);
    return client.pending(u"presence"_s);
}

bool TestGatewayPresence::closeAndWait(TestClient &client)
{
    return ClientSteps::closeAndWait(*m_gateway, client);
}

void TestGatewayPresence::snapshotForFriendsDeniedForOthers()
{
    auto bob = login(u"bob"_s);
    QVERIFY(bob);
    auto alice = login(u"alice"_s);
    QVERIFY(alice);

    const QJsonObject snapshot
        = subscribe(*alice, { u"bob"_s, u"erin"_s, u"dave"_s, u"nobody"_s, u"bob"_s });
    QCOMPARE(snapshot.value("type"_L1).toString(), u"snapshot"_s);
    // bob is online; erin was never seen: offline, seq 0, no last_seen. dave is no friend
    // and nobody does not exist: both denied alike. The duplicate bob is ignored.
    QCOMPARE(snapshot.value("users"_L1).toArray(),
        (QJsonArray { entry(u"bob"_s, u"online"_s, 1), entry(u"erin"_s, u"offline"_s, 0) }));
    QCOMPARE(snapshot.value("denied"_L1).toArray(), (QJsonArray { u"dave"_s, u"nobody"_s }));
    QCOMPARE(m_gateway->subscriptionsOfUser(u"alice"_s), (QStringList { u"bob"_s, u"erin"_s }));

    // Subscribing again answers with the entry again ...
    const QJsonObject again = subscribe(*alice, { u"bob"_s });
    QCOMPARE(again.value("type"_L1).toString(), u"snapshot"_s);
    QCOMPARE(again.value("users"_L1).toArray(), (QJsonArray { entry(u"bob"_s, u"online"_s, 1) }));
    QCOMPARE(again.value("denied"_L1).toArray(), QJsonArray {});
    QCOMPARE(m_gateway->subscriptionsOfUser(u"alice"_s), (QStringList { u"bob"_s, u"erin"_s }));

    // ... and a change is still pushed once, not once per subscribe.
    QCOMPARE(setStatus(*bob, u"away"_s).value("type"_L1).toString(), u"ok"_s);
    const QList<QJsonObject> pushes = presenceAfterRoundTrip(*alice);
    QCOMPARE(pushes, (QList<QJsonObject> { push(u"bob"_s, u"away"_s, 2) }));
}

void TestGatewayPresence::loginIsPushedToWatchersOnly()
{
    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    auto carol = login(u"carol"_s); // bob's friend, but she does not subscribe
    QVERIFY(carol);
    auto dave = login(u"dave"_s); // not bob's friend
    QVERIFY(dave);

    QCOMPARE(subscribe(*alice, { u"bob"_s }).value("users"_L1).toArray(),
        (QJsonArray { entry(u"bob"_s, u"offline"_s, 0) }));
    const QJsonObject daveSnapshot = subscribe(*dave, { u"bob"_s });
    QCOMPARE(daveSnapshot.value("users"_L1).toArray(), QJsonArray {});
    QCOMPARE(daveSnapshot.value("denied"_L1).toArray(), (QJsonArray { u"bob"_s }));
    QVERIFY(m_gateway->subscriptionsOfUser(u"dave"_s).isEmpty());

    auto bob = login(u"bob"_s);
    QVERIFY(bob);
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"bob"_s, u"online"_s, 1));

    // Leaving and coming back: each published change is the previous seq + 1.
    const qint64 beforeClose = nowMs();
    QVERIFY(closeAndWait(*bob));
    const qint64 afterClose = nowMs();
    const QJsonObject offline = alice->waitFor(u"presence"_s);
    const qint64 lastSeen = offline.value("last_seen"_L1).toInteger(-1);
    QVERIFY2(lastSeen >= beforeClose && lastSeen <= afterClose, compact(offline).constData());
    QCOMPARE(offline, push(u"bob"_s, u"offline"_s, 2, lastSeen));

    bob = login(u"bob"_s);
    QVERIFY(bob);
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"bob"_s, u"online"_s, 3));
    QVERIFY2(presenceAfterRoundTrip(*alice).isEmpty(), dump(alice->pending(u"presence"_s)));

    // bob's pushes went to alice at once; carol and dave heard nothing about anyone.
    QVERIFY2(presenceAfterRoundTrip(*carol).isEmpty(), dump(carol->received()));
    QVERIFY2(presenceAfterRoundTrip(*dave).isEmpty(), dump(dave->received()));
}

void TestGatewayPresence::secondDeviceKeepsUserOnline()
{
    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    auto laptop = login(u"bob"_s);
    QVERIFY(laptop);
    auto phone = login(u"bob"_s);
    QVERIFY(phone);
    QCOMPARE(subscribe(*alice, { u"bob"_s }).value("users"_L1).toArray(),
        (QJsonArray { entry(u"bob"_s, u"online"_s, 1) }));

    // One device leaves: bob is still online, and nothing at all is pushed, even past the grace.
    QVERIFY(closeAndWait(*laptop));
    pause(grace() + kMargin);
    QVERIFY2(presenceAfterRoundTrip(*alice).isEmpty(), dump(alice->pending(u"presence"_s)));

    // The last device leaves: offline, but only after the grace.
    QElapsedTimer sinceClose;
    sinceClose.start();
    const qint64 beforeClose = nowMs();
    QVERIFY(closeAndWait(*phone));
    const qint64 afterClose = nowMs();
    pauseUntil(sinceClose, grace() * 2 / 3);
    QVERIFY2(alice->pending(u"presence"_s).isEmpty(), dump(alice->pending(u"presence"_s)));

    const QJsonObject offline = alice->waitFor(u"presence"_s);
    const qint64 arrivedAt = nowMs();
    QVERIFY2(
        sinceClose.elapsed() >= grace().count(), qPrintable(QString::number(sinceClose.elapsed())));
    // last_seen is when the last device left, not when the grace ran out.
    const qint64 lastSeen = offline.value("last_seen"_L1).toInteger(-1);
    QVERIFY2(lastSeen >= beforeClose && lastSeen <= afterClose,
        qPrintable(
            u"last_seen %1 outside [%2, %3]"_s.arg(lastSeen).arg(beforeClose).arg(afterClose)));
    QVERIFY2(arrivedAt - lastSeen >= grace().count() - 5,
        qPrintable(u"offline arrived %1 ms after last_seen"_s.arg(arrivedAt - lastSeen)));
    QCOMPARE(offline, push(u"bob"_s, u"offline"_s, 2, lastSeen));

    // And the snapshot agrees.
    QCOMPARE(subscribe(*alice, { u"bob"_s }).value("users"_L1).toArray(),
        (QJsonArray { entry(u"bob"_s, u"offline"_s, 2, lastSeen) }));
}

void TestGatewayPresence::reconnectWithinGracePublishesNothing()
{
    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    QCOMPARE(subscribe(*alice, { u"bob"_s }).value("users"_L1).toArray(),
        (QJsonArray { entry(u"bob"_s, u"offline"_s, 0) }));
    auto bob = login(u"bob"_s);
    QVERIFY(bob);
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"bob"_s, u"online"_s, 1));

    QVERIFY(closeAndWait(*bob));
    bob = login(u"bob"_s); // a network blip: back well within the grace
    QVERIFY(bob);
    pause(grace() + kMargin);
    // No offline, and no second online either.
    QVERIFY2(presenceAfterRoundTrip(*alice).isEmpty(), dump(alice->pending(u"presence"_s)));
    QCOMPARE(subscribe(*alice, { u"bob"_s }).value("users"_L1).toArray(),
        (QJsonArray { entry(u"bob"_s, u"online"_s, 1) }));
}

void TestGatewayPresence::statusChangesArePushedAtOnce()
{
    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    auto bob = login(u"bob"_s);
    QVERIFY(bob);
    QCOMPARE(subscribe(*alice, { u"bob"_s }).value("users"_L1).toArray(),
        (QJsonArray { entry(u"bob"_s, u"online"_s, 1) }));

    // Each change is pushed before bob's ok returns; repeats push nothing; seq grows by one.
    struct Step {
        QString status;
        std::optional<qint64> seq; // the pushed seq, none when nothing may be pushed
    };
    const Step steps[] = { { u"away"_s, 2 }, { u"online"_s, 3 }, { u"online"_s, {} },
        { u"away"_s, 4 }, { u"away"_s, {} }, { u"online"_s, 5 }, { u"away"_s, 6 } };
    for (const Step &step : steps) {
        const QJsonObject ok = setStatus(*bob, step.status);
        QCOMPARE(ok.value("type"_L1).toString(), u"ok"_s);
        const QList<QJsonObject> pushes = presenceAfterRoundTrip(*alice);
        if (step.seq)
            QCOMPARE(pushes, (QList<QJsonObject> { push(u"bob"_s, step.status, *step.seq) }));
        else
            QVERIFY2(pushes.isEmpty(), dump(pushes));
        for (qsizetype i = 0; i < pushes.size(); ++i)
            (void)alice->waitFor(u"presence"_s); // take them
    }
    // bob himself is not subscribed to bob: he got no presence frames.
    QVERIFY2(bob->pending(u"presence"_s).isEmpty(), dump(bob->pending(u"presence"_s)));
}

void TestGatewayPresence::onlineDeviceLeavingMeansAwayAfterGrace()
{
    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    auto desk = login(u"bob"_s);
    QVERIFY(desk);
    auto idleLaptop = login(u"bob"_s, u"away"_s);
    QVERIFY(idleLaptop);
    QCOMPARE(subscribe(*alice, { u"bob"_s }).value("users"_L1).toArray(),
        (QJsonArray { entry(u"bob"_s, u"online"_s, 1) }));

    QElapsedTimer sinceClose;
    sinceClose.start();
    QVERIFY(closeAndWait(*desk));
    pauseUntil(sinceClose, grace() * 2 / 3);
    QVERIFY2(alice->pending(u"presence"_s).isEmpty(), dump(alice->pending(u"presence"_s)));

    // bob stayed visible throughout: away, without last_seen.
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"bob"_s, u"away"_s, 2));
    QVERIFY2(
        sinceClose.elapsed() >= grace().count(), qPrintable(QString::number(sinceClose.elapsed())));
    pause(kMargin);
    QVERIFY2(presenceAfterRoundTrip(*alice).isEmpty(), dump(alice->pending(u"presence"_s)));
}

void TestGatewayPresence::invisibleLoginIsNeverPublished()
{
    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    QCOMPARE(subscribe(*alice, { u"bob"_s, u"erin"_s }).value("users"_L1).toArray(),
        (QJsonArray { entry(u"bob"_s, u"offline"_s, 0), entry(u"erin"_s, u"offline"_s, 0) }));

    // bob was around once: offline with a last_seen.
    auto bob = login(u"bob"_s);
    QVERIFY(bob);
    QCOMPARE(alice->waitFor(u"presence"_s), push(u"bob"_s, u"online"_s, 1));
    QVERIFY(closeAndWait(*bob));
    const QJsonObject offline = alice->waitFor(u"presence"_s);
    const qint64 lastSeen = offline.value("last_seen"_L1).toInteger(-1);
    QCOMPARE(offline, push(u"bob"_s, u"offline"_s, 2, lastSeen));

    // Both sign in invisible: nothing is pushed, not at once and not after a grace.
    bob = login(u"bob"_s, u"invisible"_s);
    QVERIFY(bob);
    auto erin = login(u"erin"_s, u"invisible"_s);
    QVERIFY(erin);
    pause(grace() + kMargin);
    QVERIFY2(presenceAfterRoundTrip(*alice).isEmpty(), dump(alice->pending(u"presence"_s)));

    // Snapshots, old and new watchers alike, still say offline with the old last_seen.
    QCOMPARE(subscribe(*alice, { u"bob"_s, u"erin"_s }).value("users"_L1).toArray(),
        (QJsonArray {
            entry(u"bob"_s, u"offline"_s, 2, lastSeen), entry(u"erin"_s, u"offline"_s, 0) }));
    auto carol = login(u"carol"_s);
    QVERIFY(carol);
    QCOMPARE(subscribe(*carol, { u"bob"_s }).value("users"_L1).toArray(),
        (QJsonArray { entry(u"bob"_s, u"offline"_s, 2, lastSeen) }));

    // An invisible user still uses the service.
    QCOMPARE(subscribe(*bob, { u"alice"_s }).value("users"_L1).toArray(),
        (QJsonArray { entry(u"alice"_s, u"online"_s, 1) }));
}

void TestGatewayPresence::goingInvisibleLooksLikeLeaving()
{
    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    auto bob = login(u"bob"_s);
    QVERIFY(bob);
    QCOMPARE(subscribe(*alice, { u"bob"_s }).value("users"_L1).toArray(),
        (QJsonArray { entry(u"bob"_s, u"online"_s, 1) }));

    QElapsedTimer sinceInvisible;
    sinceInvisible.start();
    const qint64 before = nowMs();
    QCOMPARE(setStatus(*bob, u"invisible"_s).value("type"_L1).toString(), u"ok"_s);
    const qint64 after = nowMs();
    pauseUntil(sinceInvisible, grace() * 2 / 3);
    QVERIFY2(alice->pending(u"presence"_s).isEmpty(), dump(alice->pending(u"presence"_s)));

    const QJsonObject offline = alice->waitFor(u"presence"_s);
    QVERIFY2(sinceInvisible.elapsed() >= grace().count(),
        qPrintable(QString::number(sinceInvisible.elapsed())));
    const qint64 lastSeen = offline.value("last_seen"_L1).toInteger(-1);
    QVERIFY2(lastSeen >= before && lastSeen <= after,
        qPrintable(u"last_seen %1 outside [%2, %3]"_s.arg(lastSeen).arg(before).arg(after)));
    QCOMPARE(offline, push(u"bob"_s, u"offline"_s, 2, lastSeen));

    // While invisible nothing moves: not a repeated set_status, not a second invisible
    // device coming and going, not even last_seen.
    QCOMPARE(setStatus(*bob, u"invisible"_s).value("type"_L1).toString(), u"ok"_s);
    auto phone = login(u"bob"_s, u"invisible"_s);
    QVERIFY(phone);
    QVERIFY(closeAndWait(*phone));
    pause(grace() + kMargin);
    QVERIFY2(presenceAfterRoundTrip(*alice).isEmpty(), dump(alice->pending(u"presence"_s)));
    QCOMPARE(subscribe(*alice, { u"bob"_s }).value("users"_L1).toArray(),
        (QJsonArray { entry(u"bob"_s, u"offline"_s, 2, lastSeen) }));

    // Back to online: published at once.
    QCOMPARE(setStatus(*bob, u"online"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(
        presenceAfterRoundTrip(*alice), (QList<QJsonObject> { push(u"bob"_s, u"online"_s, 3) }));
}

void TestGatewayPresence::invisibleActionsDoNotPostponeOffline()
{
    // Going invisible must look like leaving: offline one grace later. Whatever the invisible
    // user does meanwhile (here: repeating set_status invisible) must not keep them online.
    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    auto bob = login(u"bob"_s);
    QVERIFY(bob);
    QCOMPARE(subscribe(*alice, { u"bob"_s }).value("users"_L1).toArray(),
        (QJsonArray { entry(u"bob"_s, u"online"_s, 1) }));

    QElapsedTimer sinceInvisible;
    sinceInvisible.start();
    QCOMPARE(setStatus(*bob, u"invisible"_s).value("type"_L1).toString(), u"ok"_s);
    const auto limit = grace() * 3;
    while (alice->pending(u"presence"_s).isEmpty() && sinceInvisible.elapsed() < limit.count()) {
        QCOMPARE(setStatus(*bob, u"invisible"_s).value("type"_L1).toString(), u"ok"_s);
        pause(grace() / 4);
    }
    QVERIFY2(!alice->pending(u"presence"_s).isEmpty(),
        qPrintable(u"bob still looked online %1 ms after going invisible (grace %2 ms)"_s
                       .arg(sinceInvisible.elapsed())
                       .arg(grace().count())));
    const QJsonObject offline = alice->waitFor(u"presence"_s);
    QCOMPARE(offline.value("status"_L1).toString(), u"offline"_s);
    QCOMPARE(offline.value("seq"_L1).toInteger(), 2);
}

void TestGatewayPresence::unsubscribeStopsPushes()
{
    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    auto bob = login(u"bob"_s);
    QVERIFY(bob);
    auto carol = login(u"carol"_s);
    QVERIFY(carol);
    QCOMPARE(subscribe(*alice, { u"bob"_s, u"carol"_s }).value("users"_L1).toArray(),
        (QJsonArray { entry(u"bob"_s, u"online"_s, 1), entry(u"carol"_s, u"online"_s, 1) }));

    // ok, answered with the request's ref.
    alice->sendJson({ { "type"_L1, "unsubscribe"_L1 }, { "ids"_L1, QJsonArray { u"bob"_s } },
        { "ref"_L1, u"unsub-1"_s } });
    QCOMPARE(alice->waitFor(u"ok"_s),
        (QJsonObject { { "type"_L1, "ok"_L1 }, { "ref"_L1, "unsub-1"_L1 } }));
    QCOMPARE(m_gateway->subscriptionsOfUser(u"alice"_s), QStringList { u"carol"_s });

    QCOMPARE(setStatus(*bob, u"away"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(setStatus(*carol, u"away"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(
        presenceAfterRoundTrip(*alice), (QList<QJsonObject> { push(u"carol"_s, u"away"_s, 2) }));
    (void)alice->waitFor(u"presence"_s);

    // Unknown, unwatched, non-friend and already unsubscribed ids: harmless.
    const QJsonObject ok = unsubscribe(*alice, { u"nobody"_s, u"erin"_s, u"dave"_s, u"bob"_s });
    QCOMPARE(ok.value("type"_L1).toString(), u"ok"_s);
    QVERIFY(alice->isOpen());
    QCOMPARE(m_gateway->subscriptionsOfUser(u"alice"_s), QStringList { u"carol"_s });
    QVERIFY2(alice->pending(u"error"_s).isEmpty(), dump(alice->pending(u"error"_s)));

    // carol is still watched, bob still is not.
    QCOMPARE(setStatus(*bob, u"online"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(setStatus(*carol, u"online"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(
        presenceAfterRoundTrip(*alice), (QList<QJsonObject> { push(u"carol"_s, u"online"_s, 3) }));
}

void TestGatewayPresence::quickChangesArriveInOrder()
{
    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    auto bob = login(u"bob"_s);
    QVERIFY(bob);
    QCOMPARE(subscribe(*alice, { u"bob"_s }).value("users"_L1).toArray(),
        (QJsonArray { entry(u"bob"_s, u"online"_s, 1) }));

    // Fired without waiting for the answers; within the frame burst so none is dropped.
    constexpr int changes = 60;
    for (int i = 0; i < changes; ++i) {
        bob->sendJson({ { "type"_L1, "set_status"_L1 },
            { "status"_L1, i % 2 == 0 ? "away"_L1 : "online"_L1 } });
    }
    QTRY_COMPARE(bob->pending(u"ok"_s).size(), changes);
    QTRY_COMPARE(alice->pending(u"presence"_s).size(), changes);
    const QList<QJsonObject> pushes = alice->pending(u"presence"_s);
    for (int i = 0; i < changes; ++i)
        QCOMPARE(pushes.at(i), push(u"bob"_s, i % 2 == 0 ? u"away"_s : u"online"_s, i + 2));
    QVERIFY2(bob->pending(u"error"_s).isEmpty(), dump(bob->pending(u"error"_s)));
}

void TestGatewayPresence::subscriptionsOfUserFollowRequests()
{
    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    auto alicePhone = login(u"alice"_s);
    QVERIFY(alicePhone);
    QVERIFY(m_gateway->subscriptionsOfUser(u"alice"_s).isEmpty());

    (void)subscribe(*alice, { u"erin"_s, u"carol"_s, u"dave"_s, u"bob"_s });
    QCOMPARE(m_gateway->subscriptionsOfUser(u"alice"_s),
        (QStringList { u"bob"_s, u"carol"_s, u"erin"_s })); // sorted, dave denied
    QCOMPARE(unsubscribe(*alice, { u"carol"_s }).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(m_gateway->subscriptionsOfUser(u"alice"_s), (QStringList { u"bob"_s, u"erin"_s }));

    // A second device's subscriptions add up with the first's.
    (void)subscribe(*alicePhone, { u"carol"_s, u"bob"_s });
    QCOMPARE(m_gateway->subscriptionsOfUser(u"alice"_s),
        (QStringList { u"bob"_s, u"carol"_s, u"erin"_s }));
    QCOMPARE(m_gateway->watchedUserCount(), 3);
    QVERIFY(m_gateway->subscriptionsOfUser(u"bob"_s).isEmpty());
    QVERIFY(m_gateway->subscriptionsOfUser(u"nobody"_s).isEmpty());

    // Closing a connection drops its subscriptions, and only its own.
    QVERIFY(closeAndWait(*alice));
    QCOMPARE(m_gateway->subscriptionsOfUser(u"alice"_s), (QStringList { u"bob"_s, u"carol"_s }));
    QCOMPARE(m_gateway->watchedUserCount(), 2);
    QVERIFY(closeAndWait(*alicePhone));
    QVERIFY(m_gateway->subscriptionsOfUser(u"alice"_s).isEmpty());
    QCOMPARE(m_gateway->watchedUserCount(), 0);
}

void TestGatewayPresence::storeResetSendsEveryWatcherASnapshot()
{
    auto bob = login(u"bob"_s);
    QVERIFY(bob);
    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    auto carol = login(u"carol"_s); // watches nobody: gets nothing
    QVERIFY(carol);
    QCOMPARE(subscribe(*alice, { u"bob"_s, u"erin"_s }).value("type"_L1).toString(), u"snapshot"_s);

    // A shared store says what watchers hold may be wrong: every watcher gets a snapshot of
    // all it watches, without ref (docs/protocol.md, reset snapshot).
    alice->clear();
    carol->clear();
    Q_EMIT m_gateway->store()->storeReset();
    const QJsonObject reset = alice->waitFor(u"snapshot"_s);
    QVERIFY(!reset.contains("ref"_L1));
    QCOMPARE(reset.value("users"_L1).toArray(),
        (QJsonArray { entry(u"bob"_s, u"online"_s, 1), entry(u"erin"_s, u"offline"_s, 0) }));
    QCOMPARE(reset.value("denied"_L1).toArray(), QJsonArray {});
    const QJsonObject pong = carol->request({ { "type"_L1, "ping"_L1 } });
    QCOMPARE(pong.value("type"_L1).toString(), u"pong"_s);
    QVERIFY(carol->pending(u"snapshot"_s).isEmpty());
}

QTEST_GUILESS_MAIN(TestGatewayPresence)
#include "tst_gateway_presence.moc"
