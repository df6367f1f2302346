// Tests for the presence-mock-server executable as a user runs it: startup output, logging in,
// clean shutdown on SIGTERM/SIGINT, exit codes for bad input, --help/--version, and that two
// servers can share a machine (port 0, no fixed port).

// C++
#include <csignal>
#include <cstring>
#include <optional>
// System
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

// Qt
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QTemporaryDir>
#include <QTest>

// Presence
#include "TestCertificates.h"
#include "TestClient.h"
#include "protocol/CloseCode.h"
#include "server-mock/directory/UsersFile.h"
#include "tests/harness/HttpCall.h"
#include "tests/harness/MockServerProcess.h"

using namespace Qt::StringLiterals;
using namespace Presence::Server;
using Presence::TestSupport::TestCertificates;

class TestServerProcess : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void servesGeneratedPopulation();
    void exitsCleanlyOnSignal_data();
    void exitsCleanlyOnSignal();
    void refusesBadUsersFile_data();
    void refusesBadUsersFile();
    void refusesBadArguments_data();
    void refusesBadArguments();
    void printsVersion();
    void runsFromAConfigFile();
    void logsJsonLines();
    void tellsSystemd();
    void reloadsTheUsersFile();
    void servesTls();
    void checkConfigSaysWhatIsWrong_data();
    void checkConfigSaysWhatIsWrong();
    void printsHelp();
    void twoServersRunAtOnce();

private:
    // Starts `server` on a free port with a generated population dumped to dir; returns the
    // port and fills *directory with the dumped users.
    std::optional<quint16> startGenerated(MockServerProcess &server, const QTemporaryDir &dir,
        std::optional<UserDirectory> *directory, const QStringList &more = {});
};

void TestServerProcess::initTestCase()
{
    QVERIFY2(QFile::exists(QStringLiteral(PRESENCE_MOCK_SERVER)), PRESENCE_MOCK_SERVER);
}

std::optional<quint16> TestServerProcess::startGenerated(MockServerProcess &server,
    const QTemporaryDir &dir, std::optional<UserDirectory> *directory, const QStringList &more)
{
    const QString dumpPath = dir.filePath(u"users.json"_s);
    if (!server.start(QStringList { u"--listen"_s, u"127.0.0.1:0"_s, u"--generate"_s, u"20"_s,
                          u"--friends"_s, u"4"_s, u"--dump-users"_s, dumpPath }
            + more))
        return std::nullopt;
    const auto port = server.waitListening();
    if (!port)
        return std::nullopt;
    QString error;
    *directory = UsersFile::load(dumpPath, &error);
    if (!*directory)
        qWarning("%s", qPrintable(error));
    return port;
}

void TestServerProcess::servesGeneratedPopulation()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    MockServerProcess server(QStringLiteral(PRESENCE_MOCK_SERVER));
    std::optional<UserDirectory> users;
    const auto port = startGenerated(server, dir, &users);
    QVERIFY2(port, server.transcript().constData());
    QVERIFY(*port != 0);
    QVERIFY(users);

    // The dumped file holds the population the server runs with.
    QCOMPARE(users->size(), 20);
    for (int i = 0; i < users->size(); ++i) {
        QCOMPARE(users->user(i).id, u"user%1"_s.arg(i));
        QCOMPARE(users->user(i).friends.size(), 4);
    }
    QVERIFY2(server.output().contains(u"generated tokens are for local QA only"_s),
        server.transcript().constData());

    const UserDirectory::User &user = users->user(3);
    TestClient client;
    const QJsonObject welcome = client.login(server.url(), user.token);
    QVERIFY2(!welcome.isEmpty(), server.transcript().constData());
    QCOMPARE(welcome.value("user"_L1).toObject().value("id"_L1).toString(), user.id);
    QCOMPARE(welcome.value("user"_L1).toObject().value("name"_L1).toString(), user.name);
    const QJsonObject friends = client.request({ { "type"_L1, "friends"_L1 } });
    QCOMPARE(friends.value("type"_L1).toString(), u"friends"_s);
    QCOMPARE(friends.value("total"_L1).toInt(), 4);

    // Stop it, so the check below sees everything it ever printed.
    server.process().terminate();
    QVERIFY(client.waitDisconnected());
    QVERIFY2(server.waitFinished(), server.transcript().constData());

    // Tokens are secrets: the server names where they are, never what they are.
    const QString all = server.output() + server.errorOutput();
    for (int i = 0; i < users->size(); ++i)
        QVERIFY2(
            !all.contains(users->user(i).token), qPrintable(u"token of user%1 printed"_s.arg(i)));
}

