// GatewaySession signing in to a real gateway over loopback: online with its friends, every
// page of a long friends list read, a bad token failing for good without a retry, a web server
// that is not a gateway said so (and only for the attempt that met it), and a status chosen
// while signing in kept.

// C++
#include <chrono>
#include <memory>

// Qt
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

// Presence
#include "GatewayFixture.h"
#include "GatewaySessionFixture.h"
#include "server-mock/chat/MemoryChatStore.h"
#include "server-mock/presence/MemoryPresenceStore.h"
#include "session/GatewaySession.h"
#include "tests/harness/ClosedPort.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Protocol::UserInfo;
using Presence::Server::Gateway;
using Presence::Server::UserDirectory;
using Presence::Session::GatewaySession;
using State = GatewaySession::State;

namespace {

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

class TestGatewaySessionSignIn : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void logInGoesOnlineWithFriends();
    void friendsArePagedCompletely_data();
    void friendsArePagedCompletely();
    void badTokenFailsWithoutRetrying_data();
    void badTokenFailsWithoutRetrying();
    void aWebServerIsNotAGateway_data();
    void aWebServerIsNotAGateway();
    void theWebServerDiagnosisBelongsToOneAttempt();
    void statusChosenWhileSigningInIsKept();
};

void TestGatewaySessionSignIn::logInGoesOnlineWithFriends()
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

void TestGatewaySessionSignIn::friendsArePagedCompletely_data()
{
    QTest::addColumn<int>("friendCount");
    QTest::addColumn<int>("pageSize");
    QTest::addRow("2,500 in pages of 1000") << 2500 << 1000;
    QTest::addRow("2,000 in pages of 1000 (exact)") << 2000 << 1000;
    QTest::addRow("2,500 in pages of 300") << 2500 << 300;
    QTest::addRow("100,000 in pages of 1000") << 100000 << 1000;
}

void TestGatewaySessionSignIn::friendsArePagedCompletely()
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

void TestGatewaySessionSignIn::badTokenFailsWithoutRetrying_data()
{
    QTest::addColumn<QString>("token");
    QTest::addRow("unknown token") << u"nobody-secret"_s;
    QTest::addRow("empty token") << QString();
}

void TestGatewaySessionSignIn::badTokenFailsWithoutRetrying()
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

void TestGatewaySessionSignIn::aWebServerIsNotAGateway_data()
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

void TestGatewaySessionSignIn::aWebServerIsNotAGateway()
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

void TestGatewaySessionSignIn::theWebServerDiagnosisBelongsToOneAttempt()
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

void TestGatewaySessionSignIn::statusChosenWhileSigningInIsKept()
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

QTEST_MAIN(TestGatewaySessionSignIn)
#include "tst_gateway_session_sign_in.moc"
