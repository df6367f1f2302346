#pragma once

#include "protocol/ErrorCode.h"

#include <QJsonObject>
#include <QStringList>
#include <optional>

namespace Presence::Protocol {

enum class Need { Required, Optional };

// Reads typed fields out of a JSON object and remembers the first problem as a
// bad_request error naming the message and the field. Readers return an empty
// value once anything failed, so decoders read every field and check failed() once.
class FieldReader {
public:
    FieldReader(const QJsonObject &object, QString messageType);

    [[nodiscard]] bool has(QLatin1StringView key) const;
    [[nodiscard]] QString string(
        QLatin1StringView key, qsizetype minLength, qsizetype maxLength, Need need);
    [[nodiscard]] QString id(QLatin1StringView key, Need need);
    [[nodiscard]] std::optional<qint64> integer(
        QLatin1StringView key, qint64 min, qint64 max, Need need);
    // An array of user ids; duplicates are kept (callers decide what they mean).
    [[nodiscard]] QStringList ids(QLatin1StringView key, Need need);
    [[nodiscard]] QJsonObject object(QLatin1StringView key, Need need);
    [[nodiscard]] QJsonArray array(QLatin1StringView key, Need need);

    void fail(const QString &message);
    [[nodiscard]] bool failed() const { return m_failed; }
    [[nodiscard]] ProtocolError error() const;

private:
    // The value of key, or nullopt after recording "missing" when it is required.
    std::optional<QJsonValue> lookup(QLatin1StringView key, Need need);
    void failField(QLatin1StringView key, const QString &problem);

    QJsonObject m_object;
    QString m_messageType;
    QString m_problem;
    bool m_failed = false;
};

} // namespace Presence::Protocol
