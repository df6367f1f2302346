#include "server-mock/StrictFieldReader.h"

#include "protocol/Identifiers.h"

#include <QStringList>
#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;
using Presence::Protocol::Need;

namespace Presence::Gateway {

StrictFieldReader::StrictFieldReader(const QJsonObject &object)
    : m_object(object)
{
}

bool StrictFieldReader::allowOnly(
    std::initializer_list<QLatin1StringView> allowed, const QString &owner)
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

std::optional<QJsonValue> StrictFieldReader::value(QLatin1StringView key, Need need)
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

QString StrictFieldReader::string(QLatin1StringView key, Need need)
{
    const auto found = value(key, need);
    if (!found)
        return {};
    if (!found->isString()) {
        failField(key, u"must be a string"_s);
        return {};
    }
    return found->toString();
}

QString StrictFieldReader::id(QLatin1StringView key, QStringView noun, Need need)
{
    const auto found = value(key, need);
    if (!found)
        return {};
    if (!found->isString() || !Protocol::isValidId(found->toString())) {
        failField(key,
            u"must be %1 (1-%2 characters of A-Z a-z 0-9 . _ -)"_s.arg(noun).arg(
                Protocol::kMaxIdLength));
        return {};
    }
    return found->toString();
}

std::optional<qint64> StrictFieldReader::integer(
    QLatin1StringView key, qint64 min, qint64 max, Need need)
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
    return qint64(number);
}

QJsonObject StrictFieldReader::object(QLatin1StringView key, Need need)
{
    const auto found = value(key, need);
    if (!found)
        return {};
    if (!found->isObject()) {
        failField(key, u"must be an object"_s);
        return {};
    }
    return found->toObject();
}

void StrictFieldReader::fail(const QString &problem)
{
    if (m_failed)
        return;
    m_failed = true;
    m_problem = problem;
}

void StrictFieldReader::failField(QLatin1StringView key, const QString &problem)
{
    fail(u"field '%1' %2"_s.arg(key, problem));
}

} // namespace Presence::Gateway
