#pragma once

// A widget that reaches into the gateway, and a shared base of the widgets that reaches up into
// one of their rooms: the include check must refuse both.
#include "models/Row.h"
#include "server-mock/server/Gateway.h"
#include "ui/friends/List.h"
