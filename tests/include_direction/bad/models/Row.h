#pragma once

// A model that asks a widget: the include check must refuse it.
#include "ui/FriendDelegate.h"
