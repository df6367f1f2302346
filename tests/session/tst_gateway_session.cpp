// Tests for the client's GatewaySession over real loopback sockets: signing in, friends paging,
// failing for good on a bad token, reconnecting and resubscribing after the gateway dies, noticing
// a dead path by its heartbeat (through a stalling TcpProxy), keeping the gateway's subscriptions
// equal to what is wanted, and surviving a peer that sends stale or malformed frames (a scripted
// server, since the real gateway never misbehaves).

// C++
#include <algorithm>
#include <chrono>
#include <memory>

// Qt
#include <QElapsedTimer>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QWebSocket>
#include <QWebSocketServer>

// Presence
#include "GatewayFixture.h"
#include "SessionFixture.h"
#include "TestClient.h"
#include "protocol/Backoff.h"
#include "protocol/ClientMessages.h"
#include "protocol/Frame.h"
#include "protocol/ServerMessages.h"
#include "server-mock/chat/MemoryChatStore.h"
#include "server-mock/presence/MemoryPresenceStore.h"
#include "session/GatewaySession.h"
#include "tests/harness/ClosedPort.h"
#include "tests/harness/TcpProxy.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Protocol::Backoff;
using Presence::Protocol::PresenceStatus;
using Presence::Protocol::UserInfo;
using Presence::Protocol::UserPresence;
using Presence::Server::Gateway;
using Presence::Server::GatewayConfig;
using Presence::Server::UserDirectory;
using Presence::Session::GatewaySession;
using State = GatewaySession::State;

