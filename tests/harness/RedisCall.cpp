#include "tests/harness/RedisCall.h"

// Qt
#include <QObject>

// Presence
#include "tests/harness/EventLoopWait.h"

using Presence::Server::RedisClient;
using Presence::Server::RedisReply;

std::optional<RedisReply> redisCall(
    RedisClient &client, const RedisClient::Command &argv, std::chrono::milliseconds timeout)
{
    QObject context;
    std::optional<RedisReply> reply;
    client.command(argv, &context, [&reply](const RedisReply &answer) { reply = answer; });
    if (!Harness::waitUntil([&reply] { return reply.has_value(); }, timeout))
        return std::nullopt;
    return reply;
}
