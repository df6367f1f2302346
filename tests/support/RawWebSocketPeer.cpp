#include "RawWebSocketPeer.h"

// Qt
#include <QTest>
#include <QtEndian>

RawWebSocketPeer::RawWebSocketPeer(QObject *parent)
    : QObject(parent)
{
    connect(&m_socket, &QTcpSocket::readyRead, this, &RawWebSocketPeer::onReadyRead);
}

bool RawWebSocketPeer::connectAndHandshake(quint16 port, int timeoutMs)
{
    m_socket.connectToHost(QHostAddress::LocalHost, port);
    if (!m_socket.waitForConnected(timeoutMs))
        return false;
    const QByteArray request = "GET / HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(port)
        + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
    m_socket.write(request);
    return QTest::qWaitFor([this] { return m_handshakeDone; }, timeoutMs);
}

void RawWebSocketPeer::sendText(const QByteArray &payload)
{
    sendFrame(0x81, payload);
}

void RawWebSocketPeer::sendFrame(quint8 firstByte, const QByteArray &payload, bool masked)
{
    // Client frames must be masked (RFC 6455 5.3); a zero mask keeps the payload readable.
    const char maskBit = masked ? char(0x80) : char(0);
    QByteArray frame;
    frame.append(char(firstByte));
    const qsizetype size = payload.size();
    if (size < 126) {
        frame.append(char(maskBit | char(size)));
    } else if (size < 65536) {
        frame.append(char(maskBit | 126));
        frame.append(char(size >> 8)).append(char(size & 0xff));
    } else {
        frame.append(char(maskBit | 127));
        for (int shift = 56; shift >= 0; shift -= 8)
            frame.append(char((quint64(size) >> shift) & 0xff));
    }
    if (masked)
        frame.append(QByteArray(4, '\0'));
    frame.append(payload);
    m_socket.write(frame);
}

bool RawWebSocketPeer::waitForCloseOrDrop(int timeoutMs)
{
    return QTest::qWaitFor([this] { return m_closeCode.has_value() || dropped(); }, timeoutMs);
}

void RawWebSocketPeer::stopReading()
{
    m_reading = false;
    m_socket.setReadBufferSize(4096); // Qt stops taking data from the kernel past this
}

void RawWebSocketPeer::onReadyRead()
{
    if (!m_reading)
        return;
    m_buffer.append(m_socket.readAll());
    if (!m_handshakeDone) {
        const qsizetype end = m_buffer.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        if (!m_buffer.startsWith("HTTP/1.1 101")) {
            m_socket.abort();
            return;
        }
        m_buffer.remove(0, end + 4);
        m_handshakeDone = true;
    }
    parseFrames();
}

void RawWebSocketPeer::parseFrames()
{
    while (m_buffer.size() >= 2) {
        const quint8 opcode = quint8(m_buffer[0]) & 0x0f;
        quint64 length = quint8(m_buffer[1]) & 0x7f;
        qsizetype header = 2;
        if (length == 126) {
            if (m_buffer.size() < 4)
                return;
            length = qFromBigEndian<quint16>(m_buffer.constData() + 2);
            header = 4;
        } else if (length == 127) {
            if (m_buffer.size() < 10)
                return;
            length = qFromBigEndian<quint64>(m_buffer.constData() + 2);
            header = 10;
        }
        if (quint64(m_buffer.size() - header) < length)
            return;
        const QByteArray payload = m_buffer.mid(header, qsizetype(length));
        m_buffer.remove(0, header + qsizetype(length));
        switch (opcode) {
        case 0x1:
            m_texts.append(payload);
            break;
        case 0x8:
            m_closeCode = payload.size() >= 2 ? qFromBigEndian<quint16>(payload.constData()) : 1005;
            break;
        case 0x9:
            ++m_pings;
            break;
        default:
            break;
        }
    }
}