namespace {

// Short delays so reconnect scenarios take milliseconds; a floor below the base so every
// attempt's window is wide enough to show jitter.
Backoff::Policy shortBackoff()
{
    Backoff::Policy policy;
    policy.floor = 10ms;
    policy.base = 50ms;
    policy.cap = 500ms;
    return policy;
}

GatewaySession::Options fastOptions()
{
    GatewaySession::Options options;
    options.backoff = shortBackoff();
    return options;
}

// Alice's friends in users-file order (bob, cat, dan); eve is a stranger.
QList<TestUser> smallPopulation()
{
    return {
        { u"bob"_s, {} },
        { u"alice"_s, { u"dan"_s, u"bob"_s, u"cat"_s } },
        { u"cat"_s, {} },
        { u"eve"_s, {} },
        { u"dan"_s, {} },
    };
}

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

// A directory built directly (a users file of 100,000 entries would be slow to parse):
// alice and `count` friends u000000.., all of them friends of hers.
std::unique_ptr<Gateway> startGatewayWithFriends(int count, QStringList *ids)
{
    UserDirectory directory;
    const int me = directory.addUser(u"alice"_s, u"Alice"_s, tokenOf(u"alice"_s));
    ids->reserve(count);
    for (int i = 0; i < count; ++i) {
        const QString id = u"u%1"_s.arg(i, 6, 10, QChar(u'0'));
        ids->append(id);
        directory.addFriendship(me, directory.addUser(id, u"Friend "_s + id, tokenOf(id)));
    }
    directory.finish();
    auto gateway = std::make_unique<Gateway>(testConfig(), std::move(directory),
        new Presence::Server::MemoryPresenceStore(testConfig().grace),
        new Presence::Server::MemoryChatStore);
    QString error;
    if (!gateway->listen(&error)) {
        qWarning("%s", qPrintable(error));
        return nullptr;
    }
    return gateway;
}

// The same population on a fixed port: a gateway "restarted" where clients expect it.
std::unique_ptr<Gateway> restartGateway(const QList<TestUser> &users, quint16 port)
{
    GatewayConfig config = testConfig();
    config.port = port;
    return startGateway(users, config);
}

QList<State> statesOf(const QSignalSpy &spy)
{
    QList<State> states;
    for (const QList<QVariant> &args : spy)
        states.append(args.at(0).value<State>());
    return states;
}

QStringList sorted(QStringList ids)
{
    ids.sort();
    return ids;
}

QStringList sorted(const QSet<QString> &ids)
{
    return sorted(QStringList(ids.cbegin(), ids.cend()));
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

// A stand-in for the gateway that follows a script: it answers hello, friends, subscribe,
// unsubscribe and ping correctly, and then sends whatever a test tells it to, including
// frames the real gateway never sends (stale seqs, garbage, unknown types).
class ScriptedGateway {
public:
    ScriptedGateway()
        : m_server(u"scripted"_s, QWebSocketServer::NonSecureMode)
    {
        QObject::connect(&m_server, &QWebSocketServer::newConnection, &m_server, [this] {
            while (QWebSocket *peer = m_server.nextPendingConnection()) {
                // QWebSocketServer hands its sockets over without a parent (unlike QTcpServer).
                peer->setParent(&m_server);
                m_peer = peer;
                QObject::connect(peer, &QWebSocket::textMessageReceived, &m_server,
                    [this](const QString &text) { onText(text); });
            }
        });
        if (!m_server.listen(QHostAddress::LocalHost, 0))
            qWarning("scripted gateway cannot listen: %s", qPrintable(m_server.errorString()));
    }

    [[nodiscard]] QUrl url() const
    {
        return QUrl(u"ws://127.0.0.1:%1/"_s.arg(m_server.serverPort()));
    }
    [[nodiscard]] bool peerConnected() const
    {
        return m_peer && m_peer->state() == QAbstractSocket::ConnectedState;
    }
    [[nodiscard]] const QStringList &subscribed() const { return m_subscribed; }

    void send(const QJsonObject &message)
    {
        sendText(QString::fromUtf8(Presence::Protocol::serializeFrame(message)));
    }
    void sendText(const QString &text) { m_peer->sendTextMessage(text); }
    void sendBinary(const QByteArray &data) { m_peer->sendBinaryMessage(data); }
    void closePeer(quint16 code) { m_peer->close(QWebSocketProtocol::CloseCode(code)); }
    void push(const UserPresence &presence)
    {
        send(Presence::Protocol::toJson(Presence::Protocol::PresenceEvent { presence }));
    }

    // What a snapshot says of each friend; ids not in here are denied.
    QHash<QString, UserPresence> snapshotOf;
    // Pushes sent just before the snapshot reply: a push overtaking a snapshot in flight.
    QList<UserPresence> beforeSnapshot;

private:
    void onText(const QString &text)
    {
        using namespace Presence::Protocol;
        const auto envelope = parseFrame(text);
        if (!envelope.ok())
            return;
        const auto decoded = decodeClientMessage(envelope.value());
        if (!decoded.ok())
            return;
        const auto ref = envelope.value().ref;
        std::visit(
            [&](const auto &message) {
                using T = std::decay_t<decltype(message)>;
                if constexpr (std::is_same_v<T, Hello>) {
                    Welcome welcome;
                    welcome.user = { u"alice"_s, u"Alice"_s };
                    reply(toJson(welcome), ref);
                } else if constexpr (std::is_same_v<T, FriendsRequest>) {
                    FriendsPage page;
                    page.offset = message.offset;
                    QStringList friends = snapshotOf.keys();
                    friends.sort();
                    page.total = int(friends.size());
                    for (const QString &id : friends.mid(message.offset, message.limit))
                        page.items.append({ id, id });
                    reply(toJson(page), ref);
                } else if constexpr (std::is_same_v<T, SubscribeRequest>) {
                    for (const UserPresence &early : std::as_const(beforeSnapshot))
                        push(early);
                    beforeSnapshot.clear();
                    Snapshot snapshot;
                    for (const QString &id : message.ids) {
                        const auto it = snapshotOf.constFind(id);
                        if (it == snapshotOf.constEnd()) {
                            snapshot.denied.append(id);
                        } else {
                            snapshot.users.append(*it);
                            m_subscribed.append(id);
                        }
                    }
                    reply(toJson(snapshot), ref);
                } else if constexpr (std::is_same_v<T, UnsubscribeRequest>) {
                    for (const QString &id : message.ids)
                        m_subscribed.removeAll(id);
                    reply(toJson(Ok {}), ref);
                } else if constexpr (std::is_same_v<T, PingRequest>) {
                    reply(toJson(Pong {}), ref);
                } else {
                    reply(toJson(Ok {}), ref);
                }
            },
            decoded.value());
    }

    void reply(const QJsonObject &message, const std::optional<QString> &ref)
    {
        sendText(QString::fromUtf8(Presence::Protocol::serializeFrame(message, ref)));
    }

    QWebSocketServer m_server;
    QWebSocket *m_peer = nullptr;
    QStringList m_subscribed;
};

// A plain HTTP server: it answers every request, a WebSocket upgrade too, with a page and the
// given status line ("200 OK"), never with 101.
class PlainWebServer {
public:
    explicit PlainWebServer(QByteArray statusLine)
        : m_statusLine(std::move(statusLine))
    {
        QObject::connect(&m_server, &QTcpServer::newConnection, &m_server, [this] {
            while (QTcpSocket *peer = m_server.nextPendingConnection()) {
                QObject::connect(peer, &QTcpSocket::readyRead, peer, [this, peer] {
                    if (!peer->readAll().contains("\r\n\r\n"))
                        return;
                    ++m_requests;
                    peer->write("HTTP/1.1 " + m_statusLine
                        + "\r\nContent-Type: text/html\r\nContent-Length: 6\r\n"
                          "Connection: close\r\n\r\nhello\n");
                    peer->disconnectFromHost();
                });
                QObject::connect(peer, &QTcpSocket::disconnected, peer, &QObject::deleteLater);
            }
        });
        m_server.listen(QHostAddress::LocalHost, 0);
    }

    [[nodiscard]] bool isListening() const { return m_server.isListening(); }
    [[nodiscard]] quint16 port() const { return m_server.serverPort(); }
    [[nodiscard]] QUrl url() const { return QUrl(u"ws://127.0.0.1:%1/"_s.arg(port())); }
    [[nodiscard]] int requests() const { return m_requests; }

private:
    QByteArray m_statusLine;
    QTcpServer m_server;
    int m_requests = 0;
};

} // namespace

class TestGatewaySession : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Signing in
    void logInGoesOnlineWithFriends();
    void friendsArePagedCompletely_data();
    void friendsArePagedCompletely();
    void badTokenFailsWithoutRetrying_data();
    void badTokenFailsWithoutRetrying();
    void aWebServerIsNotAGateway_data();
    void aWebServerIsNotAGateway();
    void theWebServerDiagnosisBelongsToOneAttempt();

    // Reconnecting
    void reconnectsAndResubscribesAfterGatewayRestart();
    void heartbeatDetectsADeadPath();
    void connectTimeoutRetriesABlackHoledConnect();
    void droppedConnectionReconnectsThroughProxyToNewTarget();
    void retriesWithGrowingJitteredDelays();
    void retryNowSkipsTheWait();
    void stableSessionResetsTheBackoff_data();
    void stableSessionResetsTheBackoff();
    void reopenWhileOnlineStartsClean();
    void dropAfterARefusedTokenStillReconnects();
    void statusChosenWhileSigningInIsKept();
    void requestsStayUnderTheFrameSizeLimit();
    void anOversizedRequestIsRefusedBeforeItIsSent();
    void closedForFloodingBacksOffToTheCap();

