// The protocol's decoder of client frames (parseFrame, decodeClientMessage): a text message's
// payload as a client may send it. Properties: a frame either decodes or is refused with an
// error code and message; what decodes encodes back (toJson) to a frame that decodes to the
// same message.

// C++
#include <cstddef>
#include <cstdint>

// Qt
#include <QByteArray>
#include <QJsonDocument>

// Presence
#include "FuzzCheck.h"
#include "protocol/ClientMessages.h"
#include "protocol/Frame.h"

namespace Protocol = Presence::Protocol;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray payload(reinterpret_cast<const char *>(data), qsizetype(size));
    const Protocol::Decoded<Protocol::Envelope> envelope = Protocol::parseFrame(payload);
    if (!envelope.ok()) {
        fuzzCheck(!envelope.error().message.isEmpty(), "a refused frame says why");
        return 0;
    }
    const Protocol::Decoded<Protocol::ClientMessage> message
        = Protocol::decodeClientMessage(envelope.value());
    if (!message.ok()) {
        fuzzCheck(!message.error().message.isEmpty(), "a refused message says why");
        fuzzCheck(message.error().ref == envelope.value().ref, "an error names the frame's ref");
        return 0;
    }
    const QJsonObject encoded = Protocol::toJson(message.value());
    const Protocol::Decoded<Protocol::ClientMessage> again
        = Protocol::decodeClientFrame(QJsonDocument(encoded).toJson(QJsonDocument::Compact));
    fuzzCheck(again.ok(), "what decodes encodes to a frame that decodes");
    fuzzCheck(Protocol::toJson(again.value()) == encoded, "and to the same message");
    return 0;
}
