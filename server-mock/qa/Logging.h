#pragma once

// Qt
#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcFaults)
Q_DECLARE_LOGGING_CATEGORY(lcScenario)
