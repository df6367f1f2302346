// QtWebSocketAcceptor, Qt's accept path kept for comparison, on loopback: a browser page from
// an origin not allowed is refused with HTTP 403 and counted, an allowed one (and a native
// client, without Origin) gets its transport; the admission check answers 503; caps and TLS
// are our own transport's; and an in-process gateway on --transport qt serves through it.

// C++
#include <memory>
#include <vector>

// Qt
#include <QHostAddress>
#include <QLoggingCategory>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>
#include <QWebSocket>

// Presence
#include "GatewayFixture.h"
#include "TestCertificates.h"
#include "TestClient.h"
#include "server-mock/transport/ClientTransport.h"
#include "server-mock/transport/QtWebSocketAcceptor.h"
#include "server-mock/transport/TlsContext.h"

using namespace Qt::StringLiterals;
using namespace Presence::Server;

Q_DECLARE_METATYPE(Presence::Server::ConnectionRefusal)

namespace {

const QString kGood = u"https://good.example"_s;

// An upgrade request as a browser on `origin` sends it; what the server answers, up to the
// end of its head (or whatever came before it closed).
QByteArray answerToUpgrade(quint16 port, const QString &origin)
{
    QTcpSocket socket;
    QByteArray answer;
    QObject::connect(&socket, &QTcpSocket::connected, &socket, [&socket, &origin] {
        socket.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     "Sec-WebSocket-Version: 13\r\nOrigin: "
            + origin.toLatin1() + "\r\n\r\n");
    });
    QObject::connect(&socket, &QTcpSocket::readyRead, &socket,
        [&socket, &answer] { answer += socket.readAll(); });
    socket.connectToHost(QHostAddress::LocalHost, port);
    // The server answers from this thread's event loop: wait on it, never block it.
    (void)QTest::qWaitFor(
        [&] {
            return answer.contains("\r\n\r\n")
                || socket.state() == QAbstractSocket::UnconnectedState;
        },
        5000);
    return answer + socket.readAll();
}

} // namespace

class TestQtWebSocketAcceptor : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void aForeignOriginIsRefusedWith403();
    void anAllowedOriginAndANativeClientGetTheirTransport();
    void theAdmissionCheckAnswers503();
    void capsAndTlsAreOurOwnTransports();
    void closedItListensNoMore();
    void aGatewayOnQtsTransportServesThroughIt();

private:
    std::unique_ptr<QtWebSocketAcceptor> m_acceptor;
    std::vector<std::unique_ptr<ClientTransport>> m_transports; // adopted, as a gateway would
};

void TestQtWebSocketAcceptor::initTestCase()
{
    qRegisterMetaType<ConnectionRefusal>();
    qRegisterMetaType<ClientTransport *>();
    QLoggingCategory::setFilterRules(u"presence.*.info=false"_s);
}

void TestQtWebSocketAcceptor::init()
{
    m_acceptor = std::make_unique<QtWebSocketAcceptor>(TransportLimits {}, QStringList { kGood });
    connect(m_acceptor.get(), &QtWebSocketAcceptor::transportReady, this,
        [this](ClientTransport *transport) { m_transports.emplace_back(transport); });
    QString error;
    QVERIFY2(m_acceptor->listen(QHostAddress::LocalHost, 0, &error), qPrintable(error));
    QVERIFY(m_acceptor->port() != 0);
    QCOMPARE(m_acceptor->address(), QHostAddress(QHostAddress::LocalHost));
}

void TestQtWebSocketAcceptor::cleanup()
{
    m_transports.clear(); // before their acceptor
    m_acceptor.reset();
}

void TestQtWebSocketAcceptor::aForeignOriginIsRefusedWith403()
{
    QSignalSpy refused(m_acceptor.get(), &QtWebSocketAcceptor::refused);
    QVERIFY(refused.isValid());
    const QByteArray answer = answerToUpgrade(m_acceptor->port(), u"https://evil.example"_s);
    QVERIFY2(answer.startsWith("HTTP/1.1 403"), answer.constData());
    QCOMPARE(refused.count(), 1);
    QCOMPARE(refused.at(0).at(0).value<ConnectionRefusal>(), ConnectionRefusal::Origin);
    QVERIFY(m_transports.empty());
}

