// Tests for AdminServer, the gateway's HTTP side: real HTTP over loopback (QNetworkAccessManager,
// and a raw QTcpSocket for what no well-behaved client sends) against a recording backend. They
// are about the HTTP layer: routes, credentials, limits and error answers. The gateway behind
// the backend interface is tested end to end elsewhere.

// C++
#include <chrono>
#include <memory>

// Qt
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QScopeGuard>
#include <QSet>
#include <QSignalSpy>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>

// Presence
#include "TestCertificates.h"
#include "server-mock/admin/AdminBackend.h"
#include "server-mock/admin/AdminServer.h"
#include "server-mock/http/HttpsIdentity.h"
#include "server-mock/qa/FaultSpec.h"
#include "tests/harness/HttpCall.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace Presence::Server;
using Presence::Protocol::ChosenStatus;
using Presence::Protocol::PresenceStatus;
using Presence::Protocol::UserPresence;
using Presence::TestSupport::TestCertificates;

namespace {

constexpr qsizetype kKiB = 1024;
const QByteArray kAdmin = "Bearer admin-secret"_ba;
const QByteArray kAlice = "Bearer alice-secret"_ba;

// Records what the server asks and answers from tables the test may change. The users are
// alice, bob, carol, dave and erin, each with the token "<id>-secret"; alice is friends with
// bob and dave, and a stranger to carol and erin. Answers that may need a store come a moment
// later, as they would from Redis.
class FakeBackend : public AdminBackend {
public:
    FakeBackend()
    {
        for (const char *id : { "alice", "bob", "carol", "dave", "erin" })
            users.insert(QString::fromLatin1(id));
        friendships = { { u"alice"_s, u"bob"_s }, { u"alice"_s, u"dave"_s } };
        published.insert(u"bob"_s, UserPresence { u"bob"_s, PresenceStatus::Online, 3, {} });
        published.insert(
            u"dave"_s, UserPresence { u"dave"_s, PresenceStatus::Offline, 7, 1733145600123 });
    }

    std::optional<QString> userOfToken(const QString &token) const override
    {
        if (!token.endsWith(u"-secret"_s))
            return std::nullopt;
        const QString user = token.chopped(7);
        return users.contains(user) ? std::optional(user) : std::nullopt;
    }
    bool userExists(const QString &userId) const override { return users.contains(userId); }
    bool areFriends(const QString &a, const QString &b) const override
    {
        return friendships.contains({ a, b }) || friendships.contains({ b, a });
    }
    QJsonObject health(bool *ok) const override
    {
        *ok = healthy;
        return { { "status"_L1, healthy ? u"ok"_s : u"unavailable"_s },
            { "store"_L1, u"memory"_s } };
    }
    QByteArray metrics() const override { return metricsText; }
    void simulatePresence(const QString &userId, std::optional<ChosenStatus> status) override
    {
        simulated.append({ userId, status });
    }
    void describeUser(const QString &userId, QObject *context, JsonCallback done) override
    {
        ++describeCalls;
        lastContext = context;
        QTimer::singleShot(answerDelay, context, [userId, done] {
            done(QJsonObject { { "id"_L1, userId }, { "status"_L1, u"online"_s },
                { "devices"_L1, QJsonArray { u"sim-1"_s } } });
        });
    }
    bool setFriendship(const QString &a, const QString &b, bool friends) override
    {
        friendshipCalls.append({ a, b });
        if (areFriends(a, b) == friends)
            return false;
        if (friends) {
            friendships.insert({ a, b });
        } else {
            friendships.remove({ a, b });
            friendships.remove({ b, a });
        }
        return true;
    }
    std::optional<QJsonObject> reloadUsers(QString *error, bool *fileError) override
    {
        ++reloads;
        *fileError = reloadIsFileError;
        if (!reloadRefusal.isEmpty()) {
            *error = reloadRefusal;
            return std::nullopt;
        }
        return QJsonObject { { "users"_L1, QJsonObject {} } };
    }
    QString startFault(const FaultSpec &fault, QString *error) override
    {
        if (!refusal.isEmpty()) {
            *error = refusal;
            return {};
        }
        QString id = u"f%1"_s.arg(nextFault++);
        running.insert(id, fault);
        return id;
    }
    bool endFault(const QString &faultId) override { return running.remove(faultId) > 0; }
    QJsonObject faults() const override
    {
        QJsonArray list;
        for (auto it = running.cbegin(); it != running.cend(); ++it)
            list.append(QJsonObject { { "id"_L1, it.key() }, { "fault"_L1, it->toJson() } });
        return { { "faults"_L1, list } };
    }
    void heartbeat(const QString &userId) override { heartbeats.append(userId); }
    void presenceOf(const QStringList &ids, QObject *context, PresenceCallback done) override
    {
        presenceAsked.append(ids);
        QList<UserPresence> found;
        for (const QString &id : ids)
            found.append(published.value(id, UserPresence { id, PresenceStatus::Offline, 0, {} }));
        // A careless backend: the server must show only what was asked for and allowed.
        found.append(UserPresence { u"carol"_s, PresenceStatus::Online, 9, {} });
        QTimer::singleShot(answerDelay, context, [found, done] { done(found); });
    }

    QSet<QString> users;
    QSet<QPair<QString, QString>> friendships;
    QHash<QString, UserPresence> published;
    bool healthy = true;
    QByteArray metricsText = "# TYPE presence_connections gauge\npresence_connections 3\n"_ba;
    std::chrono::milliseconds answerDelay { 0 };
    QString refusal; // startFault refuses with it when set

    QList<QPair<QString, std::optional<ChosenStatus>>> simulated;
    int describeCalls = 0;
    QList<QPair<QString, QString>> friendshipCalls;
    int reloads = 0;
    QString reloadRefusal; // reloadUsers refuses with it when set
    bool reloadIsFileError = false;
    QPointer<QObject> lastContext;
    QMap<QString, FaultSpec> running;
    int nextFault = 1;
    QStringList heartbeats;
    QList<QStringList> presenceAsked;
};

using Answer = HttpAnswer;

// Reads the responses of a raw exchange: interim 1xx ones are skipped, the first final one
// is kept, and the others counted.
Answer parseRaw(const QByteArray &bytes)
{
    Answer answer;
    qsizetype pos = 0;
    while (pos < bytes.size()) {
        const qsizetype headEnd = bytes.indexOf("\r\n\r\n", pos);
        if (headEnd < 0)
            break;
        const QList<QByteArray> lines = bytes.mid(pos, headEnd - pos).split('\n');
        const int status = lines.first().split(' ').value(1).toInt();
        QHash<QByteArray, QByteArray> headers;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines.at(i).trimmed();
            const qsizetype colon = line.indexOf(':');
            headers.insert(line.first(colon).toLower(), line.sliced(colon + 1).trimmed());
        }
        pos = headEnd + 4;
        if (status < 200)
            continue;
        const qsizetype length = headers.value("content-length"_ba).toLongLong();
        if (answer.responses++ == 0) {
            answer.status = status;
            answer.headers = headers;
            answer.body = bytes.mid(pos, length);
        }
        pos += length;
    }
    return answer;
}

