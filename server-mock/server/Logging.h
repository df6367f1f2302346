#pragma once

// Qt
#include <QLoggingCategory>

// Turn on with QT_LOGGING_RULES="presence.gateway.debug=true". Tokens are never logged.
Q_DECLARE_LOGGING_CATEGORY(lcGateway)
Q_DECLARE_LOGGING_CATEGORY(lcConnection)
