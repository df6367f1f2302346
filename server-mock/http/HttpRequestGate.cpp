#include "server-mock/http/HttpRequestGate.h"

// C++
#include <algorithm>

// Qt
#include <QTcpSocket>

// Presence
#include "server-mock/http/HttpReply.h"
#include "server-mock/http/Logging.h"
#include "server-mock/httphead/HttpRequestHead.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace Presence::Server {

namespace {

// After a refusal the client may still be sending (a body over the limit). Closing then would
// reset the connection, and a reset can make the client lose the answer before reading it;
// so the gate reads and drops its input until it has been quiet this long, or for at most
// kMaxLinger, and only then closes (what Apache calls a lingering close).
constexpr auto kQuiet = 100ms;
constexpr auto kMaxLinger = 2s;

// Enough for any length worth reading; more digits could overflow qint64.
constexpr qsizetype kMaxLengthDigits = 15;

} // namespace

HttpRequestGate::HttpRequestGate(QTcpSocket *socket, const HttpLimits &limits)
    : QObject(socket)
    , m_socket(socket)
    , m_limits(limits)
{
    connect(m_socket, &QIODevice::readyRead, this, &HttpRequestGate::onReadyRead);
    // The HTTP server frees the sockets it was given; these are the ones it never saw.
    connect(m_socket, &QAbstractSocket::disconnected, m_socket, &QObject::deleteLater);

    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        refuse(HttpReply::error(HttpStatus::RequestTimeout, "request_timeout"_L1,
            u"the request did not arrive within %1 ms"_s.arg(m_limits.requestTimeout.count())));
    });
    m_deadline.start(m_limits.requestTimeout);

    m_quiet.setSingleShot(true);
    m_quiet.setInterval(kQuiet);
    connect(&m_quiet, &QTimer::timeout, m_socket, &QAbstractSocket::disconnectFromHost);
}

void HttpRequestGate::onReadyRead()
{
    if (m_state != State::Reading)
        return;
    if (!m_body) {
        m_body = readHead();
        if (!m_body)
            return;
    }
    if (m_socket->bytesAvailable() < m_body->offset + m_body->length) {
        if (m_body->expectsContinue && !m_continueSent) {
            // Qt sends its own 100 Continue when it parses the request, so this client sees
            // two; RFC 9110 §15.2 has clients ignore any number of them.
            m_socket->write("HTTP/1.1 100 Continue\r\n\r\n"_ba);
            m_continueSent = true;
        }
        return;
    }
    pass();
}

std::optional<HttpRequestGate::Body> HttpRequestGate::readHead()
{
    const QByteArray buffered
        = m_socket->peek(qMin(m_socket->bytesAvailable(), m_limits.maxHeadBytes + 1));
    const HttpRequestHead head = HttpRequestHead::read(buffered,
        { .maxHeadBytes = m_limits.maxHeadBytes, .maxHeaderFields = m_limits.maxHeaderFields });
    const auto badRequest = [this](const QString &problem) {
        refuse(HttpReply::error(HttpStatus::BadRequest, "bad_request"_L1, problem));
        return std::nullopt;
    };

    // What was read is judged before the head's own verdict, line by line: a version not
    // spoken here or a bad Content-Length is refused without waiting for the rest.
    if (head.hasRequestLine && head.version != "HTTP/1.1" && head.version != "HTTP/1.0")
        return badRequest(u"only HTTP/1.1 and HTTP/1.0 are spoken here"_s);
    Body body;
    std::optional<qint64> length;
    bool chunked = false;
    for (const auto &[name, value] : head.fields) {
        if (name.compare("Content-Length", Qt::CaseInsensitive) == 0) {
            const bool digits = !value.isEmpty() && value.size() <= kMaxLengthDigits
                && std::all_of(
                    value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
            if (!digits)
                return badRequest(u"Content-Length must be a number of bytes"_s);
            const qint64 number = value.toLongLong();
            if (length && *length != number)
                return badRequest(u"two different Content-Length headers"_s);
            length = number;
        } else if (name.compare("Transfer-Encoding", Qt::CaseInsensitive) == 0) {
            chunked = true;
        } else if (name.compare("Expect", Qt::CaseInsensitive) == 0) {
            body.expectsContinue = value.compare("100-continue", Qt::CaseInsensitive) == 0;
        }
    }

    using Verdict = HttpRequestHead::Verdict;
    switch (head.verdict) {
    case Verdict::Incomplete:
        return std::nullopt;
    case Verdict::TooLarge:
        refuse(HttpReply::error(
            HttpStatus::HeaderFieldsTooLarge, "headers_too_large"_L1, head.problem));
        return std::nullopt;
    case Verdict::Malformed:
        return badRequest(head.problem);
    case Verdict::Complete:
        break;
    }
    if (chunked) {
        // Only bodies with a Content-Length are read (RFC 9112 §6.3).
        refuse(HttpReply::error(HttpStatus::LengthRequired, "length_required"_L1,
            u"send the body with a Content-Length (Transfer-Encoding is not accepted)"_s));
        return std::nullopt;
    }
    body.offset = head.size;
    body.length = length.value_or(0);
    if (body.length > m_limits.maxBodyBytes) {
        refuse(HttpReply::error(HttpStatus::ContentTooLarge, "too_large"_L1,
            u"the body has %1 bytes, more than the limit of %2"_s.arg(body.length)
                .arg(m_limits.maxBodyBytes)));
        return std::nullopt;
    }
    return body;
}

void HttpRequestGate::pass()
{
    m_state = State::Passed;
    m_deadline.stop();
    disconnect(m_socket, &QIODevice::readyRead, this, nullptr);
    Q_EMIT requestArrived(m_socket);
    // One request per connection: Qt 6.4 would otherwise read whatever follows as the next
    // request line, without bound. The answer closes the connection anyway.
    disconnect(m_socket, &QIODevice::readyRead, nullptr, nullptr);
    connect(m_socket, &QIODevice::readyRead, this, &HttpRequestGate::dropInput);
    dropInput();
}

void HttpRequestGate::refuse(const HttpReply &reply)
{
    if (m_state != State::Reading)
        return; // answered, or about to be
    qCDebug(lcHttp) << "refused a request from" << m_socket->peerAddress().toString() << "with"
                    << int(reply.status());
    m_state = State::Refused;
    m_deadline.stop();
    disconnect(m_socket, &QIODevice::readyRead, this, nullptr);
    connect(m_socket, &QIODevice::readyRead, this, &HttpRequestGate::dropInput);
    if (m_socket->state() == QAbstractSocket::ConnectedState)
        m_socket->write(reply.toBytes());
    m_refusedFor.start();
    dropInput();
}

void HttpRequestGate::dropInput()
{
    m_socket->skip(m_socket->bytesAvailable());
    if (m_state != State::Refused)
        return;
    if (m_refusedFor.hasExpired(std::chrono::milliseconds(kMaxLinger).count()))
        m_socket->disconnectFromHost();
    else
        m_quiet.start();
}

} // namespace Presence::Server
