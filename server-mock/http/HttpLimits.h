#pragma once

// C++
#include <chrono>

// Qt
#include <QtGlobal>

namespace Presence::Server {

// What one connection to the admin HTTP server may send (HttpRequestGate enforces it before
// Qt's HTTP server reads anything). Every connection carries exactly one request.
struct HttpLimits {
    // Request line and header fields, blank line included. Large enough for a GET
    // /api/presence naming 500 ids of 64 characters (about 32 KiB of query).
    qsizetype maxHeadBytes = 65'536;
    int maxHeaderFields = 100;
    qsizetype maxBodyBytes = 65'536;
    // Connections open at once, all peers together; more are answered 503 and closed.
    int maxConnections = 100;
    // From the connection being accepted to the whole request having arrived: 408 after it.
    std::chrono::milliseconds requestTimeout { 10'000 };
};

} // namespace Presence::Server