    // Subscriptions
    void subscriptionsFollowWanted();
    void subscriptionsNeverExceedTheGatewayLimit();
    void availabilityCoversEveryFriend();
    void noAvailabilityFromAGatewayWithoutIt();
    void availabilityChangesComeInBatches();
    void availabilityChangesUnbatchedWhenAskedForNone();
    void aLostPushIsCorrectedByTheDigest();
    void friendsChangedReloadsTheListAndWatchesAgain();

    // A misbehaving peer
    void staleSequenceNumbersAreIgnored();
    void pushOvertakingSnapshotWins();
    void resetSnapshotReplacesEvenLowerSequenceNumbers();
    void malformedFramesAreSurvived();

    // Closing
    void closeStopsForGood_data();
    void closeStopsForGood();
};

// ---- Signing in ----------------------------------------------------------------------------

void TestGatewaySession::availabilityCoversEveryFriend()
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

void TestGatewaySession::aLostPushIsCorrectedByTheDigest()
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

void TestGatewaySession::friendsChangedReloadsTheListAndWatchesAgain()
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

// The changes of the availability set within the session's batch window, not the gateway's
// interval (a minute here): the session asked for presence_batch in hello.
void TestGatewaySession::availabilityChangesComeInBatches()
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

void TestGatewaySession::availabilityChangesUnbatchedWhenAskedForNone()
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

void TestGatewaySession::noAvailabilityFromAGatewayWithoutIt()
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

void TestGatewaySession::logInGoesOnlineWithFriends()
{
    auto gateway = startGateway(smallPopulation());
    QVERIFY(gateway);
    GatewaySession session(fastOptions());
    QSignalSpy states(&session, &GatewaySession::stateChanged);
    QSignalSpy signedIn(&session, &GatewaySession::signedIn);
    QSignalSpy friendsLoaded(&session, &GatewaySession::friendsLoaded);
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    QVERIFY(states.isValid() && signedIn.isValid() && friendsLoaded.isValid() && retries.isValid());
    QCOMPARE(session.state(), State::Disconnected);

    session.open(gateway->url(), tokenOf(u"alice"_s));
    QVERIFY(friendsLoaded.wait());
    QCOMPARE(statesOf(states),
        (QList<State> { State::Connecting, State::Authenticating, State::Online }));
    QCOMPARE(session.state(), State::Online);
    QVERIFY(session.errorString().isEmpty());

    QCOMPARE(signedIn.size(), 1);
    QCOMPARE(signedIn.at(0).at(0).value<UserInfo>(), (UserInfo { u"alice"_s, u"Alice"_s }));
    QCOMPARE(session.self(), (UserInfo { u"alice"_s, u"Alice"_s }));
    QCOMPARE(session.limits().maxSubscriptions, gateway->config().maxSubscriptions);
    QCOMPARE(session.limits().maxIdsPerRequest, gateway->config().maxIdsPerRequest);

    QCOMPARE(friendsLoaded.size(), 1);
    const auto friends = friendsLoaded.at(0).at(0).value<QList<UserInfo>>();
    QCOMPARE(friends.size(), 3);
    QCOMPARE(friends.at(0), (UserInfo { u"bob"_s, u"Bob"_s }));
    QCOMPARE(friends.at(1), (UserInfo { u"cat"_s, u"Cat"_s }));
    QCOMPARE(friends.at(2), (UserInfo { u"dan"_s, u"Dan"_s }));
    QCOMPARE(gateway->authenticatedCount(), 1);

    // Retrying makes no sense while online: nothing happens.
    session.retryNow();
    QCOMPARE(session.state(), State::Online);
    QCOMPARE(states.size(), 3);
    QVERIFY(retries.isEmpty());
}

void TestGatewaySession::friendsArePagedCompletely_data()
{
    QTest::addColumn<int>("friendCount");
    QTest::addColumn<int>("pageSize");
    QTest::addRow("2,500 in pages of 1000") << 2500 << 1000;
    QTest::addRow("2,000 in pages of 1000 (exact)") << 2000 << 1000;
    QTest::addRow("2,500 in pages of 300") << 2500 << 300;
    QTest::addRow("100,000 in pages of 1000") << 100000 << 1000;
}

void TestGatewaySession::friendsArePagedCompletely()
{
    QFETCH(int, friendCount);
    QFETCH(int, pageSize);
    QStringList expected;
    auto gateway = startGatewayWithFriends(friendCount, &expected);
    QVERIFY(gateway);

    GatewaySession::Options options = fastOptions();
    options.friendsPageSize = pageSize;
    GatewaySession session(options);
    QSignalSpy friendsLoaded(&session, &GatewaySession::friendsLoaded);
    QSignalSpy errors(&session, &GatewaySession::errorReceived);
    session.open(gateway->url(), tokenOf(u"alice"_s));
    QVERIFY(friendsLoaded.wait(15000));
    QCOMPARE(friendsLoaded.size(), 1);
    QVERIFY2(errors.isEmpty(), qPrintable(errors.value(0).value(0).toString()));

    const auto friends = friendsLoaded.at(0).at(0).value<QList<UserInfo>>();
    QCOMPARE(friends.size(), qsizetype(friendCount));
    QStringList ids;
    ids.reserve(friends.size());
    for (const UserInfo &info : friends)
        ids.append(info.id);
    QCOMPARE(ids, expected); // each once, in users-file order
    QCOMPARE(friends.constFirst().name, u"Friend "_s + expected.constFirst());
    QCOMPARE(friends.constLast().name, u"Friend "_s + expected.constLast());
    QCOMPARE(session.state(), State::Online);
}

