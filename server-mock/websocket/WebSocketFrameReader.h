#pragma once

// C++
#include <array>
#include <limits>
#include <optional>
#include <span>
#include <vector>

// Qt
#include <QByteArray>
#include <QByteArrayView>

// Presence
#include "server-mock/websocket/Utf8Validator.h"
#include "server-mock/websocket/WebSocketProtocol.h"

namespace Presence::Server {

// Reads what a WebSocket client sends (RFC 6455 §5), as bytes arrive, split anywhere.
//
// Pure: no sockets, no timers, no QObject; the caller passes the bytes it read and acts on the
// events. It keeps only what an unfinished frame needs: up to 14 header bytes, the payload of a
// control frame split across reads (at most 125 bytes) and the message being reassembled. A
// frame that arrives whole is unmasked where it lies in the caller's buffer and handed back
// without a copy; that is why next() takes writable bytes.
//
// Refused, with the close code to send (Event::Failure; the reader then reads nothing more):
// - 1002: an unmasked frame (§5.1); RSV1-3 set (no extension is negotiated); a reserved opcode
//   (3-7, 0xB-0xF); a control frame that is fragmented or longer than 125 bytes; a 64-bit length
//   with its top bit set; a continuation with no message to continue, or a new message before the
//   last one ended; a close payload of 1 byte or with a code §7.4 does not allow.
// - 1007: a text message or close reason that is not UTF-8, found on the first byte that makes
//   it invalid, even in the middle of a frame; a character cut off at the end of a message.
// - 1009: a frame, or a message reassembled from fragments, over maxMessageBytes: decided from
//   the frame header, before any of its payload is buffered. Control frames are not counted.
// Lengths need not be minimally encoded (§5.2 does not require it of a receiver).
class WebSocketFrameReader {
public:
    struct Event {
        enum Kind : quint8 {
            Text, // payload: the whole message, valid UTF-8
            Binary, // payload: the whole message
            Ping, // payload: application data (at most 125 bytes), for the pong
            Pong, // payload: application data
            Close, // code: the peer's (0 when it sent none); reason: its UTF-8 reason
            Failure, // code: the one to close with; reason: a short ASCII why
        };
        Kind kind = Failure;
        // Views: valid until the next call to next() or feed(), and while the caller's bytes are.
        QByteArrayView payload;
        quint16 code = 0;
        QByteArrayView reason;
    };

    explicit WebSocketFrameReader(qsizetype maxMessageBytes);

    // Reads from the front of `bytes` up to the end of the next event, and drops what it read
    // from `bytes` (payloads are unmasked in place). Nothing when all of `bytes` was read without
    // completing an event. After Close or Failure it reads and ignores everything.
    [[nodiscard]] std::optional<Event> next(std::span<char> &bytes);

    // next() until `bytes` is used up or `maxEvents` were appended to `events`; returns how
    // many bytes it read (all of them unless it stopped at maxEvents).
    qsizetype feed(std::span<char> bytes, std::vector<Event> &events,
        qsizetype maxEvents = std::numeric_limits<qsizetype>::max());

    // After a Close or a Failure.
    [[nodiscard]] bool isFinished() const { return m_stage == Stage::Finished; }
    // What the reader holds for unfinished frames: its memory beyond sizeof(*this).
    [[nodiscard]] qsizetype bufferedBytes() const;

private:
    enum class Stage : quint8 { Header, Payload, Finished };
    using Opcode = WebSocketProtocol::Opcode;

    // What the bytes at the front of a frame say so far.
    struct HeaderRead {
        qsizetype size = 0; // of the complete header; 0 while more bytes are needed
        quint16 failureCode = 0; // set when refused
        const char *failure = nullptr;
    };
    HeaderRead parseHeader(const uchar *header, qsizetype size);
    Event fail(quint16 code, const char *why);
    Event controlFrameRead(QByteArrayView payload);
    Event messageRead(QByteArrayView payload);

    static constexpr qsizetype MaxHeader = 14; // 2 + 8 length bytes + 4 mask bytes

    qsizetype m_maxMessageBytes;
    QByteArray m_message; // the message so far, unmasked, when it did not arrive in one piece
    QByteArray m_control; // a control frame's payload split across reads
    quint64 m_frameSize = 0; // the current frame's payload length
    quint64 m_frameRead = 0; // of which read so far
    Utf8Validator m_utf8; // over the text message so far
    Stage m_stage = Stage::Header;
    Opcode m_opcode = Opcode::Continuation; // of the current frame
    Opcode m_messageOpcode = Opcode::Continuation; // Text or Binary while a message is open
    bool m_fin = false;
    bool m_inMessage = false;
    bool m_releaseMessage = false; // the last event pointed into m_message or m_control
    bool m_releaseControl = false;
    quint8 m_headerBytes = 0;
    std::array<uchar, 4> m_mask {};
    std::array<uchar, MaxHeader> m_header {};
};

} // namespace Presence::Server