void TestQtWebSocketAcceptor::anAllowedOriginAndANativeClientGetTheirTransport()
{
    QSignalSpy ready(m_acceptor.get(), &QtWebSocketAcceptor::transportReady);
    QSignalSpy refused(m_acceptor.get(), &QtWebSocketAcceptor::refused);
    QVERIFY(ready.isValid() && refused.isValid());
    const QByteArray answer = answerToUpgrade(m_acceptor->port(), kGood);
    QVERIFY2(answer.startsWith("HTTP/1.1 101"), answer.constData());
    QTRY_COMPARE(ready.count(), 1);

    TestClient native; // no Origin, as a desktop client
    native.open(QUrl(u"ws://127.0.0.1:%1/"_s.arg(m_acceptor->port())));
    QVERIFY(native.waitConnected());
    QTRY_COMPARE(ready.count(), 2);
    QCOMPARE(m_transports.size(), std::size_t(2));
    QVERIFY(m_transports.back()->isOpen());
    QCOMPARE(m_transports.back()->peer(), u"127.0.0.1:%1"_s.arg(native.socket().localPort()));
    // What the transport sends, the client reads.
    m_transports.back()->sendText("{\"type\":\"pong\"}");
    QCOMPARE(native.waitFor(u"pong"_s).value("type"_L1).toString(), u"pong"_s);
    QCOMPARE(refused.count(), 0);
}

void TestQtWebSocketAcceptor::theAdmissionCheckAnswers503()
{
    bool admit = false;
    m_acceptor->setAdmissionCheck([&admit] { return admit; });
    QSignalSpy refused(m_acceptor.get(), &QtWebSocketAcceptor::refused);
    QVERIFY(refused.isValid());
    QCOMPARE(answerToUpgrade(m_acceptor->port(), kGood),
        QByteArray("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\n"
                   "Content-Length: 0\r\nConnection: close\r\n\r\n"));
    QCOMPARE(refused.count(), 1);
    QCOMPARE(refused.at(0).at(0).value<ConnectionRefusal>(), ConnectionRefusal::Unavailable);

    admit = true;
    QVERIFY(answerToUpgrade(m_acceptor->port(), kGood).startsWith("HTTP/1.1 101"));
}

void TestQtWebSocketAcceptor::capsAndTlsAreOurOwnTransports()
{
    QString error;
    QtWebSocketAcceptor capped(TransportLimits {}, {}, { 10, 0 });
    QVERIFY(!capped.listen(QHostAddress::LocalHost, 0, &error));
    QCOMPARE(error, u"the connection caps need the gateway's own transport"_s);

    const Presence::TestSupport::TestCertificates certificates;
    QVERIFY2(certificates.isValid(), qPrintable(certificates.error()));
    QtWebSocketAcceptor secure(TransportLimits {}, {});
    secure.setTls(TlsContext::load(certificates.certificateFile(), certificates.keyFile(), &error));
    QVERIFY(!secure.listen(QHostAddress::LocalHost, 0, &error));
    QCOMPARE(error, u"TLS needs the gateway's own transport"_s);

    // It cannot tell how many TCP connections it holds.
    QVERIFY(!m_acceptor->heldCount());
}

void TestQtWebSocketAcceptor::closedItListensNoMore()
{
    const quint16 port = m_acceptor->port();
    m_acceptor->close();
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    QVERIFY(!socket.waitForConnected(2000));
}

void TestQtWebSocketAcceptor::aGatewayOnQtsTransportServesThroughIt()
{
    GatewayConfig config = testConfig();
    config.transport = GatewayConfig::Transport::Qt;
    config.allowedOrigins = { kGood };
    const auto gateway = startGateway({ { u"alice"_s, {} } }, config);
    QVERIFY(gateway);
    QCOMPARE(gateway->url().scheme(), u"ws"_s);

    QVERIFY(answerToUpgrade(gateway->port(), u"https://evil.example"_s).startsWith("HTTP/1.1 403"));
    QCOMPARE(gateway->connectionCount(), 0);

    TestClient browser;
    browser.open(gateway->url(), kGood);
    QVERIFY(browser.waitConnected());
    browser.sendJson({ { "type"_L1, "hello"_L1 }, { "token"_L1, tokenOf(u"alice"_s) },
        { "protocol"_L1, 1 }, { "client"_L1, "tests/1"_L1 } });
    QCOMPARE(browser.waitFor(u"welcome"_s).value("type"_L1).toString(), u"welcome"_s);
    QCOMPARE(gateway->authenticatedCount(), 1);
    // Qt's transport does not say how many TCP connections it holds: the upgraded ones count.
    QCOMPARE(gateway->heldConnectionCount(), 1);
}

QTEST_MAIN(TestQtWebSocketAcceptor)
#include "tst_qt_websocket_acceptor.moc"
