#include "server-mock/transport/QtWebSocketTransport.h"

// Qt
#include <QTcpSocket>

// Presence
#include "server-mock/transport/TransportLimits.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

QtWebSocketTransport::QtWebSocketTransport(
    QWebSocket *socket, QTcpSocket *tcp, qsizetype maxFrameBytes, qint64 maxQueuedBytes)
    : m_socket(socket)
    , m_tcp(tcp)
    , m_maxQueuedBytes(maxQueuedBytes)
{
    m_socket->setParent(nullptr);
    // Qt closes with 1009 (too much data) on its own when a peer exceeds these.
    m_socket->setMaxAllowedIncomingFrameSize(quint64(maxFrameBytes));
    m_socket->setMaxAllowedIncomingMessageSize(quint64(maxFrameBytes));

    QWebSocket *ws = m_socket.get();
    QObject::connect(
        ws, &QWebSocket::textMessageReceived, ws, [this](const QString &text) { tellText(text); });
    QObject::connect(ws, &QWebSocket::binaryMessageReceived, ws, [this] { tellBinary(); });
    // QWebSocket answers pings itself and tells nobody, so on this transport they cost no
    // frame budget (the own transport asks tellPing()).
    QObject::connect(ws, &QWebSocket::pong, ws, [this] { tellPong(); });
    QObject::connect(ws, &QWebSocket::disconnected, ws, [this] { onDisconnected(); });
    QObject::connect(ws, &QWebSocket::stateChanged, ws, [this](QAbstractSocket::SocketState state) {
        m_closeHandshake = m_closeHandshake || state == QAbstractSocket::ClosingState;
    });

    // A peer can hang up between its handshake and our taking the socket: disconnected()
    // will never come, so report it ourselves once the receiver is set.
    if (m_socket->state() != QAbstractSocket::ConnectedState)
        QMetaObject::invokeMethod(
            ws, [this] { onDisconnected(); }, Qt::QueuedConnection);
}

QtWebSocketTransport::~QtWebSocketTransport()
{
    // The socket dies with us and says so; nobody may hear that from a half-destroyed owner.
    QObject::disconnect(m_socket.get(), nullptr, m_socket.get(), nullptr);
    if (m_tcp)
        m_tcp->blockSignals(false);
}

QString QtWebSocketTransport::peer() const
{
    return u"%1:%2"_s.arg(m_socket->peerAddress().toString()).arg(m_socket->peerPort());
}

bool QtWebSocketTransport::isOpen() const
{
    return m_socket->state() == QAbstractSocket::ConnectedState;
}

qint64 QtWebSocketTransport::bytesToWrite() const
{
    return m_socket->bytesToWrite();
}

void QtWebSocketTransport::sendText(const QByteArray &utf8)
{
    // QWebSocket buffers without bound for a peer that sends but never reads.
    if (m_socket->bytesToWrite() > m_maxQueuedBytes) {
        close(kSlowConsumerCloseCode, u"not reading: output backlog over the limit"_s);
        abort(); // what is queued would never be read anyway
        return;
    }
    m_socket->sendTextMessage(QString::fromUtf8(utf8));
}

void QtWebSocketTransport::ping()
{
    m_socket->ping();
}

void QtWebSocketTransport::close(quint16 code, const QString &reason)
{
    if (unpause())
        m_socket->close(QWebSocketProtocol::CloseCode(code), reason);
}

void QtWebSocketTransport::abort()
{
    if (unpause())
        m_socket->abort();
}

void QtWebSocketTransport::setReadingPaused(bool paused)
{
    if (paused == m_paused)
        return;
    if (paused) {
        // QWebSocket reads (and answers pings) when its TCP socket says readyRead; with that
        // socket's signals blocked, what arrives waits there (a bounded buffer, then the
        // kernel's), as with a hung process.
        if (!m_tcp)
            return;
        m_paused = true;
        m_readBufferSize = m_tcp->readBufferSize();
        m_tcp->blockSignals(true);
        m_tcp->setReadBufferSize(m_socket->maxAllowedIncomingFrameSize() + 1024);
        return;
    }
    const QPointer<QTcpSocket> tcp = m_tcp;
    if (!unpause())
        return;
    tellReadingResumed();
    // What waited in the TCP socket: the peer sends nothing more for being answered late, so
    // nothing else would make the QWebSocket read it.
    if (tcp && tcp->bytesAvailable() > 0)
        Q_EMIT tcp->readyRead();
}

bool QtWebSocketTransport::unpause()
{
    if (!m_paused)
        return true;
    m_paused = false;
    if (!m_tcp)
        return true;
    m_tcp->blockSignals(false);
    m_tcp->setReadBufferSize(m_readBufferSize);
    if (m_tcp->state() == QAbstractSocket::ConnectedState)
        return true;
    QMetaObject::invokeMethod(
        m_socket.get(), [this] { onDisconnected(); }, Qt::QueuedConnection);
    return false;
}

void QtWebSocketTransport::onDisconnected()
{
    if (m_reported)
        return;
    m_reported = true;
    // QWebSocket reports 1000 after an abrupt end too: no close frame either way is 1006.
    tellClosed(m_closeHandshake ? quint16(m_socket->closeCode())
                                : quint16(QWebSocketProtocol::CloseCodeAbnormalDisconnection));
}

} // namespace Presence::Server
