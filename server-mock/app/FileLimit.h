#pragma once

namespace Presence::Server {

// Raises the soft limit on open files to the hard limit (each connection is a file
// descriptor) and returns the limit now in force, or -1 if it cannot be read.
long raiseOpenFileLimit();

} // namespace Presence::Server