void TestServerProcess::exitsCleanlyOnSignal_data()
{
    QTest::addColumn<int>("signalNumber");
    QTest::addRow("SIGTERM") << int(SIGTERM);
    QTest::addRow("SIGINT") << int(SIGINT);
}

void TestServerProcess::exitsCleanlyOnSignal()
{
    QFETCH(int, signalNumber);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    MockServerProcess server(QStringLiteral(PRESENCE_MOCK_SERVER));
    std::optional<UserDirectory> users;
    const auto port = startGenerated(server, dir, &users);
    QVERIFY2(port, server.transcript().constData());
    QVERIFY(users);

    TestClient client;
    QVERIFY2(!client.login(server.url(), users->user(0).token).isEmpty(),
        server.transcript().constData());

    if (signalNumber == SIGTERM)
        server.process().terminate(); // sends SIGTERM
    else
        server.signal(signalNumber);

    QVERIFY(client.waitDisconnected());
    QCOMPARE(client.closeCode(), int(Presence::Protocol::CloseCode::GoingAway));
    QVERIFY2(server.waitFinished(), server.transcript().constData());
    QCOMPARE(server.process().exitStatus(), QProcess::NormalExit);
    QCOMPARE(server.process().exitCode(), 0);
}

void TestServerProcess::refusesBadUsersFile_data()
{
    QTest::addColumn<QByteArray>("contents"); // null: no file at all
    QTest::addColumn<QStringList>("expected");

    QTest::addRow("missing file") << QByteArray() << QStringList { u"cannot open"_s };
    QTest::addRow("malformed JSON")
        << "{\"users\": [\n"_ba << QStringList { u"not valid JSON"_s, u"line"_s };
    QTest::addRow("duplicate id")
        << R"({"users": [{"id": "a", "token": "tok-secret-1"}, {"id": "a", "token": "tok-secret-2"}]})"_ba
        << QStringList { u"entry 1 (\"a\")"_s, u"duplicate id"_s };
    QTest::addRow("duplicate token")
        << R"({"users": [{"id": "a", "token": "tok-secret-1"}, {"id": "b", "token": "tok-secret-1"}]})"_ba
        << QStringList { u"entry 1 (\"b\")"_s, u"duplicate token"_s };
    QTest::addRow("unknown friend")
        << R"({"users": [{"id": "a", "token": "tok-secret-1", "friends": ["ghost"]}]})"_ba
        << QStringList { u"entry 0 (\"a\")"_s, u"unknown friend id \"ghost\""_s };
}

void TestServerProcess::refusesBadUsersFile()
{
    QFETCH(QByteArray, contents);
    QFETCH(QStringList, expected);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"team.json"_s);
    if (!contents.isNull()) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QCOMPARE(file.write(contents), contents.size());
    }

    MockServerProcess server(QStringLiteral(PRESENCE_MOCK_SERVER));
    QVERIFY(server.start({ u"--listen"_s, u"127.0.0.1:0"_s, u"--users"_s, path }));
    QVERIFY2(server.waitFinished(), server.transcript().constData());
    QCOMPARE(server.process().exitStatus(), QProcess::NormalExit);
    QCOMPARE(server.process().exitCode(), 1);
    const QString errors = server.errorOutput();
    QVERIFY2(errors.contains(path), server.transcript().constData());
    for (const QString &piece : std::as_const(expected))
        QVERIFY2(errors.contains(piece), server.transcript().constData());
    QVERIFY2(!errors.contains(u"tok-secret"_s), server.transcript().constData());
    QVERIFY2(!server.output().contains(u"listening on"_s), server.transcript().constData());
}

