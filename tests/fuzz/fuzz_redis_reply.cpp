// RedisReply: what a Redis server (or something posing as one) answers, as raw RESP bytes cut
// into reads where the input says, through hiredis's reader as the gateway's connection uses
// it, then copied out under small limits. Properties: a reply within the limits is copied whole;
// one past them becomes the documented error; every copy respects the limits.

// C++
#include <algorithm>
#include <cstddef>
#include <cstdint>
// System
#include <hiredis/hiredis.h>

// Presence
#include "FuzzCheck.h"
#include "server-mock/redis/client/RedisReply.h"

using Presence::Server::RedisReply;

namespace {

constexpr RedisReply::Limits kLimits { .maxDepth = 4, .maxElements = 64 };

// The refusal the limits call for, walking hiredis's reply as the copy does (depth first, an
// array's length counted before its elements): empty when the reply is within them.
QByteArray refusalFor(const redisReply *raw, int depth, qsizetype &budget)
{
    if (raw->type != REDIS_REPLY_ARRAY)
        return {};
    if (raw->elements > 0 && depth >= kLimits.maxDepth)
        return RedisReply::kTooDeep;
    if (raw->elements > size_t(budget))
        return RedisReply::kTooLarge;
    budget -= qsizetype(raw->elements);
    for (size_t i = 0; i < raw->elements; ++i) {
        if (QByteArray refusal = refusalFor(raw->element[i], depth + 1, budget); !refusal.isEmpty())
            return refusal;
    }
    return {};
}

// Whether the copy holds exactly what hiredis read.
bool copiedWhole(const RedisReply &copy, const redisReply *raw)
{
    const QByteArray text(raw->str, raw->str ? qsizetype(raw->len) : 0);
    switch (raw->type) {
    case REDIS_REPLY_NIL:
        return copy.type == RedisReply::Type::Nil;
    case REDIS_REPLY_STATUS:
        return copy.type == RedisReply::Type::Status && copy.bytes == text;
    case REDIS_REPLY_ERROR:
        return copy.type == RedisReply::Type::Error && copy.bytes == text;
    case REDIS_REPLY_STRING:
        return copy.type == RedisReply::Type::String && copy.bytes == text;
    case REDIS_REPLY_INTEGER:
        return copy.type == RedisReply::Type::Integer && copy.integer == raw->integer;
    case REDIS_REPLY_ARRAY:
        if (copy.type != RedisReply::Type::Array || size_t(copy.elements.size()) != raw->elements)
            return false;
        for (size_t i = 0; i < raw->elements; ++i) {
            if (!copiedWhole(copy.elements.at(qsizetype(i)), raw->element[i]))
                return false;
        }
        return true;
    default: // a type this hiredis does not make: an error in its place
        return copy.isError() && copy.bytes.startsWith("unsupported reply type");
    }
}

// Depth (the reply itself is 1) and array elements of a copied reply.
void measure(const RedisReply &reply, int depth, int &deepest, qsizetype &elements)
{
    deepest = std::max(deepest, depth);
    elements += reply.elements.size();
    for (const RedisReply &element : reply.elements)
        measure(element, depth + 1, deepest, elements);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const size_t cut = 1 + data[0] % 17;
    redisReader *reader = redisReaderCreate();
    RedisReply::refuseHugeArrays(reader); // as the gateway's connection does
    bool broken = false;
    for (size_t at = 1; at < size && !broken; at += cut) {
        if (redisReaderFeed(
                reader, reinterpret_cast<const char *>(data + at), std::min(cut, size - at))
            != REDIS_OK)
            break;
        for (;;) {
            void *raw = nullptr;
            if (redisReaderGetReply(reader, &raw) != REDIS_OK) {
                broken = true; // a protocol error: the connection would be dropped
                break;
            }
            if (!raw)
                break;
            const auto *read = static_cast<const redisReply *>(raw);
            const RedisReply reply = RedisReply::fromHiredis(read, kLimits);
            qsizetype budget = kLimits.maxElements;
            const QByteArray refusal = refusalFor(read, 1, budget);
            if (refusal.isEmpty())
                fuzzCheck(copiedWhole(reply, read), "a reply within the limits is copied whole");
            else
                fuzzCheck(reply.isError() && reply.bytes == refusal,
                    "a reply past the limits is the documented error");
            freeReplyObject(raw);
            int deepest = 0;
            qsizetype elements = 0;
            measure(reply, 1, deepest, elements);
            fuzzCheck(deepest <= kLimits.maxDepth, "no copy deeper than the limit");
            fuzzCheck(elements <= kLimits.maxElements, "no copy with more elements than the limit");
        }
    }
    redisReaderFree(reader);
    return 0;
}
