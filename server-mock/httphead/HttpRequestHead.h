#pragma once

// Qt
#include <QByteArrayView>
#include <QList>
#include <QString>

namespace Presence::Server {

// An HTTP/1.x request head (RFC 9112 §2-3, §5), read from the bytes buffered so far: the
// syntax only, what each server makes of the fields is its own (HttpRequestGate for the admin
// API, WebSocketHandshake for the upgrade). Pure over bytes. Stricter than Qt's own parser,
// which guesses: a control character, a header line without a colon and obsolete line
// folding make it malformed. The version is not judged: "HTTP/1.0" is fine for the admin API
// and a reason for 426 on the WebSocket port.
//
// The views point into the bytes read: they live as long as those do.
struct HttpRequestHead {
    // How large a head may grow: past either bound it is TooLarge (each server answers 431).
    struct Limits {
        qsizetype maxHeadBytes = 0; // request line and header fields, blank line included
        int maxHeaderFields = 0;
    };

    // One header field as sent: its name in the client's case, its value without the
    // optional whitespace around it (RFC 9110 §5.5, §5.6.3).
    struct Field {
        QByteArrayView name;
        QByteArrayView value;
    };

    enum class Verdict {
        Incomplete, // no blank line yet, and still within the limits
        Complete,
        TooLarge, // over maxHeadBytes or maxHeaderFields
        Malformed,
    };

    Verdict verdict = Verdict::Incomplete;
    QString problem; // what is wrong, for the error message (TooLarge, Malformed)
    qsizetype size = 0; // bytes of the head, blank line included (Complete)
    // The request line and the fields, as far as they were read: whole while Incomplete, and
    // up to the line at fault when refused, so a reader may judge them as they arrive.
    bool hasRequestLine = false;
    QByteArrayView method;
    QByteArrayView target;
    QByteArrayView version;
    QList<Field> fields;

    [[nodiscard]] static HttpRequestHead read(QByteArrayView buffered, const Limits &limits);
    // Whether a field value that is a comma-separated list (RFC 9110 §5.6.1) holds token,
    // case-insensitively, as "Connection: keep-alive, Upgrade" holds "upgrade".
    [[nodiscard]] static bool listHas(QByteArrayView value, QByteArrayView token);
};

} // namespace Presence::Server
