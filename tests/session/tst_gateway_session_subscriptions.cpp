// GatewaySession's subscriptions at a real gateway over loopback: the gateway's set follows what
// is wanted, in as few requests as its limits allow, never over its subscription limit; and
// every request stays under its frame size limit (batches cut by size; one too large refused
// before it is sent).

// C++
#include <chrono>

// Qt
#include <QSignalSpy>
#include <QTest>

// Presence
#include "GatewayFixture.h"
#include "GatewaySessionFixture.h"
#include "SessionFixture.h"
#include "TestClient.h"
#include "protocol/ClientMessages.h"
#include "session/GatewaySession.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Server::GatewayConfig;
using Presence::Session::GatewaySession;
using State = GatewaySession::State;

namespace {

QString friendId(int n)
{
    return u"f%1"_s.arg(n, 2, 10, QChar(u'0'));
}

// f01..fN, in order.
QStringList friendIds(int first, int last)
{
    QStringList ids;
    for (int n = first; n <= last; ++n)
        ids.append(friendId(n));
    return ids;
}

// Alice with `count` friends f01.., plus a stranger.
QList<TestUser> friendsPopulation(int count)
{
    QList<TestUser> users { { u"alice"_s, friendIds(1, count) }, { u"stranger"_s, {} } };
    for (const QString &id : friendIds(1, count))
        users.append({ id, {} });
    return users;
}

QSet<QString> toSet(const QStringList &ids)
{
    return QSet<QString>(ids.cbegin(), ids.cend());
}

QSet<QString> staleIdsOf(const QSignalSpy &spy)
{
    QSet<QString> ids;
    for (const QList<QVariant> &args : spy) {
        const QStringList stale = args.at(0).toStringList();
        ids.unite(toSet(stale));
    }
    return ids;
}

} // namespace

class TestGatewaySessionSubscriptions : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void subscriptionsFollowWanted();
    void subscriptionsNeverExceedTheGatewayLimit();
    void requestsStayUnderTheFrameSizeLimit();
    void anOversizedRequestIsRefusedBeforeItIsSent();
};

void TestGatewaySessionSubscriptions::subscriptionsFollowWanted()
{
    GatewayConfig config = testConfig();
    config.maxIdsPerRequest = 5;
    auto gateway = startGateway(friendsPopulation(30), config);
    QVERIFY(gateway);
    GatewaySession session(fastOptions());
    QSignalSpy presence(&session, &GatewaySession::presenceReceived);
    QSignalSpy stale(&session, &GatewaySession::presenceStale);
    QSignalSpy errors(&session, &GatewaySession::errorReceived);
    QSignalSpy changed(&session, &GatewaySession::subscriptionsChanged);
    session.open(gateway->url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), State::Online);
    QCOMPARE(session.limits().maxIdsPerRequest, 5);

    // 23 ids, at most 5 a request: 5 subscribe requests.
    const QStringList first = friendIds(1, 23);
    session.setWanted(toSet(first));
    QCOMPARE(session.subscribeRequestsSent(), 0); // applied on the next event-loop turn
    QTRY_COMPARE(gateway->subscriptionsOfUser(u"alice"_s), first);
    QCOMPARE(session.subscribeRequestsSent(), 5);
    QCOMPARE(session.unsubscribeRequestsSent(), 0);
    QCOMPARE(session.subscribed(), toSet(first));
    QTRY_COMPARE(presenceIdsOf(presence), toSet(first)); // every snapshot came back
    QCOMPARE(changed.constLast().at(0).toInt(), 23);
    QVERIFY(stale.isEmpty());

    // Down to 10: the 13 others are unsubscribed (3 requests) and reported stale.
    const QStringList second = friendIds(1, 10);
    session.setWanted(toSet(second));
    QTRY_COMPARE(gateway->subscriptionsOfUser(u"alice"_s), second);
    QCOMPARE(session.unsubscribeRequestsSent(), 3);
    QCOMPARE(session.subscribeRequestsSent(), 5);
    QCOMPARE(session.subscribed(), toSet(second));
    QCOMPARE(staleIdsOf(stale), toSet(friendIds(11, 23)));
    QCOMPARE(changed.constLast().at(0).toInt(), 10);

    // Slide the window: 5 out, 5 in, one request each.
    stale.clear();
    const qsizetype presenceBefore = presence.size();
    const QStringList third = friendIds(6, 15);
    session.setWanted(toSet(third));
    QTRY_COMPARE(gateway->subscriptionsOfUser(u"alice"_s), third);
    QCOMPARE(session.unsubscribeRequestsSent(), 4);
    QCOMPARE(session.subscribeRequestsSent(), 6);
    QCOMPARE(staleIdsOf(stale), toSet(friendIds(1, 5)));
    QTRY_COMPARE(presenceIdsOf(presence, presenceBefore), toSet(friendIds(11, 15)));

    // Several updates within one turn cost one round of requests, for the last of them only.
    const QStringList fourth = friendIds(6, 16);
    session.setWanted(toSet(friendIds(1, 30)));
    session.setWanted(toSet(fourth));
    QTRY_COMPARE(gateway->subscriptionsOfUser(u"alice"_s), fourth);
    QCOMPARE(session.subscribeRequestsSent(), 7);
    QCOMPARE(session.unsubscribeRequestsSent(), 4);

    // A stranger is denied by the gateway and not counted as subscribed.
    session.setWanted(toSet(fourth) + QSet<QString> { u"stranger"_s });
    QTRY_COMPARE(session.subscribeRequestsSent(), 8);
    QTRY_COMPARE(session.subscribed(), toSet(fourth));
    QCOMPARE(gateway->subscriptionsOfUser(u"alice"_s), fourth);
    QVERIFY2(errors.isEmpty(), qPrintable(errors.value(0).value(0).toString()));
}

