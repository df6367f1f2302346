#pragma once

// C++
#include <chrono>
#include <optional>

// Presence
#include "server-mock/redis/client/RedisClient.h"

// One Redis command, waited for with the event loop running; nullopt if no reply came within
// timeout. Its context dies with the call, so a reply arriving later cannot write into a stack
// that is gone.
[[nodiscard]] std::optional<Presence::Server::RedisReply> redisCall(
    Presence::Server::RedisClient &client, const Presence::Server::RedisClient::Command &argv,
    std::chrono::milliseconds timeout = std::chrono::seconds(10));
