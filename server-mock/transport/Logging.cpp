#include "server-mock/transport/Logging.h"

Q_LOGGING_CATEGORY(lcTransport, "presence.gateway.transport", QtInfoMsg)
