#include "session/Logging.h"

Q_LOGGING_CATEGORY(lcSession, "presence.session", QtInfoMsg)
