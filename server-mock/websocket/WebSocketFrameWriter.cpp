#include "server-mock/websocket/WebSocketFrameWriter.h"

// C++
#include <algorithm>
#include <array>

// Qt
#include <QtEndian>

namespace Presence::Server {

namespace {

constexpr quint8 kFin = 0x80;
constexpr quint8 kLength16 = 126;
constexpr quint8 kLength64 = 127;
constexpr qsizetype kMaxLength7 = 125;
constexpr qsizetype kMaxLength16 = 0xffff;

QByteArrayView controlPayload(QByteArrayView payload)
{
    return payload.first(std::min(payload.size(), WebSocketProtocol::MaxControlPayload));
}

} // namespace

qsizetype WebSocketFrameWriter::headerSize(qsizetype payloadSize)
{
    return payloadSize <= kMaxLength7 ? 2 : payloadSize <= kMaxLength16 ? 4 : 10;
}

void WebSocketFrameWriter::appendHeader(QByteArray &out, Opcode opcode, qsizetype payloadSize)
{
    std::array<char, 10> header {};
    header[0] = char(kFin | quint8(opcode));
    qsizetype size = 2;
    if (payloadSize <= kMaxLength7) {
        header[1] = char(payloadSize);
    } else if (payloadSize <= kMaxLength16) {
        header[1] = char(kLength16);
        qToBigEndian(quint16(payloadSize), header.data() + 2);
        size = 4;
    } else {
        header[1] = char(kLength64);
        qToBigEndian(quint64(payloadSize), header.data() + 2);
        size = 10;
    }
    out.append(header.data(), size);
}

void WebSocketFrameWriter::appendFrame(QByteArray &out, Opcode opcode, QByteArrayView payload)
{
    if (WebSocketProtocol::isControl(opcode))
        payload = controlPayload(payload);
    appendHeader(out, opcode, payload.size());
    out.append(payload);
}

void WebSocketFrameWriter::appendText(QByteArray &out, QByteArrayView utf8)
{
    appendFrame(out, Opcode::Text, utf8);
}

void WebSocketFrameWriter::appendPing(QByteArray &out, QByteArrayView payload)
{
    appendFrame(out, Opcode::Ping, payload);
}

void WebSocketFrameWriter::appendPong(QByteArray &out, QByteArrayView payload)
{
    appendFrame(out, Opcode::Pong, payload);
}

void WebSocketFrameWriter::appendClose(QByteArray &out, quint16 code, QByteArrayView reason)
{
    if (code == 0) {
        appendHeader(out, Opcode::Close, 0);
        return;
    }
    reason = closeReason(reason);
    appendHeader(out, Opcode::Close, 2 + reason.size());
    std::array<char, 2> codeBytes {};
    qToBigEndian(code, codeBytes.data());
    out.append(codeBytes.data(), codeBytes.size());
    out.append(reason);
}

QByteArrayView WebSocketFrameWriter::closeReason(QByteArrayView reason)
{
    if (reason.size() <= WebSocketProtocol::MaxCloseReason)
        return reason;
    // Back off to the start of the character the cut falls in (continuation bytes are 10xxxxxx).
    qsizetype end = WebSocketProtocol::MaxCloseReason;
    while (end > 0 && (quint8(reason[end]) & 0xc0) == 0x80)
        --end;
    return reason.first(end);
}

QByteArray WebSocketFrameWriter::frame(Opcode opcode, QByteArrayView payload)
{
    if (WebSocketProtocol::isControl(opcode))
        payload = controlPayload(payload);
    QByteArray out;
    out.reserve(headerSize(payload.size()) + payload.size());
    appendFrame(out, opcode, payload);
    return out;
}

QByteArray WebSocketFrameWriter::text(QByteArrayView utf8)
{
    return frame(Opcode::Text, utf8);
}

QByteArray WebSocketFrameWriter::ping(QByteArrayView payload)
{
    return frame(Opcode::Ping, payload);
}

QByteArray WebSocketFrameWriter::pong(QByteArrayView payload)
{
    return frame(Opcode::Pong, payload);
}

QByteArray WebSocketFrameWriter::close(quint16 code, QByteArrayView reason)
{
    QByteArray out;
    out.reserve(2 + WebSocketProtocol::MaxControlPayload);
    appendClose(out, code, reason);
    return out;
}

} // namespace Presence::Server