void TestServerProcess::refusesBadArguments_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected"); // the option the message must name

    QTest::addRow("no population")
        << QStringList { u"--listen"_s, u"127.0.0.1:0"_s } << u"--generate"_s;
    QTest::addRow("bad --listen") << QStringList { u"--generate"_s, u"5"_s, u"--listen"_s,
        u"nowhere"_s } << u"--listen"_s;
    QTest::addRow("bad --generate") << QStringList { u"--generate"_s, u"0"_s } << u"--generate"_s;
    QTest::addRow("unknown option")
        << QStringList { u"--generate"_s, u"5"_s, u"--colour"_s } << u"colour"_s;
    QTest::addRow("positional") << QStringList { u"--generate"_s, u"5"_s, u"stray"_s }
                                << u"stray"_s;
}

void TestServerProcess::refusesBadArguments()
{
    QFETCH(QStringList, args);
    QFETCH(QString, expected);

    MockServerProcess server(QStringLiteral(PRESENCE_MOCK_SERVER));
    QVERIFY(server.start(args));
    QVERIFY2(server.waitFinished(), server.transcript().constData());
    QCOMPARE(server.process().exitStatus(), QProcess::NormalExit);
    QCOMPARE(server.process().exitCode(), 2);
    QVERIFY2(server.errorOutput().contains(expected), server.transcript().constData());
    QVERIFY2(server.errorOutput().contains(u"--help"_s), server.transcript().constData());
    QVERIFY2(!server.output().contains(u"listening on"_s), server.transcript().constData());
}

void TestServerProcess::runsFromAConfigFile()
{
    // A service's config beside its users file: paths are the config's folder's, and the
    // command line still wins (--listen here).
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto write = [&dir](const QString &name, const QByteArray &contents) {
        QFile file(dir.filePath(name));
        QVERIFY(file.open(QIODevice::WriteOnly));
        QCOMPARE(file.write(contents), contents.size());
    };
    write(u"users.json"_s,
        R"({"users": [{"id": "a", "token": "tok-a"}, {"id": "b", "token": "tok-b"}]})");
    write(u"gateway.ini"_s,
        "# presence-mock-server\nusers = users.json\nlisten = 127.0.0.1:1\n"
        "grace-ms = 2000\n");
    const QString config = dir.filePath(u"gateway.ini"_s);

    MockServerProcess check(QStringLiteral(PRESENCE_MOCK_SERVER));
    QVERIFY(check.start({ u"--config"_s, config, u"--check-config"_s }));
    QVERIFY2(check.waitFinished(), check.transcript().constData());
    QCOMPARE(check.process().exitCode(), 0);
    QCOMPARE(check.output(), u"presence-mock-server: configuration OK (2 users)\n"_s);

    MockServerProcess server(QStringLiteral(PRESENCE_MOCK_SERVER));
    QVERIFY(server.start({ u"--config"_s, config, u"--listen"_s, u"127.0.0.1:0"_s }));
    QVERIFY2(server.waitListening(), server.transcript().constData());
    QVERIFY2(server.output().contains(u"(2 users,"_s), server.transcript().constData());
}

void TestServerProcess::logsJsonLines()
{
    // A collector reads stderr line by line: every line is one JSON object, tokens never.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    MockServerProcess server(QStringLiteral(PRESENCE_MOCK_SERVER));
    std::optional<UserDirectory> users;
    const auto port = startGenerated(server, dir, &users, { u"--log-format"_s, u"json"_s });
    QVERIFY2(port, server.transcript().constData());
    TestClient client;
    QVERIFY(!client.login(server.url(), users->user(1).token).isEmpty());
    TestClient refused;
    refused.open(server.url());
    QVERIFY(refused.waitConnected());
    refused.sendJson(
        { { "type"_L1, "hello"_L1 }, { "token"_L1, u"qa-wrong-secret"_s }, { "protocol"_L1, 1 } });
    QVERIFY(refused.waitDisconnected());
    QVERIFY2(server.waitErrorOutput(u"refused"_s), server.transcript().constData());
    server.process().terminate();
    QVERIFY2(server.waitFinished(), server.transcript().constData());

    const QStringList lines = server.errorOutput().split(u'\n', Qt::SkipEmptyParts);
    QVERIFY(lines.size() >= 3);
    bool signedIn = false;
    for (const QString &line : lines) {
        QJsonParseError error;
        const QJsonObject object = QJsonDocument::fromJson(line.toUtf8(), &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(line));
        for (const char *field : { "time", "level", "category", "message" })
            QVERIFY2(object.contains(QLatin1StringView(field)), qPrintable(line));
        QVERIFY2(!line.contains(users->user(1).token) && !line.contains(u"qa-wrong-secret"_s),
            qPrintable(line));
        if (object.value("message"_L1).toString().contains(u"signed in as"_s)) {
            signedIn = true;
            QCOMPARE(object.value("user"_L1).toString(), users->user(1).id);
            QVERIFY(object.value("connection"_L1).toInteger() > 0);
        }
    }
    QVERIFY2(signedIn, qPrintable(server.errorOutput()));
}

