#pragma once

// Qt
#include <QByteArrayView>
#include <QString>

// Presence
#include "server-mock/http/HttpLimits.h"

namespace Presence::Server {

// What HttpRequestGate needs to know of an HTTP/1.x request head (RFC 9112 §2-3, §6), read
// from the bytes buffered so far. Stricter than Qt's own parser, which guesses: a header line
// without a colon, obsolete line folding or two different Content-Lengths make it malformed.
struct HttpRequestHead {
    enum class Verdict {
        Incomplete, // no blank line yet, and still within the limits
        Complete,
        TooLarge, // over maxHeadBytes or maxHeaderFields
        Malformed,
        ChunkedBody, // a Transfer-Encoding: only bodies with a Content-Length are read
    };

    Verdict verdict = Verdict::Incomplete;
    QString problem; // what is wrong, for the error message (TooLarge, Malformed)
    qsizetype size = 0; // bytes of the head, blank line included (Complete)
    qint64 contentLength = 0;
    bool expectsContinue = false; // Expect: 100-continue

    [[nodiscard]] static HttpRequestHead read(QByteArrayView buffered, const HttpLimits &limits);
};

} // namespace Presence::Server
