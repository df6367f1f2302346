// A widget's test may include the widget and tests/support, not the session tests' helper.
#include "tests/session/SessionFixture.h"
#include "ui/Pane.h"
