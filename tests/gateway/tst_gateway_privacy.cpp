// Privacy probes against an in-process gateway over real loopback WebSockets: an invisible
// user is, to a watcher, exactly a user who is offline (no frame, no last_seen change, the
// same snapshot, availability and digest bytes); no frame acts for another user than the
// token's; a stranger learns nothing of a user, not even that they exist.

// C++
#include <chrono>
#include <memory>

// Qt
#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

// Presence
#include "ClientSteps.h"
#include "GatewayFixture.h"
#include "PresenceFrames.h"
#include "TestClient.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Server::GatewayConfig;
using PresenceFrames::compact;
using PresenceFrames::dump;

namespace {

// carol watches dave, her friend; erin is a stranger to both; alice is bob's friend, and
// carol is bob's friend too.
QList<TestUser> population()
{
    return PresenceFrames::fivePeople();
}

GatewayConfig privacyConfig()
{
    GatewayConfig config = testConfig();
    config.digestInterval = 200ms; // digests come often enough to compare
    return config;
}

// What a watcher holds about `id`: the snapshot entry a fresh subscribe answers with.
QJsonObject snapshotOf(TestClient &watcher, const QString &id)
{
    (void)ClientSteps::unsubscribe(watcher, { id });
    const QJsonArray users = ClientSteps::subscribe(watcher, { id }).value("users"_L1).toArray();
    return users.size() == 1 ? users.at(0).toObject() : QJsonObject();
}

// An answer as it would read to anyone: without the ref of the request it answers.
QJsonObject withoutRef(QJsonObject answer)
{
    answer.remove("ref"_L1);
    return answer;
}

// Frames that arrived since `from` (after a round trip, so that none is still on its way),
// digests aside: they come on their own clock and are compared apart.
QList<QJsonObject> framesSince(TestClient &client, qsizetype from)
{
    ClientSteps::roundTrip(client);
    QList<QJsonObject> frames;
    for (qsizetype i = from; i < client.received().size(); ++i) {
        const QJsonObject &frame = client.received().at(i);
        const QString type = frame.value("type"_L1).toString();
        if (type != u"digest" && type != u"pong")
            frames.append(frame);
    }
    return frames;
}

} // namespace

class TestGatewayPrivacy : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void invisibleUserLooksExactlyOffline();
    void noFrameActsForAnotherUser();
    void strangerLearnsNothing();
};

