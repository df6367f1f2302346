#include "server-mock/redis/client/RedisReply.h"

// System
#include <hiredis/hiredis.h>

namespace Presence::Server {

namespace {

struct Converter {
    const RedisReply::Limits &limits;
    qsizetype elementBudget;
    // Set when the reply breaks a limit: one refused element refuses the whole reply, since
    // half an answer is not one.
    QByteArray refusal;

    // Recursion is bounded by limits.maxDepth, checked before descending.
    RedisReply convert(const redisReply *reply, int depth)
    {
        RedisReply out;
        switch (reply->type) {
        case REDIS_REPLY_NIL:
            return out;
        case REDIS_REPLY_STATUS:
            out.type = RedisReply::Type::Status;
            out.bytes = QByteArray(reply->str, qsizetype(reply->len));
            return out;
        case REDIS_REPLY_ERROR:
            out.type = RedisReply::Type::Error;
            out.bytes = QByteArray(reply->str, qsizetype(reply->len));
            return out;
        case REDIS_REPLY_STRING:
            out.type = RedisReply::Type::String;
            out.bytes = QByteArray(reply->str, qsizetype(reply->len));
            return out;
        case REDIS_REPLY_INTEGER:
            out.type = RedisReply::Type::Integer;
            out.integer = reply->integer;
            return out;
        case REDIS_REPLY_ARRAY:
            break;
        default:
            // hiredis 0.14 knows no other type; a newer one speaking RESP3 might.
            return RedisReply::error(
                QByteArrayLiteral("unsupported reply type ") + QByteArray::number(reply->type));
        }

        if (reply->elements > 0 && depth >= limits.maxDepth) {
            refusal = RedisReply::kTooDeep;
            return out;
        }
        if (reply->elements > size_t(elementBudget)) {
            refusal = RedisReply::kTooLarge;
            return out;
        }
        elementBudget -= qsizetype(reply->elements);

        out.type = RedisReply::Type::Array;
        out.elements.reserve(qsizetype(reply->elements));
        for (size_t i = 0; i < reply->elements; ++i) {
            out.elements.append(convert(reply->element[i], depth + 1));
            if (!refusal.isEmpty())
                return out;
        }
        return out;
    }
};

// hiredis's own reply functions but for createArray, which refuses a declared length past the
// limit. One table for every reader, made from the first: every reader starts with hiredis's.
class ArrayGuard {
public:
    static const redisReplyObjectFunctions *functionsFrom(const redisReplyObjectFunctions *defaults)
    {
        static const ArrayGuard guard(*defaults);
        return &guard.m_functions;
    }
    static bool guards(const redisReader *reader)
    {
        return reader->fn->createArray == &ArrayGuard::createArray;
    }

private:
    explicit ArrayGuard(const redisReplyObjectFunctions &defaults)
        : m_functions(defaults)
    {
        s_hiredisCreateArray = defaults.createArray;
        m_functions.createArray = &ArrayGuard::createArray;
    }

    static void *createArray(const redisReadTask *task, int elements)
    {
        if (elements < 0 || elements > RedisReply::Limits {}.maxElements)
            return nullptr; // hiredis: "Out of memory"; the reply and the connection fail
        return s_hiredisCreateArray(task, elements);
    }

    redisReplyObjectFunctions m_functions;
    static inline void *(*s_hiredisCreateArray)(const redisReadTask *, int) = nullptr;
};

} // namespace

void RedisReply::refuseHugeArrays(redisReader *reader)
{
    if (!ArrayGuard::guards(reader))
        reader->fn = const_cast<redisReplyObjectFunctions *>(ArrayGuard::functionsFrom(reader->fn));
}

RedisReply RedisReply::fromHiredis(const redisReply *reply, const Limits &limits)
{
    if (!reply)
        return error(kConnectionLost);
    Converter converter { limits, limits.maxElements, {} };
    RedisReply converted = converter.convert(reply, 1);
    return converter.refusal.isEmpty() ? converted : error(converter.refusal);
}

RedisReply RedisReply::error(const QByteArray &message)
{
    RedisReply reply;
    reply.type = Type::Error;
    reply.bytes = message;
    return reply;
}

bool RedisReply::isConnectionError() const
{
    return type == Type::Error
        && (bytes == kConnectionLost || bytes == kNotConnected || bytes == kClosed);
}

std::optional<qint64> RedisReply::toInteger() const
{
    if (type == Type::Integer)
        return integer;
    if (type != Type::String)
        return std::nullopt;
    bool ok = false;
    const qint64 value = bytes.toLongLong(&ok);
    return ok ? std::optional<qint64>(value) : std::nullopt;
}

std::optional<QByteArray> RedisReply::toBytes() const
{
    if (type == Type::String || type == Type::Status)
        return bytes;
    return std::nullopt;
}

QString RedisReply::errorMessage() const
{
    return type == Type::Error ? QString::fromUtf8(bytes) : QString();
}

} // namespace Presence::Server
