#include "server-mock/websocket/WebSocketHandshake.h"

// C++
#include <algorithm>

// Qt
#include <QCryptographicHash>

using namespace Qt::StringLiterals;

namespace Presence::Server {

namespace {

constexpr QByteArrayView kGuid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
constexpr qsizetype kKeyBytes = 16;

// RFC 9110 §5.6.2.
bool isToken(QByteArrayView text)
{
    const auto tokenChar = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
            || QByteArrayView("!#$%&'*+-.^_`|~").contains(c);
    };
    return !text.isEmpty() && std::all_of(text.begin(), text.end(), tokenChar);
}

// Optional whitespace (RFC 9110 §5.6.3) off both ends.
QByteArrayView trimmed(QByteArrayView text)
{
    while (!text.isEmpty() && (text.front() == ' ' || text.front() == '\t'))
        text = text.sliced(1);
    while (!text.isEmpty() && (text.back() == ' ' || text.back() == '\t'))
        text.chop(1);
    return text;
}

// Whether a comma-separated list holds `token`, case-insensitively.
bool listHas(QByteArrayView list, QByteArrayView token)
{
    while (!list.isEmpty()) {
        const qsizetype comma = list.indexOf(',');
        const QByteArrayView item = trimmed(comma < 0 ? list : list.first(comma));
        if (item.compare(token, Qt::CaseInsensitive) == 0)
            return true;
        list = comma < 0 ? QByteArrayView() : list.sliced(comma + 1);
    }
    return false;
}

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
    WebSocketHandshake handshake;
    qsizetype pos = 0;
    // RFC 9112 §2.2: empty lines before the request line are ignored.
    while (pos < buffered.size() && (buffered[pos] == '\r' || buffered[pos] == '\n'))
        ++pos;

    bool requestLine = true;
    QByteArrayView method;
    QByteArrayView version;
    bool host = false;
    bool upgradeWebSocket = false;
    bool connectionUpgrade = false;
    int versions = 0;
    bool version13 = false;
    int keys = 0;
    QByteArrayView key;
    for (;;) {
        const qsizetype newline = buffered.indexOf('\n', pos);
        const qsizetype end = newline < 0 ? buffered.size() : newline + 1;
        if (end > maxHeadBytes) {
            return refused(
                handshake, 431, u"the upgrade request is larger than %1 bytes"_s.arg(maxHeadBytes));
        }
        if (newline < 0)
            return handshake; // Incomplete
        QByteArrayView line = buffered.sliced(pos, newline - pos);
        if (line.endsWith('\r'))
            line.chop(1);
        pos = end;

        if (requestLine) {
            requestLine = false;
            const qsizetype first = line.indexOf(' ');
            const qsizetype second = first < 0 ? -1 : line.indexOf(' ', first + 1);
            if (second < 0 || line.indexOf(' ', second + 1) >= 0 || second == first + 1
                || !isToken(line.first(first)))
                return refused(handshake, 400, u"the request line must be 'GET /path HTTP/1.1'"_s);
            method = line.first(first);
            handshake.path = line.sliced(first + 1, second - first - 1).toByteArray();
            version = line.sliced(second + 1);
            continue;
        }
        if (line.isEmpty())
            break;
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0 || !isToken(line.first(colon)))
            return refused(
                handshake, 400, u"a header line must be 'Name: value' (no line folding)"_s);
        const QByteArrayView name = line.first(colon);
        const QByteArrayView value = trimmed(line.sliced(colon + 1));
        const auto is = [name](QByteArrayView field) {
            return name.compare(field, Qt::CaseInsensitive) == 0;
        };
        if (is("Host")) {
            host = true;
        } else if (is("Upgrade")) {
            upgradeWebSocket = upgradeWebSocket || listHas(value, "websocket");
        } else if (is("Connection")) {
            connectionUpgrade = connectionUpgrade || listHas(value, "upgrade");
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
    handshake.headSize = pos;

    if (!upgradeWebSocket) {
        return refused(handshake, 426, u"this port speaks WebSocket only"_s,
            "Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n");
    }
    if (version != "HTTP/1.1")
        return refused(handshake, 400, u"a WebSocket upgrade needs HTTP/1.1"_s);
    if (method != "GET")
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
