#pragma once

// Qt
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QUrl>
#include <QWebSocket>

// A real QWebSocket client for tests: records every frame it receives, in order, and
// lets a test wait for the next frame of a given type without sleeping.
class TestClient : public QObject {
    Q_OBJECT
public:
    explicit TestClient(QObject *parent = nullptr);

    // Opens the socket; origin, when given, is sent as the Origin header (as a browser does).
    void open(const QUrl &url, const QString &origin = {});
    bool waitConnected(int timeoutMs = 5000);
    // open + hello + welcome. Returns the welcome frame, or an empty object on failure.
    QJsonObject login(const QUrl &url, const QString &token, const QJsonObject &extraHello = {});

    void sendJson(const QJsonObject &frame);
    void sendText(const QString &text);
    void sendBinary(const QByteArray &data);
    // Sends a request and waits for the frame answering it (matched by ref).
    QJsonObject request(QJsonObject frame, int timeoutMs = 5000);

    // The first frame of `type` not taken yet (waiting for it if needed); empty on timeout.
    QJsonObject waitFor(const QString &type, int timeoutMs = 5000);
    // Frames of `type` received so far and not taken yet.
    [[nodiscard]] QList<QJsonObject> pending(const QString &type) const;
    // Every frame received since the last clear, taken or not.
    [[nodiscard]] const QList<QJsonObject> &received() const { return m_received; }
    void clear();

    bool waitDisconnected(int timeoutMs = 5000);
    [[nodiscard]] bool isOpen() const
    {
        return m_socket.state() == QAbstractSocket::ConnectedState;
    }
    [[nodiscard]] int closeCode() const { return int(m_socket.closeCode()); }
    [[nodiscard]] QString closeReason() const { return m_socket.closeReason(); }
    QWebSocket &socket() { return m_socket; }

Q_SIGNALS:
    void frameReceived(const QJsonObject &frame);

private:
    // Takes the first untaken frame whose field key equals value, waiting for it if needed.
    QJsonObject waitForField(QLatin1StringView key, const QString &value, int timeoutMs);

    QWebSocket m_socket;
    QList<QJsonObject> m_received;
    QList<bool> m_taken;
    int m_nextRef = 1;
};
