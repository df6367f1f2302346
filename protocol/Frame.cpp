#include "protocol/Frame.h"

// Qt
#include <QJsonDocument>
#include <QJsonParseError>

// Presence
#include "protocol/Identifiers.h"

using namespace Qt::StringLiterals;

namespace Presence::Protocol {

namespace {

ProtocolError badRequest(const QString &message, std::optional<QString> ref = {})
{
    return { ErrorCode::BadRequest, message, std::move(ref) };
}

} // namespace

Decoded<Envelope> parseFrame(const QByteArray &utf8)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(utf8, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return badRequest(
            u"frame is not valid JSON: %1 at offset %2"_s.arg(parseError.errorString())
                .arg(parseError.offset));
    if (!document.isObject())
        return badRequest(u"frame must be a JSON object"_s);

    Envelope envelope;
    envelope.body = document.object();

    const auto refIt = envelope.body.constFind("ref"_L1);
    if (refIt != envelope.body.constEnd()) {
        if (!refIt->isString() || !isValidRef(refIt->toString()))
            return badRequest(
                u"field 'ref' must be a string of at most %1 characters"_s.arg(kMaxRefLength));
        envelope.ref = refIt->toString();
    }

    const auto typeIt = envelope.body.constFind("type"_L1);
    if (typeIt == envelope.body.constEnd() || !typeIt->isString() || typeIt->toString().isEmpty())
        return badRequest(u"field 'type' must be a non-empty string"_s, envelope.ref);
    envelope.type = typeIt->toString();
    return envelope;
}

Decoded<Envelope> parseFrame(const QString &text)
{
    return parseFrame(text.toUtf8());
}

QByteArray serializeFrame(QJsonObject message, const std::optional<QString> &ref)
{
    if (ref)
        message.insert("ref"_L1, *ref);
    return QJsonDocument(message).toJson(QJsonDocument::Compact);
}

} // namespace Presence::Protocol
