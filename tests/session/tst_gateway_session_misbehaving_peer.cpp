// GatewaySession against a peer that misbehaves as the real gateway never does (a
// ScriptedGateway): stale sequence numbers ignored, a push overtaking its snapshot winning, a
// reset snapshot replacing even higher sequence numbers, and malformed frames survived.

// C++
#include <chrono>

// Qt
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

// Presence
#include "GatewayFixture.h"
#include "GatewaySessionFixture.h"
#include "SessionFixture.h"
#include "protocol/ServerMessages.h"
#include "session/GatewaySession.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Protocol::PresenceStatus;
using Presence::Protocol::UserPresence;
using Presence::Session::GatewaySession;
using State = GatewaySession::State;

namespace {

UserPresence presence(const QString &id, PresenceStatus status, qint64 seq)
{
    UserPresence result;
    result.id = id;
    result.status = status;
    result.seq = seq;
    if (status == PresenceStatus::Offline)
        result.lastSeen = 1'700'000'000'000;
    return result;
}

} // namespace

class TestGatewaySessionMisbehavingPeer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void staleSequenceNumbersAreIgnored();
    void pushOvertakingSnapshotWins();
    void resetSnapshotReplacesEvenLowerSequenceNumbers();
    void malformedFramesAreSurvived();
};

void TestGatewaySessionMisbehavingPeer::staleSequenceNumbersAreIgnored()
{
    ScriptedGateway peer;
    peer.snapshotOf.insert(u"pal"_s, presence(u"pal"_s, PresenceStatus::Offline, 4));
    GatewaySession session(fastOptions());
    QSignalSpy presenceSpy(&session, &GatewaySession::presenceReceived);
    session.setWanted({ u"pal"_s });
    session.open(peer.url(), tokenOf(u"alice"_s));
    QVERIFY(presenceSpy.wait());
    QCOMPARE(presenceOf(presenceSpy),
        QList<UserPresence> { presence(u"pal"_s, PresenceStatus::Offline, 4) });

    peer.push(presence(u"pal"_s, PresenceStatus::Online, 5)); // newer: applied
    peer.push(presence(u"pal"_s, PresenceStatus::Offline, 3)); // older: ignored
    peer.push(presence(u"pal"_s, PresenceStatus::Away, 5)); // same seq again: ignored
    peer.push(presence(u"pal"_s, PresenceStatus::Away, 6)); // newer: applied
    QTRY_COMPARE(presenceSpy.size(), 3);
    QCOMPARE(presenceOf(presenceSpy, 1),
        (QList<UserPresence> { presence(u"pal"_s, PresenceStatus::Online, 5),
            presence(u"pal"_s, PresenceStatus::Away, 6) }));
    QCOMPARE(session.state(), State::Online);
}

