#include "server-mock/metrics/Logging.h"

Q_LOGGING_CATEGORY(lcMetrics, "presence.gateway.metrics", QtInfoMsg)
