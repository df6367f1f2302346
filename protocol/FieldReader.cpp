#include "protocol/FieldReader.h"

// C++
#include <algorithm>
#include <cmath>

// Qt
#include <QJsonArray>

// Presence
#include "protocol/Identifiers.h"

using namespace Qt::StringLiterals;

namespace Presence::Protocol {

namespace {

// What isValidId() accepts, as error messages put it.
QString idSyntax()
{
    return u"(1-%1 characters of A-Z a-z 0-9 . _ -)"_s.arg(kMaxIdLength);
}

} // namespace

FieldReader::FieldReader(const QJsonObject &object)
    : m_object(object)
{
}

FieldReader::FieldReader(const QJsonObject &object, QString messageType)
    : m_object(object)
    , m_messageType(std::move(messageType))
{
}

bool FieldReader::allowOnly(std::initializer_list<QLatin1StringView> allowed, const QString &owner)
{
    if (m_failed)
        return false;
    const QStringList keys = m_object.keys();
    for (const QString &key : keys) {
        if (std::find(allowed.begin(), allowed.end(), key) != allowed.end())
            continue;
        QStringList names;
        for (const QLatin1StringView name : allowed)
            names.append(u"'%1'"_s.arg(name));
        fail(u"unknown field '%1' (%2 takes %3)"_s.arg(key, owner, names.join(u", "_s)));
        return false;
    }
    return true;
}

bool FieldReader::has(QLatin1StringView key) const
{
    return m_object.contains(key);
}

std::optional<QJsonValue> FieldReader::value(QLatin1StringView key, Need need)
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

std::optional<QJsonValue> FieldReader::valueOfType(
    QLatin1StringView key, QJsonValue::Type type, const QString &problem, Need need)
{
    auto found = value(key, need);
    if (found && found->type() != type) {
        failField(key, problem);
        return std::nullopt;
    }
    return found;
}

QString FieldReader::string(QLatin1StringView key, Need need)
{
    const auto found = valueOfType(key, QJsonValue::String, u"must be a string"_s, need);
    return found ? found->toString() : QString();
}

QString FieldReader::string(
    QLatin1StringView key, qsizetype minLength, qsizetype maxLength, Need need)
{
    const auto found = valueOfType(key, QJsonValue::String, u"must be a string"_s, need);
    if (!found)
        return {};
    QString text = found->toString();
    if (text.size() < minLength || text.size() > maxLength) {
        failField(key, u"must be %1 to %2 characters long"_s.arg(minLength).arg(maxLength));
        return {};
    }
    return text;
}

QString FieldReader::id(QLatin1StringView key, Need need)
{
    return id(key, u"a user id", need);
}

QString FieldReader::id(QLatin1StringView key, QStringView noun, Need need)
{
    const auto found = value(key, need);
    if (!found)
        return {};
    if (!found->isString() || !isValidId(found->toString())) {
        failField(key, u"must be %1 %2"_s.arg(noun, idSyntax()));
        return {};
    }
    return found->toString();
}

std::optional<qint64> FieldReader::integer(QLatin1StringView key, qint64 min, qint64 max, Need need)
{
    const auto found = value(key, need);
    if (!found)
        return std::nullopt;
    const double number = found->toDouble(std::nan(""));
    if (!found->isDouble() || !std::isfinite(number) || std::trunc(number) != number
        || number < double(min) || number > double(max)) {
        failField(key, u"must be an integer from %1 to %2"_s.arg(min).arg(max));
        return std::nullopt;
    }
    return found->toInteger();
}

QStringList FieldReader::ids(QLatin1StringView key, Need need)
{
    const auto found = valueOfType(key, QJsonValue::Array, u"must be an array of user ids"_s, need);
    if (!found)
        return {};
    const QJsonArray items = found->toArray();
    QStringList result;
    result.reserve(items.size());
    for (qsizetype i = 0; i < items.size(); ++i) {
        const QJsonValue item = items.at(i);
        if (!item.isString() || !isValidId(item.toString())) {
            failField(key, u"item %1 is not a user id %2"_s.arg(i).arg(idSyntax()));
            return {};
        }
        result.append(item.toString());
    }
    return result;
}

std::optional<bool> FieldReader::boolean(QLatin1StringView key, Need need)
{
    const auto found = valueOfType(key, QJsonValue::Bool, u"must be true or false"_s, need);
    return found ? std::optional(found->toBool()) : std::nullopt;
}

QJsonObject FieldReader::object(QLatin1StringView key, Need need)
{
    const auto found = valueOfType(key, QJsonValue::Object, u"must be an object"_s, need);
    return found ? found->toObject() : QJsonObject();
}

QJsonArray FieldReader::array(QLatin1StringView key, Need need)
{
    const auto found = valueOfType(key, QJsonValue::Array, u"must be an array"_s, need);
    return found ? found->toArray() : QJsonArray();
}

QString FieldReader::nestedType(QLatin1StringView key) const
{
    return m_messageType.isEmpty() ? QString(key) : m_messageType + u'.' + key;
}

void FieldReader::adoptFailure(const FieldReader &item)
{
    if (item.failed())
        fail(item.error().message);
}

void FieldReader::fail(const QString &problem)
{
    if (m_failed)
        return;
    m_failed = true;
    m_problem = problem;
}

void FieldReader::failField(QLatin1StringView key, const QString &problem)
{
    fail(u"field '%1' %2"_s.arg(key, problem));
}

ProtocolError FieldReader::error() const
{
    if (m_messageType.isEmpty())
        return { ErrorCode::BadRequest, m_problem };
    return { ErrorCode::BadRequest, u"%1: %2"_s.arg(m_messageType, m_problem) };
}

} // namespace Presence::Protocol
