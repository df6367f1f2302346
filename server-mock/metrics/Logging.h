#pragma once

// Qt
#include <QLoggingCategory>

// Metrics: programming errors only (an invalid or duplicate name, a wrong label count).
Q_DECLARE_LOGGING_CATEGORY(lcMetrics)
