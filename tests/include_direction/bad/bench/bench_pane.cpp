// A benchmark shares the harness with the tests, not their own helpers.
#include "tests/session/SessionFixture.h"
