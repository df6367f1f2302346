// AdminOptions: the admin and heartbeat HTTP API, read from a real command line: its address
// (loopback unless --admin-remote), its token from the command line or a file, the heartbeat
// TTL, HTTPS with the listener's certificate, and the options that need --admin.

// C++
#include <optional>

// Qt
#include <QFile>
#include <QHostAddress>
#include <QTemporaryDir>
#include <QTest>

// Presence
#include "TestCertificates.h"
#include "server-mock/app/AdminOptions.h"
#include "server-mock/app/ServerCommandLine.h"
#include "server-mock/app/ServerOptions.h"

using namespace Qt::StringLiterals;
using namespace Presence::Server;
using namespace std::chrono_literals;

namespace {

// tls: the certificate and key ListeningOptions read, if any.
std::optional<ServerOptions> read(
    const QStringList &args, QString *error, const QStringList &tls = {})
{
    ServerCommandLine line;
    if (!line.parse(QStringList { u"presence-mock-server"_s } + args, error))
        return std::nullopt;
    ServerOptions options;
    if (tls.size() == 2) {
        options.tlsCertificateFile = tls.at(0);
        options.tlsKeyFile = tls.at(1);
    }
    if (!AdminOptions::read(line, options, error))
        return std::nullopt;
    return options;
}

} // namespace

class TestAdminOptions : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void offWithoutAdmin();
    void everyOptionIsRead();
    void theTokenFromAFile();
    void httpsWithTheListenersCertificate();
    void tokens_data();
    void tokens();
    void refusals_data();
    void refusals();
};

void TestAdminOptions::offWithoutAdmin()
{
    QString error;
    const auto options = read({}, &error);
    QVERIFY2(options, qPrintable(error));
    QVERIFY(!options->admin);
}

void TestAdminOptions::everyOptionIsRead()
{
    QString error;
    const auto options
        = read({ u"--admin=0.0.0.0:8766"_s, u"--admin-remote"_s,
                   u"--admin-token=0123456789abcdefXY"_s, u"--heartbeat-ttl-ms=5000"_s },
            &error);
    QVERIFY2(options, qPrintable(error));
    QVERIFY(options->admin);
    QCOMPARE(options->admin->address, QHostAddress(QHostAddress::AnyIPv4));
    QCOMPARE(options->admin->port, quint16(8766));
    QCOMPARE(options->admin->adminToken, u"0123456789abcdefXY"_s);
    QCOMPARE(options->admin->heartbeatTtl, 5000ms);
    QVERIFY(!options->admin->tls);

    // Without a token only /healthz, /metrics and /api answer.
    const auto open = read({ u"--admin=[::1]:0"_s }, &error);
    QVERIFY2(open, qPrintable(error));
    QCOMPARE(open->admin->adminToken, QString());
    QCOMPARE(open->admin->heartbeatTtl, 35'000ms);
}

void TestAdminOptions::theTokenFromAFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile file(dir.filePath(u"admin.token"_s));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("  a-long-admin-token-0123\n");
    file.close();
    QString error;
    const auto options
        = read({ u"--admin=127.0.0.1:0"_s, u"--admin-token-file"_s, file.fileName() }, &error);
    QVERIFY2(options, qPrintable(error));
    QCOMPARE(options->admin->adminToken, u"a-long-admin-token-0123"_s);
}

void TestAdminOptions::httpsWithTheListenersCertificate()
{
    const Presence::TestSupport::TestCertificates certificates;
    QVERIFY2(certificates.isValid(), qPrintable(certificates.error()));
    QString error;
    const auto options = read({ u"--admin=127.0.0.1:0"_s }, &error,
        { certificates.certificateFile(), certificates.keyFile() });
    QVERIFY2(options, qPrintable(error));
    QVERIFY(options->admin->tls);

    // A key that is not the certificate's is refused, naming the options.
    QVERIFY(!read({ u"--admin=127.0.0.1:0"_s }, &error,
        { certificates.certificateFile(), certificates.certificateFile() }));
    QVERIFY2(error.startsWith(u"--tls-cert/--tls-key: "_s), qPrintable(error));
}

void TestAdminOptions::tokens_data()
{
    QTest::addColumn<QString>("token");
    QTest::addColumn<bool>("acceptable");
    QTest::addRow("16 characters") << u"0123456789abcdef"_s << true;
    QTest::addRow("15 characters") << u"0123456789abcde"_s << false;
    QTest::addRow("512 characters") << QString(512, u'x') << true;
    QTest::addRow("513 characters") << QString(513, u'x') << false;
    QTest::addRow("a space") << u"0123456789 abcdefg"_s << false;
    QTest::addRow("not ASCII") << u"0123456789abcdefé"_s << false;
}

void TestAdminOptions::tokens()
{
    QFETCH(QString, token);
    QFETCH(bool, acceptable);
    QCOMPARE(AdminOptions::isAcceptableToken(token), acceptable);
}

void TestAdminOptions::refusals_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected");
    QTest::addRow("not loopback") << QStringList { u"--admin=0.0.0.0:8766"_s }
                                  << u"add --admin-remote to expose it anyway"_s;
    QTest::addRow("a name") << QStringList { u"--admin=example.org:1"_s }
                            << u"--admin must be HOST:PORT"_s;
    QTest::addRow("a token without admin") << QStringList { u"--admin-token=0123456789abcdefg"_s }
                                           << u"--admin-token goes with --admin"_s;
    QTest::addRow("a TTL without admin") << QStringList { u"--heartbeat-ttl-ms=5000"_s }
                                         << u"--heartbeat-ttl-ms goes with --admin"_s;
    QTest::addRow("both tokens") << QStringList { u"--admin=127.0.0.1:0"_s,
        u"--admin-token=0123456789abcdefg"_s, u"--admin-token-file=t"_s }
                                 << u"give --admin-token or --admin-token-file, not both"_s;
    QTest::addRow("a short token") << QStringList { u"--admin=127.0.0.1:0"_s,
        u"--admin-token=short"_s } << u"--admin-token must be 16 to 512"_s;
    QTest::addRow("a missing token file")
        << QStringList { u"--admin=127.0.0.1:0"_s, u"--admin-token-file=/nonexistent/t"_s }
        << u"--admin-token-file /nonexistent/t: "_s;
    QTest::addRow("a TTL too short") << QStringList { u"--admin=127.0.0.1:0"_s,
        u"--heartbeat-ttl-ms=999"_s } << u"--heartbeat-ttl-ms must be an integer from 1000"_s;
}

void TestAdminOptions::refusals()
{
    QFETCH(QStringList, args);
    QFETCH(QString, expected);
    QString error;
    QVERIFY(!read(args, &error));
    QVERIFY2(error.contains(expected), qPrintable(error));
}

QTEST_MAIN(TestAdminOptions)
#include "tst_admin_options.moc"