void TestServerProcess::tellsSystemd()
{
    // As systemd runs a Type=notify service: a datagram socket in NOTIFY_SOCKET, a watchdog
    // period in WATCHDOG_USEC.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QByteArray path = QFile::encodeName(dir.filePath(u"notify"_s));
    const int listener = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    QVERIFY(listener >= 0);
    const auto closeListener = qScopeGuard([listener] { ::close(listener); });
    sockaddr_un address {};
    address.sun_family = AF_UNIX;
    QVERIFY(size_t(path.size()) < sizeof(address.sun_path));
    std::memcpy(address.sun_path, path.constData(), size_t(path.size()));
    QCOMPARE(::bind(listener, reinterpret_cast<const sockaddr *>(&address), sizeof(address)), 0);
    QStringList heard;
    const auto hear = [&heard, listener] {
        char buffer[4096];
        for (ssize_t n; (n = ::recv(listener, buffer, sizeof(buffer), 0)) > 0;)
            heard.append(QString::fromUtf8(buffer, qsizetype(n)));
        return heard.join(u"|"_s);
    };

    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"NOTIFY_SOCKET"_s, QFile::decodeName(path));
    environment.insert(u"WATCHDOG_USEC"_s, u"400000"_s);
    MockServerProcess server(QStringLiteral(PRESENCE_MOCK_SERVER));
    server.setEnvironment(environment);
    std::optional<UserDirectory> users;
    QVERIFY2(startGenerated(server, dir, &users), server.transcript().constData());
    QTRY_VERIFY2(hear().contains(u"READY=1\nSTATUS=listening on ws://127.0.0.1:"_s),
        qPrintable(heard.join(u'|')));
    const auto pings = [&] {
        (void)hear();
        return heard.count(u"WATCHDOG=1"_s);
    };
    QTRY_VERIFY2(pings() >= 2, qPrintable(heard.join(u'|'))); // every 200 ms
    server.process().terminate();
    QVERIFY2(server.waitFinished(), server.transcript().constData());
    QCOMPARE(server.process().exitCode(), 0);
    QTRY_VERIFY2(hear().contains(u"STOPPING=1"_s), qPrintable(heard.join(u'|')));
}