void TestGatewaySession::badTokenFailsWithoutRetrying_data()
{
    QTest::addColumn<QString>("token");
    QTest::addRow("unknown token") << u"nobody-secret"_s;
    QTest::addRow("empty token") << QString();
}

void TestGatewaySession::badTokenFailsWithoutRetrying()
{
    QFETCH(QString, token);
    auto gateway = startGateway(smallPopulation());
    QVERIFY(gateway);
    GatewaySession::Options options;
    options.backoff.floor = 100ms;
    options.backoff.base = 200ms; // a retry, if one were scheduled, would come within 200 ms
    GatewaySession session(options);
    QSignalSpy states(&session, &GatewaySession::stateChanged);
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    QSignalSpy errors(&session, &GatewaySession::errorReceived);
    QSignalSpy signedIn(&session, &GatewaySession::signedIn);
    QSignalSpy gatewayConnections(gateway.get(), &Gateway::connectionCountChanged);

    session.open(gateway->url(), token);
    QTRY_COMPARE(session.state(), State::Failed);
    QCOMPARE(statesOf(states),
        (QList<State> { State::Connecting, State::Authenticating, State::Failed }));
    QVERIFY(!session.errorString().isEmpty());
    QCOMPARE(session.failure(), GatewaySession::Failure::TokenRefused);
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors.at(0).at(0).toString(), u"unauthorized"_s);
    QVERIFY(signedIn.isEmpty());
    QTRY_COMPARE(gateway->connectionCount(), 0);

    // Failed is final: past the first backoff ceiling nothing has been tried again.
    const qsizetype connectionEvents = gatewayConnections.size();
    QTest::qWait(400);
    QCOMPARE(session.state(), State::Failed);
    QCOMPARE(states.size(), 3);
    QVERIFY(retries.isEmpty());
    QCOMPARE(gatewayConnections.size(), connectionEvents);
    QCOMPARE(gateway->connectionCount(), 0);
}

void TestGatewaySession::aWebServerIsNotAGateway_data()
{
    QTest::addColumn<QByteArray>("statusLine");
    QTest::addColumn<bool>("gaveUp");
    QTest::addColumn<QString>("words");
    QTest::addRow("200") << QByteArray("200 OK") << true
                         << u"is a web server, not a presence gateway (it answered HTTP 200 OK)"_s;
    QTest::addRow("404") << QByteArray("404 Not Found") << true
                         << u"refused the connection (HTTP 404 Not Found)"_s;
    // Busy or restarting (the gateway's connection cap answers 503): worth trying again.
    QTest::addRow("503") << QByteArray("503 Service Unavailable") << false << QString();
}

void TestGatewaySession::aWebServerIsNotAGateway()
{
    QFETCH(QByteArray, statusLine);
    QFETCH(bool, gaveUp);
    QFETCH(QString, words);

    // A plain HTTP server on the address: it answers the upgrade with a page, not 101.
    const PlainWebServer web(statusLine);
    QVERIFY(web.isListening());
    GatewaySession::Options options;
    options.backoff.floor = 50ms;
    options.backoff.base = 100ms;
    GatewaySession session(options);
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    session.open(web.url(), u"token"_s);
    if (gaveUp) {
        QTRY_COMPARE(session.state(), State::Failed);
        QCOMPARE(session.failure(), GatewaySession::Failure::NotAGateway);
        QVERIFY2(session.errorString().contains(words), qPrintable(session.errorString()));
        QVERIFY2(session.errorString().contains(u"127.0.0.1:%1"_s.arg(web.port())),
            qPrintable(session.errorString()));
        QVERIFY(retries.isEmpty());
        QCOMPARE(web.requests(), 1);
    } else {
        QTRY_VERIFY(retries.size() >= 2); // it keeps trying
        QCOMPARE(session.failure(), GatewaySession::Failure::None);
        QVERIFY(session.state() != State::Failed);
    }
}

void TestGatewaySession::theWebServerDiagnosisBelongsToOneAttempt()
{
    // QWebSocket keeps the error of an earlier handshake: an address where nothing listens,
    // tried after a web server's, must be unreachable (and retried), not "a web server".
    const PlainWebServer web("200 OK");
    QVERIFY(web.isListening());
    GatewaySession session(fastOptions());
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    session.open(web.url(), u"token"_s);
    QTRY_COMPARE(session.state(), State::Failed);
    QCOMPARE(session.failure(), GatewaySession::Failure::NotAGateway);

    const ClosedPort closed;
    session.open(closed.url(), u"token"_s);
    QTRY_VERIFY(retries.size() >= 2); // retried, so never Failed
    QCOMPARE(session.failure(), GatewaySession::Failure::None);
    QVERIFY(session.state() != State::Failed);
    QVERIFY2(!session.errorString().contains(u"web server"_s), qPrintable(session.errorString()));

    // And the web server, tried again, is diagnosed again.
    session.open(web.url(), u"token"_s);
    QTRY_COMPARE(session.state(), State::Failed);
    QCOMPARE(session.failure(), GatewaySession::Failure::NotAGateway);
    QCOMPARE(web.requests(), 2);
}

