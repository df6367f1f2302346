// SchemeProbe: what the first bytes of an answer say (a TLS record, plain HTTP, or nothing to
// go on), the ClientHello it sends, and one real probe each of a gateway serving TLS, a plain
// one and a port where nobody listens.

// C++
#include <optional>

// Qt
#include <QSignalSpy>
#include <QTest>

// Presence
#include "GatewayFixture.h"
#include "TestCertificates.h"
#include "server-mock/server/Gateway.h"
#include "server-mock/transport/TlsContext.h"
#include "session/SchemeProbe.h"
#include "tests/harness/ClosedPort.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Server::GatewayConfig;
using Presence::Server::TlsContext;
using Presence::Session::SchemeProbe;
using Answer = SchemeProbe::Answer;

class TestSchemeProbe : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void classify_data();
    void classify();
    void clientHelloIsOneWellFormedRecord();
    void mayExplain();
    void probesRealServers();
};

void TestSchemeProbe::classify_data()
{
    QTest::addColumn<QByteArray>("reply");
    QTest::addColumn<bool>("complete");
    QTest::addColumn<Answer>("answer");
    QTest::addRow("TLS handshake") << QByteArray::fromHex("160303007a") << false << Answer::Tls;
    QTest::addRow("TLS alert") << QByteArray::fromHex("1503030002") << true << Answer::Tls;
    QTest::addRow("TLS 1.0 record") << QByteArray::fromHex("1603010005") << false << Answer::Tls;
    QTest::addRow("HTTP 400") << "HTTP/1.1 400 Bad Request"_ba << true << Answer::Http;
    // Five bytes of "HTTP/" may still be the start of something else until the answer ends.
    QTest::addRow("HTTP, not yet complete") << "HTTP/"_ba << false << Answer::Unknown;
    QTest::addRow("nothing") << QByteArray() << true << Answer::Unknown;
    QTest::addRow("one byte") << QByteArray::fromHex("16") << false << Answer::Unknown;
    QTest::addRow("other record type")
        << QByteArray::fromHex("1703030010") << true << Answer::Unknown;
    QTest::addRow("garbage") << "SSH-2.0-OpenSSH"_ba << true << Answer::Unknown;
}

void TestSchemeProbe::classify()
{
    QFETCH(QByteArray, reply);
    QFETCH(bool, complete);
    QFETCH(Answer, answer);
    QCOMPARE(SchemeProbe::classify(reply, complete), answer);
}

void TestSchemeProbe::mayExplain()
{
    // ws:// to a TLS server: closed at "GET". wss:// to a plain one: no TLS record comes back.
    QVERIFY(SchemeProbe::mayExplain(false, QAbstractSocket::RemoteHostClosedError));
    QVERIFY(SchemeProbe::mayExplain(true, QAbstractSocket::RemoteHostClosedError));
    QVERIFY(SchemeProbe::mayExplain(true, QAbstractSocket::SslHandshakeFailedError));
    QVERIFY(!SchemeProbe::mayExplain(false, QAbstractSocket::SslHandshakeFailedError));
    // A server away is no wrong scheme.
    for (const bool secure : { false, true }) {
        QVERIFY(!SchemeProbe::mayExplain(secure, QAbstractSocket::ConnectionRefusedError));
        QVERIFY(!SchemeProbe::mayExplain(secure, QAbstractSocket::SocketTimeoutError));
        QVERIFY(!SchemeProbe::mayExplain(secure, QAbstractSocket::HostNotFoundError));
    }
}

void TestSchemeProbe::clientHelloIsOneWellFormedRecord()
{
    const QByteArray hello = SchemeProbe::clientHello();
    QVERIFY(hello.size() > 50);
    QCOMPARE(quint8(hello.at(0)), quint8(0x16)); // a handshake record
    QCOMPARE(quint8(hello.at(1)), quint8(0x03));
    const int recordLength = (quint8(hello.at(3)) << 8) | quint8(hello.at(4));
    QCOMPARE(recordLength, hello.size() - 5); // exactly one record
    QCOMPARE(quint8(hello.at(5)), quint8(0x01)); // ClientHello
    const int helloLength
        = (quint8(hello.at(6)) << 16) | (quint8(hello.at(7)) << 8) | quint8(hello.at(8));
    QCOMPARE(helloLength, recordLength - 4);
    QVERIFY(SchemeProbe::clientHello() != hello); // a fresh random each time
}

void TestSchemeProbe::probesRealServers()
{
    const auto answerFrom = [](quint16 port) {
        SchemeProbe probe;
        QSignalSpy finished(&probe, &SchemeProbe::finished);
        probe.start(u"127.0.0.1"_s, port, 3s);
        if (!finished.wait(5000))
            return std::optional<Answer>();
        return std::optional(finished.at(0).at(0).value<Answer>());
    };

    const auto plain = startGateway({ { u"alice"_s, {} } });
    QVERIFY(plain);
    QCOMPARE(answerFrom(plain->port()), std::optional(Answer::Http));

    GatewayConfig config = testConfig();
    if (config.transport == GatewayConfig::Transport::Own) {
        Presence::TestSupport::TestCertificates certificates;
        QVERIFY2(certificates.isValid(), qPrintable(certificates.error()));
        QString error;
        config.tls
            = TlsContext::load(certificates.certificateFile(), certificates.keyFile(), &error);
        QVERIFY2(config.tls, qPrintable(error));
        const auto secure = startGateway({ { u"alice"_s, {} } }, config);
        QVERIFY(secure);
        QCOMPARE(answerFrom(secure->port()), std::optional(Answer::Tls));
    }

    const ClosedPort closed;
    QCOMPARE(answerFrom(closed.port()), std::optional(Answer::Unknown));
}

QTEST_MAIN(TestSchemeProbe)
#include "tst_scheme_probe.moc"
