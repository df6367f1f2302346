#pragma once

// C++
#include <initializer_list>
#include <optional>

// Qt
#include <QJsonObject>
#include <QStringList>

// Presence
#include "protocol/ErrorCode.h"

namespace Presence::Protocol {

enum class Need { Required, Optional };

// Reads typed fields out of a JSON object and remembers the first problem as a sentence
// naming the field ("field 'x' must be a string"). Readers return an empty value once anything
// failed, so callers read every field and check failed() once.
// Made with a message type, error() is a bad_request "TYPE: problem"; made without one (an
// object a person wrote, say), problem() is the whole message.
class FieldReader {
public:
    explicit FieldReader(const QJsonObject &object);
    FieldReader(const QJsonObject &object, QString messageType);

    // Fails on the first field not in allowed, for objects where a misspelt optional field must
    // not silently do nothing; owner says what takes the fields ("a close fault").
    bool allowOnly(std::initializer_list<QLatin1StringView> allowed, const QString &owner);

    [[nodiscard]] bool has(QLatin1StringView key) const;
    // The value of key as it is, or nullopt (after recording "is missing" when it is required).
    [[nodiscard]] std::optional<QJsonValue> value(QLatin1StringView key, Need need);
    [[nodiscard]] QString string(QLatin1StringView key, Need need);
    [[nodiscard]] QString string(
        QLatin1StringView key, qsizetype minLength, qsizetype maxLength, Need need);
    // A user id.
    [[nodiscard]] QString id(QLatin1StringView key, Need need);
    // An id with the syntax of user ids; noun names what it identifies ("a device id").
    [[nodiscard]] QString id(QLatin1StringView key, QStringView noun, Need need);
    [[nodiscard]] std::optional<qint64> integer(
        QLatin1StringView key, qint64 min, qint64 max, Need need);
    // An array of user ids; duplicates are kept (callers decide what they mean).
    [[nodiscard]] QStringList ids(QLatin1StringView key, Need need);
    [[nodiscard]] QJsonObject object(QLatin1StringView key, Need need);
    [[nodiscard]] QJsonArray array(QLatin1StringView key, Need need);

    void fail(const QString &problem);
    // Fails with "field 'key' problem".
    void failField(QLatin1StringView key, const QString &problem);
    [[nodiscard]] bool failed() const { return m_failed; }
    // The first problem, without the message type.
    [[nodiscard]] QString problem() const { return m_problem; }
    [[nodiscard]] ProtocolError error() const;

private:
    // value(), failing with "field 'key' problem" when it is not of type.
    std::optional<QJsonValue> valueOfType(
        QLatin1StringView key, QJsonValue::Type type, const QString &problem, Need need);

    QJsonObject m_object;
    QString m_messageType;
    QString m_problem;
    bool m_failed = false;
};

} // namespace Presence::Protocol
