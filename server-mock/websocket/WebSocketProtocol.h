#pragma once

// Qt
#include <QtGlobal>

namespace Presence::Server {

// The numbers of RFC 6455 the reader, the writer and the transport share.
struct WebSocketProtocol {
    // §5.2; 3-7 and 0xB-0xF are reserved and refused.
    enum class Opcode : quint8 {
        Continuation = 0x0,
        Text = 0x1,
        Binary = 0x2,
        Close = 0x8,
        Ping = 0x9,
        Pong = 0xA,
    };

    // §7.4.1 and the IANA registry.
    static constexpr quint16 NormalClosure = 1000;
    static constexpr quint16 GoingAway = 1001;
    static constexpr quint16 ProtocolError = 1002;
    static constexpr quint16 UnsupportedData = 1003;
    static constexpr quint16 NoStatusReceived = 1005; // never on the wire: a close without a code
    static constexpr quint16 InvalidPayload = 1007; // text or close reason that is not UTF-8
    static constexpr quint16 PolicyViolation = 1008;
    static constexpr quint16 MessageTooBig = 1009;
    static constexpr quint16 InternalError = 1011;

    // §5.5: control frames carry at most 125 bytes and are never fragmented.
    static constexpr qsizetype MaxControlPayload = 125;
    // A close payload is a 2-byte code and the reason.
    static constexpr qsizetype MaxCloseReason = MaxControlPayload - 2;

    [[nodiscard]] static constexpr bool isControl(Opcode opcode) { return quint8(opcode) & 0x8; }

    // §7.4: whether a peer may send this code in a close frame. 1004-1006 and 1015 are reserved
    // (1005 and 1006 are only reported locally); 1012-1014 are registered since RFC 6455;
    // 3000-4999 belong to libraries and applications.
    [[nodiscard]] static constexpr bool isValidCloseCode(quint16 code)
    {
        return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014)
            || (code >= 3000 && code <= 4999);
    }
};

} // namespace Presence::Server
