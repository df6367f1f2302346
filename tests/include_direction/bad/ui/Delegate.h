#pragma once

// A widget that reaches into the gateway: the include check must refuse it.
#include "models/Row.h"
#include "server-mock/server/Gateway.h"
