#include "session/SchemeProbe.h"

// Qt
#include <QRandomGenerator>
#include <QTcpSocket>

// Presence
#include "session/Logging.h"

namespace Presence::Session {

namespace {

constexpr qsizetype kHttpPrefixLength = 5; // "HTTP/"

void appendUint16(QByteArray &out, quint16 value)
{
    out.append(char(value >> 8));
    out.append(char(value & 0xff));
}

void appendUint24(QByteArray &out, quint32 value)
{
    out.append(char((value >> 16) & 0xff));
    appendUint16(out, quint16(value & 0xffff));
}

void appendExtension(QByteArray &out, quint16 type, const QByteArray &data)
{
    appendUint16(out, type);
    appendUint16(out, quint16(data.size()));
    out.append(data);
}

} // namespace

SchemeProbe::SchemeProbe(QObject *parent)
    : QObject(parent)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, [this] { finish(Answer::Unknown); });
}

SchemeProbe::~SchemeProbe()
{
    cancel();
}

void SchemeProbe::start(const QString &host, quint16 port, std::chrono::milliseconds timeout)
{
    cancel();
    m_reply.clear();
    m_socket = new QTcpSocket(this);
    connect(m_socket, &QTcpSocket::connected, this, [this] { m_socket->write(clientHello()); });
    connect(m_socket, &QTcpSocket::readyRead, this, &SchemeProbe::onReadyRead);
    connect(m_socket, &QTcpSocket::stateChanged, this, [this](QAbstractSocket::SocketState s) {
        if (s == QAbstractSocket::UnconnectedState)
            finish(classify(m_reply, true));
    });
    m_timer.start(timeout);
    m_socket->connectToHost(host, port);
}

void SchemeProbe::cancel()
{
    m_timer.stop();
    if (!m_socket)
        return;
    QTcpSocket *socket = m_socket;
    m_socket = nullptr;
    socket->disconnect(this);
    socket->abort();
    socket->deleteLater(); // this may run inside one of its signals
}

void SchemeProbe::onReadyRead()
{
    m_reply.append(m_socket->read(kHttpPrefixLength - m_reply.size()));
    const Answer answer = classify(m_reply, m_reply.size() >= kHttpPrefixLength);
    if (answer != Answer::Unknown || m_reply.size() >= kHttpPrefixLength)
        finish(answer);
}

void SchemeProbe::finish(Answer answer)
{
    if (!m_socket)
        return;
    qCDebug(lcSession) << "probe of" << m_socket->peerName() << m_socket->peerPort() << "answered"
                       << m_reply.toHex(' ') << "-" << answer;
    cancel();
    Q_EMIT finished(answer);
}

bool SchemeProbe::mayExplain(bool secure, QAbstractSocket::SocketError error)
{
    // What QWebSocket (Qt 6.4, OpenSSL 3) reports: ws:// to a TLS server, "The remote host
    // closed the connection" (the server gives up at "GET" without a word); wss:// to a plain
    // one, SslHandshakeFailedError "wrong version number" (its HTTP 400 is no TLS record). A
    // gateway restarting may close an attempt too: only the probe's answer tells them apart.
    return error == QAbstractSocket::RemoteHostClosedError
        || (secure && error == QAbstractSocket::SslHandshakeFailedError);
}

SchemeProbe::Answer SchemeProbe::classify(const QByteArray &reply, bool complete)
{
    // A TLS record: content type alert (21) or handshake (22), then the major version 3.
    if (reply.size() >= 2 && (reply.at(0) == 0x15 || reply.at(0) == 0x16) && reply.at(1) == 0x03)
        return Answer::Tls;
    if (complete && reply.startsWith("HTTP/"))
        return Answer::Http;
    return Answer::Unknown;
}

QByteArray SchemeProbe::clientHello()
{
    QByteArray body;
    appendUint16(body, 0x0303); // TLS 1.2
    for (int i = 0; i < 8; ++i) {
        const quint32 random = QRandomGenerator::global()->generate();
        body.append(reinterpret_cast<const char *>(&random), sizeof random);
    }
    body.append(char(0)); // no session id
    const quint16 suites[] = { 0xc02b, 0xc02f, 0xc02c, 0xc030, 0xcca9, 0xcca8, 0x009e, 0x009f,
        0x009c, 0x009d, 0x002f, 0x0035 };
    appendUint16(body, quint16(sizeof suites));
    for (quint16 suite : suites)
        appendUint16(body, suite);
    body.append(char(1)).append(char(0)); // compression: null only

    QByteArray extensions;
    QByteArray groups;
    appendUint16(groups, 6);
    for (quint16 group : { 0x001d, 0x0017, 0x0018 }) // x25519, P-256, P-384
        appendUint16(groups, group);
    appendExtension(extensions, 0x000a, groups);
    appendExtension(extensions, 0x000b, QByteArray::fromHex("0100")); // uncompressed points
    QByteArray algorithms;
    const quint16 schemes[] = { 0x0403, 0x0503, 0x0804, 0x0805, 0x0806, 0x0401, 0x0501, 0x0601 };
    appendUint16(algorithms, quint16(sizeof schemes));
    for (quint16 scheme : schemes)
        appendUint16(algorithms, scheme);
    appendExtension(extensions, 0x000d, algorithms);
    appendUint16(body, quint16(extensions.size()));
    body.append(extensions);

    QByteArray handshake;
    handshake.append(char(1)); // ClientHello
    appendUint24(handshake, quint32(body.size()));
    handshake.append(body);

    QByteArray record;
    record.append(char(0x16)); // handshake
    appendUint16(record, 0x0301); // the record version clients send for compatibility
    appendUint16(record, quint16(handshake.size()));
    record.append(handshake);
    return record;
}

} // namespace Presence::Session
