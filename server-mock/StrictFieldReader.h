#pragma once

#include "protocol/FieldReader.h"

#include <QJsonObject>
#include <QString>
#include <initializer_list>
#include <optional>

namespace Presence::Gateway {

// Reads typed fields of one JSON object written by a person (a scenario step, a fault) and
// remembers the first problem as a sentence naming the field. Unlike the protocol's reader it
// refuses fields it was not told about: a misspelt optional field must not silently do nothing.
// Readers return an empty value once anything failed, so callers check failed() once.
class StrictFieldReader {
public:
    explicit StrictFieldReader(const QJsonObject &object);

    // Fails on the first field not in allowed; owner says what takes them ("a close fault").
    bool allowOnly(std::initializer_list<QLatin1StringView> allowed, const QString &owner);

    [[nodiscard]] std::optional<QJsonValue> value(QLatin1StringView key, Protocol::Need need);
    [[nodiscard]] QString string(QLatin1StringView key, Protocol::Need need);
    // An id as the protocol defines user ids; noun names what it identifies ("a device id").
    [[nodiscard]] QString id(QLatin1StringView key, QStringView noun, Protocol::Need need);
    [[nodiscard]] std::optional<qint64> integer(
        QLatin1StringView key, qint64 min, qint64 max, Protocol::Need need);
    [[nodiscard]] QJsonObject object(QLatin1StringView key, Protocol::Need need);

    void fail(const QString &problem);
    void failField(QLatin1StringView key, const QString &problem);
    [[nodiscard]] bool failed() const { return m_failed; }
    [[nodiscard]] QString problem() const { return m_problem; }

private:
    QJsonObject m_object;
    QString m_problem;
    bool m_failed = false;
};

} // namespace Presence::Gateway
