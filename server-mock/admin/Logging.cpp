#include "server-mock/admin/Logging.h"

Q_LOGGING_CATEGORY(lcAdmin, "presence.gateway.admin", QtInfoMsg)