void TestGatewayPrivacy::invisibleUserLooksExactlyOffline()
{
    const auto gateway = startGateway(population(), privacyConfig());
    QVERIFY(gateway);
    // dave was seen once, so he has a last_seen a leak could move.
    {
        auto once = ClientSteps::signIn(gateway->url(), u"dave"_s);
        QVERIFY(once);
        QVERIFY(ClientSteps::closeAndWait(*gateway, *once));
    }
    auto carol = ClientSteps::signIn(gateway->url(), u"carol"_s);
    QVERIFY(carol);
    QTRY_COMPARE_WITH_TIMEOUT(snapshotOf(*carol, u"dave"_s).value("status"_L1).toString(),
        u"offline"_s, 5'000); // after the grace
    const QJsonObject before = snapshotOf(*carol, u"dave"_s);
    QVERIFY2(before.contains("last_seen"_L1), compact(before).constData());
    const QJsonObject availabilityBefore = withoutRef(ClientSteps::watchAvailability(*carol));
    QVERIFY(!carol->waitFor(u"digest"_s).isEmpty());
    carol->clear();
    const QJsonObject digestBefore = carol->waitFor(u"digest"_s);

    // dave signs in invisible, stays a while, chooses invisible again, and leaves.
    const qsizetype from = carol->received().size();
    auto dave = ClientSteps::signIn(gateway->url(), u"dave"_s, u"invisible"_s);
    QVERIFY(dave);
    QCOMPARE(ClientSteps::setStatus(*dave, u"invisible"_s).value("type"_L1).toString(), u"ok"_s);
    // What carol is told while he is there: nothing, and the same answers as before.
    QCOMPARE(snapshotOf(*carol, u"dave"_s), before);
    QCOMPARE(withoutRef(ClientSteps::watchAvailability(*carol)), availabilityBefore);
    carol->clear();
    QCOMPARE(carol->waitFor(u"digest"_s), digestBefore);
    QVERIFY(ClientSteps::closeAndWait(*gateway, *dave));
    // ... and after he left: no push, even once the grace is over (an offline user who was
    // never told online goes nowhere), and the same last_seen.
    const auto toldOfDave = [&] {
        for (qsizetype i = from; i < carol->received().size(); ++i) {
            const QJsonObject &frame = carol->received().at(i);
            if (frame.value("type"_L1).toString() == u"presence")
                return true;
        }
        return false;
    };
    QVERIFY(!QTest::qWaitFor(toldOfDave, int((gateway->config().grace + 300ms).count())));
    const QList<QJsonObject> told = framesSince(*carol, from);
    for (const QJsonObject &frame : told) {
        const QString type = frame.value("type"_L1).toString();
        QVERIFY2(type == u"snapshot" || type == u"ok" || type == u"availability",
            dump(told).constData()); // the answers to carol's own requests only
    }
    QCOMPARE(snapshotOf(*carol, u"dave"_s), before);
}

void TestGatewayPrivacy::noFrameActsForAnotherUser()
{
    const auto gateway = startGateway(population(), privacyConfig());
    QVERIFY(gateway);
    auto bob = ClientSteps::signIn(gateway->url(), u"bob"_s);
    QVERIFY(bob);
    auto carol = ClientSteps::signIn(gateway->url(), u"carol"_s);
    QVERIFY(carol);
    const QJsonArray watched
        = ClientSteps::subscribe(*carol, { u"bob"_s }).value("users"_L1).toArray();
    QCOMPARE(watched.at(0).toObject().value("status"_L1).toString(), u"online"_s);
    auto alice = ClientSteps::signIn(gateway->url(), u"alice"_s);
    QVERIFY(alice);
    const qsizetype from = carol->received().size();

    // alice names bob every way a frame could: the gateway acts for alice or not at all.
    for (const char *field : { "id", "user", "user_id", "as", "from" }) {
        alice->sendJson({ { "type"_L1, "set_status"_L1 }, { "status"_L1, "away"_L1 },
            { QLatin1StringView(field), "bob"_L1 }, { "ref"_L1, QLatin1StringView(field) } });
    }
    alice->sendJson({ { "type"_L1, "hello"_L1 }, { "token"_L1, "bob-secret"_L1 },
        { "protocol"_L1, 1 }, { "status"_L1, "away"_L1 } });
    alice->sendJson({ { "type"_L1, "message"_L1 }, { "to"_L1, "carol"_L1 }, { "from"_L1, "bob"_L1 },
        { "text"_L1, "hi"_L1 }, { "ref"_L1, "m"_L1 } });
    ClientSteps::roundTrip(*alice);
    QVERIFY(alice->isOpen());
    // bob's status never moved: carol, watching him, heard nothing of him.
    for (const QJsonObject &frame : framesSince(*carol, from)) {
        QVERIFY2(frame.value("type"_L1).toString() != u"presence"
                || frame.value("id"_L1).toString() != u"bob",
            compact(frame).constData());
    }
    const QJsonArray now = ClientSteps::subscribe(*carol, { u"bob"_s }).value("users"_L1).toArray();
    QCOMPARE(now.at(0).toObject().value("status"_L1).toString(), u"online"_s);
    QCOMPARE(now.at(0).toObject().value("seq"_L1), watched.at(0).toObject().value("seq"_L1));
    // And the message carol got is from alice, whatever it claimed.
    const QJsonObject message = carol->waitFor(u"message"_s);
    QCOMPARE(message.value("from"_L1).toString(), u"alice"_s);
}

void TestGatewayPrivacy::strangerLearnsNothing()
{
    const auto gateway = startGateway(population(), privacyConfig());
    QVERIFY(gateway);
    auto erin = ClientSteps::signIn(gateway->url(), u"erin"_s);
    QVERIFY(erin);
    // dave exists, "nobody" does not: to erin, a stranger to dave, the two read the same.
    const QJsonObject answer = ClientSteps::subscribe(*erin, { u"dave"_s, u"nobody"_s });
    QCOMPARE(answer.value("users"_L1).toArray(), QJsonArray());
    QCOMPARE(answer.value("denied"_L1).toArray(), (QJsonArray { u"dave"_s, u"nobody"_s }));
    const QJsonObject availability = withoutRef(ClientSteps::watchAvailability(*erin));
    const qsizetype from = erin->received().size();

    // dave comes, changes and goes: erin hears nothing of it, by any frame.
    auto dave = ClientSteps::signIn(gateway->url(), u"dave"_s);
    QVERIFY(dave);
    QCOMPARE(ClientSteps::setStatus(*dave, u"away"_s).value("type"_L1).toString(), u"ok"_s);
    QVERIFY(ClientSteps::closeAndWait(*gateway, *dave));
    const QList<QJsonObject> told = framesSince(*erin, from);
    QVERIFY2(!dump(told).contains("dave"), dump(told).constData());
    // The same answers as before he came.
    const QJsonObject again = ClientSteps::subscribe(*erin, { u"dave"_s, u"nobody"_s });
    QCOMPARE(again.value("denied"_L1).toArray(), (QJsonArray { u"dave"_s, u"nobody"_s }));
    QCOMPARE(withoutRef(ClientSteps::watchAvailability(*erin)), availability);
}

QTEST_GUILESS_MAIN(TestGatewayPrivacy)
#include "tst_gateway_privacy.moc"
