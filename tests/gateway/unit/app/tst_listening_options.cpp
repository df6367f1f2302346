// ListeningOptions: where and how the gateway listens, read from a real command line into the
// gateway's config: the address, the transport, the caps (own transport only), the upgrade
// timeout, browser origins, and a TLS certificate that must load and needs our own transport.

// C++
#include <optional>

// Qt
#include <QHostAddress>
#include <QTest>

// Presence
#include "TestCertificates.h"
#include "server-mock/app/ListeningOptions.h"
#include "server-mock/app/ServerCommandLine.h"
#include "server-mock/app/ServerOptions.h"

using namespace Qt::StringLiterals;
using namespace Presence::Server;
using namespace std::chrono_literals;

namespace {

std::optional<ServerOptions> read(const QStringList &args, QString *error)
{
    ServerCommandLine line;
    if (!line.parse(QStringList { u"presence-mock-server"_s } + args, error))
        return std::nullopt;
    ServerOptions options;
    if (!ListeningOptions::read(line, options, error))
        return std::nullopt;
    return options;
}

} // namespace

class TestListeningOptions : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void nothingGivenKeepsTheDefaults();
    void everyOptionIsRead();
    void endpoints_data();
    void endpoints();
    void refusals_data();
    void refusals();
    void aCertificateIsLoadedForOurOwnTransportOnly();
};

void TestListeningOptions::nothingGivenKeepsTheDefaults()
{
    QString error;
    const auto options = read({}, &error);
    QVERIFY2(options, qPrintable(error));
    const GatewayConfig defaults;
    QCOMPARE(options->config.address, defaults.address);
    QCOMPARE(options->config.port, defaults.port);
    QCOMPARE(options->config.transport, GatewayConfig::Transport::Own);
    QCOMPARE(options->config.upgradeTimeout, defaults.upgradeTimeout);
    QCOMPARE(options->config.maxConnections, 0);
    QVERIFY(options->config.allowedOrigins.isEmpty());
    QVERIFY(!options->config.tls);
}

void TestListeningOptions::everyOptionIsRead()
{
    QString error;
    const auto options
        = read({ u"--listen=[::1]:9000"_s, u"--upgrade-timeout-ms=750"_s,
                   u"--max-connections=100"_s, u"--max-connections-per-address=7"_s,
                   u"--allow-origin=https://a.example"_s, u"--allow-origin=http://b.example"_s },
            &error);
    QVERIFY2(options, qPrintable(error));
    QCOMPARE(options->config.address, QHostAddress(u"::1"_s));
    QCOMPARE(options->config.port, quint16(9000));
    QCOMPARE(options->config.upgradeTimeout, 750ms);
    QCOMPARE(options->config.maxConnections, 100);
    QCOMPARE(options->config.maxConnectionsPerAddress, 7);
    QCOMPARE(options->config.allowedOrigins,
        (QStringList { u"https://a.example"_s, u"http://b.example"_s }));

    const auto qt = read({ u"--transport=qt"_s }, &error);
    QVERIFY2(qt, qPrintable(error));
    QCOMPARE(qt->config.transport, GatewayConfig::Transport::Qt);
}

void TestListeningOptions::endpoints_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QHostAddress>("address");
    QTest::addColumn<int>("port");
    QTest::addRow("IPv4") << u"10.0.0.1:80"_s << true << QHostAddress(u"10.0.0.1"_s) << 80;
    QTest::addRow("IPv6") << u"[::1]:0"_s << true << QHostAddress(u"::1"_s) << 0;
    QTest::addRow("localhost") << u"localhost:8765"_s << true << QHostAddress(u"127.0.0.1"_s)
                               << 8765;
    QTest::addRow("a name") << u"example.org:80"_s << false << QHostAddress() << 0;
    QTest::addRow("no port") << u"127.0.0.1"_s << false << QHostAddress() << 0;
    QTest::addRow("port too high") << u"127.0.0.1:65536"_s << false << QHostAddress() << 0;
    QTest::addRow("no host") << u":80"_s << false << QHostAddress() << 0;
}

void TestListeningOptions::endpoints()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QFETCH(QHostAddress, address);
    QFETCH(int, port);
    const auto endpoint = ListeningOptions::endpoint(text);
    QCOMPARE(endpoint.has_value(), valid);
    if (endpoint) {
        QCOMPARE(endpoint->address, address);
        QCOMPARE(endpoint->port, quint16(port));
    }
}

void TestListeningOptions::refusals_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected");
    QTest::addRow("unknown transport")
        << QStringList { u"--transport=uws"_s } << u"--transport must be qt or own (got \"uws\")"_s;
    QTest::addRow("a name to listen on")
        << QStringList { u"--listen=example.org:80"_s } << u"--listen must be HOST:PORT"_s;
    QTest::addRow("a cap on Qt's transport")
        << QStringList { u"--transport=qt"_s, u"--max-connections-per-address=2"_s }
        << u"need --transport own"_s;
    QTest::addRow("upgrade timeout too short")
        << QStringList { u"--upgrade-timeout-ms=99"_s } << u"--upgrade-timeout-ms"_s;
    QTest::addRow("a key without its certificate")
        << QStringList { u"--tls-key=server.key"_s } << u"give --tls-cert and --tls-key together"_s;
    QTest::addRow("a certificate that does not load")
        << QStringList { u"--tls-cert=/nonexistent/a.pem"_s, u"--tls-key=/nonexistent/a.key"_s }
        << u"--tls-cert/--tls-key: "_s;
    QTest::addRow("an origin without its scheme")
        << QStringList { u"--allow-origin=example.org"_s } << u"(got \"example.org\")"_s;
}

void TestListeningOptions::refusals()
{
    QFETCH(QStringList, args);
    QFETCH(QString, expected);
    QString error;
    QVERIFY(!read(args, &error));
    QVERIFY2(error.contains(expected), qPrintable(error));
}

void TestListeningOptions::aCertificateIsLoadedForOurOwnTransportOnly()
{
    const Presence::TestSupport::TestCertificates certificates;
    QVERIFY2(certificates.isValid(), qPrintable(certificates.error()));
    const QStringList tls { u"--tls-cert"_s, certificates.certificateFile(), u"--tls-key"_s,
        certificates.keyFile() };
    QString error;
    const auto options = read(tls, &error);
    QVERIFY2(options, qPrintable(error));
    QVERIFY(options->config.tls);
    // Kept for SIGHUP, which reads them again.
    QCOMPARE(options->tlsCertificateFile, certificates.certificateFile());
    QCOMPARE(options->tlsKeyFile, certificates.keyFile());

    QVERIFY(!read(tls + QStringList { u"--transport=qt"_s }, &error));
    QVERIFY2(error.contains(u"--tls-cert needs the gateway's own transport"_s), qPrintable(error));
}

QTEST_MAIN(TestListeningOptions)
#include "tst_listening_options.moc"