// A raw TCP connection to the server, for what no well-behaved client sends: it keeps every
// byte the server answers.
class RawConnection {
public:
    RawConnection()
    {
        QObject::connect(&m_socket, &QIODevice::readyRead, &m_socket,
            [this] { m_received += m_socket.readAll(); });
    }

    [[nodiscard]] bool open(quint16 port)
    {
        m_socket.connectToHost(QHostAddress::LocalHost, port);
        return m_socket.waitForConnected(5000);
    }
    void write(const QByteArray &bytes) { m_socket.write(bytes); }
    // Whether the server has closed the connection, waiting up to 5 s for it.
    [[nodiscard]] bool waitClosed() { return !m_closed.isEmpty() || m_closed.wait(5000); }
    // Everything received so far.
    [[nodiscard]] const QByteArray &received()
    {
        m_received += m_socket.readAll();
        return m_received;
    }

private:
    QTcpSocket m_socket;
    QByteArray m_received;
    QSignalSpy m_closed { &m_socket, &QAbstractSocket::disconnected };
};

QByteArray paddedTo(QByteArray json, qsizetype size)
{
    return json.append(QByteArray(size - json.size(), ' '));
}

} // namespace

Q_DECLARE_METATYPE(std::optional<ChosenStatus>)

class TestAdminServer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void listensOnLoopbackWithAFreePort();
    void healthzNeedsNoCredentials();
    void healthzIs503WhileTheGatewayCannotServe();
    void metricsIsPrometheusText();

    void setPresenceReachesTheBackend_data();
    void setPresenceReachesTheBackend();
    void setPresenceRefusesBadBodies_data();
    void setPresenceRefusesBadBodies();
    void setPresenceNeedsAKnownValidUser();
    void describeUserAnswersWhenTheBackendDoes();
    void friendshipsChangeOneAtATime();
    void friendshipsNeedTwoKnownUsers();
    void reloadSaysWhatChangedOrWhyNot();
    void servesHttpsWithACertificate();
    void faultsStartAreListedAndEnd();
    void faultsRefusedAreExplained();
    void adminEndpointsNeedTheAdminToken_data();
    void adminEndpointsNeedTheAdminToken();
    void adminApiIsOffWithoutAnAdminToken();

    void heartbeatBelievesOnlyTheToken();
    void clientEndpointsNeedAClientToken_data();
    void clientEndpointsNeedAClientToken();
    void presenceShowsFriendsAndDeniesTheRest();
    void presenceWithoutFriendsAsksNothing();
    void presenceTakesAtMost500Ids();
    void presenceRefusesBadQueries_data();
    void presenceRefusesBadQueries();

    void unknownPathsAre404Json_data();
    void unknownPathsAre404Json();
    void wrongMethodsAre405WithAllow_data();
    void wrongMethodsAre405WithAllow();
    void bodiesOver64KiBAre413();
    void rateLimitAnswers429WithRetryAfter();

    void malformedRequestsAreRefused_data();
    void malformedRequestsAreRefused();
    void hugeHeadIsRefusedBeforeItEnds();
    void slowRequestTimesOut();
    void expectContinueIsHonoured();
    void oneRequestPerConnection();
    void clientLeavingBeforeTheAnswerIsHarmless();
    void tooManyConnectionsAre503();

private:
    // Test-friendly defaults: an admin token, and a rate limit no test reaches by accident.
    [[nodiscard]] static AdminServerOptions testOptions();
    void restart(const AdminServerOptions &options);
    Answer call(const QByteArray &verb, const QString &target, const QByteArray &body = {},
        const QByteArray &authorization = {});
    // Sends bytes as they are and reads until the server closes the connection.
    Answer raw(const QByteArray &request);

    QNetworkAccessManager m_http;
    std::unique_ptr<FakeBackend> m_backend;
    std::unique_ptr<AdminServer> m_server;
};

AdminServerOptions TestAdminServer::testOptions()
{
    AdminServerOptions options;
    options.adminToken = u"admin-secret"_s;
    options.requestsPerSecond = 10'000;
    options.requestBurst = 10'000;
    return options;
}

void TestAdminServer::initTestCase()
{
    // A proxy from the environment must not see loopback traffic.
    m_http.setProxy(QNetworkProxy::NoProxy);
}

void TestAdminServer::init()
{
    m_backend = std::make_unique<FakeBackend>();
    restart(testOptions());
}

void TestAdminServer::cleanup()
{
    m_server.reset();
    m_backend.reset();
}

void TestAdminServer::restart(const AdminServerOptions &options)
{
    m_server.reset();
    m_server = std::make_unique<AdminServer>(*m_backend, options);
    QString error;
    QVERIFY2(m_server->listen(&error), qPrintable(error));
}

Answer TestAdminServer::call(const QByteArray &verb, const QString &target, const QByteArray &body,
    const QByteArray &authorization)
{
    return httpCall(m_http, verb, m_server->url().resolved(QUrl(target)), body, authorization);
}

Answer TestAdminServer::raw(const QByteArray &request)
{
    RawConnection connection;
    if (!connection.open(m_server->port()))
        return {};
    connection.write(request);
    const bool wasClosed = connection.waitClosed();
    Answer answer = parseRaw(connection.received());
    answer.closed = wasClosed;
    return answer;
}

void TestAdminServer::listensOnLoopbackWithAFreePort()
{
    QVERIFY(m_server->port() != 0);
    QCOMPARE(m_server->url(), QUrl(u"http://127.0.0.1:%1"_s.arg(m_server->port())));
    QCOMPARE(m_server->options().address, QHostAddress(QHostAddress::LocalHost));

    // A taken port is reported, not ignored.
    AdminServerOptions options = testOptions();
    options.port = m_server->port();
    AdminServer second(*m_backend, options);
    QString error;
    QVERIFY(!second.listen(&error));
    QVERIFY2(error.contains(QString::number(options.port)), qPrintable(error));
}

void TestAdminServer::healthzNeedsNoCredentials()
{
    const Answer answer = call("GET", u"/healthz"_s);
    QCOMPARE(answer.status, 200);
    QCOMPARE(answer.header("Content-Type"), "application/json"_ba);
    QCOMPARE(answer.json().value("status"_L1).toString(), u"ok"_s);
    QCOMPARE(answer.json().value("store"_L1).toString(), u"memory"_s);
}

