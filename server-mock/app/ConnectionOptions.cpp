#include "server-mock/app/ConnectionOptions.h"

// C++
#include <limits>

// Presence
#include "server-mock/app/ServerCommandLine.h"
#include "server-mock/server/GatewayConfig.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

bool ConnectionOptions::read(const ServerCommandLine &line, GatewayConfig &config, QString *error)
{
    constexpr qint64 kDay = ServerCommandLine::kDayMs;
    constexpr qint64 kIntMax = std::numeric_limits<int>::max();
    const auto grace = line.integer(u"grace-ms"_s, 0, kDay, config.grace.count(), error);
    const auto heartbeat
        = line.integer(u"heartbeat-ms"_s, 100, kDay, config.heartbeat.count(), error);
    const auto hello
        = line.integer(u"hello-timeout-ms"_s, 100, kDay, config.helloTimeout.count(), error);
    const auto drain = line.integer(u"drain-ms"_s, 0, kDay, config.drain.count(), error);
    const auto maxSubscriptions
        = line.integer(u"max-subscriptions"_s, 1, 1'000'000, config.maxSubscriptions, error);
    const auto maxIds
        = line.integer(u"max-ids-per-request"_s, 1, 100'000, config.maxIdsPerRequest, error);
    const auto maxAvailability = line.integer(
        u"max-availability-friends"_s, 0, 1'000'000, config.maxAvailabilityFriends, error);
    const auto digestInterval
        = line.integer(u"digest-interval-ms"_s, 0, kDay, config.digestInterval.count(), error);
    const auto availabilityInterval = line.integer(
        u"availability-interval-ms"_s, 10, 60'000, config.availabilityInterval.count(), error);
    const auto maxFrame
        = line.integer(u"max-frame-bytes"_s, 1024, 64 * 1024 * 1024, config.maxFrameBytes, error);
    const auto rate = line.integer(u"rate-limit"_s, 1, kIntMax, config.maxFramesPerSecond, error);
    const auto burst = line.integer(u"rate-burst"_s, 1, kIntMax, config.frameBurst, error);
    if (!grace || !heartbeat || !hello || !drain || !maxSubscriptions || !maxIds || !maxAvailability
        || !digestInterval || !availabilityInterval || !maxFrame || !rate || !burst)
        return false;

    config.chat = !line.isSet(u"no-chat"_s);
    config.grace = std::chrono::milliseconds(*grace);
    config.heartbeat = std::chrono::milliseconds(*heartbeat);
    config.helloTimeout = std::chrono::milliseconds(*hello);
    config.drain = std::chrono::milliseconds(*drain);
    config.maxSubscriptions = int(*maxSubscriptions);
    config.maxIdsPerRequest = int(*maxIds);
    config.maxAvailabilityFriends = int(*maxAvailability);
    config.availabilityInterval = std::chrono::milliseconds(*availabilityInterval);
    config.digestInterval = std::chrono::milliseconds(*digestInterval);
    config.maxFrameBytes = int(*maxFrame);
    config.maxFramesPerSecond = int(*rate);
    config.frameBurst = int(*burst);
    return true;
}

} // namespace Presence::Server