void TestGatewaySessionMisbehavingPeer::pushOvertakingSnapshotWins()
{
    ScriptedGateway peer;
    // The snapshot was taken at seq 7, but a push of seq 8 overtakes it on the way.
    peer.snapshotOf.insert(u"pal"_s, presence(u"pal"_s, PresenceStatus::Offline, 7));
    peer.beforeSnapshot.append(presence(u"pal"_s, PresenceStatus::Online, 8));
    GatewaySession session(fastOptions());
    QSignalSpy presenceSpy(&session, &GatewaySession::presenceReceived);
    session.setWanted({ u"pal"_s });
    session.open(peer.url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(peer.subscribed(), QStringList { u"pal"_s });
    peer.push(presence(u"pal"_s, PresenceStatus::Away, 9));
    QTRY_COMPARE(presenceSpy.size(), 2);
    QCOMPARE(presenceOf(presenceSpy),
        (QList<UserPresence> { presence(u"pal"_s, PresenceStatus::Online, 8),
            presence(u"pal"_s, PresenceStatus::Away, 9) }));
}

void TestGatewaySessionMisbehavingPeer::resetSnapshotReplacesEvenLowerSequenceNumbers()
{
    ScriptedGateway peer;
    peer.snapshotOf.insert(u"pal"_s, presence(u"pal"_s, PresenceStatus::Online, 40));
    GatewaySession session(fastOptions());
    QSignalSpy presenceSpy(&session, &GatewaySession::presenceReceived);
    session.setWanted({ u"pal"_s });
    session.open(peer.url(), tokenOf(u"alice"_s));
    QVERIFY(presenceSpy.wait());

    // The gateway's store restarted empty: a snapshot without ref, seq counting from 1 again.
    // A ref'd snapshot with seq 1 would be dropped as older; this one is the whole truth.
    peer.send(Presence::Protocol::toJson(
        Presence::Protocol::Snapshot { { presence(u"pal"_s, PresenceStatus::Away, 1) }, {} }));
    QTRY_COMPARE(presenceSpy.size(), 2);
    QCOMPARE(presenceOf(presenceSpy, 1),
        QList<UserPresence> { presence(u"pal"_s, PresenceStatus::Away, 1) });
    // And pushes after it count from there.
    peer.push(presence(u"pal"_s, PresenceStatus::Online, 2));
    QTRY_COMPARE(presenceSpy.size(), 3);
    QCOMPARE(presenceOf(presenceSpy, 2),
        QList<UserPresence> { presence(u"pal"_s, PresenceStatus::Online, 2) });
}

void TestGatewaySessionMisbehavingPeer::malformedFramesAreSurvived()
{
    ScriptedGateway peer;
    peer.snapshotOf.insert(u"pal"_s, presence(u"pal"_s, PresenceStatus::Offline, 5));
    peer.snapshotOf.insert(u"other"_s, presence(u"other"_s, PresenceStatus::Offline, 1));
    GatewaySession session(fastOptions());
    QSignalSpy presenceSpy(&session, &GatewaySession::presenceReceived);
    QSignalSpy states(&session, &GatewaySession::stateChanged);
    QSignalSpy errors(&session, &GatewaySession::errorReceived);
    session.setWanted({ u"pal"_s });
    session.open(peer.url(), tokenOf(u"alice"_s));
    QVERIFY(presenceSpy.wait());
    QCOMPARE(session.state(), State::Online);
    states.clear();

    const QRegularExpression malformed(u"^ignoring a malformed frame"_s);
    QTest::ignoreMessage(QtWarningMsg, malformed); // not JSON
    QTest::ignoreMessage(QtWarningMsg, malformed); // an array
    QTest::ignoreMessage(QtWarningMsg, malformed); // presence without its fields
    QTest::ignoreMessage(QtWarningMsg, malformed); // presence with a bad status
    peer.sendText(u"this is not json {"_s);
    peer.sendText(u"[1,2,3]"_s);
    peer.sendText(u"{\"type\":\"presence\"}"_s);
    peer.sendText(u"{\"type\":\"presence\",\"id\":\"pal\",\"status\":\"dancing\",\"seq\":6}"_s);
    peer.sendText(u"{\"type\":\"new_thing\",\"x\":1}"_s); // a newer gateway's type: ignored
    peer.sendBinary(QByteArray("\x00\x01\x02", 3));
    peer.push(presence(u"other"_s, PresenceStatus::Online, 9)); // not subscribed: ignored
    peer.push(presence(u"pal"_s, PresenceStatus::Online, 7)); // still applied after all that

    QTRY_COMPARE(presenceSpy.size(), 2);
    QCOMPARE(presenceOf(presenceSpy, 1),
        QList<UserPresence> { presence(u"pal"_s, PresenceStatus::Online, 7) });
    QCOMPARE(session.state(), State::Online);
    QVERIFY(states.isEmpty());
    QVERIFY(errors.isEmpty());
    QVERIFY(peer.peerConnected());
}

QTEST_MAIN(TestGatewaySessionMisbehavingPeer)
#include "tst_gateway_session_misbehaving_peer.moc"
