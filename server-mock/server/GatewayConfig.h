#pragma once

// C++
#include <chrono>
#include <memory>

// Qt
#include <QHostAddress>
#include <QStringList>

namespace Presence::Server {

class JwtVerifier;
class TlsContext;

using namespace std::chrono_literals;

// Everything a gateway can be tuned with; defaults are the documented ones.
struct GatewayConfig {
    // Which WebSocket implementation carries the connections: our own on raw sockets
    // (transport/RawWebSocketTransport), or Qt's QWebSocket, kept for comparison.
    enum class Transport { Qt, Own };

    QHostAddress address = QHostAddress::LocalHost;
    quint16 port = 8765;
    std::chrono::milliseconds helloTimeout = 5s;
    std::chrono::milliseconds heartbeat = 25s;
    // Silence allowed beyond one heartbeat before the connection is closed with 4003.
    std::chrono::milliseconds heartbeatSlack = 10s;
    std::chrono::milliseconds grace = 5s;
    int maxFrameBytes = 65536;
    // Output a connection may leave unread before it is dropped as a slow consumer (4010):
    // four of the largest frames and a MiB of pushes. Both transports enforce it.
    [[nodiscard]] qint64 maxQueuedBytes() const
    {
        return 4 * qint64(maxFrameBytes) + (qint64(1) << 20);
    }
    // Chat (message, history, conversations, read) is served; off, the gateway is a
    // presence-only one and answers those frames unknown_type, as one without chat would.
    bool chat = true;
    int maxSubscriptions = 2000;
    int maxIdsPerRequest = 500;
    // Token bucket per connection: sustained frames per second and the burst allowed above it.
    int maxFramesPerSecond = 50;
    int frameBurst = 100;
    // More dropped frames than this within abuseWindow closes the connection with 4029.
    int abuseDropLimit = 100;
    std::chrono::milliseconds abuseWindow = 10s;
    // watch_availability covers at most this many friends per connection (the first ones in
    // friends order), and sends each connection its changes at most once per interval.
    int maxAvailabilityFriends = 5000;
    std::chrono::milliseconds availabilityInterval = 1s;
    // How often every connection is sent a digest of what it should hold (0: never).
    std::chrono::milliseconds digestInterval = 30s;
    // Allowed Origin headers; a handshake without Origin (a native client) is always accepted.
    QStringList allowedOrigins;
    // How long shutdown waits for clients to acknowledge the 1001 close.
    std::chrono::milliseconds shutdownTimeout = 2s;
    // Shutdown closes the signed-in connections evenly over this period, so that their clients
    // reconnect to the other gateways a few at a time, not all at once (0: all at once).
    std::chrono::milliseconds drain = 10s;
    Transport transport = Transport::Own;
    // TCP connections held at once, upgraded or not, in total and from one source address (an
    // IPv6 peer counts by its /64); past either, new ones get HTTP 503. 0: no cap (the
    // descriptor limit still is one). Our own transport only: Qt's, kept for comparison, has
    // none, and a gateway on it with a cap refuses to start.
    int maxConnections = 0;
    int maxConnectionsPerAddress = 0;
    // Our own transport: the upgrade request must be complete within this (slowloris too).
    std::chrono::milliseconds upgradeTimeout = 5s;
    // Signed tokens from the app's auth service, besides the users file's: null for none.
    std::shared_ptr<const JwtVerifier> jwt;
    // How long before a connection's token expires it is told so (token_expiring).
    std::chrono::milliseconds tokenWarning = 60s;
    // wss:// with this certificate and key (own transport); null: ws://. Gateway::setTls()
    // swaps it while running.
    std::shared_ptr<const TlsContext> tls;
};

} // namespace Presence::Server
