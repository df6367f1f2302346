#pragma once

// Qt
#include <QLoggingCategory>

// The admin and heartbeat HTTP API: each request and its status at debug, never a token.
Q_DECLARE_LOGGING_CATEGORY(lcAdmin)
