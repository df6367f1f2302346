#pragma once

// The friend list reaching into the chat beside it: the include check must refuse it.
#include "ui/Delegate.h"
#include "ui/chat/Pane.h"