void TestAdminServer::healthzIs503WhileTheGatewayCannotServe()
{
    m_backend->healthy = false;
    const Answer answer = call("GET", u"/healthz"_s);
    QCOMPARE(answer.status, 503);
    // The health report itself, for the monitor to show, not an error object.
    QCOMPARE(answer.json().value("status"_L1).toString(), u"unavailable"_s);
}

void TestAdminServer::metricsIsPrometheusText()
{
    const Answer answer = call("GET", u"/metrics"_s);
    QCOMPARE(answer.status, 200);
    QCOMPARE(answer.header("Content-Type"), "text/plain; version=0.0.4; charset=utf-8"_ba);
    QCOMPARE(answer.body, m_backend->metricsText);
}

void TestAdminServer::setPresenceReachesTheBackend_data()
{
    QTest::addColumn<QString>("status");
    QTest::addColumn<std::optional<ChosenStatus>>("expected");
    QTest::addRow("online") << u"online"_s << std::optional(ChosenStatus::Online);
    QTest::addRow("away") << u"away"_s << std::optional(ChosenStatus::Away);
    QTest::addRow("invisible") << u"invisible"_s << std::optional(ChosenStatus::Invisible);
    QTest::addRow("offline") << u"offline"_s << std::optional<ChosenStatus>();
}

void TestAdminServer::setPresenceReachesTheBackend()
{
    QFETCH(QString, status);
    QFETCH(std::optional<ChosenStatus>, expected);
    const QByteArray body = QJsonDocument(QJsonObject { { "status"_L1, status } }).toJson();
    const Answer answer = call("POST", u"/admin/users/bob/presence"_s, body, kAdmin);
    QCOMPARE(answer.status, 204);
    QVERIFY(answer.body.isEmpty());
    QCOMPARE(m_backend->simulated.size(), 1);
    QCOMPARE(m_backend->simulated.first().first, u"bob"_s);
    QVERIFY(m_backend->simulated.first().second == expected);
}

void TestAdminServer::setPresenceRefusesBadBodies_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("message"); // a part of the error message
    QTest::addRow("empty") << QByteArray() << u"empty"_s;
    QTest::addRow("a form") << "status=away"_ba << u"must be a JSON object"_s;
    QTest::addRow("not JSON") << "{status: away}"_ba << u"not valid JSON"_s;
    QTest::addRow("array") << R"(["away"])"_ba << u"must be a JSON object"_s;
    QTest::addRow("number") << "42"_ba << u"must be a JSON object"_s;
    QTest::addRow("truncated") << R"({"status":"aw)"_ba << u"not valid JSON"_s;
    QTest::addRow("invalid UTF-8") << "{\"status\":\"aw\xff\xfe\"}"_ba << u"not valid JSON"_s;
    QTest::addRow("no status") << "{}"_ba << u"'status' is missing"_s;
    QTest::addRow("status not a string") << R"({"status":1})"_ba << u"'status'"_s;
    QTest::addRow("unknown status")
        << R"({"status":"busy"})"_ba << u"must be one of online, away, invisible, offline"_s;
    QTest::addRow("unknown field")
        << R"({"status":"away","user":"carol"})"_ba << u"unknown field 'user'"_s;
}

void TestAdminServer::setPresenceRefusesBadBodies()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, message);
    const Answer answer = call("POST", u"/admin/users/bob/presence"_s, body, kAdmin);
    QCOMPARE(answer.status, 400);
    QCOMPARE(answer.header("Content-Type"), "application/json"_ba);
    QCOMPARE(answer.errorCode(), u"bad_request"_s);
    QVERIFY2(answer.errorMessage().contains(message), qPrintable(answer.errorMessage()));
    QVERIFY(m_backend->simulated.isEmpty());
}

void TestAdminServer::setPresenceNeedsAKnownValidUser()
{
    const QByteArray body = R"({"status":"away"})"_ba;
    const Answer unknown = call("POST", u"/admin/users/nobody/presence"_s, body, kAdmin);
    QCOMPARE(unknown.status, 404);
    QCOMPARE(unknown.errorCode(), u"not_found"_s);
    QCOMPARE(unknown.errorMessage(), u"no user 'nobody'"_s);

    const Answer invalid = call("POST", u"/admin/users/b%21b/presence"_s, body, kAdmin);
    QCOMPARE(invalid.status, 400);
    QCOMPARE(invalid.errorCode(), u"bad_request"_s);
    QVERIFY(m_backend->simulated.isEmpty());
}

void TestAdminServer::describeUserAnswersWhenTheBackendDoes()
{
    m_backend->answerDelay = 50ms;
    const Answer answer = call("GET", u"/admin/users/dave"_s, {}, kAdmin);
    QCOMPARE(answer.status, 200);
    QCOMPARE(answer.header("Content-Type"), "application/json"_ba);
    QCOMPARE(answer.json().value("id"_L1).toString(), u"dave"_s);
    QCOMPARE(answer.json().value("devices"_L1).toArray(), QJsonArray { u"sim-1"_s });

    // The id in the path is percent-decoded.
    QCOMPARE(call("GET", u"/admin/users/%64ave"_s, {}, kAdmin).json().value("id"_L1), u"dave"_s);
    QCOMPARE(call("GET", u"/admin/users/zed"_s, {}, kAdmin).status, 404);
    QCOMPARE(call("GET", u"/admin/users/%20"_s, {}, kAdmin).status, 400);
    QCOMPARE(m_backend->describeCalls, 2);
}

void TestAdminServer::friendshipsChangeOneAtATime()
{
    // PUT makes friends, DELETE ends it; each says whether it changed anything.
    const Answer made = call("PUT", u"/admin/users/carol/friends/alice"_s, {}, kAdmin);
    QCOMPARE(made.status, 200);
    QCOMPARE(made.json(),
        QJsonObject({ { "user"_L1, u"carol"_s }, { "friend"_L1, u"alice"_s },
            { "friends"_L1, true }, { "changed"_L1, true } }));
    QVERIFY(m_backend->areFriends(u"alice"_s, u"carol"_s));
    const Answer again = call("PUT", u"/admin/users/alice/friends/carol"_s, {}, kAdmin);
    QCOMPARE(again.status, 200);
    QCOMPARE(again.json().value("changed"_L1), false);

    const Answer ended = call("DELETE", u"/admin/users/bob/friends/alice"_s, {}, kAdmin);
    QCOMPARE(ended.status, 200);
    QCOMPARE(ended.json().value("friends"_L1), false);
    QCOMPARE(ended.json().value("changed"_L1), true);
    QVERIFY(!m_backend->areFriends(u"alice"_s, u"bob"_s));
    QCOMPARE(
        call("DELETE", u"/admin/users/bob/friends/alice"_s, {}, kAdmin).json().value("changed"_L1),
        false);
    QCOMPARE(m_backend->friendshipCalls.size(), 4);
}

