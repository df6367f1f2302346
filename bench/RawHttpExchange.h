#pragma once

// One HTTP/1.1 request on a TCP connection of its own, written by hand on a QTcpSocket, so
// that every byte written and read is counted (QNetworkAccessManager would hide them). The
// gateway's HTTP server answers one request per connection and closes it (docs/admin-api.md,
// "One request per connection"): the exchange ends when the server has closed.

// C++
#include <chrono>
#include <functional>
#include <optional>

// Qt
#include <QByteArray>
#include <QHostAddress>
#include <QTcpSocket>
#include <QTimer>

// Presence
#include "bench/SocketCounters.h"

namespace PushPollingBench {

struct HttpOutcome {
    int status = 0; // 0: no complete answer
    QByteArray body;
    qint64 bytesWritten = 0; // request bytes the socket wrote
    qint64 bytesRead = 0; // answer bytes read, headers included, up to the server's close
    // TCP segments of the connection up to the complete answer (handshake included), from
    // TCP_INFO; the closing FIN/ACK exchange comes after and is not in them.
    std::optional<TcpCounters> segmentsToAnswer;
    bool closedByServer = false;
    QString error; // empty unless the exchange failed
};

class RawHttpExchange {
public:
    using Clock = std::chrono::steady_clock;
    // answered: the moment the whole answer has arrived (before the connection closes), with
    // its status and body. finished: once the connection is closed, everything counted.
    using Answered = std::function<void(Clock::time_point at, int status, const QByteArray &body)>;
    using Finished = std::function<void(const HttpOutcome &)>;

    // Starts the exchange; it deletes itself when finished. source: the local address to
    // connect from (any loopback address works on Linux), or the system's choice.
    static void start(const QHostAddress &server, quint16 port,
        const std::optional<QHostAddress> &source, QByteArray request, Answered answered,
        Finished finished, std::chrono::milliseconds timeout = std::chrono::seconds(15))
    {
        auto *exchange = new RawHttpExchange(
            std::move(request), std::move(answered), std::move(finished), timeout);
        exchange->begin(server, port, source);
    }

    // The request head (and body) as the benchmark sends it: the minimum the server needs.
    static QByteArray request(const QByteArray &method, const QByteArray &target,
        const QByteArray &host, const QByteArray &bearer, const QByteArray &body = {})
    {
        QByteArray text = method + ' ' + target + " HTTP/1.1\r\nHost: " + host
            + "\r\nAuthorization: Bearer " + bearer + "\r\n";
        if (method == "POST" || !body.isEmpty())
            text += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
        return text + "\r\n" + body;
    }

private:
    RawHttpExchange(
        QByteArray request, Answered answered, Finished finished, std::chrono::milliseconds timeout)
        : m_request(std::move(request))
        , m_answered(std::move(answered))
        , m_finished(std::move(finished))
    {
        m_deadline.setSingleShot(true);
        m_deadline.setInterval(timeout);
        QObject::connect(&m_deadline, &QTimer::timeout, &m_socket, [this] {
            m_outcome.error = QStringLiteral("timed out");
            m_socket.abort();
            finish();
        });
    }

    void begin(const QHostAddress &server, quint16 port, const std::optional<QHostAddress> &source)
    {
        QObject::connect(
            &m_socket, &QTcpSocket::connected, &m_socket, [this] { m_socket.write(m_request); });
        QObject::connect(&m_socket, &QTcpSocket::bytesWritten, &m_socket,
            [this](qint64 bytes) { m_outcome.bytesWritten += bytes; });
        QObject::connect(&m_socket, &QTcpSocket::readyRead, &m_socket, [this] { onReadyRead(); });
        QObject::connect(&m_socket, &QTcpSocket::disconnected, &m_socket, [this] {
            m_outcome.closedByServer = true;
            if (!m_complete && m_status && m_contentLength < 0)
                complete(m_buffer.mid(m_buffer.indexOf("\r\n\r\n") + 4)); // body up to the close
            finish();
        });
        QObject::connect(&m_socket, &QTcpSocket::errorOccurred, &m_socket,
            [this](QAbstractSocket::SocketError error) {
                if (error == QAbstractSocket::RemoteHostClosedError)
                    return; // the expected end: disconnected follows
                m_outcome.error = m_socket.errorString();
                finish();
            });
        m_deadline.start();
        if (source && !m_socket.bind(*source, 0)) {
            m_outcome.error
                = QStringLiteral("bind %1: %2").arg(source->toString(), m_socket.errorString());
            QTimer::singleShot(0, &m_socket, [this] { finish(); });
            return;
        }
        m_socket.connectToHost(server, port);
    }

    void onReadyRead()
    {
        const QByteArray chunk = m_socket.readAll();
        m_outcome.bytesRead += chunk.size();
        if (m_complete)
            return;
        m_buffer += chunk;
        const qsizetype headEnd = m_buffer.indexOf("\r\n\r\n");
        if (headEnd < 0)
            return;
        if (!m_status) {
            const QList<QByteArray> lines = m_buffer.left(headEnd).split('\n');
            m_status = lines.value(0).split(' ').value(1).toInt();
            for (const QByteArray &line : lines) {
                const qsizetype colon = line.indexOf(':');
                if (colon > 0 && line.left(colon).trimmed().toLower() == "content-length")
                    m_contentLength = line.mid(colon + 1).trimmed().toLongLong();
            }
        }
        const qsizetype bodyStart = headEnd + 4;
        if (m_status == 204 || m_status == 304)
            complete({});
        else if (m_contentLength >= 0 && m_buffer.size() - bodyStart >= m_contentLength)
            complete(m_buffer.mid(bodyStart, m_contentLength));
    }

    void complete(const QByteArray &body)
    {
        const auto at = Clock::now();
        m_complete = true;
        m_outcome.status = m_status;
        m_outcome.body = body;
        m_outcome.segmentsToAnswer = tcpCounters(int(m_socket.socketDescriptor()));
        if (m_answered)
            m_answered(at, m_outcome.status, m_outcome.body);
    }

    void finish()
    {
        if (m_done)
            return;
        m_done = true;
        m_deadline.stop();
        if (!m_complete && m_outcome.error.isEmpty())
            m_outcome.error = QStringLiteral("closed before a complete answer");
        if (m_finished)
            m_finished(m_outcome);
        // Leave the socket's own signal handling first, then go.
        QObject::disconnect(&m_socket, nullptr, nullptr, nullptr);
        QTimer::singleShot(0, [this] { delete this; });
    }

    QTcpSocket m_socket;
    QTimer m_deadline;
    QByteArray m_request;
    Answered m_answered;
    Finished m_finished;
    HttpOutcome m_outcome;
    QByteArray m_buffer;
    int m_status = 0;
    qint64 m_contentLength = -1; // -1: no Content-Length, the body ends with the connection
    bool m_complete = false;
    bool m_done = false;
};

} // namespace PushPollingBench
