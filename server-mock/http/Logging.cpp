#include "server-mock/http/Logging.h"

Q_LOGGING_CATEGORY(lcHttp, "presence.gateway.http", QtInfoMsg)
