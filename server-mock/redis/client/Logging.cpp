#include "server-mock/redis/client/Logging.h"

Q_LOGGING_CATEGORY(lcRedis, "presence.gateway.redis", QtInfoMsg)
