#include "server-mock/qa/Logging.h"

Q_LOGGING_CATEGORY(lcFaults, "presence.gateway.faults", QtInfoMsg)
Q_LOGGING_CATEGORY(lcScenario, "presence.gateway.scenario", QtInfoMsg)