void TestGatewaySessionSubscriptions::subscriptionsNeverExceedTheGatewayLimit()
{
    GatewayConfig config = testConfig();
    config.maxIdsPerRequest = 5;
    config.maxSubscriptions = 10;
    auto gateway = startGateway(friendsPopulation(30), config);
    QVERIFY(gateway);
    GatewaySession session(fastOptions());
    QSignalSpy presence(&session, &GatewaySession::presenceReceived);
    QSignalSpy errors(&session, &GatewaySession::errorReceived);
    QSignalSpy changed(&session, &GatewaySession::subscriptionsChanged);
    const QSet<QString> wanted = toSet(friendIds(1, 25));
    session.setWanted(wanted);
    session.open(gateway->url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), State::Online);
    QCOMPARE(session.limits().maxSubscriptions, 10);

    QTRY_COMPARE(gateway->subscriptionsOfUser(u"alice"_s).size(), 10);
    QCOMPARE(session.subscribed().size(), 10);
    QVERIFY(wanted.contains(session.subscribed()));
    QCOMPARE(gateway->subscriptionsOfUser(u"alice"_s), sorted(session.subscribed()));
    QCOMPARE(session.subscribeRequestsSent(), 2);
    QTRY_COMPARE(presenceIdsOf(presence), session.subscribed());

    // A push is the sentinel: an error for any earlier request would have come before it.
    auto signIn = [&](const QString &id, TestClient &client) {
        const qsizetype before = presence.size();
        QVERIFY(!client.login(gateway->url(), tokenOf(id)).isEmpty());
        QTRY_VERIFY(presenceIdsOf(presence, before).contains(id));
    };
    const QSet<QString> firstWatched = session.subscribed();
    TestClient sentinel;
    signIn(sorted(firstWatched).constFirst(), sentinel);
    if (QTest::currentTestFailed())
        return;
    QVERIFY2(errors.isEmpty(), qPrintable(errors.value(0).value(0).toString()));

    // Three watched ids are no longer wanted: their room goes to three others still wanted.
    const QStringList dropped = sorted(firstWatched).mid(0, 3);
    const QSet<QString> smaller = wanted - toSet(dropped);
    session.setWanted(smaller);
    QTRY_VERIFY(!toSet(gateway->subscriptionsOfUser(u"alice"_s)).intersects(toSet(dropped)));
    QTRY_COMPARE(gateway->subscriptionsOfUser(u"alice"_s).size(), 10);
    QCOMPARE(session.subscribed().size(), 10);
    QVERIFY(smaller.contains(session.subscribed()));
    QCOMPARE(gateway->subscriptionsOfUser(u"alice"_s), sorted(session.subscribed()));
    const QSet<QString> added = session.subscribed() - firstWatched;
    QCOMPARE(added.size(), 3);

    TestClient secondSentinel;
    signIn(sorted(added).constFirst(), secondSentinel); // newly watched, and it works
    if (QTest::currentTestFailed())
        return;
    QVERIFY2(errors.isEmpty(), qPrintable(errors.value(0).value(0).toString()));
    for (const QList<QVariant> &args : std::as_const(changed))
        QVERIFY2(args.at(0).toInt() <= 10, qPrintable(QString::number(args.at(0).toInt())));
}

