#include "server-mock/websocket/WebSocketFrameReader.h"

// C++
#include <algorithm>
#include <cstring>

// Qt
#include <QtEndian>

namespace Presence::Server {

namespace {

using Opcode = WebSocketProtocol::Opcode;
using Event = WebSocketFrameReader::Event;

constexpr quint8 kFin = 0x80;
constexpr quint8 kReservedBits = 0x70;
constexpr quint8 kOpcodeBits = 0x0f;
constexpr quint8 kMasked = 0x80;
constexpr quint8 kLengthBits = 0x7f;
constexpr quint8 kLength16 = 126;
constexpr quint8 kLength64 = 127;

bool isKnownOpcode(quint8 opcode)
{
    switch (Opcode(opcode)) {
    case Opcode::Continuation:
    case Opcode::Text:
    case Opcode::Binary:
    case Opcode::Close:
    case Opcode::Ping:
    case Opcode::Pong:
        return true;
    }
    return false;
}

// XORs `size` bytes with the mask, the first of them being byte `offset` of the payload.
// Eight bytes at a time (the mask repeats every four, so eight keep its phase).
void unmask(char *bytes, qsizetype size, const std::array<uchar, 4> &mask, quint64 offset)
{
    std::array<uchar, 8> rotated {};
    for (size_t i = 0; i < rotated.size(); ++i)
        rotated[i] = mask[(offset + i) & 3];
    quint64 word;
    std::memcpy(&word, rotated.data(), sizeof word);
    while (size >= 8) {
        quint64 chunk;
        std::memcpy(&chunk, bytes, sizeof chunk);
        chunk ^= word;
        std::memcpy(bytes, &chunk, sizeof chunk);
        bytes += 8;
        size -= 8;
    }
    for (qsizetype i = 0; i < size; ++i)
        bytes[i] = char(uchar(bytes[i]) ^ rotated[size_t(i)]);
}

} // namespace

WebSocketFrameReader::WebSocketFrameReader(qsizetype maxMessageBytes)
    : m_maxMessageBytes(std::max<qsizetype>(maxMessageBytes, 0))
{
}

qsizetype WebSocketFrameReader::bufferedBytes() const
{
    return m_message.capacity() + m_control.capacity() + m_headerBytes;
}

Event WebSocketFrameReader::fail(quint16 code, const char *why)
{
    m_stage = Stage::Finished;
    m_message.clear();
    m_control.clear();
    return Event { Event::Failure, {}, code, QByteArrayView(why) };
}

qsizetype WebSocketFrameReader::feed(
    std::span<char> bytes, std::vector<Event> &events, qsizetype maxEvents)
{
    const size_t size = bytes.size();
    for (qsizetype count = 0; count < maxEvents && !bytes.empty(); ++count) {
        std::optional<Event> event = next(bytes);
        if (!event)
            break;
        events.push_back(*event);
    }
    return qsizetype(size - bytes.size());
}

WebSocketFrameReader::HeaderRead WebSocketFrameReader::parseHeader(
    const uchar *header, qsizetype size)
{
    // Each rule is applied as soon as the bytes it needs are there, so that a peer sending one
    // byte at a time is refused exactly where one sending everything at once is.
    const auto refuse = [](quint16 code, const char *why) { return HeaderRead { 0, code, why }; };
    if (size < 1)
        return {};
    const quint8 first = header[0];
    if (first & kReservedBits)
        return refuse(WebSocketProtocol::ProtocolError, "reserved bits set");
    const quint8 opcodeBits = first & kOpcodeBits;
    if (!isKnownOpcode(opcodeBits))
        return refuse(WebSocketProtocol::ProtocolError, "reserved opcode");
    const auto opcode = Opcode(opcodeBits);
    const bool fin = first & kFin;
    const bool control = WebSocketProtocol::isControl(opcode);
    if (control && !fin)
        return refuse(WebSocketProtocol::ProtocolError, "fragmented control frame");
    if (opcode == Opcode::Continuation && !m_inMessage)
        return refuse(WebSocketProtocol::ProtocolError, "continuation without a message");
    if ((opcode == Opcode::Text || opcode == Opcode::Binary) && m_inMessage)
        return refuse(WebSocketProtocol::ProtocolError, "new message before the last one ended");

    if (size < 2)
        return {};
    const quint8 second = header[1];
    if (!(second & kMasked))
        return refuse(WebSocketProtocol::ProtocolError, "unmasked client frame");
    const quint8 length7 = second & kLengthBits;
    if (control && length7 > WebSocketProtocol::MaxControlPayload)
        return refuse(WebSocketProtocol::ProtocolError, "control frame over 125 bytes");
    const qsizetype lengthBytes = length7 == kLength16 ? 2 : length7 == kLength64 ? 8 : 0;
    if (size < 2 + lengthBytes)
        return {};
    quint64 length = length7;
    if (length7 == kLength16)
        length = qFromBigEndian<quint16>(header + 2);
    else if (length7 == kLength64)
        length = qFromBigEndian<quint64>(header + 2);
    if (length >> 63)
        return refuse(WebSocketProtocol::ProtocolError, "64-bit length with the top bit set");
    if (!control) {
        const quint64 before = opcode == Opcode::Continuation ? quint64(m_message.size()) : 0;
        if (length > quint64(m_maxMessageBytes) - before)
            return refuse(WebSocketProtocol::MessageTooBig, "message too big");
    }

    const qsizetype headerSize = 2 + lengthBytes + 4;
    if (size < headerSize)
        return {};
    std::copy_n(header + 2 + lengthBytes, 4, m_mask.begin());
    m_opcode = opcode;
    m_fin = fin;
    m_frameSize = length;
    m_frameRead = 0;
    if (opcode == Opcode::Text || opcode == Opcode::Binary) {
        m_inMessage = true;
        m_messageOpcode = opcode;
        m_utf8.reset();
    }
    return HeaderRead { headerSize };
}

std::optional<Event> WebSocketFrameReader::next(std::span<char> &bytes)
{
    // The previous event's payload may point into these; it is no longer needed.
    if (m_releaseMessage) {
        m_message.clear();
        m_releaseMessage = false;
    }
    if (m_releaseControl) {
        m_control.clear();
        m_releaseControl = false;
    }

    for (;;) {
        switch (m_stage) {
        case Stage::Finished:
            bytes = bytes.subspan(bytes.size());
            return std::nullopt;

        case Stage::Header: {
            if (bytes.empty())
                return std::nullopt;
            // The header so far (kept from earlier reads) and what these bytes add to it.
            std::array<uchar, MaxHeader> header = m_header;
            const qsizetype had = m_headerBytes;
            const qsizetype added = std::min<qsizetype>(MaxHeader - had, qsizetype(bytes.size()));
            std::memcpy(header.data() + had, bytes.data(), size_t(added));
            const HeaderRead read = parseHeader(header.data(), had + added);
            if (read.failure)
                return fail(read.failureCode, read.failure);
            if (read.size == 0) {
                // Less than a header, so `added` was all of `bytes`.
                m_header = header;
                m_headerBytes = quint8(had + added);
                bytes = bytes.subspan(size_t(added));
                return std::nullopt;
            }
            bytes = bytes.subspan(size_t(read.size - had));
            m_headerBytes = 0;
            m_stage = Stage::Payload;
            break;
        }

        case Stage::Payload: {
            const quint64 left = m_frameSize - m_frameRead;
            if (left > 0 && bytes.empty())
                return std::nullopt;
            const auto take = qsizetype(std::min<quint64>(left, bytes.size()));
            char *const chunkData = bytes.data();
            unmask(chunkData, take, m_mask, m_frameRead);
            const QByteArrayView chunk(chunkData, take);
            bytes = bytes.subspan(size_t(take));
            const bool whole = m_frameRead == 0 && quint64(take) == m_frameSize;
            m_frameRead += quint64(take);
            const bool frameEnded = m_frameRead == m_frameSize;

            if (WebSocketProtocol::isControl(m_opcode)) {
                if (whole) {
                    m_stage = Stage::Header;
                    return controlFrameRead(chunk);
                }
                m_control.append(chunk);
                if (!frameEnded)
                    break;
                m_stage = Stage::Header;
                m_releaseControl = true;
                return controlFrameRead(m_control);
            }

            if (m_messageOpcode == Opcode::Text && !m_utf8.feed(chunk))
                return fail(WebSocketProtocol::InvalidPayload, "text is not UTF-8");
            // The common case: a whole message in one frame in one read, delivered in place.
            if (whole && m_fin && m_opcode != Opcode::Continuation) {
                m_stage = Stage::Header;
                return messageRead(chunk);
            }
            m_message.append(chunk);
            if (!frameEnded)
                break;
            m_stage = Stage::Header;
            if (m_fin) {
                m_releaseMessage = true;
                return messageRead(m_message);
            }
            break;
        }
        }
    }
}

Event WebSocketFrameReader::messageRead(QByteArrayView payload)
{
    m_inMessage = false;
    if (m_messageOpcode == Opcode::Text) {
        if (!m_utf8.isComplete())
            return fail(WebSocketProtocol::InvalidPayload, "text ends inside a character");
        return Event { Event::Text, payload };
    }
    return Event { Event::Binary, payload };
}

Event WebSocketFrameReader::controlFrameRead(QByteArrayView payload)
{
    switch (m_opcode) {
    case Opcode::Ping:
        return Event { Event::Ping, payload };
    case Opcode::Pong:
        return Event { Event::Pong, payload };
    default:
        break;
    }
    // Close (§5.5.1, §7.4).
    if (payload.isEmpty()) {
        m_stage = Stage::Finished;
        return Event { Event::Close };
    }
    if (payload.size() == 1)
        return fail(WebSocketProtocol::ProtocolError, "close payload of 1 byte");
    const auto code = qFromBigEndian<quint16>(payload.data());
    if (!WebSocketProtocol::isValidCloseCode(code))
        return fail(WebSocketProtocol::ProtocolError, "invalid close code");
    const QByteArrayView reason = payload.sliced(2);
    if (!Utf8Validator::isValid(reason))
        return fail(WebSocketProtocol::InvalidPayload, "close reason is not UTF-8");
    m_stage = Stage::Finished;
    return Event { Event::Close, {}, code, reason };
}

} // namespace Presence::Server
