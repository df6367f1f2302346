#pragma once

// C++
#include <optional>

// Qt
#include <QByteArray>
#include <QJsonObject>
#include <QString>

// Presence
#include "protocol/Decoded.h"

namespace Presence::Protocol {

// One frame of the wire protocol: a JSON object with a string `type` and an optional `ref`.
struct Envelope {
    QString type;
    std::optional<QString> ref;
    QJsonObject body; // the whole object, type and ref included
};

// Parses the payload of a text frame. Errors are bad_request and carry the ref when it was valid.
[[nodiscard]] Decoded<Envelope> parseFrame(const QByteArray &utf8);
[[nodiscard]] Decoded<Envelope> parseFrame(const QString &text);

// Serialises a message (which already holds its `type`) as compact JSON, adding `ref` when given.
[[nodiscard]] QByteArray serializeFrame(
    QJsonObject message, const std::optional<QString> &ref = {});

} // namespace Presence::Protocol