void TestAdminServer::friendshipsNeedTwoKnownUsers()
{
    const Answer unknown = call("PUT", u"/admin/users/alice/friends/zed"_s, {}, kAdmin);
    QCOMPARE(unknown.status, 404);
    QCOMPARE(unknown.errorMessage(), u"no user 'zed'"_s);
    QCOMPARE(call("DELETE", u"/admin/users/zed/friends/alice"_s, {}, kAdmin).status, 404);
    const Answer invalid = call("PUT", u"/admin/users/alice/friends/b%21b"_s, {}, kAdmin);
    QCOMPARE(invalid.status, 400);
    QCOMPARE(invalid.errorCode(), u"bad_request"_s);
    const Answer self = call("PUT", u"/admin/users/alice/friends/alice"_s, {}, kAdmin);
    QCOMPARE(self.status, 400);
    QCOMPARE(self.errorMessage(), u"a user cannot be their own friend"_s);
    QVERIFY(m_backend->friendshipCalls.isEmpty());
}

void TestAdminServer::reloadSaysWhatChangedOrWhyNot()
{
    const Answer done = call("POST", u"/admin/reload"_s, {}, kAdmin);
    QCOMPARE(done.status, 200);
    QCOMPARE(done.json(), QJsonObject({ { "users"_L1, QJsonObject {} } }));

    // The file does not load: 422, with the file's own message.
    m_backend->reloadRefusal = u"users file 'u.json': entry 2 (\"bob\"): duplicate id"_s;
    m_backend->reloadIsFileError = true;
    const Answer bad = call("POST", u"/admin/reload"_s, {}, kAdmin);
    QCOMPARE(bad.status, 422);
    QCOMPARE(bad.header("Content-Type"), "application/json"_ba);
    QCOMPARE(bad.errorCode(), u"invalid_file"_s);
    QCOMPARE(bad.errorMessage(), m_backend->reloadRefusal);

    // No file at all (a generated population): 409.
    m_backend->reloadRefusal = u"there is no users file to read"_s;
    m_backend->reloadIsFileError = false;
    const Answer none = call("POST", u"/admin/reload"_s, {}, kAdmin);
    QCOMPARE(none.status, 409);
    QCOMPARE(none.errorCode(), u"conflict"_s);
    QCOMPARE(m_backend->reloads, 3);
    QCOMPARE(call("GET", u"/admin/reload"_s, {}, kAdmin).status, 405);
}

void TestAdminServer::faultsStartAreListedAndEnd()
{
    const Answer started = call("POST", u"/admin/faults"_s,
        R"({"kind":"close","user":"bob","code":4001,"reason":"qa"})"_ba, kAdmin);
    QCOMPARE(started.status, 201);
    QCOMPARE(started.json(), QJsonObject({ { "id"_L1, u"f1"_s } }));
    QCOMPARE(started.header("Location"), "/admin/faults/f1"_ba);
    QVERIFY(m_backend->running.value(u"f1"_s).kind == FaultKind::Close);
    QCOMPARE(int(m_backend->running.value(u"f1"_s).code), 4001);

    const Answer listed = call("GET", u"/admin/faults"_s, {}, kAdmin);
    QCOMPARE(listed.status, 200);
    QCOMPARE(listed.json(), m_backend->faults());
    QCOMPARE(listed.json().value("faults"_L1).toArray().size(), 1);

    const Answer ended = call("DELETE", u"/admin/faults/f1"_s, {}, kAdmin);
    QCOMPARE(ended.status, 204);
    QVERIFY(ended.body.isEmpty());
    QVERIFY(m_backend->running.isEmpty());

    const Answer again = call("DELETE", u"/admin/faults/f1"_s, {}, kAdmin);
    QCOMPARE(again.status, 404);
    QCOMPARE(again.errorCode(), u"not_found"_s);
}

void TestAdminServer::faultsRefusedAreExplained()
{
    // FaultSpec's own sentence, as the scenario docs promise for POST /admin/faults.
    const QJsonObject badCode { { "kind"_L1, u"close"_s }, { "code"_L1, 1005 } };
    QString expected;
    QVERIFY(!FaultSpec::fromJson(badCode, &expected));
    const Answer invalid
        = call("POST", u"/admin/faults"_s, QJsonDocument(badCode).toJson(), kAdmin);
    QCOMPARE(invalid.status, 400);
    QCOMPARE(invalid.errorCode(), u"bad_request"_s);
    QCOMPARE(invalid.errorMessage(), expected);

    QCOMPARE(call("POST", u"/admin/faults"_s, R"(["drop"])"_ba, kAdmin).status, 400);

    m_backend->refusal = u"a crash fault is already running"_s;
    const Answer refused = call("POST", u"/admin/faults"_s, R"({"kind":"crash"})"_ba, kAdmin);
    QCOMPARE(refused.status, 409);
    QCOMPARE(refused.errorCode(), u"conflict"_s);
    QCOMPARE(refused.errorMessage(), m_backend->refusal);
    QVERIFY(m_backend->running.isEmpty());

    const Answer badId = call("DELETE", u"/admin/faults/no%20such"_s, {}, kAdmin);
    QCOMPARE(badId.status, 400);
    QCOMPARE(badId.errorCode(), u"bad_request"_s);
}

void TestAdminServer::servesHttpsWithACertificate()
{
    TestCertificates certificates;
    QVERIFY2(certificates.isValid(), qPrintable(certificates.error()));
    AdminServerOptions options = testOptions();
    QString error;
    options.tls
        = HttpsIdentity::load(certificates.certificateFile(), certificates.keyFile(), &error);
    QVERIFY2(options.tls, qPrintable(error));
    restart(options);
    QCOMPARE(m_server->url().scheme(), u"https"_s);

    // A client that trusts the authority is served as over HTTP.
    const QSslConfiguration before = QSslConfiguration::defaultConfiguration();
    const auto restore
        = qScopeGuard([&before] { QSslConfiguration::setDefaultConfiguration(before); });
    QSslConfiguration trusting = before;
    trusting.addCaCertificates(QSslCertificate::fromPath(certificates.caFile()));
    QSslConfiguration::setDefaultConfiguration(trusting);
    QNetworkAccessManager https;
    https.setProxy(QNetworkProxy::NoProxy);
    const Answer health
        = httpCall(https, "GET", m_server->url().resolved(QUrl(u"/healthz"_s)), {}, {});
    QCOMPARE(health.status, 200);
    const Answer faults
        = httpCall(https, "GET", m_server->url().resolved(QUrl(u"/admin/faults"_s)), {}, kAdmin);
    QCOMPARE(faults.status, 200);

    // Plain HTTP to the port gets no answer, and the server goes on.
    QUrl plain = m_server->url().resolved(QUrl(u"/healthz"_s));
    plain.setScheme(u"http"_s);
    QCOMPARE(httpCall(m_http, "GET", plain, {}, {}).status, 0);
    QCOMPARE(
        httpCall(https, "GET", m_server->url().resolved(QUrl(u"/healthz"_s)), {}, {}).status, 200);
}

