#pragma once
// A helper of the session's tests: theirs alone.