void TestServerProcess::reloadsTheUsersFile()
{
    // SIGHUP, and POST /admin/reload, read the users file again: a bad file changes nothing
    // and says why; a good one changes friendships for connected users at once.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString usersPath = dir.filePath(u"users.json"_s);
    const auto writeUsers = [&usersPath](const QByteArray &contents) {
        QFile file(usersPath);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QCOMPARE(file.write(contents), contents.size());
    };
    writeUsers(R"({"users": [{"id": "a", "token": "tok-a", "friends": ["b"]},
        {"id": "b", "token": "tok-b"}, {"id": "c", "name": "Cy", "token": "tok-c"}]})");
    QFile tokenFile(dir.filePath(u"admin.token"_s));
    QVERIFY(tokenFile.open(QIODevice::WriteOnly));
    tokenFile.write("admin-secret-of-the-test\n");
    tokenFile.close();

    MockServerProcess server(QStringLiteral(PRESENCE_MOCK_SERVER));
    QVERIFY(server.start({ u"--users"_s, usersPath, u"--listen"_s, u"127.0.0.1:0"_s, u"--admin"_s,
        u"127.0.0.1:0"_s, u"--admin-token-file"_s, tokenFile.fileName() }));
    QVERIFY2(server.waitListening(), server.transcript().constData());
    const QRegularExpressionMatch admin
        = QRegularExpression(u"admin API on (http://\\S+)"_s).match(server.output());
    QVERIFY2(admin.hasMatch(), server.transcript().constData());
    const QUrl adminUrl(admin.captured(1));
    TestClient a;
    QVERIFY(!a.login(server.url(), u"tok-a"_s).isEmpty());
    QCOMPARE(a.request({ { "type"_L1, "subscribe"_L1 }, { "ids"_L1, QJsonArray { u"b"_s } } })
                 .value("users"_L1)
                 .toArray()
                 .size(),
        1);

    // A file that does not load: nothing changes, and the log says what is wrong where.
    writeUsers(R"({"users": [{"id": "a", "token": "tok-a"}, {"id": "a", "token": "tok-x"}]})");
    QCOMPARE(::kill(server.process().processId(), SIGHUP), 0);
    QVERIFY2(server.waitErrorOutput(u"users file not reloaded, nothing changed"_s),
        server.transcript().constData());
    QVERIFY2(server.errorOutput().contains(usersPath), server.transcript().constData());
    QCOMPARE(a.request({ { "type"_L1, "ping"_L1 } }).value("type"_L1).toString(), u"pong"_s);
    QVERIFY(a.pending(u"friends_changed"_s).isEmpty());

    // a and b part, a and c become friends.
    writeUsers(R"({"users": [{"id": "a", "token": "tok-a", "friends": ["c"]},
        {"id": "b", "token": "tok-b"}, {"id": "c", "name": "Cy", "token": "tok-c"}]})");
    QCOMPARE(::kill(server.process().processId(), SIGHUP), 0);
    const QJsonObject changed = a.waitFor(u"friends_changed"_s);
    const QJsonObject cy { { "id"_L1, u"c"_s }, { "name"_L1, u"Cy"_s } };
    QCOMPARE(changed.value("added"_L1).toArray(), QJsonArray { cy });
    QCOMPARE(changed.value("removed"_L1).toArray(), QJsonArray { u"b"_s });
    QVERIFY2(server.waitErrorOutput(u"0 joined, 0 left, 0 new tokens, 0 renamed, "
                                    "1 friendships made, 1 ended"_s),
        server.transcript().constData());

    // The same over the admin API: a bad file is a 422 with the file's problem, a good one
    // answers what changed.
    QNetworkAccessManager http;
    const QByteArray bearer = "Bearer admin-secret-of-the-test";
    writeUsers("{\"users\": [");
    const HttpAnswer refused
        = httpCall(http, "POST", adminUrl.resolved(QUrl(u"/admin/reload"_s)), {}, bearer);
    QCOMPARE(refused.status, 422);
    QCOMPARE(refused.errorCode(), u"invalid_file"_s);
    QVERIFY2(refused.errorMessage().contains(usersPath), qPrintable(refused.errorMessage()));
    writeUsers(R"({"users": [{"id": "a", "token": "tok-a", "friends": ["c", "d"]},
        {"id": "c", "name": "Cy", "token": "tok-c"}, {"id": "d", "token": "tok-d"}]})");
    const HttpAnswer reloaded
        = httpCall(http, "POST", adminUrl.resolved(QUrl(u"/admin/reload"_s)), {}, bearer);
    QCOMPARE(reloaded.status, 200);
    QCOMPARE(reloaded.json(),
        QJsonObject(
            { { "users"_L1,
                  QJsonObject { { "joined"_L1, QJsonArray { u"d"_s } },
                      { "left"_L1, QJsonArray { u"b"_s } }, { "new_token"_L1, QJsonArray {} },
                      { "renamed"_L1, QJsonArray {} } } },
                { "friendships"_L1, QJsonObject { { "made"_L1, 1 }, { "ended"_L1, 0 } } } }));
    QCOMPARE(a.waitFor(u"friends_changed"_s).value("total"_L1).toInt(), 2);
    QVERIFY(!TestClient().login(server.url(), u"tok-d"_s).isEmpty());
    QVERIFY(TestClient().login(server.url(), u"tok-b"_s).isEmpty());
}