void TestAdminServer::adminEndpointsNeedTheAdminToken_data()
{
    QTest::addColumn<QByteArray>("authorization");
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("challenge"); // WWW-Authenticate, for 401
    QTest::addRow("no header") << QByteArray() << 401 << "Bearer"_ba;
    QTest::addRow("another scheme") << "Basic YWRtaW46YWRtaW4tc2VjcmV0"_ba << 401 << "Bearer"_ba;
    QTest::addRow("no token") << "Bearer"_ba << 401 << R"(Bearer error="invalid_request")"_ba;
    QTest::addRow("two words") << "Bearer admin secret"_ba << 401
                               << R"(Bearer error="invalid_request")"_ba;
    QTest::addRow("wrong token") << "Bearer admin-secreT"_ba << 401
                                 << R"(Bearer error="invalid_token")"_ba;
    QTest::addRow("longer token") << "Bearer admin-secret2"_ba << 401
                                  << R"(Bearer error="invalid_token")"_ba;
    QTest::addRow("client token") << kAlice << 403 << QByteArray();
}

void TestAdminServer::adminEndpointsNeedTheAdminToken()
{
    QFETCH(QByteArray, authorization);
    QFETCH(int, status);
    QFETCH(QByteArray, challenge);
    m_backend->running.insert(u"f7"_s, FaultSpec {});
    struct Endpoint {
        QByteArray verb;
        QString path;
        QByteArray body;
        int success;
    };
    const QList<Endpoint> endpoints {
        { "POST"_ba, u"/admin/users/bob/presence"_s, R"({"status":"away"})"_ba, 204 },
        { "GET"_ba, u"/admin/users/bob"_s, {}, 200 },
        { "GET"_ba, u"/admin/faults"_s, {}, 200 },
        { "POST"_ba, u"/admin/faults"_s, R"({"kind":"drop"})"_ba, 201 },
        { "DELETE"_ba, u"/admin/faults/f7"_s, {}, 204 },
        { "PUT"_ba, u"/admin/users/bob/friends/erin"_s, {}, 200 },
        { "DELETE"_ba, u"/admin/users/alice/friends/dave"_s, {}, 200 },
        { "POST"_ba, u"/admin/reload"_s, {}, 200 },
    };
    for (const Endpoint &endpoint : endpoints) {
        const Answer answer = call(endpoint.verb, endpoint.path, endpoint.body, authorization);
        QCOMPARE(answer.status, status);
        QCOMPARE(answer.errorCode(), status == 401 ? u"unauthorized"_s : u"forbidden"_s);
        QCOMPARE(answer.header("WWW-Authenticate"), challenge);
    }
    // Nothing reached the gateway.
    QVERIFY(m_backend->simulated.isEmpty());
    QCOMPARE(m_backend->describeCalls, 0);
    QCOMPARE(m_backend->running.keys(), QStringList { u"f7"_s });
    QVERIFY(m_backend->friendshipCalls.isEmpty());
    QCOMPARE(m_backend->reloads, 0);

    // The same requests with the admin token (the scheme in any case) all succeed.
    for (const Endpoint &endpoint : endpoints) {
        const Answer answer
            = call(endpoint.verb, endpoint.path, endpoint.body, "bearer  admin-secret"_ba);
        QCOMPARE(answer.status, endpoint.success);
    }
}

void TestAdminServer::adminApiIsOffWithoutAnAdminToken()
{
    AdminServerOptions options = testOptions();
    options.adminToken.clear();
    restart(options);
    for (const QByteArray &authorization : { QByteArray(), kAdmin, kAlice }) {
        const Answer answer = call("GET", u"/admin/faults"_s, {}, authorization);
        QCOMPARE(answer.status, 403);
        QCOMPARE(answer.errorCode(), u"forbidden"_s);
        QCOMPARE(answer.errorMessage(), u"admin API disabled: start with --admin-token"_s);
    }
    // The rest of the server works as usual.
    QCOMPARE(call("GET", u"/healthz"_s).status, 200);
    QCOMPARE(call("POST", u"/api/heartbeat"_s, {}, kAlice).status, 200);
}

void TestAdminServer::heartbeatBelievesOnlyTheToken()
{
    // Every other place that could name a user says bob; the token says alice.
    const Answer answer = call("POST", u"/api/heartbeat?user=bob&id=bob"_s,
        R"({"user":"bob","id":"bob","token":"bob-secret"})"_ba, kAlice);
    QCOMPARE(answer.status, 200);
    QCOMPARE(answer.header("Content-Type"), "application/json"_ba);
    QCOMPARE(answer.json(), QJsonObject({ { "user"_L1, u"alice"_s }, { "ttl_ms"_L1, 35000 } }));
    QCOMPARE(m_backend->heartbeats, QStringList { u"alice"_s });

    // Without a token, naming someone does nothing at all.
    QCOMPARE(call("POST", u"/api/heartbeat?user=bob"_s, R"({"user":"bob"})"_ba).status, 401);
    QCOMPARE(m_backend->heartbeats, QStringList { u"alice"_s });

    // ttl_ms is the configured one.
    AdminServerOptions options = testOptions();
    options.heartbeatTtl = 12s;
    restart(options);
    QCOMPARE(call("POST", u"/api/heartbeat"_s, {}, "Bearer bob-secret"_ba).json(),
        QJsonObject({ { "user"_L1, u"bob"_s }, { "ttl_ms"_L1, 12000 } }));
}

void TestAdminServer::clientEndpointsNeedAClientToken_data()
{
    QTest::addColumn<QByteArray>("authorization");
    QTest::addColumn<QByteArray>("challenge");
    QTest::addRow("no header") << QByteArray() << "Bearer"_ba;
    QTest::addRow("another scheme") << "Basic YWxpY2U6YWxpY2Utc2VjcmV0"_ba
                                    << "Bearer"_ba;
    QTest::addRow("no token") << "Bearer "_ba
                              << R"(Bearer error="invalid_request")"_ba;
    QTest::addRow("two words") << "Bearer alice secret"_ba
                               << R"(Bearer error="invalid_request")"_ba;
    QTest::addRow("too long") << QByteArray("Bearer "_ba + QByteArray(4097, 'a'))
                              << R"(Bearer error="invalid_request")"_ba;
    QTest::addRow("unknown token") << "Bearer mallory-secret"_ba
                                   << R"(Bearer error="invalid_token")"_ba;
    // The admin token is no user's token: it opens nothing here.
    QTest::addRow("admin token") << kAdmin << R"(Bearer error="invalid_token")"_ba;
}

