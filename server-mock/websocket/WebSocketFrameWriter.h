#pragma once

// Qt
#include <QByteArray>
#include <QByteArrayView>

// Presence
#include "server-mock/websocket/WebSocketProtocol.h"

namespace Presence::Server {

// Encodes what the server sends (RFC 6455 §5.2): unmasked (§5.1: a server never masks), FIN
// set (the server never fragments), the length in its shortest form (2, 4 or 10 header bytes).
//
// The append*() functions add a frame to a buffer the caller owns (a connection's write queue).
// The ones returning a QByteArray make header and payload one contiguous, exactly sized buffer:
// a frame encoded once and shared, implicitly, by every connection that sends it.
//
// Control frames never exceed 125 bytes of payload: a longer ping or pong payload is cut, a
// close reason is cut to 123 bytes on a UTF-8 character boundary.
class WebSocketFrameWriter {
public:
    using Opcode = WebSocketProtocol::Opcode;

    [[nodiscard]] static qsizetype headerSize(qsizetype payloadSize);

    static void appendHeader(QByteArray &out, Opcode opcode, qsizetype payloadSize);
    static void appendFrame(QByteArray &out, Opcode opcode, QByteArrayView payload);
    static void appendText(QByteArray &out, QByteArrayView utf8);
    static void appendPing(QByteArray &out, QByteArrayView payload);
    static void appendPong(QByteArray &out, QByteArrayView payload);
    static void appendClose(QByteArray &out, quint16 code, QByteArrayView reason);

    [[nodiscard]] static QByteArray frame(Opcode opcode, QByteArrayView payload);
    [[nodiscard]] static QByteArray text(QByteArrayView utf8);
    [[nodiscard]] static QByteArray ping(QByteArrayView payload);
    [[nodiscard]] static QByteArray pong(QByteArrayView payload);
    // code 0 sends a close frame without a code (and so without a reason).
    [[nodiscard]] static QByteArray close(quint16 code, QByteArrayView reason);

    // `reason` cut to what a close frame carries, never inside a UTF-8 character.
    [[nodiscard]] static QByteArrayView closeReason(QByteArrayView reason);
};

} // namespace Presence::Server
