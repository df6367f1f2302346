#pragma once

// Qt
#include <QByteArray>
#include <QByteArrayView>
#include <QString>

namespace Presence::Server {

// The opening handshake of RFC 6455 §4.2, server side: judges the HTTP/1.1 upgrade request in
// the bytes buffered so far (read by HttpRequestHead, as the admin API's requests are) and says
// what to answer. Pure over bytes.
//
// Accepted: GET, HTTP/1.1, a Host, "Upgrade: websocket" and an "upgrade" token in Connection
// (both case-insensitive, in comma lists, over repeated fields), "Sec-WebSocket-Version: 13",
// one Sec-WebSocket-Key that is base64 of 16 bytes. The answer is the 101 with
// Sec-WebSocket-Accept; the bytes after the head (headSize) are the client's first frames.
// No subprotocol or extension is ever selected.
//
// Refused, with the full HTTP response to write before closing:
// - 426 Upgrade Required (with "Upgrade: websocket"): no websocket in Upgrade, i.e. a plain
//   HTTP request on the WebSocket port;
// - 426 with "Sec-WebSocket-Version: 13": another or no version;
// - 431 Request Header Fields Too Large: more than maxHeadBytes before the blank line;
// - 400 Bad Request: anything else malformed or missing (HttpRequestHead's syntax: a control
//   character, a header line without a colon or folded, a request line not of three parts).
// The Origin check (403) and the connection cap (503) are the caller's: it has origin, and
// refusal() writes those answers too.
struct WebSocketHandshake {
    enum class Verdict { Incomplete, Accepted, Refused };

    Verdict verdict = Verdict::Incomplete;
    int status = 0; // 101 when accepted, else the HTTP status of the refusal
    QByteArray response; // what to write (Accepted, Refused)
    QString problem; // why it was refused, for the log
    qsizetype headSize = 0; // bytes of the request head, blank line included
    QByteArray path; // the request-target, as sent
    QString origin; // the Origin header; empty when none was sent (a native client)

    [[nodiscard]] static WebSocketHandshake read(QByteArrayView buffered, qsizetype maxHeadBytes);

    // base64(SHA-1(key + the RFC's GUID)) (§4.2.2).
    [[nodiscard]] static QByteArray acceptKey(QByteArrayView key);
    // A complete HTTP/1.1 error response that closes the connection: the status line,
    // `extraHeaders` (each ending in CRLF), and `body` as text/plain.
    [[nodiscard]] static QByteArray refusal(
        int status, QByteArrayView body, QByteArrayView extraHeaders = {});
};

} // namespace Presence::Server