void TestAdminServer::clientEndpointsNeedAClientToken()
{
    QFETCH(QByteArray, authorization);
    QFETCH(QByteArray, challenge);
    const Answer heartbeat = call("POST", u"/api/heartbeat"_s, {}, authorization);
    QCOMPARE(heartbeat.status, 401);
    QCOMPARE(heartbeat.errorCode(), u"unauthorized"_s);
    QCOMPARE(heartbeat.header("WWW-Authenticate"), challenge);
    const Answer presence = call("GET", u"/api/presence?ids=bob"_s, {}, authorization);
    QCOMPARE(presence.status, 401);
    QCOMPARE(presence.header("WWW-Authenticate"), challenge);
    QVERIFY(m_backend->heartbeats.isEmpty());
    QVERIFY(m_backend->presenceAsked.isEmpty());
}

void TestAdminServer::presenceShowsFriendsAndDeniesTheRest()
{
    m_backend->answerDelay = 20ms;
    // bob and dave are friends; carol a stranger, nobody unknown, alice herself; bob twice.
    const Answer answer
        = call("GET", u"/api/presence?ids=bob,carol,nobody,alice,dave,bob"_s, {}, kAlice);
    QCOMPARE(answer.status, 200);
    QCOMPARE(answer.header("Content-Type"), "application/json"_ba);
    const QJsonObject expected = QJsonDocument::fromJson(R"({
        "users": [{"id":"bob","status":"online","seq":3},
                  {"id":"dave","status":"offline","seq":7,"last_seen":1733145600123}],
        "denied": ["carol","nobody","alice"]})"_ba)
                                     .object();
    QCOMPARE(answer.json(), expected);
    // Only friends were looked up; the stranger the backend volunteered is not shown.
    const QList<QStringList> asked { QStringList { u"bob"_s, u"dave"_s } };
    QCOMPARE(m_backend->presenceAsked, asked);

    // Friendship is mutual, and seen from the token's side: for carol, alice is a stranger.
    const Answer carol
        = call("GET", u"/api/presence?ids=alice,bob"_s, {}, "Bearer carol-secret"_ba);
    QCOMPARE(carol.json().value("users"_L1).toArray(), QJsonArray());
    QCOMPARE(carol.json().value("denied"_L1).toArray(), QJsonArray({ u"alice"_s, u"bob"_s }));
    const Answer bob = call("GET", u"/api/presence?ids=alice"_s, {}, "Bearer bob-secret"_ba);
    QCOMPARE(bob.json().value("users"_L1).toArray().size(), 1);
}

void TestAdminServer::presenceWithoutFriendsAsksNothing()
{
    const Answer empty = call("GET", u"/api/presence?ids="_s, {}, kAlice);
    QCOMPARE(empty.status, 200);
    QCOMPARE(
        empty.json(), QJsonObject({ { "users"_L1, QJsonArray() }, { "denied"_L1, QJsonArray() } }));
    const Answer strangers = call("GET", u"/api/presence?ids=carol,erin"_s, {}, kAlice);
    QCOMPARE(strangers.status, 200);
    QCOMPARE(strangers.json().value("denied"_L1).toArray(), QJsonArray({ u"carol"_s, u"erin"_s }));
    QVERIFY(m_backend->presenceAsked.isEmpty());
}

void TestAdminServer::presenceTakesAtMost500Ids()
{
    // 500 ids of the longest kind (64 characters) still fit in a request head.
    QStringList ids;
    for (int i = 0; i < 500; ++i)
        ids.append(u"user%1"_s.arg(i).leftJustified(64, u'x'));
    const Answer at = call("GET", u"/api/presence?ids="_s + ids.join(u','), {}, kAlice);
    QCOMPARE(at.status, 200);
    QCOMPARE(at.json().value("denied"_L1).toArray().size(), 500);

    ids.append(u"bob"_s);
    const Answer over = call("GET", u"/api/presence?ids="_s + ids.join(u','), {}, kAlice);
    QCOMPARE(over.status, 413);
    QCOMPARE(over.errorCode(), u"too_many_ids"_s);
    QCOMPARE(over.errorMessage(), u"501 ids is more than the limit of 500 per request"_s);
    QVERIFY(m_backend->presenceAsked.isEmpty());
}

void TestAdminServer::presenceRefusesBadQueries_data()
{
    QTest::addColumn<QString>("query");
    QTest::addRow("no ids") << u""_s;
    QTest::addRow("ids twice") << u"?ids=bob&ids=dave"_s;
    QTest::addRow("invalid id") << u"?ids=bob,b%20b"_s;
    QTest::addRow("empty id") << u"?ids=bob,,dave"_s;
    QTest::addRow("trailing comma") << u"?ids=bob,"_s;
    QTest::addRow("too long an id") << u"?ids="_s + QString(65, u'a');
    QTest::addRow("not UTF-8") << u"?ids=b%FFb"_s;
}

void TestAdminServer::presenceRefusesBadQueries()
{
    QFETCH(QString, query);
    const Answer answer = call("GET", u"/api/presence"_s + query, {}, kAlice);
    QCOMPARE(answer.status, 400);
    QCOMPARE(answer.errorCode(), u"bad_request"_s);
    QVERIFY(m_backend->presenceAsked.isEmpty());
}

void TestAdminServer::unknownPathsAre404Json_data()
{
    QTest::addColumn<QByteArray>("verb");
    QTest::addColumn<QString>("path");
    QTest::addRow("root") << "GET"_ba << u"/"_s;
    QTest::addRow("typo") << "GET"_ba << u"/healthy"_s;
    QTest::addRow("trailing slash") << "GET"_ba << u"/healthz/"_s;
    QTest::addRow("deeper") << "GET"_ba << u"/admin/users/bob/presence/now"_s;
    QTest::addRow("empty id") << "POST"_ba << u"/admin/users//presence"_s;
    QTest::addRow("api root") << "POST"_ba << u"/api"_s;
}

void TestAdminServer::unknownPathsAre404Json()
{
    QFETCH(QByteArray, verb);
    QFETCH(QString, path);
    const Answer answer = call(verb, path, {}, kAdmin);
    QCOMPARE(answer.status, 404);
    QCOMPARE(answer.header("Content-Type"), "application/json"_ba);
    QCOMPARE(answer.errorCode(), u"not_found"_s);
}