// ---- Reconnecting --------------------------------------------------------------------------

void TestGatewaySession::reconnectsAndResubscribesAfterGatewayRestart()
{
    const QList<TestUser> users = smallPopulation();
    auto gateway = startGateway(users);
    QVERIFY(gateway);
    const quint16 port = gateway->port();
    TestClient bob;
    QVERIFY(!bob.login(gateway->url(), tokenOf(u"bob"_s)).isEmpty());

    GatewaySession session(fastOptions());
    QSignalSpy states(&session, &GatewaySession::stateChanged);
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    QSignalSpy presence(&session, &GatewaySession::presenceReceived);
    QSignalSpy lost(&session, &GatewaySession::presenceLost);
    RetryLog log(session);
    const QSet<QString> wanted { u"bob"_s, u"cat"_s, u"dan"_s };
    session.setWanted(wanted);
    session.open(gateway->url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), State::Online);
    QTRY_COMPARE(presenceIdsOf(presence), wanted);
    QCOMPARE(gateway->subscriptionsOfUser(u"alice"_s), sorted(wanted));
    const auto first = presenceOf(presence);
    const auto bobFirst = std::find_if(
        first.cbegin(), first.cend(), [](const UserPresence &p) { return p.id == u"bob"; });
    QVERIFY(bobFirst->status == PresenceStatus::Online);

    // The gateway dies: the session notices, drops what it knew and schedules a retry.
    gateway.reset();
    QVERIFY(retries.wait());
    const RetryLog::Entry firstRetry = log.entries().constFirst();
    QCOMPARE(firstRetry.attempt, 1);
    QCOMPARE(firstRetry.state, State::Reconnecting);
    QVERIFY2(firstRetry.delay >= shortBackoff().floor
            && firstRetry.delay <= Backoff::ceiling(shortBackoff(), 0),
        qPrintable(QString::number(firstRetry.delay.count())));
    QCOMPARE(firstRetry.retryAttempt, 1);
    QCOMPARE(firstRetry.retryDelay, firstRetry.delay);
    QVERIFY(!firstRetry.errorString.isEmpty());
    QCOMPARE(lost.size(), 1);
    QVERIFY(session.subscribed().isEmpty());

    // It comes back on the same port: online again with the whole wanted set resubscribed.
    const qsizetype presenceBefore = presence.size();
    states.clear();
    gateway = restartGateway(users, port);
    QVERIFY(gateway);
    QTRY_COMPARE(session.state(), State::Online);
    QTRY_COMPARE(gateway->subscriptionsOfUser(u"alice"_s), sorted(wanted));
    QTRY_COMPARE(presenceIdsOf(presence, presenceBefore), wanted);
    QCOMPARE(session.subscribed(), wanted);
    QCOMPARE(lost.size(), 1);
    // Bob is gone with the old gateway: the new snapshot says so.
    for (const UserPresence &p : presenceOf(presence, presenceBefore))
        QVERIFY2(p.status == PresenceStatus::Offline, qPrintable(p.id));
}

void TestGatewaySession::heartbeatDetectsADeadPath()
{
    auto gateway = startGateway(smallPopulation());
    QVERIFY(gateway);
    TcpProxy proxy(gateway->port());
    QVERIFY(proxy.isListening());

    GatewaySession::Options options = fastOptions();
    options.heartbeatOverride = 200ms;
    options.pongTimeout = 300ms;
    GatewaySession session(options);
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    QSignalSpy lost(&session, &GatewaySession::presenceLost);
    RetryLog log(session);
    session.setWanted({ u"bob"_s });
    session.open(proxy.url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), State::Online);

    // A healthy path: several heartbeats go by and every ping gets its pong.
    QTest::qWait(700);
    QCOMPARE(session.state(), State::Online);
    QVERIFY(retries.isEmpty());

    // The path goes silent without closing: only the missing pong can tell.
    QElapsedTimer silence;
    silence.start();
    proxy.setStalled(true);
    QTRY_VERIFY_WITH_TIMEOUT(!retries.isEmpty(), 1500);
    QVERIFY2(silence.elapsed() < 1500, qPrintable(QString::number(silence.elapsed())));
    QCOMPARE(log.entries().constFirst().attempt, 1);
    QCOMPARE(log.entries().constFirst().state, State::Reconnecting);
    // The pong timeout's own reason, not a socket error.
    QCOMPARE(log.entries().constFirst().errorString, u"The gateway stopped answering."_s);
    QCOMPARE(lost.size(), 1);
    // Nothing reached the gateway: to it, the old connection is still there.
    QCOMPARE(gateway->authenticatedCount(), 1);

    // The path heals: the session gets back on its own.
    proxy.setStalled(false);
    QTRY_COMPARE(session.state(), State::Online);
    QTRY_COMPARE(gateway->subscriptionsOfUser(u"alice"_s), QStringList { u"bob"_s });
    QTRY_COMPARE(gateway->connectionCount(), 1); // the dead connection was closed at last
    QCOMPARE(lost.size(), 1);
    QCOMPARE(retries.size(), 1); // the first retry got through once the path healed
}

