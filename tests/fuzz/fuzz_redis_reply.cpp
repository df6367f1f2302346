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
            const RedisReply reply
                = RedisReply::fromHiredis(static_cast<const redisReply *>(raw), kLimits);
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