void TestAdminServer::wrongMethodsAre405WithAllow_data()
{
    QTest::addColumn<QByteArray>("verb");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("allow");
    QTest::addRow("POST healthz") << "POST"_ba << u"/healthz"_s << "GET"_ba;
    QTest::addRow("HEAD metrics") << "HEAD"_ba << u"/metrics"_s << "GET"_ba;
    QTest::addRow("GET presence change") << "GET"_ba << u"/admin/users/bob/presence"_s << "POST"_ba;
    QTest::addRow("DELETE user") << "DELETE"_ba << u"/admin/users/bob"_s << "GET"_ba;
    QTest::addRow("PUT faults") << "PUT"_ba << u"/admin/faults"_s << "GET, POST"_ba;
    QTest::addRow("GET a friendship")
        << "GET"_ba << u"/admin/users/bob/friends/erin"_s << "PUT, DELETE"_ba;
    QTest::addRow("GET a fault") << "GET"_ba << u"/admin/faults/f1"_s << "DELETE"_ba;
    QTest::addRow("GET heartbeat") << "GET"_ba << u"/api/heartbeat"_s << "POST"_ba;
    QTest::addRow("POST presence") << "POST"_ba << u"/api/presence"_s << "GET"_ba;
    QTest::addRow("OPTIONS presence") << "OPTIONS"_ba << u"/api/presence"_s << "GET"_ba;
}

void TestAdminServer::wrongMethodsAre405WithAllow()
{
    QFETCH(QByteArray, verb);
    QFETCH(QString, path);
    QFETCH(QByteArray, allow);
    const Answer answer = call(verb, path, {}, kAdmin);
    QCOMPARE(answer.status, 405);
    QCOMPARE(answer.header("Allow"), allow);
    if (verb != "HEAD") // a HEAD answer has no body to read
        QCOMPARE(answer.errorCode(), u"method_not_allowed"_s);
    QVERIFY(m_backend->simulated.isEmpty());
    QVERIFY(m_backend->heartbeats.isEmpty());
}

void TestAdminServer::bodiesOver64KiBAre413()
{
    // Exactly the limit is fine: JSON may carry that much white space.
    const QByteArray fits = paddedTo(R"({"status":"away"})"_ba, 64 * kKiB);
    QCOMPARE(call("POST", u"/admin/users/bob/presence"_s, fits, kAdmin).status, 204);

    const QByteArray over = paddedTo(R"({"status":"away"})"_ba, 64 * kKiB + 1);
    const Answer answer = call("POST", u"/admin/users/bob/presence"_s, over, kAdmin);
    QCOMPARE(answer.status, 413);
    QCOMPARE(answer.errorCode(), u"too_large"_s);
    QCOMPARE(m_backend->simulated.size(), 1);

    // The announced length is judged before any of the body is read.
    const Answer announced = raw("POST /admin/users/bob/presence HTTP/1.1\r\n"
                                 "Authorization: Bearer admin-secret\r\n"
                                 "Content-Length: 1000000000\r\n\r\n"_ba);
    QCOMPARE(announced.status, 413);
    QVERIFY(announced.closed);

    // The limit is an option.
    AdminServerOptions options = testOptions();
    options.http.maxBodyBytes = 100;
    restart(options);
    QCOMPARE(call("POST", u"/admin/users/bob/presence"_s, paddedTo(R"({"status":"away"})"_ba, 101),
                 kAdmin)
                 .status,
        413);
}

void TestAdminServer::rateLimitAnswers429WithRetryAfter()
{
    AdminServerOptions options = testOptions();
    // Slow enough that no token comes back while the test runs, however loaded the machine.
    options.requestsPerSecond = 0.2;
    options.requestBurst = 3;
    restart(options);
    // Every request counts, whatever it asks and however it ends.
    QCOMPARE(call("GET", u"/healthz"_s).status, 200);
    QCOMPARE(call("GET", u"/nowhere"_s).status, 404);
    QCOMPARE(call("POST", u"/api/heartbeat"_s).status, 401);
    const Answer limited = call("POST", u"/api/heartbeat"_s, {}, kAlice);
    QCOMPARE(limited.status, 429);
    QCOMPARE(limited.errorCode(), u"rate_limited"_s);
    bool isNumber = false;
    const int retryAfter = limited.header("Retry-After").toInt(&isNumber);
    QVERIFY2(
        isNumber && retryAfter >= 1 && retryAfter <= 5, limited.header("Retry-After").constData());
    QVERIFY(m_backend->heartbeats.isEmpty());
}

