#pragma once

#include <QLoggingCategory>

// Turn on with QT_LOGGING_RULES="presence.gateway.debug=true". Tokens are never logged.
Q_DECLARE_LOGGING_CATEGORY(lcGateway)
Q_DECLARE_LOGGING_CATEGORY(lcConnection)
// Redis: connection state at info and above; command arguments (user ids) only at debug.
Q_DECLARE_LOGGING_CATEGORY(lcRedis)
// Metrics: programming errors only (an invalid or duplicate name, a wrong label count).
Q_DECLARE_LOGGING_CATEGORY(lcMetrics)
Q_DECLARE_LOGGING_CATEGORY(lcFaults)
Q_DECLARE_LOGGING_CATEGORY(lcScenario)
// The admin and heartbeat HTTP API: each request and its status at debug, never a token.
Q_DECLARE_LOGGING_CATEGORY(lcAdmin)
