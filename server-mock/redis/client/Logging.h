#pragma once

// Qt
#include <QLoggingCategory>

// Redis: connection state at info and above; command arguments (user ids) only at debug.
Q_DECLARE_LOGGING_CATEGORY(lcRedis)
