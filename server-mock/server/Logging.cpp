#include "server-mock/server/Logging.h"

Q_LOGGING_CATEGORY(lcGateway, "presence.gateway", QtInfoMsg)
Q_LOGGING_CATEGORY(lcConnection, "presence.gateway.connection", QtInfoMsg)
