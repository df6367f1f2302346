// WebSocketFrameReader: the bytes a client sends after the upgrade, cut into reads where the
// input says. Two forms of input, chosen by the first byte: raw bytes, and frames described
// field by field (structure-aware: lengths and masks come out consistent, so the fuzzer spends
// its time on fragmentation, control frames between fragments and UTF-8 across fragments rather
// than on guessing length fields). Properties: the events are the same however the bytes are
// cut; text is valid UTF-8; no message passes the limit; a control frame's payload fits in 125
// bytes; a close reason is UTF-8; nothing follows a Close or a Failure.

// C++
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

// Qt
#include <QByteArray>
#include <QUtf8StringView>

// Presence
#include "FuzzCheck.h"
#include "server-mock/websocket/WebSocketFrameReader.h"

using Presence::Server::WebSocketFrameReader;

namespace {

// Small, so that inputs reach it; the reader's rules do not depend on its size.
constexpr qsizetype kMaxMessageBytes = 1024;

struct OwnedEvent {
    WebSocketFrameReader::Event::Kind kind;
    QByteArray payload;
    quint16 code;
    QByteArray reason;
    friend bool operator==(const OwnedEvent &, const OwnedEvent &) = default;
};

// Reads `bytes` cut after every `cut` bytes (the last piece shorter); the reader keeps what an
// unfinished frame needs, so each read gets only the new bytes.
std::vector<OwnedEvent> readAll(QByteArray bytes, qsizetype cut)
{
    WebSocketFrameReader reader(kMaxMessageBytes);
    std::vector<OwnedEvent> events;
    for (qsizetype at = 0; at < bytes.size(); at += cut) {
        std::span<char> piece(bytes.data() + at, std::min(cut, bytes.size() - at));
        while (const std::optional<WebSocketFrameReader::Event> event = reader.next(piece)) {
            events.push_back({ event->kind, event->payload.toByteArray(), event->code,
                event->reason.toByteArray() });
        }
        fuzzCheck(piece.empty(), "next() stops only when the bytes are used up");
    }
    return events;
}

// Frames from field descriptions: per frame a flags byte (FIN, RSV1-3, opcode), a byte whose
// low bits pick the length form (7-bit, 16-bit or 64-bit, even for short payloads) and whether
// it is masked, a payload length byte, a mask key byte and the payload.
QByteArray framesFrom(std::span<const uint8_t> spec)
{
    QByteArray out;
    size_t at = 0;
    while (at + 4 <= spec.size()) {
        const uint8_t flags = spec[at];
        const uint8_t form = spec[at + 1];
        const size_t wanted = spec[at + 2];
        const uint8_t key = spec[at + 3];
        at += 4;
        const size_t length = std::min(wanted, spec.size() - at);
        out.append(char(flags));
        const bool masked = (form & 0x4) == 0; // mostly masked, as clients must
        const char maskBit = masked ? char(0x80) : char(0);
        switch (form & 0x3) {
        case 0:
        case 1:
            if (length < 126) {
                out.append(char(maskBit | char(length)));
                break;
            }
            [[fallthrough]];
        case 2:
            out.append(char(maskBit | 126));
            out.append(char(length >> 8));
            out.append(char(length & 0xff));
            break;
        default:
            out.append(char(maskBit | 127));
            for (int shift = 56; shift >= 0; shift -= 8)
                out.append(char((uint64_t(length) >> shift) & 0xff));
        }
        const char mask[4] = { char(key), char(key * 3 + 1), char(key ^ 0x5a), char(key + 7) };
        if (masked)
            out.append(mask, 4);
        for (size_t i = 0; i < length; ++i)
            out.append(char(spec[at + i] ^ (masked ? uint8_t(mask[i % 4]) : 0)));
        at += length;
    }
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const bool structured = (data[0] & 1) != 0;
    const qsizetype cut = 1 + data[1] % 23;
    const std::span<const uint8_t> rest(data + 2, size - 2);
    const QByteArray bytes = structured
        ? framesFrom(rest)
        : QByteArray(reinterpret_cast<const char *>(rest.data()), qsizetype(rest.size()));

    const std::vector<OwnedEvent> whole = readAll(bytes, std::max<qsizetype>(1, bytes.size()));
    const std::vector<OwnedEvent> pieces = readAll(bytes, cut);
    fuzzCheck(whole == pieces, "the same events however the bytes are cut");

    for (size_t i = 0; i < whole.size(); ++i) {
        const OwnedEvent &event = whole[i];
        using Kind = WebSocketFrameReader::Event::Kind;
        fuzzCheck(event.payload.size() <= kMaxMessageBytes, "no message over the limit");
        if (event.kind == Kind::Text)
            fuzzCheck(QUtf8StringView(event.payload).isValidUtf8(), "text is valid UTF-8");
        if (event.kind == Kind::Ping || event.kind == Kind::Pong)
            fuzzCheck(event.payload.size() <= 125, "control payloads fit in 125 bytes");
        if (event.kind == Kind::Close) {
            fuzzCheck(QUtf8StringView(event.reason).isValidUtf8() && event.reason.size() <= 123,
                "a close reason is UTF-8 and fits in a close frame");
        }
        if (event.kind == Kind::Close || event.kind == Kind::Failure)
            fuzzCheck(i + 1 == whole.size(), "nothing after a Close or a Failure");
        if (event.kind == Kind::Failure)
            fuzzCheck(event.code == 1002 || event.code == 1007 || event.code == 1009,
                "a failure closes with 1002, 1007 or 1009");
    }
    return 0;
}
