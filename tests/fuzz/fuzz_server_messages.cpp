// The protocol's decoder of gateway frames (parseFrame, decodeServerMessage): what the client
// reads from any gateway a user points it at. Properties: a frame either decodes or is refused
// with an error code and message; what decodes encodes back (toJson) to a frame that decodes
// to the same message; and the frames a gateway writes without a QJsonObject (snapshot,
// friends, presence_batch) are byte for byte those of toJson.

// C++
#include <cstddef>
#include <cstdint>
#include <variant>

// Qt
#include <QByteArray>
#include <QJsonDocument>

// Presence
#include "FuzzCheck.h"
#include "protocol/Frame.h"
#include "protocol/ServerMessages.h"

namespace Protocol = Presence::Protocol;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray payload(reinterpret_cast<const char *>(data), qsizetype(size));
    const Protocol::Decoded<Protocol::Envelope> envelope = Protocol::parseFrame(payload);
    if (!envelope.ok()) {
        fuzzCheck(!envelope.error().message.isEmpty(), "a refused frame says why");
        return 0;
    }
    const Protocol::Decoded<Protocol::ServerMessage> message
        = Protocol::decodeServerMessage(envelope.value());
    if (!message.ok()) {
        fuzzCheck(!message.error().message.isEmpty(), "a refused message says why");
        return 0;
    }
    const QJsonObject encoded = Protocol::toJson(message.value());
    const Protocol::Decoded<Protocol::ServerMessage> again
        = Protocol::decodeServerFrame(QJsonDocument(encoded).toJson(QJsonDocument::Compact));
    fuzzCheck(again.ok(), "what decodes encodes to a frame that decodes");
    fuzzCheck(Protocol::toJson(again.value()) == encoded, "and to the same message");

    const auto sameBytes = [&encoded](const QByteArray &written) {
        fuzzCheck(written == Protocol::serializeFrame(encoded),
            "a frame written directly is the one toJson gives");
    };
    if (const auto *snapshot = std::get_if<Protocol::Snapshot>(&message.value()))
        sameBytes(Protocol::serializeFrame(*snapshot));
    else if (const auto *page = std::get_if<Protocol::FriendsPage>(&message.value()))
        sameBytes(Protocol::serializeFrame(*page));
    else if (const auto *batch = std::get_if<Protocol::PresenceBatch>(&message.value()))
        sameBytes(Protocol::serializeFrame(*batch));
    return 0;
}