void TestGatewaySession::connectTimeoutRetriesABlackHoledConnect()
{
    auto gateway = startGateway(smallPopulation());
    QVERIFY(gateway);
    TcpProxy proxy(gateway->port());
    proxy.setStalled(true); // TCP connects, the WebSocket handshake never completes

    GatewaySession::Options options = fastOptions();
    options.connectTimeout = 300ms;
    GatewaySession session(options);
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    QSignalSpy lost(&session, &GatewaySession::presenceLost);
    QElapsedTimer timer;
    timer.start();
    session.open(proxy.url(), tokenOf(u"alice"_s));
    QCOMPARE(session.state(), State::Connecting);
    QVERIFY(retries.wait(3000));
    QVERIFY2(timer.elapsed() >= 250, qPrintable(QString::number(timer.elapsed())));
    QCOMPARE(retries.at(0).at(0).toInt(), 1);
    QVERIFY(lost.isEmpty()); // never was online

    proxy.setStalled(false);
    QTRY_COMPARE(session.state(), State::Online);
}

void TestGatewaySession::droppedConnectionReconnectsThroughProxyToNewTarget()
{
    const QList<TestUser> users = smallPopulation();
    auto oldGateway = startGateway(users);
    auto newGateway = startGateway(users);
    QVERIFY(oldGateway && newGateway);
    TcpProxy proxy(oldGateway->port());

    GatewaySession session(fastOptions());
    QSignalSpy lost(&session, &GatewaySession::presenceLost);
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    const QSet<QString> wanted { u"cat"_s, u"dan"_s };
    session.setWanted(wanted);
    session.open(proxy.url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), State::Online);
    QTRY_COMPARE(oldGateway->subscriptionsOfUser(u"alice"_s), sorted(wanted));
    QCOMPARE(proxy.connectionCount(), 1);

    // The route moves to another gateway and every connection is cut without a close frame.
    proxy.setTarget(newGateway->port());
    QCOMPARE(proxy.target(), newGateway->port());
    proxy.dropAll();
    QCOMPARE(proxy.connectionCount(), 0);
    QTRY_VERIFY(!retries.isEmpty());
    QCOMPARE(retries.at(0).at(0).toInt(), 1);
    QCOMPARE(lost.size(), 1);
    QTRY_COMPARE(oldGateway->connectionCount(), 0);

    QTRY_COMPARE(session.state(), State::Online);
    QTRY_COMPARE(newGateway->subscriptionsOfUser(u"alice"_s), sorted(wanted));
    QCOMPARE(newGateway->authenticatedCount(), 1);
    QCOMPARE(oldGateway->connectionCount(), 0);
    QCOMPARE(retries.size(), 1);
    QCOMPARE(lost.size(), 1);
}

void TestGatewaySession::retriesWithGrowingJitteredDelays()
{
    GatewaySession::Options options;
    options.backoff.floor = 20ms;
    options.backoff.base = 40ms;
    options.backoff.cap = 640ms;
    GatewaySession session(options);

    // When each retry was scheduled, and how long until the attempt it announced began.
    QList<int> attempts;
    QList<std::chrono::milliseconds> delays;
    QList<qint64> waited;
    QElapsedTimer sinceSchedule;
    connect(&session, &GatewaySession::retryScheduled, this,
        [&](int attempt, std::chrono::milliseconds delay) {
            attempts.append(attempt);
            delays.append(delay);
            sinceSchedule.start();
        });
    connect(&session, &GatewaySession::stateChanged, this, [&](State state) {
        if (state == State::Connecting && sinceSchedule.isValid())
            waited.append(sinceSchedule.elapsed());
    });

    const ClosedPort closed;
    session.open(closed.url(), tokenOf(u"alice"_s));
    QTRY_VERIFY_WITH_TIMEOUT(attempts.size() >= 6, 5000);
    QCOMPARE(attempts.mid(0, 6), (QList<int> { 1, 2, 3, 4, 5, 6 }));
    for (qsizetype i = 0; i < 6; ++i) {
        const auto ceiling = Backoff::ceiling(options.backoff, attempts.at(i) - 1);
        QVERIFY2(delays.at(i) >= options.backoff.floor && delays.at(i) <= ceiling,
            qPrintable(u"attempt %1 waits %2 ms, outside [%3, %4]"_s.arg(attempts.at(i))
                           .arg(delays.at(i).count())
                           .arg(options.backoff.floor.count())
                           .arg(ceiling.count())));
    }
    QVERIFY(std::any_of(delays.cbegin() + 1, delays.cbegin() + 6,
        [&](std::chrono::milliseconds d) { return d != delays.constFirst(); }));
    // Jittered, not simply the ceilings (which differ from each other anyway).
    bool belowCeiling = false;
    for (qsizetype i = 0; i < 6; ++i)
        belowCeiling |= delays.at(i) < Backoff::ceiling(options.backoff, attempts.at(i) - 1);
    QVERIFY(belowCeiling);
    // The session really waits the delay it announced (coarse timers may fire 5 % early).
    QVERIFY(waited.size() >= 5);
    for (qsizetype i = 0; i < 5; ++i) {
        QVERIFY2(double(waited.at(i)) >= double(delays.at(i).count()) * 0.95 - 2,
            qPrintable(u"attempt %1 announced %2 ms, waited %3 ms"_s.arg(attempts.at(i))
                           .arg(delays.at(i).count())
                           .arg(waited.at(i))));
    }
    QCOMPARE(session.retryAttempt(), attempts.constLast());
    session.close();
}

