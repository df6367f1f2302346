#include "protocol/FieldReader.h"

#include "protocol/Identifiers.h"

#include <QJsonArray>
#include <cmath>

using namespace Qt::StringLiterals;

namespace Presence::Protocol {

FieldReader::FieldReader(const QJsonObject &object, QString messageType)
    : m_object(object)
    , m_messageType(std::move(messageType))
{
}

bool FieldReader::has(QLatin1StringView key) const
{
    return m_object.contains(key);
}

std::optional<QJsonValue> FieldReader::lookup(QLatin1StringView key, Need need)
{
    if (m_failed)
        return std::nullopt;
    const auto it = m_object.constFind(key);
    if (it == m_object.constEnd()) {
        if (need == Need::Required)
            failField(key, u"is missing"_s);
        return std::nullopt;
    }
    return it.value();
}

QString FieldReader::string(
    QLatin1StringView key, qsizetype minLength, qsizetype maxLength, Need need)
{
    const auto value = lookup(key, need);
    if (!value)
        return {};
    if (!value->isString()) {
        failField(key, u"must be a string"_s);
        return {};
    }
    QString text = value->toString();
    if (text.size() < minLength || text.size() > maxLength) {
        failField(key, u"must be %1 to %2 characters long"_s.arg(minLength).arg(maxLength));
        return {};
    }
    return text;
}

QString FieldReader::id(QLatin1StringView key, Need need)
{
    const auto value = lookup(key, need);
    if (!value)
        return {};
    if (!value->isString() || !isValidId(value->toString())) {
        failField(key, u"must be a user id (1-64 characters of A-Z a-z 0-9 . _ -)"_s);
        return {};
    }
    return value->toString();
}

std::optional<qint64> FieldReader::integer(QLatin1StringView key, qint64 min, qint64 max, Need need)
{
    const auto value = lookup(key, need);
    if (!value)
        return std::nullopt;
    const double number = value->toDouble(std::nan(""));
    if (!value->isDouble() || !std::isfinite(number) || std::trunc(number) != number
        || number < double(min) || number > double(max)) {
        failField(key, u"must be an integer from %1 to %2"_s.arg(min).arg(max));
        return std::nullopt;
    }
    return value->toInteger();
}

QStringList FieldReader::ids(QLatin1StringView key, Need need)
{
    const auto value = lookup(key, need);
    if (!value)
        return {};
    if (!value->isArray()) {
        failField(key, u"must be an array of user ids"_s);
        return {};
    }
    const QJsonArray array = value->toArray();
    QStringList result;
    result.reserve(array.size());
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QJsonValue item = array.at(i);
        if (!item.isString() || !isValidId(item.toString())) {
            failField(
                key, u"item %1 is not a user id (1-64 characters of A-Z a-z 0-9 . _ -)"_s.arg(i));
            return {};
        }
        result.append(item.toString());
    }
    return result;
}

QJsonObject FieldReader::object(QLatin1StringView key, Need need)
{
    const auto value = lookup(key, need);
    if (!value)
        return {};
    if (!value->isObject()) {
        failField(key, u"must be an object"_s);
        return {};
    }
    return value->toObject();
}

QJsonArray FieldReader::array(QLatin1StringView key, Need need)
{
    const auto value = lookup(key, need);
    if (!value)
        return {};
    if (!value->isArray()) {
        failField(key, u"must be an array"_s);
        return {};
    }
    return value->toArray();
}

void FieldReader::fail(const QString &message)
{
    if (m_failed)
        return;
    m_failed = true;
    m_problem = message;
}

void FieldReader::failField(QLatin1StringView key, const QString &problem)
{
    fail(u"field '%1' %2"_s.arg(key, problem));
}

ProtocolError FieldReader::error() const
{
    return { ErrorCode::BadRequest, u"%1: %2"_s.arg(m_messageType, m_problem) };
}

} // namespace Presence::Protocol