void TestServerProcess::servesTls()
{
    // wss:// from --tls-cert/--tls-key, a certificate renewed in place taken on SIGHUP, and
    // a key that does not fit refused before anything starts.
    if (qEnvironmentVariable("PRESENCE_TRANSPORT") == u"qt")
        QSKIP("TLS is served by the gateway's own transport");
    TestCertificates certificates;
    QVERIFY2(certificates.isValid(), qPrintable(certificates.error()));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString certificate = dir.filePath(u"gateway.pem"_s);
    const QString key = dir.filePath(u"gateway.key"_s);
    QVERIFY(QFile::copy(certificates.certificateFile(), certificate));
    QVERIFY(QFile::copy(certificates.keyFile(), key));

    MockServerProcess refused(QStringLiteral(PRESENCE_MOCK_SERVER));
    QVERIFY(refused.start({ u"--generate"_s, u"3"_s, u"--listen"_s, u"127.0.0.1:0"_s,
        u"--tls-cert"_s, certificate, u"--tls-key"_s, certificates.renewedKeyFile() }));
    QVERIFY2(refused.waitFinished(), refused.transcript().constData());
    QCOMPARE(refused.process().exitCode(), 2);
    QVERIFY2(
        refused.errorOutput().contains(
            u"--tls-cert/--tls-key: TLS key '%1' does not belong to the certificate '%2'"_s.arg(
                certificates.renewedKeyFile(), certificate)),
        refused.transcript().constData());

    MockServerProcess server(QStringLiteral(PRESENCE_MOCK_SERVER));
    std::optional<UserDirectory> users;
    QVERIFY2(
        startGenerated(server, dir, &users, { u"--tls-cert"_s, certificate, u"--tls-key"_s, key }),
        server.transcript().constData());
    QCOMPARE(server.url().scheme(), u"wss"_s);
    const auto trusting = [&certificates] {
        QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
        configuration.addCaCertificates(QSslCertificate::fromPath(certificates.caFile()));
        return configuration;
    };
    TestClient first;
    first.socket().setSslConfiguration(trusting());
    QVERIFY2(!first.login(server.url(), users->user(0).token).isEmpty(),
        server.transcript().constData());
    QCOMPARE(first.socket().sslConfiguration().peerCertificate(),
        QSslCertificate::fromPath(certificates.certificateFile()).value(0));

    // Renewed in place (as certbot does), then SIGHUP: new connections get the new one.
    QVERIFY(QFile::remove(certificate) && QFile::remove(key));
    QVERIFY(QFile::copy(certificates.renewedCertificateFile(), certificate));
    QVERIFY(QFile::copy(certificates.renewedKeyFile(), key));
    QCOMPARE(::kill(server.process().processId(), SIGHUP), 0);
    QVERIFY2(server.waitErrorOutput(u"TLS certificate reloaded from"_s),
        server.transcript().constData());
    TestClient second;
    second.socket().setSslConfiguration(trusting());
    QVERIFY(!second.login(server.url(), users->user(1).token).isEmpty());
    QCOMPARE(second.socket().sslConfiguration().peerCertificate(),
        QSslCertificate::fromPath(certificates.renewedCertificateFile()).value(0));
    QCOMPARE(first.request({ { "type"_L1, "ping"_L1 } }).value("type"_L1).toString(), u"pong"_s);
}

void TestServerProcess::checkConfigSaysWhatIsWrong_data()
{
    QTest::addColumn<QByteArray>("config");
    QTest::addColumn<QString>("expected");
    QTest::addRow("unknown key") << "users = users.json\ncolour = blue\n"_ba
                                 << u"unknown key 'colour'"_s;
    QTest::addRow("bad value") << "users = users.json\ngrace-ms = soon\n"_ba
                               << u"--grace-ms must be an integer"_s;
    QTest::addRow("missing users file") << "users = nobody.json\n"_ba << u"nobody.json"_s;
    QTest::addRow("bad key file") << "users = users.json\njwt-public-key-file = users.json\n"_ba
                                  << u"users.json: no PEM public key"_s;
}

