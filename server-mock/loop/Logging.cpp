#include "server-mock/loop/Logging.h"

Q_LOGGING_CATEGORY(lcLoop, "presence.gateway.loop", QtInfoMsg)