void TestGatewaySession::retryNowSkipsTheWait()
{
    GatewaySession::Options options;
    options.backoff.floor = 10s;
    options.backoff.base = 10s;
    options.backoff.cap = 10s; // every wait is exactly 10 s unless skipped
    GatewaySession session(options);
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    QSignalSpy states(&session, &GatewaySession::stateChanged);

    const ClosedPort closed;
    session.open(closed.url(), tokenOf(u"alice"_s));
    QVERIFY(retries.wait());
    QCOMPARE(session.state(), State::Reconnecting);
    QCOMPARE(retries.at(0).at(1).value<std::chrono::milliseconds>(), 10s);

    states.clear();
    session.retryNow();
    QCOMPARE(session.state(), State::Connecting);
    QCOMPARE(statesOf(states), QList<State> { State::Connecting });
    QVERIFY(retries.wait(2000)); // long before the 10 s were up
    QCOMPARE(retries.size(), 2);
    QCOMPARE(retries.at(1).at(0).toInt(), 2);
    session.close();
}

void TestGatewaySession::stableSessionResetsTheBackoff_data()
{
    QTest::addColumn<std::chrono::milliseconds>("stableAfter");
    QTest::addColumn<bool>("resets");
    QTest::addRow("online past stableAfter") << std::chrono::milliseconds(200ms) << true;
    QTest::addRow("not stable yet") << std::chrono::milliseconds(30s) << false;
}

void TestGatewaySession::stableSessionResetsTheBackoff()
{
    QFETCH(std::chrono::milliseconds, stableAfter);
    QFETCH(bool, resets);
    const QList<TestUser> users = smallPopulation();
    auto gateway = startGateway(users);
    QVERIFY(gateway);
    const quint16 port = gateway->port();

    GatewaySession::Options options = fastOptions();
    options.stableAfter = stableAfter;
    GatewaySession session(options);
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    session.open(gateway->url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), State::Online);

    // Three failed attempts while the gateway is away, then it is back.
    gateway.reset();
    QTRY_VERIFY(retries.size() >= 3);
    gateway = restartGateway(users, port);
    QVERIFY(gateway);
    QTRY_COMPARE(session.state(), State::Online);
    const int attemptsBefore = session.retryAttempt();
    QVERIFY(attemptsBefore >= 3);

    // Online for longer than the short stableAfter: the time online is what is tested.
    QTest::qWait(400);
    QCOMPARE(session.state(), State::Online);
    retries.clear();
    gateway.reset();
    QVERIFY(retries.wait());
    QCOMPARE(retries.at(0).at(0).toInt(), resets ? 1 : attemptsBefore + 1);
    const auto delay = retries.at(0).at(1).value<std::chrono::milliseconds>();
    QVERIFY(delay <= Backoff::ceiling(options.backoff, retries.at(0).at(0).toInt() - 1));
    session.close();
}

void TestGatewaySession::reopenWhileOnlineStartsClean()
{
    auto gateway = startGateway(smallPopulation());
    QVERIFY(gateway);
    TcpProxy proxy(gateway->port());
    GatewaySession::Options options = fastOptions();
    options.heartbeatOverride = 200ms;
    options.pongTimeout = 300ms;
    options.connectTimeout = 5s;
    GatewaySession session(options);
    QSignalSpy lost(&session, &GatewaySession::presenceLost);
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    session.setWanted({ u"bob"_s });
    session.open(gateway->url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), State::Online);
    QTRY_COMPARE(session.subscribed(), QSet<QString> { u"bob"_s });
    QTest::qWait(250); // at least one heartbeat ping has gone out

    // Opened again (another address, or another token): the first connection is gone, and
    // everything tied to it with it, timers included.
    proxy.setStalled(true); // the new attempt hangs in the handshake
    session.open(proxy.url(), tokenOf(u"alice"_s));
    QCOMPARE(session.state(), State::Connecting);
    QCOMPARE(lost.size(), 1);
    QVERIFY(session.subscribed().isEmpty());

    // Only connectTimeout (5 s) may end this attempt: no leftover ping or pong timer does.
    QTest::qWait(800);
    QCOMPARE(session.state(), State::Connecting);
    QVERIFY2(retries.isEmpty(), qPrintable(session.errorString()));

    proxy.setStalled(false);
    QTRY_COMPARE(session.state(), State::Online);
    QTRY_COMPARE(gateway->subscriptionsOfUser(u"alice"_s), QStringList { u"bob"_s });
    QTRY_COMPARE(gateway->authenticatedCount(), 1);
}

// ---- Subscriptions -------------------------------------------------------------------------

void TestGatewaySession::subscriptionsFollowWanted()
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

void TestGatewaySession::subscriptionsNeverExceedTheGatewayLimit()
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

// ---- A misbehaving peer --------------------------------------------------------------------

void TestGatewaySession::staleSequenceNumbersAreIgnored()
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

void TestGatewaySession::pushOvertakingSnapshotWins()
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

void TestGatewaySession::resetSnapshotReplacesEvenLowerSequenceNumbers()
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

void TestGatewaySession::malformedFramesAreSurvived()
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

// ---- Closing -------------------------------------------------------------------------------

void TestGatewaySession::closeStopsForGood_data()
{
    QTest::addColumn<State>("closeIn");
    QTest::addRow("online") << State::Online;
    QTest::addRow("reconnecting") << State::Reconnecting;
    QTest::addRow("connecting") << State::Connecting;
}