void TestServerProcess::checkConfigSaysWhatIsWrong()
{
    QFETCH(QByteArray, config);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile users(dir.filePath(u"users.json"_s));
    QVERIFY(users.open(QIODevice::WriteOnly));
    users.write(R"({"users": [{"id": "a", "token": "tok-a"}]})");
    users.close();
    QFile file(dir.filePath(u"gateway.ini"_s));
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(config), config.size());
    file.close();

    MockServerProcess server(QStringLiteral(PRESENCE_MOCK_SERVER));
    QVERIFY(server.start({ u"--config"_s, file.fileName(), u"--check-config"_s }));
    QVERIFY2(server.waitFinished(), server.transcript().constData());
    QCOMPARE(server.process().exitStatus(), QProcess::NormalExit);
    QCOMPARE(server.process().exitCode(), 2);
    QVERIFY2(server.errorOutput().contains(expected), server.transcript().constData());
    QVERIFY2(server.output().isEmpty(), server.transcript().constData());
}

void TestServerProcess::printsVersion()
{
    MockServerProcess server(QStringLiteral(PRESENCE_MOCK_SERVER));
    QVERIFY(server.start({ u"--version"_s }));
    QVERIFY2(server.waitFinished(), server.transcript().constData());
    QCOMPARE(server.process().exitStatus(), QProcess::NormalExit);
    QCOMPARE(server.process().exitCode(), 0);
    static const QRegularExpression version(u"^presence-mock-server \\d+\\.\\d+\\.\\d+\\n$"_s);
    QVERIFY2(version.match(server.output()).hasMatch(), server.transcript().constData());
}

void TestServerProcess::printsHelp()
{
    MockServerProcess server(QStringLiteral(PRESENCE_MOCK_SERVER));
    QVERIFY(server.start({ u"--help"_s }));
    QVERIFY2(server.waitFinished(), server.transcript().constData());
    QCOMPARE(server.process().exitStatus(), QProcess::NormalExit);
    QCOMPARE(server.process().exitCode(), 0);
    for (const QString &option : { u"--listen"_s, u"--users"_s, u"--generate"_s, u"--grace-ms"_s,
             u"--heartbeat-ms"_s, u"--allow-origin"_s })
        QVERIFY2(server.output().contains(option), qPrintable(option));
    QVERIFY2(!server.output().contains(u"listening on"_s), server.transcript().constData());
}

void TestServerProcess::twoServersRunAtOnce()
{
    QTemporaryDir dir1;
    QTemporaryDir dir2;
    QVERIFY(dir1.isValid() && dir2.isValid());
    MockServerProcess server1(QStringLiteral(PRESENCE_MOCK_SERVER));
    MockServerProcess server2(QStringLiteral(PRESENCE_MOCK_SERVER));
    std::optional<UserDirectory> users1;
    std::optional<UserDirectory> users2;
    const auto port1 = startGenerated(server1, dir1, &users1);
    QVERIFY2(port1, server1.transcript().constData());
    const auto port2 = startGenerated(server2, dir2, &users2);
    QVERIFY2(port2, server2.transcript().constData());
    QVERIFY(users1 && users2);
    QVERIFY(*port1 != 0 && *port2 != 0);
    QVERIFY(*port1 != *port2);

    // Both serve at the same time.
    TestClient client1;
    TestClient client2;
    QCOMPARE(client1.login(server1.url(), users1->user(1).token)
                 .value("user"_L1)
                 .toObject()
                 .value("id"_L1)
                 .toString(),
        u"user1"_s);
    QCOMPARE(client2.login(server2.url(), users2->user(2).token)
                 .value("user"_L1)
                 .toObject()
                 .value("id"_L1)
                 .toString(),
        u"user2"_s);
    QVERIFY(client1.isOpen());
    QCOMPARE(client1.request({ { "type"_L1, "ping"_L1 } }).value("type"_L1).toString(), u"pong"_s);
    QVERIFY(server1.process().state() == QProcess::Running);
    QVERIFY(server2.process().state() == QProcess::Running);
}

QTEST_GUILESS_MAIN(TestServerProcess)
#include "tst_server_process.moc"