void TestGatewaySessionSubscriptions::requestsStayUnderTheFrameSizeLimit()
{
    // 64-character ids and the smallest frame limit: batches are cut by size too, or the
    // gateway would close with 1009 and the session would loop reconnecting.
    GatewayConfig config = testConfig();
    config.maxFrameBytes = 1024;
    TestUser alice { u"alice"_s, {} };
    QList<TestUser> users;
    for (int n = 0; n < 60; ++n) {
        const QString id = u"x%1"_s.arg(n, 63, 10, QChar(u'0'));
        alice.friends.append(id);
        users.append({ id, {} });
    }
    users.prepend(alice);
    auto gateway = startGateway(users, config);
    QVERIFY(gateway);
    GatewaySession session(fastOptions());
    QSignalSpy states(&session, &GatewaySession::stateChanged);
    session.open(gateway->url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), GatewaySession::State::Online);
    const QSet<QString> wanted(alice.friends.cbegin(), alice.friends.cend());
    session.setWanted(wanted);
    QStringList expected = alice.friends;
    expected.sort();
    QTRY_COMPARE(gateway->subscriptionsOfUser(u"alice"_s), expected);
    QVERIFY(session.subscribeRequestsSent() >= 4); // 60 x 67 bytes cannot fit in one 1 KiB frame
    QCOMPARE(session.state(), GatewaySession::State::Online);
    QVERIFY(!states.contains(
        QVariantList { QVariant::fromValue(GatewaySession::State::Reconnecting) }));
}

void TestGatewaySessionSubscriptions::anOversizedRequestIsRefusedBeforeItIsSent()
{
    // Sent, a frame over max_frame_bytes would get the connection closed with 1009: the session
    // refuses it itself, queued like an answer, names the limit, and stays online.
    GatewayConfig config = testConfig();
    config.maxFrameBytes = 1024;
    auto gateway
        = startGateway({ { u"alice"_s, { u"bob"_s } }, { u"bob"_s, { u"alice"_s } } }, config);
    QVERIFY(gateway);
    GatewaySession session(fastOptions());
    QSignalSpy states(&session, &GatewaySession::stateChanged);
    QSignalSpy refused(&session, &GatewaySession::requestRefused);
    QSignalSpy answered(&session, &GatewaySession::okReceived);
    session.open(gateway->url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), State::Online);

    const auto message = [](const QString &text) {
        return Presence::Protocol::toJson(
            Presence::Protocol::SendMessageRequest { u"bob"_s, text });
    };
    const QString tooLarge = session.request(message(QString(1100, u'x')), u'm');
    QVERIFY(!tooLarge.isEmpty());
    QCOMPARE(refused.size(), 0); // not from inside the call
    QVERIFY(refused.wait());
    QCOMPARE(refused.constFirst().at(0).toString(), tooLarge);
    QCOMPARE(refused.constFirst().at(1).toString(), u"bad_request"_s);
    QVERIFY2(refused.constFirst().at(2).toString().contains(u"at most 1024 bytes"_s),
        qPrintable(refused.constFirst().at(2).toString()));

    // The connection was never put at risk: the next request goes and is answered on it.
    const QString fits = session.request(message(u"hi"_s), u'm');
    QVERIFY(answered.wait());
    QCOMPARE(answered.constFirst().at(0).toString(), fits);
    QCOMPARE(refused.size(), 1);
    QCOMPARE(session.state(), State::Online);
    QVERIFY(!states.contains(QVariantList { QVariant::fromValue(State::Reconnecting) }));
}

QTEST_MAIN(TestGatewaySessionSubscriptions)
#include "tst_gateway_session_subscriptions.moc"
