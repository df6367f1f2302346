#pragma once

// C++
#include <chrono>
#include <optional>

// Presence
#include "server-mock/redis/client/RedisClient.h"

// One Redis command, waited for with the event loop running; nullopt if no reply came within
// timeout. Its context dies with the call, so a reply arriving later cannot write into a stack
// that is gone.
[[nodiscard]] std::optional<Presence::Gateway::RedisReply> redisCall(
    Presence::Gateway::RedisClient &client, const Presence::Gateway::RedisClient::Command &argv,
    std::chrono::milliseconds timeout = std::chrono::seconds(10));
