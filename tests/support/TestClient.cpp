#include "TestClient.h"

// Qt
#include <QJsonDocument>
#include <QNetworkRequest>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;

TestClient::TestClient(QObject *parent)
    : QObject(parent)
{
    connect(&m_socket, &QWebSocket::textMessageReceived, this, [this](const QString &text) {
        const QJsonObject frame = QJsonDocument::fromJson(text.toUtf8()).object();
        m_received.append(frame);
        m_taken.append(false);
        Q_EMIT frameReceived(frame);
    });
}

void TestClient::open(const QUrl &url, const QString &origin)
{
    QNetworkRequest request(url);
    if (!origin.isEmpty())
        request.setRawHeader("Origin", origin.toUtf8());
    m_socket.open(request);
}

bool TestClient::waitConnected(int timeoutMs)
{
    if (isOpen())
        return true;
    // Done when open, or as soon as the attempt ends (refused, a failed TLS handshake).
    bool ended = false;
    const auto watch = connect(
        &m_socket, &QWebSocket::stateChanged, this, [&ended](QAbstractSocket::SocketState state) {
            ended = ended || state == QAbstractSocket::UnconnectedState;
        });
    (void)QTest::qWaitFor([&] { return isOpen() || ended; }, timeoutMs);
    disconnect(watch);
    return isOpen();
}

QJsonObject TestClient::login(const QUrl &url, const QString &token, const QJsonObject &extraHello)
{
    open(url);
    if (!waitConnected())
        return {};
    QJsonObject hello { { "type"_L1, "hello"_L1 }, { "token"_L1, token }, { "protocol"_L1, 1 },
        { "client"_L1, "tests/1"_L1 } };
    for (auto it = extraHello.begin(); it != extraHello.end(); ++it)
        hello.insert(it.key(), it.value());
    sendJson(hello);
    return waitFor(u"welcome"_s);
}

void TestClient::sendJson(const QJsonObject &frame)
{
    sendText(QString::fromUtf8(QJsonDocument(frame).toJson(QJsonDocument::Compact)));
}

void TestClient::sendText(const QString &text)
{
    m_socket.sendTextMessage(text);
}

void TestClient::sendBinary(const QByteArray &data)
{
    m_socket.sendBinaryMessage(data);
}

QJsonObject TestClient::request(QJsonObject frame, int timeoutMs)
{
    const QString ref = u"r%1"_s.arg(m_nextRef++);
    frame.insert("ref"_L1, ref);
    sendJson(frame);
    return waitForField("ref"_L1, ref, timeoutMs);
}

QJsonObject TestClient::waitFor(const QString &type, int timeoutMs)
{
    return waitForField("type"_L1, type, timeoutMs);
}

QJsonObject TestClient::waitForField(QLatin1StringView key, const QString &value, int timeoutMs)
{
    QJsonObject found;
    const auto take = [&] {
        for (qsizetype i = 0; i < m_received.size(); ++i) {
            if (!m_taken[i] && m_received[i].value(key).toString() == value) {
                m_taken[i] = true;
                found = m_received[i];
                return true;
            }
        }
        return false;
    };
    (void)QTest::qWaitFor([&] { return take() || !isOpen(); }, timeoutMs);
    if (found.isEmpty())
        take(); // a frame that arrived together with the close
    return found;
}

QList<QJsonObject> TestClient::pending(const QString &type) const
{
    QList<QJsonObject> frames;
    for (qsizetype i = 0; i < m_received.size(); ++i) {
        if (!m_taken[i] && m_received[i].value("type"_L1).toString() == type)
            frames.append(m_received[i]);
    }
    return frames;
}

void TestClient::clear()
{
    m_received.clear();
    m_taken.clear();
}

bool TestClient::waitDisconnected(int timeoutMs)
{
    if (m_socket.state() == QAbstractSocket::UnconnectedState)
        return true;
    QSignalSpy spy(&m_socket, &QWebSocket::disconnected);
    return spy.wait(timeoutMs) || m_socket.state() == QAbstractSocket::UnconnectedState;
}
