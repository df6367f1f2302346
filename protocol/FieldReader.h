#pragma once

// C++
#include <initializer_list>
#include <optional>
#include <type_traits>

// Qt
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QStringList>

// Presence
#include "protocol/Decoded.h"
#include "protocol/ErrorCode.h"
#include "protocol/NameTable.h"

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
    [[nodiscard]] std::optional<bool> boolean(QLatin1StringView key, Need need);
    // One of the names in names, as its enum value.
    template <typename Enum, std::size_t N>
    [[nodiscard]] std::optional<Enum> name(
        QLatin1StringView key, const NameTable<Enum, N> &names, Need need);
    [[nodiscard]] QJsonObject object(QLatin1StringView key, Need need);
    [[nodiscard]] QJsonArray array(QLatin1StringView key, Need need);

    // The object at key, read by read(FieldReader &) with a reader of its own whose errors
    // name it "TYPE.key"; its first problem fails this reader. Absent when optional, it is read
    // as an empty object is not: read is not called, and a default value returns.
    template <typename Read>
    [[nodiscard]] auto nested(QLatin1StringView key, Need need, Read &&read)
        -> std::invoke_result_t<Read &, FieldReader &>;
    // The array of objects at key, each read as nested() reads one.
    template <typename Read>
    [[nodiscard]] auto objects(QLatin1StringView key, Need need, Read &&read)
        -> QList<std::invoke_result_t<Read &, FieldReader &>>;

    void fail(const QString &problem);
    // Fails with "field 'key' problem".
    void failField(QLatin1StringView key, const QString &problem);
    [[nodiscard]] bool failed() const { return m_failed; }
    // The first problem, without the message type.
    [[nodiscard]] QString problem() const { return m_problem; }
    [[nodiscard]] ProtocolError error() const;
    // What was read, once every field was read, or the first problem.
    template <typename T> [[nodiscard]] Decoded<T> decoded(T value) const
    {
        if (m_failed)
            return error();
        return value;
    }

private:
    // What a nested object's reader is made with: "TYPE.key", or "key" at the top.
    [[nodiscard]] QString nestedType(QLatin1StringView key) const;
    // Fails this reader with item's first problem, if it had one.
    void adoptFailure(const FieldReader &item);
    // value(), failing with "field 'key' problem" when it is not of type.
    std::optional<QJsonValue> valueOfType(
        QLatin1StringView key, QJsonValue::Type type, const QString &problem, Need need);

    QJsonObject m_object;
    QString m_messageType;
    QString m_problem;
    bool m_failed = false;
};

template <typename Enum, std::size_t N>
std::optional<Enum> FieldReader::name(
    QLatin1StringView key, const NameTable<Enum, N> &names, Need need)
{
    const auto found = value(key, need);
    if (!found)
        return std::nullopt;
    std::optional<Enum> named = found->isString() ? names.value(found->toString()) : std::nullopt;
    if (!named)
        failField(key, QStringLiteral("must be ") + names.alternatives());
    return named;
}

template <typename Read>
auto FieldReader::nested(QLatin1StringView key, Need need, Read &&read)
    -> std::invoke_result_t<Read &, FieldReader &>
{
    const bool present = has(key);
    const QJsonObject object = this->object(key, need);
    if (m_failed || !present)
        return {};
    FieldReader in(object, nestedType(key));
    auto result = read(in);
    adoptFailure(in);
    return result;
}

template <typename Read>
auto FieldReader::objects(QLatin1StringView key, Need need, Read &&read)
    -> QList<std::invoke_result_t<Read &, FieldReader &>>
{
    QList<std::invoke_result_t<Read &, FieldReader &>> result;
    const QJsonArray items = array(key, need);
    result.reserve(items.size());
    const QString itemType = nestedType(key);
    for (const QJsonValue &item : items) {
        if (!item.isObject()) {
            failField(key, QStringLiteral("must hold objects"));
            return {};
        }
        FieldReader in(item.toObject(), itemType);
        result.append(read(in));
        adoptFailure(in);
        if (m_failed)
            return {};
    }
    return result;
}

} // namespace Presence::Protocol
