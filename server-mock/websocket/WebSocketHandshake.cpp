#include "server-mock/websocket/WebSocketHandshake.h"

// C++
#include <limits>

// Qt
#include <QCryptographicHash>

// Presence
#include "server-mock/httphead/HttpRequestHead.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

namespace {

constexpr QByteArrayView kGuid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
constexpr qsizetype kKeyBytes = 16;

QByteArrayView reasonPhrase(int status)
{
    switch (status) {
    case 400:
        return "Bad Request";
    case 403:
        return "Forbidden";
    case 408:
        return "Request Timeout";
    case 426:
        return "Upgrade Required";
    case 431:
        return "Request Header Fields Too Large";
    case 503:
        return "Service Unavailable";
    default:
        return "Error";
    }
}

WebSocketHandshake refused(
    WebSocketHandshake handshake, int status, QString problem, QByteArrayView extraHeaders = {})
{
    handshake.verdict = WebSocketHandshake::Verdict::Refused;
    handshake.status = status;
    handshake.response = WebSocketHandshake::refusal(status, problem.toUtf8() + '\n', extraHeaders);
    handshake.problem = std::move(problem);
    return handshake;
}

} // namespace

QByteArray WebSocketHandshake::acceptKey(QByteArrayView key)
{
    QCryptographicHash sha1(QCryptographicHash::Sha1);
    sha1.addData(key);
    sha1.addData(kGuid);
    return sha1.result().toBase64();
}

QByteArray WebSocketHandshake::refusal(int status, QByteArrayView body, QByteArrayView extraHeaders)
{
    QByteArray response;
    response.reserve(160 + extraHeaders.size() + body.size());
    response.append("HTTP/1.1 ")
        .append(QByteArray::number(status))
        .append(' ')
        .append(reasonPhrase(status))
        .append("\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ")
        .append(QByteArray::number(body.size()))
        .append("\r\nConnection: close\r\n")
        .append(extraHeaders)
        .append("\r\n")
        .append(body);
    return response;
}

WebSocketHandshake WebSocketHandshake::read(QByteArrayView buffered, qsizetype maxHeadBytes)
{
    // No bound on the number of fields of its own: maxHeadBytes bounds them already.
    const HttpRequestHead head = HttpRequestHead::read(buffered,
        { .maxHeadBytes = maxHeadBytes, .maxHeaderFields = std::numeric_limits<int>::max() });
    WebSocketHandshake handshake;
    switch (head.verdict) {
    case HttpRequestHead::Verdict::Incomplete:
        return handshake;
    case HttpRequestHead::Verdict::TooLarge:
        return refused(handshake, 431, head.problem);
    case HttpRequestHead::Verdict::Malformed:
        return refused(handshake, 400, head.problem);
    case HttpRequestHead::Verdict::Complete:
        break;
    }
    handshake.headSize = head.size;
    handshake.path = head.target.toByteArray();

    bool host = false;
    bool upgradeWebSocket = false;
    bool connectionUpgrade = false;
    int versions = 0;
    bool version13 = false;
    int keys = 0;
    QByteArrayView key;
    for (const HttpRequestHead::Field &field : head.fields) {
        const QByteArrayView value = field.value;
        const auto is = [&field](QByteArrayView name) {
            return field.name.compare(name, Qt::CaseInsensitive) == 0;
        };
        if (is("Host")) {
            host = true;
        } else if (is("Upgrade")) {
            upgradeWebSocket = upgradeWebSocket || HttpRequestHead::listHas(value, "websocket");
        } else if (is("Connection")) {
            connectionUpgrade = connectionUpgrade || HttpRequestHead::listHas(value, "upgrade");
        } else if (is("Sec-WebSocket-Version")) {
            ++versions;
            version13 = value == "13";
        } else if (is("Sec-WebSocket-Key")) {
            ++keys;
            key = value;
        } else if (is("Origin")) {
            handshake.origin = QString::fromUtf8(value);
        }
    }

    if (!upgradeWebSocket) {
        return refused(handshake, 426, u"this port speaks WebSocket only"_s,
            "Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n");
    }
    if (head.version != "HTTP/1.1")
        return refused(handshake, 400, u"a WebSocket upgrade needs HTTP/1.1"_s);
    if (head.method != "GET")
        return refused(handshake, 400, u"a WebSocket upgrade must be a GET"_s);
    if (!connectionUpgrade)
        return refused(handshake, 400, u"Connection must hold the token 'Upgrade'"_s);
    if (!host)
        return refused(handshake, 400, u"the request has no Host"_s);
    if (versions != 1 || !version13) {
        return refused(handshake, 426, u"only WebSocket version 13 is spoken here"_s,
            "Sec-WebSocket-Version: 13\r\n");
    }
    const auto decoded = QByteArray::fromBase64Encoding(
        key.toByteArray(), QByteArray::AbortOnBase64DecodingErrors);
    if (keys != 1 || !decoded || decoded.decoded.size() != kKeyBytes)
        return refused(handshake, 400, u"Sec-WebSocket-Key must be one base64 value of 16 bytes"_s);

    handshake.verdict = Verdict::Accepted;
    handshake.status = 101;
    handshake.response.reserve(160);
    handshake.response
        .append("HTTP/1.1 101 Switching Protocols\r\n"
                "Upgrade: websocket\r\n"
                "Connection: Upgrade\r\n"
                "Sec-WebSocket-Accept: ")
        .append(acceptKey(key))
        .append("\r\n\r\n");
    return handshake;
}

} // namespace Presence::Server
