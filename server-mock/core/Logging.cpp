#include "server-mock/core/Logging.h"

Q_LOGGING_CATEGORY(lcGateway, "presence.gateway", QtInfoMsg)
Q_LOGGING_CATEGORY(lcConnection, "presence.gateway.connection", QtInfoMsg)
Q_LOGGING_CATEGORY(lcRedis, "presence.gateway.redis", QtInfoMsg)
Q_LOGGING_CATEGORY(lcMetrics, "presence.gateway.metrics", QtInfoMsg)
Q_LOGGING_CATEGORY(lcFaults, "presence.gateway.faults", QtInfoMsg)
Q_LOGGING_CATEGORY(lcScenario, "presence.gateway.scenario", QtInfoMsg)
Q_LOGGING_CATEGORY(lcAdmin, "presence.gateway.admin", QtInfoMsg)
