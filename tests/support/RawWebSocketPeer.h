#pragma once

// C++
#include <optional>

// Qt
#include <QByteArray>
#include <QList>
#include <QObject>
#include <QTcpSocket>

// A deliberately rude WebSocket client over a plain TCP socket: it completes the handshake
// and sends text frames, but never answers pings or close frames on its own, like a peer
// behind a dead network path. QWebSocket always answers pings, so it cannot play this part.
class RawWebSocketPeer : public QObject {
    Q_OBJECT
public:
    explicit RawWebSocketPeer(QObject *parent = nullptr);

    bool connectAndHandshake(quint16 port, int timeoutMs = 5000);
    void sendText(const QByteArray &payload);
    // One frame as given: its first byte (FIN, RSV1-3, opcode), masked or not, whatever the
    // rules say; for tests of what the gateway does with frames a client must not send.
    void sendFrame(quint8 firstByte, const QByteArray &payload, bool masked = true);
    // Stops reading what the gateway sends, like a client whose event loop is stuck.
    void stopReading();

    // Waits until the gateway sends a close frame or drops the TCP connection.
    bool waitForCloseOrDrop(int timeoutMs);
    [[nodiscard]] std::optional<int> closeCode() const { return m_closeCode; }
    [[nodiscard]] bool dropped() const
    {
        return m_socket.state() == QAbstractSocket::UnconnectedState;
    }
    [[nodiscard]] int pingsReceived() const { return m_pings; }
    [[nodiscard]] const QList<QByteArray> &texts() const { return m_texts; }

private:
    void onReadyRead();
    void parseFrames();

    QTcpSocket m_socket;
    QByteArray m_buffer;
    bool m_handshakeDone = false;
    bool m_reading = true;
    std::optional<int> m_closeCode;
    int m_pings = 0;
    QList<QByteArray> m_texts;
};
