// ClientAcceptor, the seam the gateway accepts through: our own transport's acceptor and Qt's,
// each on loopback behind the seam alone, listen, refuse a browser page from a foreign origin
// with HTTP 403, answer 503 when the admission check says no, hand over an allowed client's
// transport, and stop listening when closed.

// C++
#include <functional>
#include <memory>
#include <vector>

// Qt
#include <QHostAddress>
#include <QLoggingCategory>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>

// Presence
#include "TestClient.h"
#include "server-mock/transport/ClientAcceptor.h"
#include "server-mock/transport/ClientTransport.h"
#include "server-mock/transport/QtWebSocketAcceptor.h"
#include "server-mock/transport/WebSocketAcceptor.h"

using namespace Qt::StringLiterals;
using namespace Presence::Server;

Q_DECLARE_METATYPE(Presence::Server::ConnectionRefusal)

namespace {

const QString kGood = u"https://good.example"_s;

using MakeAcceptor = std::function<std::unique_ptr<ClientAcceptor>()>;

// An upgrade request as a browser on `origin` sends it; the head of what the server answers.
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

Q_DECLARE_METATYPE(MakeAcceptor)

class TestClientAcceptor : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void bothAcceptAlike_data();
    void bothAcceptAlike();

private:
    std::unique_ptr<ClientAcceptor> m_acceptor;
    std::vector<std::unique_ptr<ClientTransport>> m_transports; // adopted, as a gateway would
};

void TestClientAcceptor::initTestCase()
{
    qRegisterMetaType<ConnectionRefusal>();
    QLoggingCategory::setFilterRules(u"presence.*.info=false"_s);
}

void TestClientAcceptor::init()
{
    m_transports.clear();
}

void TestClientAcceptor::cleanup()
{
    m_transports.clear(); // before their acceptor, whose poller and buffers ours use
    m_acceptor.reset();
}

void TestClientAcceptor::bothAcceptAlike_data()
{
    QTest::addColumn<MakeAcceptor>("make");
    QTest::addRow("own") << MakeAcceptor([] {
        return std::make_unique<WebSocketAcceptor>(TransportLimits {}, QStringList { kGood });
    });
    QTest::addRow("qt") << MakeAcceptor([] {
        return std::make_unique<QtWebSocketAcceptor>(TransportLimits {}, QStringList { kGood });
    });
}

void TestClientAcceptor::bothAcceptAlike()
{
    QFETCH(MakeAcceptor, make);
    m_acceptor = make();
    ClientAcceptor *acceptor = m_acceptor.get();
    connect(acceptor, &ClientAcceptor::transportReady, this,
        [this](ClientTransport *transport) { m_transports.emplace_back(transport); });
    QSignalSpy refused(acceptor, &ClientAcceptor::refused);
    QVERIFY(refused.isValid());
    QString error;
    QVERIFY2(acceptor->listen(QHostAddress::LocalHost, 0, &error), qPrintable(error));
    const quint16 port = acceptor->port();
    QVERIFY(port != 0);
    QCOMPARE(acceptor->address(), QHostAddress(QHostAddress::LocalHost));

    const QByteArray foreign = answerToUpgrade(port, u"https://evil.example"_s);
    QVERIFY2(foreign.startsWith("HTTP/1.1 403"), foreign.constData());
    QTRY_COMPARE(refused.count(), 1);
    QCOMPARE(refused.at(0).at(0).value<ConnectionRefusal>(), ConnectionRefusal::Origin);

    bool admit = false;
    acceptor->setAdmissionCheck([&admit] { return admit; });
    const QByteArray busy = answerToUpgrade(port, kGood);
    QVERIFY2(busy.startsWith("HTTP/1.1 503"), busy.constData());
    QVERIFY2(busy.contains("Retry-After: 1\r\n"), busy.constData());
    QTRY_COMPARE(refused.count(), 2);
    QCOMPARE(refused.at(1).at(0).value<ConnectionRefusal>(), ConnectionRefusal::Unavailable);
    QVERIFY(m_transports.empty());

    admit = true;
    TestClient browser;
    browser.open(QUrl(u"ws://127.0.0.1:%1/"_s.arg(port)), kGood);
    QVERIFY(browser.waitConnected());
    QTRY_COMPARE(m_transports.size(), std::size_t(1));
    m_transports.back()->sendText("{\"type\":\"pong\"}");
    QCOMPARE(browser.waitFor(u"pong"_s).value("type"_L1).toString(), u"pong"_s);
    QCOMPARE(refused.count(), 2);

    acceptor->close();
    QTcpSocket late;
    late.connectToHost(QHostAddress::LocalHost, port);
    QVERIFY(!late.waitForConnected(2000));
}

QTEST_MAIN(TestClientAcceptor)
#include "tst_client_acceptor.moc"
