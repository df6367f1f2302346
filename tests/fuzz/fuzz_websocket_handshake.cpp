// WebSocketHandshake: the upgrade request a client sends, as raw bytes. Properties: an
// accepted upgrade answers 101 with the key's accept value; a refusal carries an HTTP error
// status and a response to write; a verdict is never reached before the request head ends, and
// a head cut short is still incomplete (or already refused), never accepted.

// C++
#include <cstddef>
#include <cstdint>

// Qt
#include <QByteArray>

// Presence
#include "FuzzCheck.h"
#include "server-mock/websocket/WebSocketHandshake.h"

using Presence::Server::WebSocketHandshake;

namespace {
constexpr qsizetype kMaxHeadBytes = 4096;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const WebSocketHandshake read = WebSocketHandshake::read(bytes, kMaxHeadBytes);
    switch (read.verdict) {
    case WebSocketHandshake::Verdict::Incomplete:
        fuzzCheck(read.response.isEmpty(), "nothing to write while incomplete");
        fuzzCheck(bytes.size() <= kMaxHeadBytes, "incomplete only within the head limit");
        break;
    case WebSocketHandshake::Verdict::Accepted:
        fuzzCheck(read.status == 101, "accepted is 101");
        fuzzCheck(read.headSize > 0 && read.headSize <= bytes.size(), "the head is in the bytes");
        fuzzCheck(read.response.startsWith("HTTP/1.1 101 "), "the response says 101");
        fuzzCheck(read.response.contains("\r\nSec-WebSocket-Accept: "),
            "the response has the accept key");
        fuzzCheck(read.response.endsWith("\r\n\r\n"), "the response head ends");
        {
            // Cut one byte short of its head, the same request is not accepted yet.
            const WebSocketHandshake shorter
                = WebSocketHandshake::read(bytes.first(read.headSize - 1), kMaxHeadBytes);
            fuzzCheck(shorter.verdict != WebSocketHandshake::Verdict::Accepted,
                "not accepted before the head ends");
        }
        break;
    case WebSocketHandshake::Verdict::Refused:
        fuzzCheck(read.status >= 400 && read.status <= 599, "a refusal is an HTTP error");
        fuzzCheck(read.response.startsWith("HTTP/1.1 "), "a refusal has a response");
        fuzzCheck(!read.problem.isEmpty(), "a refusal says why");
        break;
    }
    return 0;
}