void TestAdminServer::malformedRequestsAreRefused_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<int>("status");
    const QByteArray post
        = "POST /admin/faults HTTP/1.1\r\nAuthorization: Bearer admin-secret\r\n"_ba;
    const auto withBody = [&post](const QByteArray &body) {
        return QByteArray(
            post + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
    };
    QTest::addRow("garbage") << "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n"_ba << 400;
    QTest::addRow("no version") << "GET /healthz\r\n\r\n"_ba << 400;
    QTest::addRow("HTTP/2.0") << "GET /healthz HTTP/2.0\r\n\r\n"_ba << 400;
    QTest::addRow("two spaces") << "GET  /healthz HTTP/1.1\r\n\r\n"_ba << 400;
    QTest::addRow("header without colon") << "GET /healthz HTTP/1.1\r\nHost\r\n\r\n"_ba << 400;
    QTest::addRow("space in a header name") << "GET /healthz HTTP/1.1\r\nX A: 1\r\n\r\n"_ba << 400;
    QTest::addRow("line folding") << "GET /healthz HTTP/1.1\r\nX-A: 1\r\n 2\r\n\r\n"_ba << 400;
    QTest::addRow("NUL in a header") << "GET /healthz HTTP/1.1\r\nX-A: a\0b\r\n\r\n"_ba << 400;
    QTest::addRow("two lengths") << QByteArray(
        post + "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}")
                                 << 400;
    QTest::addRow("negative length") << QByteArray(post + "Content-Length: -1\r\n\r\n") << 400;
    QTest::addRow("huge length") << QByteArray(
        post + "Content-Length: 99999999999999999999\r\n\r\n")
                                 << 400;
    QTest::addRow("chunked body") << QByteArray(
        post + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
                                  << 411;
    QTest::addRow("announced body over the limit")
        << QByteArray(post + "Content-Length: 70000\r\n\r\n") << 413;
    QByteArray manyFields = "GET /healthz HTTP/1.1\r\n"_ba;
    for (int i = 0; i <= 100; ++i)
        manyFields += "X-" + QByteArray::number(i) + ": 1\r\n";
    QTest::addRow("101 header fields") << QByteArray(manyFields + "\r\n") << 431;
    QTest::addRow("unknown method") << "BREW /healthz HTTP/1.1\r\n\r\n"_ba << 501;
    QTest::addRow("invalid UTF-8 in the body") << withBody("{\"kind\":\"dr\xc3\x28p\"}"_ba) << 400;
    QTest::addRow("truncated UTF-8 in the body") << withBody("{\"kind\":\"\xe2\x82\"}"_ba) << 400;
    QTest::addRow("not an object") << withBody("[1,2,3]"_ba) << 400;
    // What is odd but allowed goes through.
    QTest::addRow("HTTP/1.0") << "GET /healthz HTTP/1.0\r\n\r\n"_ba << 200;
    QTest::addRow("empty lines first") << "\r\n\r\nGET /healthz HTTP/1.1\r\n\r\n"_ba << 200;
    QTest::addRow("bare line feeds") << "GET /healthz HTTP/1.1\nHost: x\n\n"_ba << 200;
    QTest::addRow("absolute form") << "GET http://127.0.0.1/healthz HTTP/1.1\r\n\r\n"_ba << 200;
    QTest::addRow("lower-case names") << "POST /admin/faults HTTP/1.1\r\n"
                                         "authorization: bearer admin-secret\r\n"
                                         "content-length: 15\r\n\r\n{\"kind\":\"drop\"}"_ba
                                      << 201;
}

void TestAdminServer::malformedRequestsAreRefused()
{
    QFETCH(QByteArray, request);
    QFETCH(int, status);
    const Answer answer = raw(request);
    QCOMPARE(answer.status, status);
    QCOMPARE(answer.responses, 1);
    QVERIFY(answer.closed);
    QCOMPARE(answer.header("Content-Type"), "application/json"_ba);
    if (status >= 400) {
        QVERIFY2(!answer.errorCode().isEmpty() && !answer.errorMessage().isEmpty(),
            answer.body.constData());
        QVERIFY(m_backend->running.isEmpty());
    }
    // The server is none the worse.
    QCOMPARE(call("GET", u"/healthz"_s).status, 200);
}

void TestAdminServer::hugeHeadIsRefusedBeforeItEnds()
{
    // A request line that never ends: refused once it passes the limit, not buffered forever.
    RawConnection connection;
    QVERIFY(connection.open(m_server->port()));
    connection.write("GET /" + QByteArray(200 * kKiB, 'a'));
    QTRY_VERIFY(connection.received().contains("\r\n\r\n"));
    const Answer answer = parseRaw(connection.received());
    QCOMPARE(answer.status, 431);
    QCOMPARE(answer.errorCode(), u"headers_too_large"_s);
    QVERIFY(connection.waitClosed());

    // As many header bytes, spread over fields, are refused alike.
    QByteArray fields = "GET /healthz HTTP/1.1\r\n"_ba;
    while (fields.size() < 70 * kKiB)
        fields += "X-Padding: " + QByteArray(1000, 'p') + "\r\n";
    QCOMPARE(raw(fields + "\r\n").status, 431);
    QCOMPARE(call("GET", u"/healthz"_s).status, 200);
}

void TestAdminServer::slowRequestTimesOut()
{
    AdminServerOptions options = testOptions();
    options.http.requestTimeout = 200ms;
    restart(options);
    const Answer answer = raw("GET /healthz HTTP/1.1\r\nHost: 127"_ba);
    QCOMPARE(answer.status, 408);
    QCOMPARE(answer.errorCode(), u"request_timeout"_s);
    QVERIFY(answer.closed);
    // A body that never comes in full times out the same way.
    QCOMPARE(raw("POST /api/heartbeat HTTP/1.1\r\nContent-Length: 10\r\n\r\n12345"_ba).status, 408);
    QVERIFY(m_backend->heartbeats.isEmpty());
}

void TestAdminServer::expectContinueIsHonoured()
{
    RawConnection connection;
    QVERIFY(connection.open(m_server->port()));
    const QByteArray body = R"({"status":"away"})"_ba;
    connection.write("POST /admin/users/bob/presence HTTP/1.1\r\n"
                     "Authorization: Bearer admin-secret\r\n"
                     "Expect: 100-continue\r\n"
                     "Content-Length: "
        + QByteArray::number(body.size()) + "\r\n\r\n");
    // The body is sent only once the server asks for it, as curl does.
    QTRY_VERIFY(connection.received().startsWith("HTTP/1.1 100 Continue\r\n\r\n"));
    QVERIFY(m_backend->simulated.isEmpty());
    connection.write(body);
    QVERIFY(connection.waitClosed());
    QCOMPARE(parseRaw(connection.received()).status, 204);
    QCOMPARE(m_backend->simulated.size(), 1);
}

void TestAdminServer::oneRequestPerConnection()
{
    // A second request on the same connection is never read: one answer, then the close.
    const Answer answer
        = raw("GET /healthz HTTP/1.1\r\n\r\n"
              "POST /api/heartbeat HTTP/1.1\r\nAuthorization: Bearer alice-secret\r\n"
              "Content-Length: 0\r\n\r\n"_ba);
    QCOMPARE(answer.status, 200);
    QCOMPARE(answer.responses, 1);
    QCOMPARE(answer.header("Connection"), "close"_ba);
    QVERIFY(answer.closed);
    QVERIFY(m_backend->heartbeats.isEmpty());
}

void TestAdminServer::clientLeavingBeforeTheAnswerIsHarmless()
{
    m_backend->answerDelay = 10s;
    {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, m_server->port());
        QVERIFY(socket.waitForConnected(5000));
        socket.write("GET /admin/users/bob HTTP/1.1\r\nAuthorization: Bearer admin-secret\r\n\r\n");
        QTRY_COMPARE(m_backend->describeCalls, 1);
        socket.abort();
    }
    // The answer is called off with the connection (its context goes with it).
    QTRY_VERIFY(m_backend->lastContext.isNull());
    m_backend->answerDelay = 0ms;
    QCOMPARE(call("GET", u"/admin/users/bob"_s, {}, kAdmin).status, 200);
}

void TestAdminServer::tooManyConnectionsAre503()
{
    AdminServerOptions options = testOptions();
    options.http.maxConnections = 2;
    restart(options);
    QTcpSocket idle[2];
    for (QTcpSocket &socket : idle) {
        socket.connectToHost(QHostAddress::LocalHost, m_server->port());
        QVERIFY(socket.waitForConnected(5000));
    }
    const Answer third = raw("GET /healthz HTTP/1.1\r\n\r\n"_ba);
    QCOMPARE(third.status, 503);
    QCOMPARE(third.errorCode(), u"unavailable"_s);
    QVERIFY(third.closed);

    for (QTcpSocket &socket : idle)
        socket.disconnectFromHost();
    // Once they are gone, there is room again.
    QTRY_COMPARE(call("GET", u"/healthz"_s).status, 200);
}

QTEST_MAIN(TestAdminServer)
#include "tst_admin_server.moc"
