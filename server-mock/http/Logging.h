#pragma once

// Qt
#include <QLoggingCategory>

// Requests refused before any handler sees them, at debug; never a token.
Q_DECLARE_LOGGING_CATEGORY(lcHttp)