void TestGatewaySession::closeStopsForGood()
{
    QFETCH(State, closeIn);
    auto gateway = startGateway(smallPopulation());
    QVERIFY(gateway);
    TcpProxy proxy(gateway->port());
    GatewaySession::Options options;
    options.backoff.floor = 100ms;
    options.backoff.base = 100ms;
    options.backoff.cap = 100ms; // every retry waits exactly 100 ms
    GatewaySession session(options);
    QSignalSpy states(&session, &GatewaySession::stateChanged);
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    QSignalSpy lost(&session, &GatewaySession::presenceLost);
    const ClosedPort closed;

    switch (closeIn) {
    case State::Online:
        session.setWanted({ u"bob"_s });
        session.open(gateway->url(), tokenOf(u"alice"_s));
        QTRY_COMPARE(session.state(), State::Online);
        QTRY_COMPARE(gateway->subscriptionsOfUser(u"alice"_s), QStringList { u"bob"_s });
        break;
    case State::Reconnecting:
        session.open(closed.url(), tokenOf(u"alice"_s));
        QVERIFY(retries.wait());
        QCOMPARE(session.state(), State::Reconnecting); // for 100 ms
        break;
    case State::Connecting:
        proxy.setStalled(true); // the handshake hangs until the proxy lets it through
        session.open(proxy.url(), tokenOf(u"alice"_s));
        QTRY_COMPARE(proxy.connectionCount(), 1);
        QCOMPARE(session.state(), State::Connecting);
        break;
    default:
        QFAIL("no such case");
    }

    states.clear();
    retries.clear();
    session.close();
    QCOMPARE(session.state(), State::Disconnected);
    QCOMPARE(lost.size(), closeIn == State::Online ? 1 : 0);
    QVERIFY(session.subscribed().isEmpty());
    proxy.setStalled(false); // lets a closed half-made connection reach the gateway

    // Three times the backoff delay: nothing was tried again.
    QTest::qWait(300);
    QCOMPARE(session.state(), State::Disconnected);
    QCOMPARE(statesOf(states), QList<State> { State::Disconnected });
    QVERIFY(retries.isEmpty());
    QCOMPARE(proxy.connectionCount(), 0);

    // The gateway lets go of the connection too; one that never said hello at the latest
    // when its hello timeout (1 s) has closed it.
    QTRY_COMPARE_WITH_TIMEOUT(gateway->connectionCount(), 0, 1500);
}

void TestGatewaySession::dropAfterARefusedTokenStillReconnects()
{
    // QWebSocket keeps the close code of an earlier connection: a refused token once must not
    // turn every later ordinary drop into "token refused".
    const QList<TestUser> users = smallPopulation();
    auto gateway = startGateway(users);
    QVERIFY(gateway);
    const quint16 port = gateway->port();
    GatewaySession session(fastOptions());
    session.open(gateway->url(), u"wrong-token"_s);
    QTRY_COMPARE(session.state(), GatewaySession::State::Failed);
    session.open(gateway->url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), GatewaySession::State::Online);

    gateway.reset();
    QTRY_COMPARE(session.state(), GatewaySession::State::Reconnecting);
    gateway = restartGateway(users, port);
    QVERIFY(gateway);
    QTRY_COMPARE(session.state(), GatewaySession::State::Online);
}

void TestGatewaySession::statusChosenWhileSigningInIsKept()
{
    // Invisible chosen after hello left must still reach the gateway: nobody sees alice.
    auto gateway = startGateway(smallPopulation());
    QVERIFY(gateway);
    GatewaySession watcher(fastOptions());
    watcher.open(gateway->url(), tokenOf(u"bob"_s));
    QTRY_COMPARE(watcher.state(), GatewaySession::State::Online);
    QSignalSpy seen(&watcher, &GatewaySession::presenceReceived);
    watcher.setWanted({ u"alice"_s });
    QVERIFY(seen.wait());
    seen.clear();

    GatewaySession session(fastOptions());
    connect(&session, &GatewaySession::stateChanged, &session, [&](GatewaySession::State state) {
        if (state == GatewaySession::State::Authenticating)
            session.setChosenStatus(Presence::Protocol::ChosenStatus::Invisible);
    });
    session.open(gateway->url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), GatewaySession::State::Online);
    // Absence over a period is the point: past the grace, alice was never published.
    QTest::qWait(int(testConfig().grace.count()) + 200);
    QCOMPARE(seen.count(), 0);
    const auto *store = qobject_cast<Presence::Server::MemoryPresenceStore *>(gateway->store());
    QVERIFY(store);
    QCOMPARE(store->presenceOf(u"alice"_s).seq, 0);
}

void TestGatewaySession::requestsStayUnderTheFrameSizeLimit()
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

void TestGatewaySession::anOversizedRequestIsRefusedBeforeItIsSent()
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

void TestGatewaySession::closedForFloodingBacksOffToTheCap()
{
    // 4029 means "you flooded us": coming back within 100 ms would flood again.
    ScriptedGateway peer;
    GatewaySession session(fastOptions());
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    session.open(peer.url(), tokenOf(u"alice"_s));
    QTRY_COMPARE(session.state(), GatewaySession::State::Online);
    peer.closePeer(4029);
    QVERIFY(retries.wait());
    const auto delay = retries.constFirst().at(1).value<std::chrono::milliseconds>();
    // An ordinary drop retries as attempt 1; after a 4029 the attempts jump to the cap's.
    QVERIFY2(retries.constFirst().at(0).toInt() > 1,
        qPrintable(QString::number(retries.constFirst().at(0).toInt())));
    QVERIFY(delay <= shortBackoff().cap);
}

QTEST_MAIN(TestGatewaySession)
#include "tst_gateway_session.moc"
